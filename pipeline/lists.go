package pipeline

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/arrowipc"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

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

// take collects the players on the list of the period just closed and moves
// prevOn, everOn and prevRating on to this list.
func (lt *listTrack) take(st *rating.State, rules rating.RuleSet) *listData {
	nRated := 0 // at most this many are listed
	for _, ok := range st.Rated {
		if ok {
			nRated++
		}
	}
	l := &listData{entries: make([]listEntry, 0, nRated)}
	for i, rated := range st.Rated {
		p := int32(i)
		on := false
		if rated {
			var k int32
			var category, flags string
			on, k, category, flags = rules.ListInfo(st, p)
			if on {
				l.entries = append(l.entries, listEntry{
					p: p, rating: st.Rating[p], change: st.Rating[p] - lt.prevRating[p], gamesPeriod: st.GamesPeriod[p],
					gamesTotal: st.GamesTotal[p], k: k, info: l.infoID(category, flags), hasChange: lt.prevOn[p], isNew: !lt.everOn[p],
				})
				lt.everOn[p], lt.prevRating[p] = true, st.Rating[p]
			}
		}
		lt.prevOn[p] = on
	}
	return l
}

// countListed is how many players take would list.
func countListed(st *rating.State, rules rating.RuleSet) int {
	n := 0
	for i, rated := range st.Rated {
		if rated {
			if on, _, _, _ := rules.ListInfo(st, int32(i)); on {
				n++
			}
		}
	}
	return n
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

// rankOrder sorts a list: the entries' indexes, highest rating first, then in
// entry order, which is player_id order. Ratings span a few thousand points,
// so a counting sort by rating (stable) does it in two passes; a wider span
// falls back to sorting packed keys.
func rankOrder(entries []listEntry) []int32 {
	order := make([]int32, len(entries))
	if len(entries) == 0 {
		return order
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
			order[i] = int32(key & 0xffffffff)
		}
		return order
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
		order[next[hi-e.rating]] = int32(i)
		next[hi-e.rating]++
	}
	return order
}

// listChunk is how many rows of a list are made at a time: a chunk's rows stay
// in the processor's cache while the CSV and Parquet writers read them, and
// the buffers are reused. A multiple of 64, the rows parquet-go takes at a
// time, so that pages end where they would if all rows came at once.
const listChunk = 4096

// listRows makes the rows at places first.. of the list (len(rows) of them),
// with order from rankOrder. changes and dates hold the values Change and
// BirthDate point to, ents is scratch. Entries and players are read in rank
// order, at random places in memory: each kind of read has a loop of its own,
// so that the processor overlaps the cache misses of many rows.
func listRows(ps *archive.Players, rows []output.ListRow, changes, dates []int32, ents []listEntry, l *listData, order []int32, first int) {
	ents = ents[:len(rows)]
	for i := range ents {
		ents[i] = l.entries[order[first+i]]
	}
	for i := range rows {
		rows[i].PlayerID, rows[i].Name = ps.ID[ents[i].p], ps.Name[ents[i].p]
	}
	touchNames(rows, func(r *output.ListRow) string { return r.Name })
	if ps.Info != nil {
		for i := range rows {
			in, row := &ps.Info[ents[i].p], &rows[i]
			row.Federation, row.Sex, row.Title, row.FideID, row.BirthDate = in.Federation, in.Sex, in.Title, in.FideID, nil
			if in.BirthDate != archive.NoDate {
				dates[i] = in.BirthDate
				row.BirthDate = &dates[i]
			}
		}
	}
	for i := range rows {
		e := &ents[i]
		in := l.infos[e.info]
		row := &rows[i]
		row.Rank, row.Rating, row.Change = int32(first+i+1), e.rating, nil
		row.GamesPeriod, row.GamesTotal, row.K, row.Category, row.Flags = e.gamesPeriod, e.gamesTotal, e.k, in.category, in.flags
		if e.hasChange {
			changes[i] = e.change
			row.Change = &changes[i]
		}
		if e.isNew {
			row.Flags = joinFlags("new", in.flags)
		}
	}
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

// listFiles writes one list as CSV and Parquet, a chunk of rows at a time: the
// rating lists and the Joker lists alike.
type listFiles[T any] struct {
	pqRel     string
	csv, pq   *outFile
	w         *parquet.GenericWriter[T]
	line      []byte
	appendCSV func([]byte, []T) []byte
}

// createList creates a list's files and writes the CSV header.
func createList[T any](stage *staging, csvRel, pqRel, header string, schema *parquet.Schema, appendCSV func([]byte, []T) []byte) (*listFiles[T], error) {
	csv, err := stage.create(csvRel)
	if err != nil {
		return nil, err
	}
	pq, err := stage.create(pqRel)
	if err != nil {
		csv.abort()
		return nil, err
	}
	csv.WriteString(header)
	return &listFiles[T]{pqRel: pqRel, csv: csv, pq: pq, w: newParquetWriter[T](pq, schema), appendCSV: appendCSV}, nil
}

// write adds rows; a multiple of 64 rows at a time but for the last, so that
// the Parquet pages end where they would if all rows came at once.
func (lf *listFiles[T]) write(rows []T) error {
	lf.line = lf.appendCSV(lf.line[:0], rows)
	lf.csv.Write(lf.line)
	if _, err := lf.w.Write(rows); err != nil {
		return fmt.Errorf("write %s: %w", lf.pqRel, err)
	}
	return nil
}

// finish completes both files.
func (lf *listFiles[T]) finish() error {
	if err := lf.w.Close(); err != nil {
		return fmt.Errorf("write %s: %w", lf.pqRel, err)
	}
	if err := lf.csv.finish(); err != nil {
		return err
	}
	return lf.pq.finish()
}

// abort closes the files unless finish did (deferred after createList).
func (lf *listFiles[T]) abort() {
	lf.csv.abort()
	lf.pq.abort()
}

// listHeader is the rating list's CSV header: the contract's columns only.
const listHeader = "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n"

// writeList sorts a list and writes it as CSV and Parquet (and Arrow IPC with
// arrow), a chunk of rows at a time. It runs in a pool job.
func writeList(stage *staging, players *archive.Players, label string, l *listData, arrow bool) error {
	order := rankOrder(l.entries)
	lf, err := createList(stage, output.ListCSV.Rel(label), output.ListParquet.Rel(label), listHeader, output.ListSchema, appendListCSV)
	if err != nil {
		return err
	}
	defer lf.abort()
	var arrowCols *listArrow
	if arrow {
		arrowCols = newListArrow(len(order))
	}
	rows, changes, dates, ents := make([]output.ListRow, listChunk), make([]int32, listChunk), make([]int32, listChunk), make([]listEntry, listChunk)
	for first := 0; first < len(order); first += listChunk {
		n := min(listChunk, len(order)-first)
		listRows(players, rows[:n], changes[:n], dates[:n], ents, l, order, first)
		if err := lf.write(rows[:n]); err != nil {
			return err
		}
		if arrowCols != nil {
			arrowCols.add(rows[:n])
		}
	}
	if err := lf.finish(); err != nil {
		return err
	}
	if arrowCols != nil {
		return writeListArrow(stage, label, arrowCols)
	}
	return nil
}

// appendListCSV appends the CSV lines of rows.
func appendListCSV(b []byte, rows []output.ListRow) []byte {
	for _, row := range rows {
		b = csvfield.AppendInt(b, int64(row.Rank))
		b = append(b, ',')
		b = csvfield.AppendInt(b, row.PlayerID)
		b = append(b, ',')
		b = csvfield.Append(b, row.Name)
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.Rating))
		b = append(b, ',')
		if row.Change != nil {
			b = csvfield.AppendInt(b, int64(*row.Change))
		}
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.GamesPeriod))
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.GamesTotal))
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.K))
		b = append(b, ',')
		b = csvfield.Append(b, row.Category)
		b = append(b, ',')
		b = csvfield.Append(b, row.Flags)
		b = append(b, '\n')
	}
	return b
}

// listArrow collects a list's columns for the Arrow adapter.
type listArrow struct{ cols []arrowipc.Column }

func newListArrow(n int) *listArrow {
	return &listArrow{cols: []arrowipc.Column{
		{Name: "rank", Int32: make([]int32, 0, n)}, {Name: "player_id", Int64: make([]int64, 0, n)},
		{Name: "name", String: make([]string, 0, n)}, {Name: "rating", Int32: make([]int32, 0, n)},
		{Name: "change", Int32: make([]int32, 0, n), Null: make([]bool, 0, n)},
		{Name: "games_period", Int32: make([]int32, 0, n)}, {Name: "games_total", Int32: make([]int32, 0, n)},
		{Name: "k", Int32: make([]int32, 0, n)}, {Name: "category", String: make([]string, 0, n)},
		{Name: "flags", String: make([]string, 0, n)},
		{Name: "federation", String: make([]string, 0, n), Null: make([]bool, 0, n)},
		{Name: "sex", String: make([]string, 0, n), Null: make([]bool, 0, n)},
		{Name: "title", String: make([]string, 0, n), Null: make([]bool, 0, n)},
		{Name: "fide_id", Int64: make([]int64, 0, n), Null: make([]bool, 0, n)},
		{Name: "birth_date", Date: make([]int32, 0, n), Null: make([]bool, 0, n)},
	}}
}

func (a *listArrow) add(rows []output.ListRow) {
	c := a.cols
	for _, row := range rows {
		c[0].Int32, c[1].Int64 = append(c[0].Int32, row.Rank), append(c[1].Int64, row.PlayerID)
		c[2].String, c[3].Int32 = append(c[2].String, row.Name), append(c[3].Int32, row.Rating)
		change := int32(0)
		if row.Change != nil {
			change = *row.Change
		}
		c[4].Int32, c[4].Null = append(c[4].Int32, change), append(c[4].Null, row.Change == nil)
		c[5].Int32, c[6].Int32, c[7].Int32 = append(c[5].Int32, row.GamesPeriod), append(c[6].Int32, row.GamesTotal), append(c[7].Int32, row.K)
		c[8].String, c[9].String = append(c[8].String, row.Category), append(c[9].String, row.Flags)
		for j, v := range []string{row.Federation, row.Sex, row.Title} {
			c[10+j].String, c[10+j].Null = append(c[10+j].String, v), append(c[10+j].Null, v == "")
		}
		c[13].Int64, c[13].Null = append(c[13].Int64, row.FideID), append(c[13].Null, row.FideID == 0)
		date := int32(0)
		if row.BirthDate != nil {
			date = *row.BirthDate
		}
		c[14].Date, c[14].Null = append(c[14].Date, date), append(c[14].Null, row.BirthDate == nil)
	}
}

// keptListArrow writes lists/LABEL.arrow from the kept lists/LABEL.parquet of
// an earlier run: a resumed --arrow run after one without --arrow then holds
// what a fresh --arrow run would.
func keptListArrow(stage *staging, out, label string) error {
	p := output.ListParquet.Path(out, label)
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("Arrow list of %s: %w", label, err)
	}
	defer f.Close()
	rd := parquet.NewGenericReader[output.ListRow](f)
	defer rd.Close()
	a := newListArrow(int(rd.NumRows()))
	buf := make([]output.ListRow, listChunk)
	for {
		n, err := rd.Read(buf)
		a.add(buf[:n])
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
	}
	return writeListArrow(stage, label, a)
}

// writeListArrow writes lists/LABEL.arrow through the Arrow adapter.
func writeListArrow(stage *staging, label string, a *listArrow) error {
	p, err := stage.path(output.ListArrow.Rel(label))
	if err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return fmt.Errorf("create %s: %w", p, err)
	}
	if err := arrowipc.Write(f, a.cols); err != nil {
		f.Close()
		return fmt.Errorf("write lists/%s.arrow: %w", label, err)
	}
	return f.Close()
}
