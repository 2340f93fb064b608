package pipeline

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/arrowipc"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/internal/freelist"
	"github.com/ratelist/ratelist/internal/pqwrite"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// listEntry is one player on a list, as the producer leaves it for the list
// job: the values as of the period's close, and the player's listPlayer and
// name shape, so that the writer, which reads the entries in rank order at
// random places, finds all of a row in one place (48 bytes, no pointers).
type listEntry struct {
	listPlayer
	p, rating, change, gamesPeriod, gamesTotal, k int32
	info                                          int32 // index into listData.infos
	shape                                         csvfield.Shape
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
	added   listValues       // with add: the entries' values of its columns, row by row
	row     []rating.Value   // scratch: one entry's values, as the rule set gives them
	keys    []int32          // what the entries are ranked by (rankKeys); with add.rank, the rule set's
	order   []int32          // rankOrder's
	names   string           // listPlayers.names, which the entries' names are in
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
	l := &listData{entries: slices.Grow(old.entries[:0], n), infos: old.infos[:0], add: lt.add, free: lt.free,
		keys: slices.Grow(old.keys[:0], n), order: old.order}
	if add := lt.add; add != nil && len(add.cols) > 0 { // room for every listed player's values: no regrowing
		l.added, l.row = old.added, resize(old.row, len(add.cols))
		l.added.reset(add, n)
	}
	return l
}

// listValues is values of a rule set's list columns, a slice per type (not
// a rating.Value each, so that a Float64 column moves 8 bytes a value): in a
// list (listData.added), row by row, entry i's values of a type's columns
// side by side, read at once when gathered in rank order; in a chunk
// (listCols.added), column by column, as the writers take them. A column's
// place among those of its type is listAdded.slot.
type listValues struct {
	f64 []float64
	i64 []int64
	str []string
}

// reset empties v, with room for n rows of add's columns.
func (v *listValues) reset(add *listAdded, n int) {
	clear(v.str) // drop the strings they point to
	v.f64 = slices.Grow(v.f64[:0], n*add.types[rating.Float64])
	v.i64 = slices.Grow(v.i64[:0], n*add.types[rating.Int64])
	v.str = slices.Grow(v.str[:0], n*add.types[rating.String])
}

// addRow appends row, a value of each of add's columns (row by row).
func (v *listValues) addRow(add *listAdded, row []rating.Value) {
	for j := range add.cols {
		switch x := &row[j]; add.cols[j].Type {
		case rating.Float64:
			v.f64 = append(v.f64, x.Float)
		case rating.Int64:
			v.i64 = append(v.i64, x.Int)
		default:
			v.str = append(v.str, x.Str)
		}
	}
}

// gather sets v to rows ix of from (row by row), column by column.
func (v *listValues) gather(add *listAdded, from *listValues, ix []int32) {
	v.f64 = transpose(v.f64, from.f64, add.types[rating.Float64], ix)
	v.i64 = transpose(v.i64, from.i64, add.types[rating.Int64], ix)
	v.str = transpose(v.str, from.str, add.types[rating.String], ix)
}

// transpose returns, in buf, rows ix of all (k values a row), column by
// column: row i's value s at s*len(ix)+i.
func transpose[T any](buf, all []T, k int, ix []int32) []T {
	n := len(ix)
	buf = resize(buf, k*n)
	if k == 0 {
		return buf
	}
	for i, e := range ix {
		for s, x := range all[int(e)*k : int(e)*k+k] {
			buf[s*n+i] = x
		}
	}
	return buf
}

// fromRows sets v to n rows of vals (a value of each of add's columns a
// row), column by column.
func (v *listValues) fromRows(add *listAdded, vals []rating.Value, n int) {
	k := len(add.cols)
	v.f64, v.i64 = resize(v.f64, n*add.types[rating.Float64]), resize(v.i64, n*add.types[rating.Int64])
	v.str = resize(v.str, n*add.types[rating.String])
	for j, c := range add.cols {
		at := add.slot[j] * n
		for i := range n {
			switch x := &vals[i*k+j]; c.Type {
			case rating.Float64:
				v.f64[at+i] = x.Float
			case rating.Int64:
				v.i64[at+i] = x.Int
			default:
				v.str[at+i] = x.Str
			}
		}
	}
}

// column is column j of add's in a chunk of n rows (column by column).
func (v *listValues) column(add *listAdded, j, n int) (f64 []float64, i64 []int64, str []string) {
	lo, hi := add.slot[j]*n, add.slot[j]*n+n
	switch add.cols[j].Type {
	case rating.Float64:
		return v.f64[lo:hi], nil, nil
	case rating.Int64:
		return nil, v.i64[lo:hi], nil
	}
	return nil, nil, v.str[lo:hi]
}

// gather returns, in buf, the values of all at places ix.
func gather[T any](buf, all []T, ix []int32) []T {
	buf = resize(buf, len(ix))
	for i, j := range ix {
		buf[i] = all[j]
	}
	return buf
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
	types [4]int  // by rating.Type: how many of cols are of it
	slot  []int   // per column: its place among the columns of its type (listValues)
}

// newListAdded is what def's lists add, nil for nothing.
func newListAdded(def *rating.Definition, rules rating.RuleSet) *listAdded {
	cols, noK := def.Columns.List, def.Columns.NoK
	if len(cols) == 0 && !noK {
		return nil
	}
	ex, _ := rules.(rating.Extras) // a rule set with list columns implements it
	return listAddedOf(ex, cols, noK, def.Columns.RankBy)
}

// listAddedOf is what a list adds: the columns cols of ex, ranked by the
// column named rankBy ("": by rating), with k empty when noK.
func listAddedOf(ex rating.Extras, cols []rating.Column, noK bool, rankBy string) *listAdded {
	a := &listAdded{ex: ex, cols: cols, shape: output.ListShape(cols, noK), rank: -1, noK: noK, slot: make([]int, len(cols))}
	for i, c := range cols {
		if c.Name == rankBy {
			a.rank, a.scale = i, math.Pow10(c.Decimals)
		}
		a.slot[i] = a.types[c.Type]
		a.types[c.Type]++
	}
	return a
}

// take collects the players on the list of the period just closed and moves
// prevOn, everOn and prevRating on to this list.
func (lt *listTrack) take(ps *archive.Players, st *rating.State, rules rating.RuleSet) (*listData, error) {
	add := lt.add
	if lt.players == nil {
		var err error
		if lt.players, err = listPlayersOf(ps); err != nil {
			return nil, err
		}
	}
	pl, shapes := lt.players.of, lt.players.shape
	// Room for every player, not only the rated ones: the lists grow from
	// period to period, and a released list's buffers then always fit.
	l := lt.newList(len(st.Rated))
	l.names = lt.players.names
	for i, rated := range st.Rated {
		p := int32(i)
		on := false
		if rated {
			var k int32
			var category, flags string
			on, k, category, flags = rules.ListInfo(st, p)
			if on {
				l.entries = append(l.entries, listEntry{listPlayer: pl[p], shape: shapes[p],
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
	return l, nil
}

// addValues adds the rule set's values of the list's last entry, player p.
func (l *listData) addValues(st *rating.State, p int32) {
	l.add.ex.ListValues(st, p, l.row)
	l.addRow(l.add, l.row)
}

// addRow adds row, the values of add's columns, for the list's last entry.
func (l *listData) addRow(add *listAdded, row []rating.Value) {
	l.added.addRow(add, row)
	if add.rank >= 0 {
		l.keys = append(l.keys, int32(math.Round(row[add.rank].Float*add.scale)))
	}
}

// rankKeys is what the list is ranked by: the rule set's RankBy column as
// printed, or the rating.
func (l *listData) rankKeys() []int32 {
	if l.add != nil && l.add.rank >= 0 {
		return l.keys
	}
	l.keys = resize(l.keys, len(l.entries))
	for i := range l.entries {
		l.keys[i] = l.entries[i].rating
	}
	return l.keys
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

// infoID interns a category and flags pair. The rule sets hand out the same
// few strings every time: where they lie is compared first, their bytes only
// when that finds none.
func (l *listData) infoID(category, flags string) int32 {
	for i, in := range l.infos {
		if sameString(in.category, category) && sameString(in.flags, flags) {
			return int32(i)
		}
	}
	for i, in := range l.infos {
		if in.category == category && in.flags == flags {
			return int32(i)
		}
	}
	l.infos = append(l.infos, listInfo{category, flags})
	return int32(len(l.infos) - 1)
}

// sameString tells whether a and b are the same bytes in memory.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// rankOrder sorts a list: the entries' indexes, highest key first (keys
// from rankKeys), then in entry order, which is player_id order. Ratings span
// a few thousand points, so a counting sort by key (stable) does it in two
// passes; a wider span falls back to sorting packed keys. The order is in
// buf's room when it has enough.
func rankOrder(buf, keys []int32) []int32 {
	order := resize(buf, len(keys))
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

// listChunk is how many rows of a list are made at a time: a chunk's columns
// stay in the processor's cache while the CSV and Parquet writers read them,
// and the buffers are reused. A multiple of 64, the rows parquet-go takes at a
// time, so that pages end where they would if all rows came at once.
const listChunk = 4096

// listTag is a list row's category and flags as the files hold them: a
// list's listInfo, with "new" added for a player on his first list.
type listTag struct {
	category, flags string
	csv             []byte // ",category,flags" as CSV cells
}

// listTags are the tags of a list's infos: info i's at 2i, with "new" at 2i+1.
func listTags(infos []listInfo) []listTag {
	tags := make([]listTag, 0, 2*len(infos))
	for _, in := range infos {
		tags = append(tags, newListTag(in.category, in.flags), newListTag(in.category, joinFlags("new", in.flags)))
	}
	return tags
}

func newListTag(category, flags string) listTag {
	b := csvfield.Append([]byte{','}, category)
	b = csvfield.Append(append(b, ','), flags)
	return listTag{category: category, flags: flags, csv: b}
}

// listCols is a chunk of a list's rows, column by column in rank order: what
// its CSV lines and its Parquet and Arrow columns are made from. Its slices
// are reused from chunk to chunk. An optional column's def is 1 where a row
// has a value, 0 where it is null.
type listCols struct {
	rank, rating, change, gamesPeriod, gamesTotal, k []int32
	changeDef                                        []byte
	id                                               []int64
	name                                             []string
	shape                                            []csvfield.Shape // the names' CSV shapes
	tags                                             []listTag
	tag                                              []int32 // per row: its tag in tags
	category, flags                                  []string
	reg                                              listRegistry
	added                                            listValues  // column by column
	ents                                             []listEntry // scratch
}

// listRegistry is a chunk's columns from the players table (PlayerInfo),
// all optional.
type listRegistry struct {
	federation, sex, title []string
	fideID                 []int64
	birthDate              []int32
	def                    [5][]byte // federation's, sex's, title's, fide_id's, birth_date's
}

// size makes room for n rows, the registry's columns empty.
func (c *listCols) size(n int) {
	for _, s := range []*[]int32{&c.rank, &c.rating, &c.change, &c.gamesPeriod, &c.gamesTotal, &c.k, &c.tag, &c.reg.birthDate} {
		*s = resize(*s, n)
	}
	for _, s := range []*[]string{&c.name, &c.category, &c.flags, &c.reg.federation, &c.reg.sex, &c.reg.title} {
		*s = resize(*s, n)
	}
	c.id, c.reg.fideID, c.shape, c.changeDef = resize(c.id, n), resize(c.reg.fideID, n), resize(c.shape, n), resize(c.changeDef, n)
	r := &c.reg // all null until fill sets them: a run without the registry's columns leaves them so
	for i := range r.def {
		r.def[i] = resize(r.def[i], n)
		clear(r.def[i])
	}
	clear(r.federation)
	clear(r.sex)
	clear(r.title)
	clear(r.fideID)
	clear(r.birthDate)
}

// fill sets c to the rows at places first.. of list l (n of them), with order
// from rankOrder and c.tags from listTags. Entries and players are read in
// rank order, at random places in memory: each kind of read has a loop of its
// own, so that the processor overlaps the cache misses of many rows.
func (c *listCols) fill(ps *archive.Players, l *listData, order []int32, first, n int) {
	c.size(n)
	ix := order[first : first+n]
	c.ents = gather(c.ents, l.entries, ix)
	ents := c.ents
	for i := range ents {
		e := &ents[i]
		c.id[i], c.name[i], c.shape[i] = e.id, l.names[e.name0:e.name1], e.shape
	}
	touchNames(c.name, func(s *string) string { return *s })
	if ps.Info != nil {
		c.reg.fill(ps.Info, ents)
	}
	for i := range ents {
		e := &ents[i]
		c.rank[i], c.rating[i], c.change[i], c.changeDef[i] = int32(first+i+1), e.rating, 0, 0
		if e.hasChange {
			c.change[i], c.changeDef[i] = e.change, 1
		}
		c.gamesPeriod[i], c.gamesTotal[i], c.k[i] = e.gamesPeriod, e.gamesTotal, e.k
		t := 2 * e.info
		if e.isNew {
			t++
		}
		c.tag[i], c.category[i], c.flags[i] = t, c.tags[t].category, c.tags[t].flags
	}
	if l.add != nil {
		c.added.gather(l.add, &l.added, ix)
	}
}

// fill sets r to the players' of ents.
func (r *listRegistry) fill(info []archive.PlayerInfo, ents []listEntry) {
	for i := range ents {
		in := &info[ents[i].p]
		r.federation[i], r.sex[i], r.title[i], r.fideID[i], r.birthDate[i] = in.Federation, in.Sex, in.Title, in.FideID, 0
		if in.BirthDate != archive.NoDate {
			r.birthDate[i] = in.BirthDate
		}
		r.def[0][i], r.def[1][i], r.def[2][i] = isSet(in.Federation != ""), isSet(in.Sex != ""), isSet(in.Title != "")
		r.def[3][i], r.def[4][i] = isSet(in.FideID != 0), isSet(in.BirthDate != archive.NoDate)
	}
}

// isSet is an optional column's definition level: 1 for a value, 0 for null.
func isSet(ok bool) byte {
	if ok {
		return 1
	}
	return 0
}

// fromRows sets c to rows (and vals, len(cols) per row, their values of the
// rule set's columns add.cols; add nil for none), as read back from a list's
// Parquet file.
func (c *listCols) fromRows(rows []output.ListRow, vals []rating.Value, add *listAdded) {
	c.size(len(rows))
	for i := range rows {
		r := &rows[i]
		c.rank[i], c.id[i], c.name[i], c.shape[i], c.rating[i] = r.Rank, r.PlayerID, r.Name, csvfield.Other, r.Rating
		c.change[i], c.changeDef[i] = 0, isSet(r.Change != nil)
		if r.Change != nil {
			c.change[i] = *r.Change
		}
		c.gamesPeriod[i], c.gamesTotal[i], c.k[i] = r.GamesPeriod, r.GamesTotal, r.K
		c.tag[i] = c.tagOf(r.Category, r.Flags)
		c.category[i], c.flags[i] = r.Category, r.Flags
		g := &c.reg
		g.federation[i], g.sex[i], g.title[i], g.fideID[i], g.birthDate[i] = r.Federation, r.Sex, r.Title, r.FideID, 0
		if r.BirthDate != nil {
			g.birthDate[i] = *r.BirthDate
		}
		g.def[0][i], g.def[1][i], g.def[2][i] = isSet(r.Federation != ""), isSet(r.Sex != ""), isSet(r.Title != "")
		g.def[3][i], g.def[4][i] = isSet(r.FideID != 0), isSet(r.BirthDate != nil)
	}
	if add != nil {
		c.added.fromRows(add, vals, len(rows))
	}
}

// tagOf interns a category and flags pair in c.tags.
func (c *listCols) tagOf(category, flags string) int32 {
	for i, t := range c.tags {
		if t.category == category && t.flags == flags {
			return int32(i)
		}
	}
	c.tags = append(c.tags, newListTag(category, flags))
	return int32(len(c.tags) - 1)
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
	schema  *parquet.Schema
	buf     *listBuffers
}

// listBuffers are a list writer's chunk buffers, kept in listBufs for the
// next list's: lists come every period, and fresh buffers cost zeroing and
// page faults.
type listBuffers struct {
	cols    listCols
	scratch listScratch
	line    []byte // a chunk's CSV lines
}

var listBufs = freelist.New[listBuffers](listsRecycled)

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
	return &listFiles{pqRel: pqRel, csv: csv, pq: pq, w: w, schema: schema, buf: listBufs.Get()}, nil
}

// write adds the rows of c, with add's columns (nil: none).
func (lf *listFiles) write(c *listCols, add *listAdded) error {
	b := lf.buf
	b.line = c.appendCSV(b.line[:0], add)
	lf.csv.Write(b.line)
	if err := c.writeParquet(lf.w, lf.schema, add, &b.scratch); err != nil {
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

// abort closes the files unless finish did (deferred after createList), and
// hands the buffers on.
func (lf *listFiles) abort() {
	lf.csv.abort()
	lf.pq.abort()
	if lf.buf != nil {
		listBufs.Put(lf.buf)
		lf.buf = nil
	}
}

// listHeader is the rating list's CSV header: the contract's columns only.
const listHeader = "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n"

// writeList sorts a list and writes it as CSV and Parquet (and Arrow IPC with
// arrow), a chunk of rows at a time; with l.add, the rule set's own columns
// after flags. It runs in a pool job.
func writeList(stage *staging, players *archive.Players, label string, l *listData, arrow bool) error {
	l.order = rankOrder(l.order, l.rankKeys())
	order := l.order
	add, header, schema := l.add, listHeader, output.ListSchema
	var cols []rating.Column
	noK := false
	if add != nil {
		cols, noK, schema = add.cols, add.noK, add.shape.Schema
		header = header[:len(header)-1]
		for _, c := range cols {
			header += "," + c.Name
		}
		header += "\n"
	}
	lf, err := createList(stage, output.ListCSV.Rel(label), output.ListParquet.Rel(label), header, schema)
	if err != nil {
		return err
	}
	defer lf.abort()
	var arrowCols *listArrow
	if arrow {
		arrowCols = newListArrow(len(order), cols, noK)
	}
	c := &lf.buf.cols
	c.tags = listTags(l.infos)
	for first := 0; first < len(order); first += listChunk {
		c.fill(players, l, order, first, min(listChunk, len(order)-first))
		if err := lf.write(c, add); err != nil {
			return err
		}
		if arrowCols != nil {
			arrowCols.add(c, add)
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

// listScratch is what writeParquet compacts an optional column's values in,
// reused from chunk to chunk.
type listScratch struct {
	i32  []int32
	i64  []int64
	str  []string
	null []byte // all 0: the levels of a column without values
}

// writeParquet writes the rows of c, with add's columns (nil: none), to w, a
// file of schema: output.ListSchema's, or add's shape's.
func (c *listCols) writeParquet(w *pqwrite.Writer, schema *parquet.Schema, add *listAdded, sc *listScratch) error {
	n := len(c.rank)
	col := func(name string) *pqwrite.Column { return w.Column(schemaLeaf(schema, name).ColumnIndex) }
	var k error
	if add != nil && add.noK { // k is null
		sc.null = resize(sc.null, n)
		k = col("k").Int32(nil, sc.null, nil)
	} else {
		k = col("k").Int32(c.k, nil, nil)
	}
	reg := &c.reg
	err := errors.Join(
		col("rank").Int32(c.rank, nil, nil),
		col("player_id").Int64(c.id, nil, nil),
		col("name").String(c.name, nil, nil),
		col("rating").Int32(c.rating, nil, nil),
		col("change").Int32(compact(&sc.i32, c.change, c.changeDef), c.changeDef, nil),
		col("games_period").Int32(c.gamesPeriod, nil, nil),
		col("games_total").Int32(c.gamesTotal, nil, nil),
		k,
		col("category").String(c.category, nil, nil),
		col("flags").String(c.flags, nil, nil),
		col("federation").String(compact(&sc.str, reg.federation, reg.def[0]), reg.def[0], nil),
		col("sex").String(compact(&sc.str, reg.sex, reg.def[1]), reg.def[1], nil),
		col("title").String(compact(&sc.str, reg.title, reg.def[2]), reg.def[2], nil),
		col("fide_id").Int64(compact(&sc.i64, reg.fideID, reg.def[3]), reg.def[3], nil),
		col("birth_date").Int32(compact(&sc.i32, reg.birthDate, reg.def[4]), reg.def[4], nil),
	)
	if err != nil || add == nil {
		return err
	}
	for j, ac := range add.cols {
		switch f64, i64, str := c.added.column(add, j, n); ac.Type {
		case rating.Int64:
			err = col(ac.Name).Int64(i64, nil, nil)
		case rating.Float64:
			err = col(ac.Name).Double(f64, nil, nil)
		default:
			err = col(ac.Name).String(str, nil, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// compact returns, in *buf, the values of the rows whose def is 1: an
// optional column's values without its nulls.
func compact[T any](buf *[]T, vals []T, def []byte) []T {
	s := (*buf)[:0]
	for i, d := range def {
		if d != 0 {
			s = append(s, vals[i])
		}
	}
	*buf = s
	return s
}

// appendCSV appends the CSV lines of c's rows, with the values of add's
// columns after flags (add nil: none).
func (c *listCols) appendCSV(b []byte, add *listAdded) []byte {
	noK := add != nil && add.noK
	for i := range c.rank {
		b = csvfield.AppendInt(b, int64(c.rank[i]))
		b = append(b, ',')
		b = csvfield.AppendInt(b, c.id[i])
		b = append(b, ',')
		b = csvfield.AppendShaped(b, c.name[i], c.shape[i])
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(c.rating[i]))
		b = append(b, ',')
		if c.changeDef[i] != 0 {
			b = csvfield.AppendInt(b, int64(c.change[i]))
		}
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(c.gamesPeriod[i]))
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(c.gamesTotal[i]))
		b = append(b, ',')
		if !noK {
			b = csvfield.AppendInt(b, int64(c.k[i]))
		}
		b = append(b, c.tags[c.tag[i]].csv...)
		if add != nil {
			b = c.appendValues(b, add, i)
		}
		b = append(b, '\n')
	}
	return b
}

// appendValues appends row i's values of add's columns, each after a comma.
func (c *listCols) appendValues(b []byte, add *listAdded, i int) []byte {
	n, v := len(c.rank), &c.added
	for j := range add.cols {
		b = append(b, ',')
		at := add.slot[j]*n + i
		switch col := &add.cols[j]; col.Type {
		case rating.Int64:
			b = csvfield.AppendInt(b, v.i64[at])
		case rating.Float64:
			b = appendFloat(b, v.f64[at], col.Decimals)
		default:
			b = csvfield.Append(b, v.str[at])
		}
	}
	return b
}

// appendFloat appends a Float64 column's value of decimals d as the CSV
// prints it.
func appendFloat(b []byte, x float64, d int) []byte {
	if d > 0 {
		return appendFixed(b, x, d)
	}
	return strconv.AppendFloat(b, x, 'f', -1, 64)
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

// listPlayers is what a list shows of every player that is the same on every
// list: the names side by side in one string, each player's listPlayer, and
// the names' CSV shapes, looked at once per run rather than once per list a
// player is on.
type listPlayers struct {
	names string
	of    []listPlayer
	shape []csvfield.Shape
}

// listPlayer is a player's id and the place of his name in
// listPlayers.names: not a string, so that the lists' entries that hold it
// hold no pointer for the GC to scan, and 16 bytes.
type listPlayer struct {
	id           int64
	name0, name1 uint32
}

// listPlayersOf is every player's listPlayer and name shape.
func listPlayersOf(ps *archive.Players) (*listPlayers, error) {
	n := 0
	for _, name := range ps.Name {
		n = nameAt(n, len(name)) + len(name)
	}
	if n > math.MaxUint32 {
		return nil, fmt.Errorf("lists: the players' names are %d bytes, more than a list's 4 GiB", n)
	}
	var names strings.Builder
	names.Grow(n)
	lp := &listPlayers{of: make([]listPlayer, len(ps.ID)), shape: make([]csvfield.Shape, len(ps.ID))}
	for i, name := range ps.Name {
		for names.Len() < nameAt(names.Len(), len(name)) {
			names.WriteByte(0)
		}
		from := uint32(names.Len())
		names.WriteString(name)
		lp.of[i], lp.shape[i] = listPlayer{id: ps.ID[i], name0: from, name1: uint32(names.Len())}, csvfield.ShapeOf(name)
	}
	lp.names = names.String()
	return lp, nil
}

// nameAt is where a name of n bytes goes in listPlayers.names after at
// bytes: at, or the next 64-byte line when it would cross one, so that the
// writer's touch of a name's first byte brings all of it into the cache (the
// names of a run's registry are one large allocation: it starts on a page).
func nameAt(at, n int) int {
	if n <= 64 && at%64+n > 64 {
		return (at + 63) &^ 63
	}
	return at
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

// add adds the rows of c, with their values of add's columns (nil: none).
func (a *listArrow) add(c *listCols, add *listAdded) {
	ac, in := a.cols, a.cols[listFlagsColumn+1+a.added:] // the contract's columns, the registry's
	ac[0].Int32, ac[1].Int64 = append(ac[0].Int32, c.rank...), append(ac[1].Int64, c.id...)
	ac[2].String, ac[3].Int32 = append(ac[2].String, c.name...), append(ac[3].Int32, c.rating...)
	ac[4].Int32, ac[4].Null = append(ac[4].Int32, c.change...), appendNull(ac[4].Null, c.changeDef)
	ac[5].Int32, ac[6].Int32, ac[7].Int32 = append(ac[5].Int32, c.gamesPeriod...), append(ac[6].Int32, c.gamesTotal...), append(ac[7].Int32, c.k...)
	if k := &ac[listKColumn]; k.Null != nil { // a list without K: k is null
		for range c.k {
			k.Null = append(k.Null, true)
		}
	}
	ac[8].String, ac[9].String = append(ac[8].String, c.category...), append(ac[9].String, c.flags...)
	reg := &c.reg
	for j, v := range [][]string{reg.federation, reg.sex, reg.title} {
		in[j].String, in[j].Null = append(in[j].String, v...), appendNull(in[j].Null, reg.def[j])
	}
	in[3].Int64, in[3].Null = append(in[3].Int64, reg.fideID...), appendNull(in[3].Null, reg.def[3])
	in[4].Date, in[4].Null = append(in[4].Date, reg.birthDate...), appendNull(in[4].Null, reg.def[4])
	if add == nil {
		return
	}
	for j := range add.cols {
		to := &ac[listFlagsColumn+1+j]
		f64, i64, str := c.added.column(add, j, len(c.rank))
		to.Int64, to.Float64, to.String = append(to.Int64, i64...), append(to.Float64, f64...), append(to.String, str...)
	}
}

// appendNull appends an Arrow column's null flags of the levels def.
func appendNull(null []bool, def []byte) []bool {
	for _, d := range def {
		null = append(null, d == 0)
	}
	return null
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
	var c listCols
	for {
		n, err := rd.Read(buf)
		if added != nil {
			for i := range n {
				if err := added.Read(vals[i*len(cols) : (i+1)*len(cols)]); err != nil {
					return fmt.Errorf("read %s: %w", p, err)
				}
			}
		}
		c.fromRows(buf[:n], vals, add)
		a.add(&c, add)
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
