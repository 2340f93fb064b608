package pipeline

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/internal/arrowipc"
	"github.com/ratelist/ratelist/internal/csvfield"
)

// listRow is one row of a rating list (interface.md §3, in column order). It
// gives the Parquet schema; lists are made and written column by column
// (listCols).
type listRow struct {
	Rank        int32  `parquet:"rank"`
	PlayerID    int64  `parquet:"player_id"`
	Name        string `parquet:"name"`
	Rating      int32  `parquet:"rating"`
	Change      *int32 `parquet:"change,optional"`
	GamesPeriod int32  `parquet:"games_period"`
	GamesTotal  int32  `parquet:"games_total"`
	K           int32  `parquet:"k"`
	Category    string `parquet:"category"`
	Flags       string `parquet:"flags"`
}

// emitList closes the current period and moves to the next one. On the
// producer it does only what must happen in order: close the period, take the
// list's players and the state, and move prevOn, everOn and prevRating on. The
// list is sorted and written by a pool job.
func (r *runner) emitList() error {
	key := r.curPeriod
	label := periodLabel(r.opt.Period, key)
	r.curPeriod++
	st := r.st
	first, last := periodBounds(r.opt.Period, key)
	closed := r.rules.ClosePeriod(st, first, last)
	for _, c := range closed {
		if c.PeriodTotal && c.RatedBefore {
			r.sum.GamesRated += int64(c.Games)
		}
	}
	if err := r.addCards(0, last, closed); err != nil {
		return err
	}
	l := r.takeList()
	clear(st.GamesPeriod)
	r.sum.Lists++
	if r.sum.FirstList == "" {
		r.sum.FirstList = label
	}
	r.sum.LastList, r.sum.PlayersListed = label, len(l.entries)
	if r.stage == nil {
		return nil
	}
	snap, err := r.snapshot(key)
	if err != nil {
		return err
	}
	if err := r.submit(func() error { return r.writeState(label, snap) }); err != nil {
		return err
	}
	return r.submit(func() error { return r.writeListCols(label, r.listCols(l)) })
}

// listEntry is one player on a list, as the producer leaves it for the list
// job: the values as of the period's close.
type listEntry struct {
	p, rating, change, gamesPeriod, gamesTotal, k int32
	info                                          int32 // index into listData.infos
	hasChange, isNew                              bool
}

// listInfo is a category and flags pair, as ListInfo gives them; a list has
// only a few distinct ones.
type listInfo struct{ category, flags string }

// listData is a period's list in player order, not yet sorted.
type listData struct {
	entries []listEntry
	infos   []listInfo
}

// takeList collects the players on the list of the period just closed and
// moves prevOn, everOn and prevRating on to this list.
func (r *runner) takeList() *listData {
	st := r.st
	l := &listData{entries: make([]listEntry, 0, r.sum.PlayersListed)}
	for i, rated := range st.Rated {
		p := int32(i)
		on := false
		if rated {
			var k int32
			var category, flags string
			on, k, category, flags = r.rules.ListInfo(st, p)
			if on {
				l.entries = append(l.entries, listEntry{
					p: p, rating: st.Rating[p], change: st.Rating[p] - r.prevRating[p], gamesPeriod: st.GamesPeriod[p],
					gamesTotal: st.GamesTotal[p], k: k, info: l.infoID(category, flags), hasChange: r.prevOn[p], isNew: !r.everOn[p],
				})
				r.everOn[p], r.prevRating[p] = true, st.Rating[p]
			}
		}
		r.prevOn[p] = on
	}
	return l
}

// infoID interns a category and flags pair.
func (l *listData) infoID(category, flags string) int32 {
	for i, in := range l.infos {
		if in.category == category && in.flags == flags {
			return int32(i)
		}
	}
	l.infos = append(l.infos, listInfo{category, flags})
	return int32(len(l.infos) - 1)
}

// listCols is a sorted rating list column by column, one slice per field of
// listRow; csvName holds the names as CSV fields.
type listCols struct {
	rank, rating, change, gamesPeriod, gamesTotal, k []int32
	hasChange                                        []bool
	playerID                                         []int64
	name, csvName, category, flags                   []string
}

func newListCols(n int) *listCols {
	return &listCols{
		rank: make([]int32, n), rating: make([]int32, n), change: make([]int32, n), gamesPeriod: make([]int32, n),
		gamesTotal: make([]int32, n), k: make([]int32, n), hasChange: make([]bool, n), playerID: make([]int64, n),
		name: make([]string, n), csvName: make([]string, n), category: make([]string, n), flags: make([]string, n),
	}
}

// listCols sorts a list, highest rating first, then by player_id, into
// columns. It runs in a pool job.
func (r *runner) listCols(l *listData) *listCols {
	// Sort keys pack the rating and the entry's index in one int64, so the sort
	// moves 8 bytes; entries are in dense order, which is player_id order.
	keys := make([]int64, len(l.entries))
	for i, e := range l.entries {
		keys[i] = int64(-e.rating)<<32 | int64(i)
	}
	slices.Sort(keys)
	// Each entry's place on the list, so that the columns are filled in entry
	// order: the registry's columns are then read in order, not at random.
	place := make([]int32, len(keys))
	for i, key := range keys {
		place[key&0xffffffff] = int32(i)
	}
	ps, csvNames := &r.arch.Players, r.playerCSVNames()
	c := newListCols(len(keys))
	for j := range l.entries {
		e, i := &l.entries[j], place[j]
		in := l.infos[e.info]
		c.rank[i], c.rating[i], c.change[i], c.hasChange[i] = i+1, e.rating, e.change, e.hasChange
		c.gamesPeriod[i], c.gamesTotal[i], c.k[i] = e.gamesPeriod, e.gamesTotal, e.k
		c.playerID[i], c.name[i], c.csvName[i] = ps.ID[e.p], ps.Name[e.p], csvNames[e.p]
		c.category[i], c.flags[i] = in.category, in.flags
		if e.isNew {
			c.flags[i] = joinFlags("new", in.flags)
		}
	}
	return c
}

// csvNames holds every player's name as a CSV field, escaped on first use:
// names never change, and lists repeat them period after period.
type csvNames struct {
	once  sync.Once
	names []string
}

// playerCSVNames returns the players' names as CSV fields, by dense index.
func (r *runner) playerCSVNames() []string {
	c := &r.csvNames
	c.once.Do(func() {
		names := r.arch.Players.Name
		c.names = make([]string, len(names))
		var b []byte
		for p, s := range names {
			if b = csvfield.Append(b[:0], s); len(b) == len(s) { // not quoted
				c.names[p] = s
			} else {
				c.names[p] = string(b)
			}
		}
	})
	return c.names
}

// joinFlags joins list flags with a space, skipping empty ones.
func joinFlags(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// writeListCols writes lists/LABEL.csv and .parquet (and .arrow with --arrow).
func (r *runner) writeListCols(label string, c *listCols) error {
	if err := r.writeListCSV(label, c); err != nil {
		return err
	}
	if err := r.writeListParquet(label, c); err != nil {
		return err
	}
	if r.opt.Arrow {
		return r.writeListArrow(label, c)
	}
	return nil
}

func (r *runner) writeListCSV(label string, c *listCols) error {
	o, err := r.stage.create("lists/" + label + ".csv")
	if err != nil {
		return err
	}
	o.WriteString("rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n")
	var b []byte
	for i := range c.rank {
		b = strconv.AppendInt(b[:0], int64(c.rank[i]), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, c.playerID[i], 10)
		b = append(b, ',')
		b = append(b, c.csvName[i]...)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(c.rating[i]), 10)
		b = append(b, ',')
		if c.hasChange[i] {
			b = strconv.AppendInt(b, int64(c.change[i]), 10)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(c.gamesPeriod[i]), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(c.gamesTotal[i]), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(c.k[i]), 10)
		b = append(b, ',')
		b = csvfield.Append(b, c.category[i])
		b = append(b, ',')
		b = csvfield.Append(b, c.flags[i])
		b = append(b, '\n')
		o.Write(b)
	}
	if err := o.finish(); err != nil {
		return fmt.Errorf("write list %s: %w", label, err)
	}
	return nil
}

// writeListParquet writes the list through the column writers of a
// GenericWriter[listRow] (writeColumn): the file GenericWriter.Write would
// write from the same rows, byte for byte.
func (r *runner) writeListParquet(label string, c *listCols) error {
	rel := "lists/" + label + ".parquet"
	o, err := r.stage.create(rel)
	if err != nil {
		return err
	}
	w := parquet.NewGenericWriter[listRow](o, parquet.Compression(outputCodec))
	cw := w.ColumnWriters()
	err = errors.Join(
		writeColumn(cw, 0, c.rank, nil), writeColumn(cw, 1, c.playerID, nil), writeColumn(cw, 2, c.name, nil),
		writeColumn(cw, 3, c.rating, nil), writeColumn(cw, 4, c.change, c.hasChange), writeColumn(cw, 5, c.gamesPeriod, nil),
		writeColumn(cw, 6, c.gamesTotal, nil), writeColumn(cw, 7, c.k, nil), writeColumn(cw, 8, c.category, nil),
		writeColumn(cw, 9, c.flags, nil),
	)
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		o.f.Close()
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return o.finish()
}

// writeListArrow writes lists/LABEL.arrow through the Arrow adapter.
func (r *runner) writeListArrow(label string, c *listCols) error {
	null := make([]bool, len(c.hasChange))
	for i, set := range c.hasChange {
		null[i] = !set
	}
	cols := []arrowipc.Column{
		{Name: "rank", Int32: c.rank}, {Name: "player_id", Int64: c.playerID}, {Name: "name", String: c.name},
		{Name: "rating", Int32: c.rating}, {Name: "change", Int32: c.change, Null: null},
		{Name: "games_period", Int32: c.gamesPeriod}, {Name: "games_total", Int32: c.gamesTotal},
		{Name: "k", Int32: c.k}, {Name: "category", String: c.category}, {Name: "flags", String: c.flags},
	}
	p, err := r.stage.path("lists/" + label + ".arrow")
	if err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return fmt.Errorf("create %s: %w", p, err)
	}
	if err := arrowipc.Write(f, cols); err != nil {
		f.Close()
		return fmt.Errorf("write lists/%s.arrow: %w", label, err)
	}
	return f.Close()
}
