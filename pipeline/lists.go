package pipeline

import (
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/ratelist/ratelist/internal/arrowipc"
	"github.com/ratelist/ratelist/internal/csvfield"
)

// listRow is one row of a rating list (interface.md §3, in column order).
type listRow struct {
	Rank        int32  `parquet:"rank,delta"`
	PlayerID    int64  `parquet:"player_id,delta"`
	Name        string `parquet:"name"`
	Rating      int32  `parquet:"rating,delta"`
	Change      *int32 `parquet:"change,optional"`
	GamesPeriod int32  `parquet:"games_period"`
	GamesTotal  int32  `parquet:"games_total,delta"`
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
	return r.submit(func() error { return r.writeList(label, r.listRows(l)) })
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

// listRows sorts a list, highest rating first, then by player_id, and makes its
// rows. It runs in a pool job.
func (r *runner) listRows(l *listData) []listRow {
	place := rankPlaces(l.entries)
	ps := &r.arch.Players
	rows := make([]listRow, len(place))
	changes := make([]int32, len(place))
	for j := range l.entries {
		e, i := &l.entries[j], place[j]
		in := l.infos[e.info]
		rows[i] = listRow{
			Rank: i + 1, PlayerID: ps.ID[e.p], Name: ps.Name[e.p], Rating: e.rating,
			GamesPeriod: e.gamesPeriod, GamesTotal: e.gamesTotal, K: e.k, Category: in.category, Flags: in.flags,
		}
		if e.hasChange {
			changes[i] = e.change
			rows[i].Change = &changes[i]
		}
		if e.isNew {
			rows[i].Flags = joinFlags("new", in.flags)
		}
	}
	return rows
}

// rankPlaces gives each entry its place on the list (0 = first): rating high
// to low, then entry order, which is player_id order. Ratings span a few
// thousand points, so a counting sort by rating (stable) does it in two passes;
// a wider span falls back to sorting packed keys.
func rankPlaces(entries []listEntry) []int32 {
	place := make([]int32, len(entries))
	if len(entries) == 0 {
		return place
	}
	lo, hi := entries[0].rating, entries[0].rating
	for _, e := range entries {
		lo, hi = min(lo, e.rating), max(hi, e.rating)
	}
	if span := int64(hi) - int64(lo); span > int64(len(entries))+1<<16 {
		keys := make([]int64, len(entries))
		for i, e := range entries {
			keys[i] = -int64(e.rating)<<32 | int64(i)
		}
		slices.Sort(keys)
		for i, key := range keys {
			place[key&0xffffffff] = int32(i)
		}
		return place
	}
	next := make([]int32, int(hi-lo)+1) // per rating from hi down: the next free place
	for _, e := range entries {
		next[hi-e.rating]++
	}
	sum := int32(0)
	for i, c := range next {
		next[i], sum = sum, sum+c
	}
	for i, e := range entries {
		place[i] = next[hi-e.rating]
		next[hi-e.rating]++
	}
	return place
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

func (r *runner) writeList(label string, rows []listRow) error {
	o, err := r.stage.create("lists/" + label + ".csv")
	if err != nil {
		return err
	}
	o.WriteString("rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n")
	var b []byte
	for _, row := range rows {
		b = strconv.AppendInt(b[:0], int64(row.Rank), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, row.PlayerID, 10)
		b = append(b, ',')
		b = csvfield.Append(b, row.Name)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.Rating), 10)
		b = append(b, ',')
		if row.Change != nil {
			b = strconv.AppendInt(b, int64(*row.Change), 10)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.GamesPeriod), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.GamesTotal), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.K), 10)
		b = append(b, ',')
		b = csvfield.Append(b, row.Category)
		b = append(b, ',')
		b = csvfield.Append(b, row.Flags)
		b = append(b, '\n')
		o.Write(b)
	}
	if err := o.finish(); err != nil {
		return fmt.Errorf("write list %s: %w", label, err)
	}
	if err := writeParquet(r.stage, "lists/"+label+".parquet", rows); err != nil {
		return err
	}
	if r.opt.Arrow {
		return r.writeListArrow(label, rows)
	}
	return nil
}

// writeListArrow writes lists/LABEL.arrow through the Arrow adapter.
func (r *runner) writeListArrow(label string, rows []listRow) error {
	n := len(rows)
	cols := []arrowipc.Column{
		{Name: "rank", Int32: make([]int32, n)}, {Name: "player_id", Int64: make([]int64, n)},
		{Name: "name", String: make([]string, n)}, {Name: "rating", Int32: make([]int32, n)},
		{Name: "change", Int32: make([]int32, n), Null: make([]bool, n)},
		{Name: "games_period", Int32: make([]int32, n)}, {Name: "games_total", Int32: make([]int32, n)},
		{Name: "k", Int32: make([]int32, n)}, {Name: "category", String: make([]string, n)},
		{Name: "flags", String: make([]string, n)},
	}
	for i, row := range rows {
		cols[0].Int32[i], cols[1].Int64[i], cols[2].String[i], cols[3].Int32[i] = row.Rank, row.PlayerID, row.Name, row.Rating
		if row.Change != nil {
			cols[4].Int32[i] = *row.Change
		} else {
			cols[4].Null[i] = true
		}
		cols[5].Int32[i], cols[6].Int32[i], cols[7].Int32[i] = row.GamesPeriod, row.GamesTotal, row.K
		cols[8].String[i], cols[9].String[i] = row.Category, row.Flags
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
