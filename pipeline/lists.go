package pipeline

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/arrowipc"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/internal/pqwrite"
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
	add     *listAdded
	vals    []rating.Value   // with add: entry i's values are vals[i*len(add.cols):]
	keys    []int32          // with add.rank: what the entries are ranked by
	names   []csvfield.Shape // per player: the name's CSV shape (listNames); shared by every list, read-only
	free    chan<- *listData // where release hands the list's buffers back to take (nil: nowhere)
}

// listsRecycled is how many written lists' buffers wait for take to reuse
// them: a list's buffers are tens of megabytes, and fresh ones cost page
// faults and zeroing every period.
const listsRecycled = 2

// release hands l's buffers back to the take that made it, once its list is
// written; l is not used after.
func (l *listData) release() {
	if l.free == nil {
		return
	}
	select {
	case l.free <- l:
	default:
	}
}

// newList returns an empty list with room for n entries (and their values
// and keys with add), reusing a released list's buffers when there is one.
func (lt *listTrack) newList(n int) *listData {
	old := &listData{}
	select {
	case old = <-lt.free:
	default:
	}
	clear(old.infos) // drop the strings they point to
	l := &listData{entries: slices.Grow(old.entries[:0], n), infos: old.infos[:0], add: lt.add, free: lt.free}
	if add := lt.add; add != nil && len(add.cols) > 0 { // room for every listed player's values: no regrowing
		if slices.ContainsFunc(add.cols, func(c rating.Column) bool { return c.Type == rating.String }) {
			clear(old.vals) // drop the strings they point to
		}
		l.vals = slices.Grow(old.vals[:0], n*len(add.cols))
		if add.rank >= 0 {
			l.keys = slices.Grow(old.keys[:0], n)
		}
	}
	return l
}

// listAdded is what a rule set adds to its lists (rating.Columns.List), or
// takes from them (rating.Columns.NoK).
type listAdded struct {
	ex    rating.Extras
	cols  []rating.Column
	shape *output.Shape
	rank  int     // the RankBy column, -1: the list is ranked by rating
	scale float64 // 10^decimals of the RankBy column: its printed values are whole numbers
	noK   bool    // k is empty (null)
}

// newListAdded is what def's lists add, nil for nothing.
func newListAdded(def *rating.Definition, rules rating.RuleSet) *listAdded {
	cols, noK := def.Columns.List, def.Columns.NoK
	if len(cols) == 0 && !noK {
		return nil
	}
	ex, _ := rules.(rating.Extras) // a rule set with list columns implements it
	a := &listAdded{ex: ex, cols: cols, shape: output.ListShape(cols, noK), rank: -1, noK: noK}
	for i, c := range cols {
		if c.Name == def.Columns.RankBy {
			a.rank, a.scale = i, math.Pow10(c.Decimals)
		}
	}
	return a
}

// take collects the players on the list of the period just closed and moves
// prevOn, everOn and prevRating on to this list.
func (lt *listTrack) take(st *rating.State, rules rating.RuleSet) *listData {
	add := lt.add
	nRated := 0 // at most this many are listed
	for _, ok := range st.Rated {
		if ok {
			nRated++
		}
	}
	l := lt.newList(nRated)
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
				if add != nil && len(add.cols) > 0 {
					l.addValues(st, p)
				}
			}
		}
		lt.prevOn[p] = on
	}
	return l
}

// addValues adds the rule set's values of the list's last entry, player p.
func (l *listData) addValues(st *rating.State, p int32) {
	k := len(l.add.cols)
	row := extend(&l.vals, k)
	l.add.ex.ListValues(st, p, row)
	if l.add.rank >= 0 {
		l.keys = append(l.keys, int32(math.Round(row[l.add.rank].Float*l.add.scale)))
	}
}

// addRow adds row, the values of add's columns, for the list's last entry.
func (l *listData) addRow(add *listAdded, row []rating.Value) {
	l.vals = append(l.vals, row...)
	if add.rank >= 0 {
		l.keys = append(l.keys, int32(math.Round(row[add.rank].Float*add.scale)))
	}
}

// rankKeys is what the list is ranked by: the rule set's RankBy column as
// printed, or the rating.
func (l *listData) rankKeys() []int32 {
	if l.keys != nil {
		return l.keys
	}
	keys := make([]int32, len(l.entries))
	for i := range l.entries {
		keys[i] = l.entries[i].rating
	}
	return keys
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

// rankOrder sorts a list: the entries' indexes, highest key first (keys
// from rankKeys), then in entry order, which is player_id order. Ratings span
// a few thousand points, so a counting sort by key (stable) does it in two
// passes; a wider span falls back to sorting packed keys.
func rankOrder(keys []int32) []int32 {
	order := make([]int32, len(keys))
	if len(keys) == 0 {
		return order
	}
	lo, hi := keys[0], keys[0]
	for _, k := range keys {
		lo, hi = min(lo, k), max(hi, k)
	}
	if span := int64(hi) - int64(lo); span > int64(len(keys))+1<<16 {
		packed := make([]int64, len(keys))
		for i, k := range keys {
			packed[i] = -int64(k)<<32 | int64(i)
		}
		slices.Sort(packed)
		for i, key := range packed {
			order[i] = int32(key & 0xffffffff)
		}
		return order
	}
	next := make([]int32, int(hi-lo)+1) // per key from hi down: the next free place
	for _, k := range keys {
		next[hi-k]++
	}
	sum := int32(0)
	for i, c := range next {
		next[i], sum = sum, sum+c
	}
	for i, k := range keys {
		order[next[hi-k]] = int32(i)
		next[hi-k]++
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
// rating lists with and without a rule set's own columns.
type listFiles struct {
	pqRel   string
	csv, pq *outFile
	w       *pqwrite.Writer
	cols    listColumns
	line    []byte // a chunk's CSV lines, reused
}

// createList creates a list's files and writes the CSV header.
func createList(stage *staging, csvRel, pqRel, header string, schema *parquet.Schema) (*listFiles, error) {
	csv, err := stage.create(csvRel)
	if err != nil {
		return nil, err
	}
	pq, err := stage.create(pqRel)
	if err != nil {
		csv.abort()
		return nil, err
	}
	w, err := newColumnWriter(pq, schema)
	if err != nil {
		csv.abort()
		pq.abort()
		return nil, err
	}
	csv.WriteString(header)
	return &listFiles{pqRel: pqRel, csv: csv, pq: pq, w: w}, nil
}

// write adds rows whose CSV lines are lf.line; vals are the rows' values of
// add's columns (len(add.cols) per row), add nil for a list without any.
func (lf *listFiles) write(rows []output.ListRow, add *listAdded, vals []rating.Value) error {
	lf.csv.Write(lf.line)
	if err := lf.cols.write(lf.w, add, rows, vals); err != nil {
		return fmt.Errorf("write %s: %w", lf.pqRel, err)
	}
	return nil
}

// finish completes both files.
func (lf *listFiles) finish() error {
	if err := lf.w.Close(); err != nil {
		return fmt.Errorf("write %s: %w", lf.pqRel, err)
	}
	if err := lf.csv.finish(); err != nil {
		return err
	}
	return lf.pq.finish()
}

// abort closes the files unless finish did (deferred after createList).
func (lf *listFiles) abort() {
	lf.csv.abort()
	lf.pq.abort()
}

// listHeader is the rating list's CSV header: the contract's columns only.
const listHeader = "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n"

// writeList sorts a list and writes it as CSV and Parquet (and Arrow IPC with
// arrow), a chunk of rows at a time. It runs in a pool job.
func writeList(stage *staging, players *archive.Players, label string, l *listData, arrow bool) error {
	order := rankOrder(l.rankKeys())
	if l.add != nil {
		return writeListAdded(stage, players, label, l, order, arrow)
	}
	var names []csvfield.Shape // the CSV shapes of the chunk's rows' names
	lf, err := createList(stage, output.ListCSV.Rel(label), output.ListParquet.Rel(label), listHeader, output.ListSchema)
	if err != nil {
		return err
	}
	defer lf.abort()
	var arrowCols *listArrow
	if arrow {
		arrowCols = newListArrow(len(order), nil, false)
	}
	c := min(listChunk, len(order)) // a chunk's room: no more than the list
	rows, changes, dates, ents := make([]output.ListRow, c), make([]int32, c), make([]int32, c), make([]listEntry, c)
	for first := 0; first < len(order); first += listChunk {
		n := min(listChunk, len(order)-first)
		listRows(players, rows[:n], changes[:n], dates[:n], ents, l, order, first)
		names = rowNames(names, l.names, ents[:n])
		lf.line = appendListCSVShaped(lf.line[:0], rows[:n], names)
		if err := lf.write(rows[:n], nil, nil); err != nil {
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

// writeListAdded is writeList for a list with the rule set's own columns
// after flags: its Parquet rows are of the list's Shape.
func writeListAdded(stage *staging, players *archive.Players, label string, l *listData, order []int32, arrow bool) error {
	add := l.add
	k := len(add.cols)
	header := listHeader[:len(listHeader)-1]
	for _, c := range add.cols {
		header += "," + c.Name
	}
	lf, err := createList(stage, output.ListCSV.Rel(label), output.ListParquet.Rel(label), header+"\n", add.shape.Schema)
	if err != nil {
		return err
	}
	defer lf.abort()
	var arrowCols *listArrow
	if arrow {
		arrowCols = newListArrow(len(order), add.cols, add.noK)
	}
	c := min(listChunk, len(order)) // a chunk's room: no more than the list
	rows, changes, dates, ents := make([]output.ListRow, c), make([]int32, c), make([]int32, c), make([]listEntry, c)
	vals := make([]rating.Value, c*k)
	var names []csvfield.Shape // the CSV shapes of the chunk's rows' names
	for first := 0; first < len(order); first += listChunk {
		n := min(listChunk, len(order)-first)
		listRows(players, rows[:n], changes[:n], dates[:n], ents, l, order, first)
		gatherValues(vals[:n*k], l.vals, add.cols, order[first:first+n])
		names = rowNames(names, l.names, ents[:n])
		lf.line = appendListCSVAdded(lf.line[:0], rows[:n], names, vals[:n*k], add)
		if err := lf.write(rows[:n], add, vals[:n*k]); err != nil {
			return err
		}
		if arrowCols != nil {
			arrowCols.add(rows[:n])
			arrowCols.addValues(vals[:n*k], add.cols)
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

// gatherValues sets vals, len(cols) per row, to the values of entries ix of
// all (len(cols) per entry): only the field each column's type uses, so that
// a Float64 column moves 8 bytes rather than a Value, and no write barrier.
func gatherValues(vals, all []rating.Value, cols []rating.Column, ix []int32) {
	k := len(cols)
	for i, e := range ix {
		dst, src := vals[i*k:(i+1)*k], all[int(e)*k:(int(e)+1)*k]
		for j := range cols {
			switch cols[j].Type {
			case rating.Float64:
				dst[j].Float = src[j].Float
			case rating.Int64:
				dst[j].Int = src[j].Int
			default:
				dst[j].Str = src[j].Str
			}
		}
	}
}

// listColumns writes a chunk of a list's rows column by column. Its slices
// are scratch, reused from chunk to chunk.
type listColumns struct {
	i32 []int32
	i64 []int64
	str []string
	f64 []float64
	set []bool
	def []byte
}

// write writes rows, with vals[i*len(add.cols):] the added values of row i,
// to w, a file of add's shape (add nil: output.ListSchema's).
func (lc *listColumns) write(w *pqwrite.Writer, add *listAdded, rows []output.ListRow, vals []rating.Value) error {
	schema, cols, noK := output.ListSchema, []rating.Column(nil), false
	if add != nil {
		schema, cols, noK = add.shape.Schema, add.cols, add.noK
	}
	n, k := len(rows), len(cols)
	lc.set = resize(lc.set, n)
	col := func(name string) *pqwrite.Column { return w.Column(schemaLeaf(schema, name).ColumnIndex) }
	i32 := func(name string, set bool, get func(*output.ListRow) (int32, bool)) error {
		lc.i32 = resize(lc.i32, n)
		for i := range rows {
			lc.i32[i], lc.set[i] = get(&rows[i])
		}
		return writeValues(col(name), lc.i32, optionalSet(set, lc.set), &lc.def)
	}
	i64 := func(name string, set bool, get func(*output.ListRow) (int64, bool)) error {
		lc.i64 = resize(lc.i64, n)
		for i := range rows {
			lc.i64[i], lc.set[i] = get(&rows[i])
		}
		return writeValues(col(name), lc.i64, optionalSet(set, lc.set), &lc.def)
	}
	str := func(name string, set bool, get func(*output.ListRow) string) error {
		lc.str = resize(lc.str, n)
		for i := range rows {
			lc.str[i] = get(&rows[i])
			lc.set[i] = lc.str[i] != ""
		}
		return writeValues(col(name), lc.str, optionalSet(set, lc.set), &lc.def)
	}
	ptr := func(p *int32) (int32, bool) {
		if p == nil {
			return 0, false
		}
		return *p, true
	}
	err := errors.Join(
		i32("rank", false, func(r *output.ListRow) (int32, bool) { return r.Rank, true }),
		i64("player_id", false, func(r *output.ListRow) (int64, bool) { return r.PlayerID, true }),
		str("name", false, func(r *output.ListRow) string { return r.Name }),
		i32("rating", false, func(r *output.ListRow) (int32, bool) { return r.Rating, true }),
		i32("change", true, func(r *output.ListRow) (int32, bool) { return ptr(r.Change) }),
		i32("games_period", false, func(r *output.ListRow) (int32, bool) { return r.GamesPeriod, true }),
		i32("games_total", false, func(r *output.ListRow) (int32, bool) { return r.GamesTotal, true }),
		i32("k", noK, func(r *output.ListRow) (int32, bool) { return r.K, !noK }),
		str("category", false, func(r *output.ListRow) string { return r.Category }),
		str("flags", false, func(r *output.ListRow) string { return r.Flags }),
		str("federation", true, func(r *output.ListRow) string { return r.Federation }),
		str("sex", true, func(r *output.ListRow) string { return r.Sex }),
		str("title", true, func(r *output.ListRow) string { return r.Title }),
		i64("fide_id", true, func(r *output.ListRow) (int64, bool) { return r.FideID, r.FideID != 0 }),
		i32("birth_date", true, func(r *output.ListRow) (int32, bool) { return ptr(r.BirthDate) }),
	)
	if err != nil {
		return err
	}
	for j, c := range cols {
		var err error
		switch c.Type {
		case rating.Int64:
			lc.i64 = resize(lc.i64, n)
			for i := range n {
				lc.i64[i] = vals[i*k+j].Int
			}
			err = col(c.Name).Int64(lc.i64, nil, nil)
		case rating.Float64:
			lc.f64 = resize(lc.f64, n)
			for i := range n {
				lc.f64[i] = vals[i*k+j].Float
			}
			err = col(c.Name).Double(lc.f64, nil, nil)
		default:
			lc.str = resize(lc.str, n)
			for i := range n {
				lc.str[i] = vals[i*k+j].Str
			}
			err = col(c.Name).String(lc.str, nil, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// optionalSet is set for an optional column (which rows have a value), nil
// for a required one.
func optionalSet(optional bool, set []bool) []bool {
	if optional {
		return set
	}
	return nil
}

// appendListCSVAdded appends the CSV lines of rows, row i's name of shape
// names[i], each with its values vals[i*len(add.cols):] of the columns
// add.cols after flags.
func appendListCSVAdded(b []byte, rows []output.ListRow, names []csvfield.Shape, vals []rating.Value, add *listAdded) []byte {
	cols := add.cols
	k := len(cols)
	for i := range rows {
		b = appendListLine(b, &rows[i], add.noK, names[i])
		for j, v := range vals[i*k : (i+1)*k] {
			b = append(b, ',')
			b = appendValue(b, &cols[j], v)
		}
		b = append(b, '\n')
	}
	return b
}

// appendValue appends a declared column's value as the CSV prints it.
func appendValue(b []byte, c *rating.Column, v rating.Value) []byte {
	switch c.Type {
	case rating.Int64:
		return csvfield.AppendInt(b, v.Int)
	case rating.Float64:
		if c.Decimals > 0 {
			return appendFixed(b, v.Float, c.Decimals)
		}
		return strconv.AppendFloat(b, v.Float, 'f', -1, 64)
	}
	return csvfield.Append(b, v.Str)
}

// pow10 are the powers of ten a column's decimals take (rating.Column: at most 15).
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// appendFixed appends x with d decimals (1 to 15) exactly as
// strconv.AppendFloat(b, x, 'f', d, 64) does, from the whole number of units
// when x is already rounded to d decimals, as a rule set hands its values
// on: x is then the float64 nearest to n/10^d, whose printing at d decimals
// is n's digits.
func appendFixed(b []byte, x float64, d int) []byte {
	scale := pow10[d]
	n := math.Round(x * scale)
	if !(math.Abs(n) < 1<<50) || n/scale != x {
		return strconv.AppendFloat(b, x, 'f', d, 64)
	}
	if math.Signbit(x) {
		b = append(b, '-')
	}
	u, unit := uint64(math.Abs(n)), uint64(scale)
	b = csvfield.AppendInt(b, int64(u/unit))
	b = append(b, '.')
	return csvfield.AppendDigits(b, u%unit, d)
}

// appendListCSV appends the CSV lines of rows.
func appendListCSV(b []byte, rows []output.ListRow) []byte { return appendListCSVShaped(b, rows, nil) }

// rowNames returns, in buf, the CSV shape of each entry's name (byPlayer from
// listNames; csvfield.Other for all without it).
func rowNames(buf, byPlayer []csvfield.Shape, ents []listEntry) []csvfield.Shape {
	buf = resize(buf, len(ents))
	for i := range ents {
		buf[i] = csvfield.Other
		if byPlayer != nil {
			buf[i] = byPlayer[ents[i].p]
		}
	}
	return buf
}

// listNames is the CSV shape of every player's name: looked at once per run
// rather than once per list a player is on.
func listNames(ps *archive.Players) []csvfield.Shape {
	shapes := make([]csvfield.Shape, len(ps.Name))
	for i, name := range ps.Name {
		shapes[i] = csvfield.ShapeOf(name)
	}
	return shapes
}

// appendListCSVShaped appends the CSV lines of rows, row i's name of shape
// names[i] (names may be nil).
func appendListCSVShaped(b []byte, rows []output.ListRow, names []csvfield.Shape) []byte {
	for i := range rows {
		name := csvfield.Other
		if names != nil {
			name = names[i]
		}
		b = appendListLine(b, &rows[i], false, name)
		b = append(b, '\n')
	}
	return b
}

// appendListLine appends row's contract columns, without the line's end;
// with noK its k is empty; the name is of shape name (csvfield.Other: any).
func appendListLine(b []byte, row *output.ListRow, noK bool, name csvfield.Shape) []byte {
	b = csvfield.AppendInt(b, int64(row.Rank))
	b = append(b, ',')
	b = csvfield.AppendInt(b, row.PlayerID)
	b = append(b, ',')
	b = csvfield.AppendShaped(b, row.Name, name)
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
	if !noK {
		b = csvfield.AppendInt(b, int64(row.K))
	}
	b = append(b, ',')
	b = csvfield.Append(b, row.Category)
	b = append(b, ',')
	b = csvfield.Append(b, row.Flags)
	return b
}

// listArrow collects a list's columns for the Arrow adapter.
type listArrow struct {
	cols  []arrowipc.Column
	added int // the rule set's columns, after flags
}

// newListArrow is the columns of a list of n rows with the rule set's added
// columns; with noK its k is null.
func newListArrow(n int, added []rating.Column, noK bool) *listArrow {
	a := &listArrow{cols: []arrowipc.Column{
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
	// The rule set's own columns, after flags as in the other files.
	ac := make([]arrowipc.Column, len(added))
	for i, c := range added {
		ac[i].Name = c.Name
		switch c.Type {
		case rating.Int64:
			ac[i].Int64 = make([]int64, 0, n)
		case rating.Float64:
			ac[i].Float64 = make([]float64, 0, n)
		default:
			ac[i].String = make([]string, 0, n)
		}
	}
	if noK {
		a.cols[listKColumn].Null = make([]bool, 0, n)
	}
	a.cols, a.added = slices.Insert(a.cols, listFlagsColumn+1, ac...), len(ac)
	return a
}

// listKColumn and listFlagsColumn are the k and flags columns' indexes in a
// list's Arrow columns.
const listKColumn, listFlagsColumn = 7, 9

// addValues adds the rule set's values of the rows add took last: vals[i*len(cols):].
func (a *listArrow) addValues(vals []rating.Value, cols []rating.Column) {
	for j, c := range cols {
		col := &a.cols[listFlagsColumn+1+j]
		for i := j; i < len(vals); i += len(cols) {
			switch c.Type {
			case rating.Int64:
				col.Int64 = append(col.Int64, vals[i].Int)
			case rating.Float64:
				col.Float64 = append(col.Float64, vals[i].Float)
			default:
				col.String = append(col.String, vals[i].Str)
			}
		}
	}
}

func (a *listArrow) add(rows []output.ListRow) {
	c, in := a.cols, a.cols[listFlagsColumn+1+a.added:] // the contract's columns, the registry's
	for _, row := range rows {
		c[0].Int32, c[1].Int64 = append(c[0].Int32, row.Rank), append(c[1].Int64, row.PlayerID)
		c[2].String, c[3].Int32 = append(c[2].String, row.Name), append(c[3].Int32, row.Rating)
		change := int32(0)
		if row.Change != nil {
			change = *row.Change
		}
		c[4].Int32, c[4].Null = append(c[4].Int32, change), append(c[4].Null, row.Change == nil)
		c[5].Int32, c[6].Int32, c[7].Int32 = append(c[5].Int32, row.GamesPeriod), append(c[6].Int32, row.GamesTotal), append(c[7].Int32, row.K)
		if c[listKColumn].Null != nil { // a list without K: k is null
			c[listKColumn].Null = append(c[listKColumn].Null, true)
		}
		c[8].String, c[9].String = append(c[8].String, row.Category), append(c[9].String, row.Flags)
		for j, v := range []string{row.Federation, row.Sex, row.Title} {
			in[j].String, in[j].Null = append(in[j].String, v), append(in[j].Null, v == "")
		}
		in[3].Int64, in[3].Null = append(in[3].Int64, row.FideID), append(in[3].Null, row.FideID == 0)
		date := int32(0)
		if row.BirthDate != nil {
			date = *row.BirthDate
		}
		in[4].Date, in[4].Null = append(in[4].Date, date), append(in[4].Null, row.BirthDate == nil)
	}
}

// keptListArrow writes lists/LABEL.arrow from the kept lists/LABEL.parquet of
// an earlier run, with the rule set's own columns (add, nil for none): a
// resumed --arrow run after one without --arrow then holds what a fresh
// --arrow run would.
func keptListArrow(stage *staging, out, label string, add *listAdded) error {
	p := output.ListParquet.Path(out, label)
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("Arrow list of %s: %w", label, err)
	}
	defer f.Close()
	rd := output.NewReader[output.ListRow](f)
	defer rd.Close()
	var cols []rating.Column
	var added *output.AddedReader
	noK := false
	if add != nil {
		cols, noK = add.cols, add.noK
	}
	if len(cols) > 0 {
		added = add.shape.AddedReader(f)
		defer added.Close()
	}
	a := newListArrow(int(rd.NumRows()), cols, noK)
	buf := rd.Block(listChunk)
	vals := make([]rating.Value, len(buf)*len(cols))
	for {
		n, err := rd.Read(buf)
		a.add(buf[:n])
		if added != nil {
			for i := range n {
				if err := added.Read(vals[i*len(cols) : (i+1)*len(cols)]); err != nil {
					return fmt.Errorf("read %s: %w", p, err)
				}
			}
			a.addValues(vals[:n*len(cols)], cols)
		}
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
