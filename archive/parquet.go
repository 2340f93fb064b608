package archive

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

type parquetSource struct {
	f          fs.File
	pf         *parquet.File
	cols       []Column
	leaves     []int   // column → leaf column index, -1 absent
	scale      []int64 // Time: multiplier to microseconds; Date from timestamp: divisor
	kinds      []parquet.Kind
	dateFromTS []bool
	fast       []bool // read straight from page data when the page allows (colCursor.next)
	ranges     []intRange
	rg         int // next row group
	curs       []*colCursor
	vals       []parquet.Value
	rows       int       // rows per batch: batchRows, or the file's rows when fewer (at least 1)
	badCells   []badCell // of the Batch being filled
}

type colCursor struct {
	pages parquet.Pages
	page  parquet.Page
	vr    parquet.ValueReader // a page read value by value (parquet.Value)
	// A page read straight from its data (vr == nil): its rows, definition
	// levels (nil without nulls), dense values (one of i64, i32 or dictionary
	// indexes idx, with dict the result code of each dictionary entry, -1 when
	// not one), and how far it has been read.
	rows     int
	defs     []byte
	i64      []int64
	i32      []int32
	idx      []int32
	dict     []int64
	row, val int
}

// next loads the column chunk's next page; fast tells whether the column may
// be read straight from page data (integers, or dictionary-encoded result
// codes), which is used when the page is of a shape that path knows.
func (c *colCursor) next(fast bool, typ Type) error {
	p, err := c.pages.ReadPage()
	if err != nil {
		return err
	}
	*c = colCursor{pages: c.pages, page: p}
	kind, dict := p.Type().Kind(), p.Dictionary()
	switch {
	case !fast || len(p.RepetitionLevels()) > 0:
		c.vr = p.Values()
		return nil
	case typ == Code && dict != nil && dict.Type().Kind() == parquet.ByteArray:
		c.dict = make([]int64, dict.Len())
		for i := range c.dict {
			code, ok := resultCode(dict.Index(int32(i)).ByteArray())
			c.dict[i] = int64(code)
			if !ok {
				c.dict[i] = -1
			}
		}
		data := p.Data()
		c.idx = data.Int32()
	case typ != Code && dict == nil && kind == parquet.Int64:
		data := p.Data()
		c.i64 = data.Int64()
	case typ != Code && dict == nil && kind == parquet.Int32:
		data := p.Data()
		c.i32 = data.Int32()
	default:
		c.vr = p.Values()
		return nil
	}
	c.rows, c.defs = int(p.NumRows()), p.DefinitionLevels()
	dense := c.rows
	if len(c.defs) > 0 {
		// take relies on levels of 0 and 1 only.
		dense = bytes.Count(c.defs, []byte{1})
		if zeros := bytes.Count(c.defs, []byte{0}); dense+zeros != len(c.defs) {
			return fmt.Errorf("definition level %d in a column that is not nested", c.defs[bytes.IndexFunc(c.defs, func(r rune) bool { return r > 1 })])
		}
	} else {
		c.defs = nil
	}
	if have := len(c.i64) + len(c.i32) + len(c.idx); (c.defs != nil && len(c.defs) != c.rows) || have != dense {
		return fmt.Errorf("page of %d rows with %d values", c.rows, have)
	}
	return nil
}

// readColumn fills rows [0, want) of the Batch's column c, crossing pages, and
// returns how many it filled (fewer at the end of the row group).
func (s *parquetSource) readColumn(b *Batch, c int, want int) (int, error) {
	cur, typ := s.curs[c], s.cols[c].Type
	n := 0
	for n < want {
		if cur.page == nil {
			if err := cur.next(s.fast[c], typ); err != nil {
				return n, err
			}
		}
		// Value by value: decoded before the page is released, as values of text
		// columns point into the page's buffers, which parquet-go hands out again.
		if cur.vr != nil {
			m, err := cur.vr.ReadValues(s.vals[n:want])
			s.decode(b, c, n, s.vals[n:n+m])
			n += m
			if err == io.EOF {
				parquet.Release(cur.page)
				cur.page, cur.vr = nil, nil
				continue
			}
			if err != nil {
				return n, err
			}
			continue
		}
		k := min(want-n, cur.rows-cur.row)
		ints, nulls := b.Ints[c][n:n+k], b.Nulls[c][n:n+k]
		var defs []byte
		if cur.defs != nil {
			defs = cur.defs[cur.row : cur.row+k]
		}
		switch {
		case cur.dict == nil && cur.i32 == nil:
			cur.val = take(ints, nulls, defs, cur.i64, cur.val)
		case cur.dict == nil:
			cur.val = take(ints, nulls, defs, cur.i32, cur.val)
		default:
			var err error
			if cur.val, err = s.takeCodes(ints, nulls, defs, cur, c, n); err != nil {
				return n, err
			}
		}
		if s.ranges[c].check && cur.dict == nil {
			s.checkRange(ints, nulls, c, n)
		}
		n += k
		if cur.row += k; cur.row == cur.rows {
			parquet.Release(cur.page)
			cur.page = nil
		}
	}
	return n, nil
}

// take copies dense page values into rows: a row whose definition level is 0
// (defs nil: none) is a null. It returns the position after the values taken.
// It copies run by run of present and of null rows, as nulls come in runs.
func take[T int32 | int64](ints []int64, nulls []bool, defs []byte, data []T, val int) int {
	for len(ints) > 0 {
		run := len(ints)
		if defs != nil {
			if run = bytes.IndexByte(defs, 0); run < 0 {
				run = len(defs)
			}
		}
		src, dst := data[val:val+run], ints[:run]
		if d, ok := any(src).([]int64); ok {
			copy(dst, d)
		} else {
			for i, x := range src {
				dst[i] = int64(x)
			}
		}
		clear(nulls[:run])
		val += run
		if defs == nil {
			break
		}
		ints, nulls, defs = ints[run:], nulls[run:], defs[run:]
		skip := nullRun(ints, nulls, defs)
		ints, nulls, defs = ints[skip:], nulls[skip:], defs[skip:]
	}
	return val
}

// nullRun marks the rows of the leading run of definition levels 0 null and
// returns its length.
func nullRun(ints []int64, nulls []bool, defs []byte) int {
	n := bytes.IndexByte(defs, 1)
	if n < 0 {
		n = len(defs)
	}
	setNull(ints[:n], nulls[:n])
	return n
}

// setNull makes every row null (ints nil for a text column).
func setNull(ints []int64, nulls []bool) {
	for len(nulls) > 0 {
		nulls = nulls[copy(nulls, allNull[:]):]
	}
	clear(ints)
}

// allNull is a batch of nulls for setNull to copy, which is faster than
// storing them one by one.
var allNull = func() (a [batchRows]bool) {
	for i := range a {
		a[i] = true
	}
	return a
}()

// takeCodes is take for a dictionary-encoded result code column: each index
// becomes the code of its dictionary entry; an entry that is no result code
// makes the cell null and bad (row off+i of column c).
func (s *parquetSource) takeCodes(ints []int64, nulls []bool, defs []byte, cur *colCursor, c, off int) (int, error) {
	val, dict, row := cur.val, cur.dict, 0
	for row < len(ints) {
		run := len(ints) - row
		if defs != nil {
			if run = bytes.IndexByte(defs[row:], 0); run < 0 {
				run = len(ints) - row
			}
		}
		dst, ns := ints[row:row+run], nulls[row:row+run]
		clear(ns)
		for i, x := range cur.idx[val : val+run] {
			if uint32(x) >= uint32(len(dict)) {
				return val, fmt.Errorf("dictionary index %d of %d entries", x, len(dict))
			}
			if dst[i] = dict[x]; dst[i] < 0 {
				ns[i], dst[i] = true, 0
				s.badCells = append(s.badCells, badCell{off + row + i, c, KindWrongType, ""})
			}
		}
		val, row = val+run, row+run
		if defs != nil && row < len(ints) {
			row += nullRun(ints[row:], nulls[row:], defs[row:])
		}
	}
	return val, nil
}

func (c *colCursor) close() {
	if c.page != nil {
		parquet.Release(c.page)
	}
	c.pages.Close()
}

// guard turns a panic of parquet-go on a corrupt file into an error (fuzzing found
// slice bounds panics in parquet.OpenFile on mangled metadata).
func guard(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: corrupt Parquet: %v", ErrUnreadable, r)
	}
}

// newParquetSource opens a Parquet file of the table with columns cols. With
// valueByValue, every value goes through parquet.Value, never straight from
// page data (the test that compares the two paths sets it).
func newParquetSource(f fs.File, cols []Column, valueByValue bool) (_ *parquetSource, err error) {
	defer guard(&err)
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return nil, fmt.Errorf("%w: file does not support random access", ErrUnreadable)
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkParquetFooter(ra, st.Size()); err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(ra, st.Size(), parquet.SkipBloomFilters(true), parquet.SkipPageIndex(true))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	s := &parquetSource{f: f, pf: pf, cols: cols, rows: int(max(1, min(batchRows, pf.NumRows())))}
	s.vals = make([]parquet.Value, s.rows)
	for _, sp := range cols {
		leaf, ok := pf.Schema().Lookup(sp.Name)
		if !ok {
			if sp.Required {
				return nil, fmt.Errorf("%w %q", ErrMissingColumn, sp.Name)
			}
			s.leaves = append(s.leaves, -1)
			s.scale = append(s.scale, 0)
			s.kinds = append(s.kinds, 0)
			s.dateFromTS = append(s.dateFromTS, false)
			s.fast = append(s.fast, false)
			s.ranges = append(s.ranges, intRange{})
			continue
		}
		if leaf.MaxRepetitionLevel > 0 {
			return nil, fmt.Errorf("%w: column %q is repeated", ErrUnreadable, sp.Name)
		}
		t := leaf.Node.Type()
		scale, isTS := int64(1), false
		if lt := t.LogicalType(); lt != nil {
			if ts, ok := lt.Value.(*format.TimestampType); ok {
				isTS = true
				switch ts.Unit.Value.(type) {
				case *format.MilliSeconds:
					scale = 1000
				case *format.NanoSeconds:
					scale = -1000
				}
			}
		}
		if sp.Type == Time && !isTS && t.Kind() == parquet.Int32 {
			scale = 86400 * 1e6 // a DATE column: days → microseconds
		}
		s.leaves = append(s.leaves, leaf.ColumnIndex)
		s.scale = append(s.scale, scale)
		s.kinds = append(s.kinds, t.Kind())
		s.dateFromTS = append(s.dateFromTS, sp.Type == Date && isTS)
		s.ranges = append(s.ranges, newIntRange(sp.Type, t))
		plainInt := (sp.Type == Int || sp.Type == Int32 || sp.Type == Date) && !isTS && (t.Kind() == parquet.Int32 || t.Kind() == parquet.Int64)
		s.fast = append(s.fast, !valueByValue && leaf.MaxDefinitionLevel <= 1 && (plainInt || sp.Type == Code && t.Kind() == parquet.ByteArray))
	}
	if err := checkPages(ra, st.Size(), pf, s.leaves); err != nil {
		return nil, err
	}
	return s, nil
}

// checkParquetFooter refuses a file whose footer length does not fit in it:
// parquet.OpenFile would allocate whatever the last bytes claim (even for the
// 8 bytes "PAR1PAR1").
func checkParquetFooter(ra io.ReaderAt, size int64) error {
	var tail [8]byte
	if size < 12 {
		return fmt.Errorf("%w: %d bytes is too short for a Parquet file", ErrUnreadable, size)
	}
	if _, err := ra.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if string(tail[4:]) != "PAR1" {
		return fmt.Errorf("%w: not a Parquet file (no PAR1 at the end)", ErrUnreadable)
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n+12 > size {
		return fmt.Errorf("%w: footer of %d bytes in a %d-byte file (truncated?)", ErrUnreadable, n, size)
	}
	return nil
}

func (s *parquetSource) close() error {
	for _, c := range s.curs {
		if c != nil {
			c.close()
		}
	}
	s.curs = nil
	return s.f.Close()
}

func (s *parquetSource) sizeHint() int64 { return s.pf.NumRows() }

func (s *parquetSource) batch() int { return s.rows }

func (s *parquetSource) fill(b *Batch) (n int, err error) {
	defer guard(&err)
	return s.fillPages(b)
}

func (s *parquetSource) fillPages(b *Batch) (int, error) {
	for {
		if s.curs == nil {
			rgs := s.pf.RowGroups()
			if s.rg == len(rgs) {
				return 0, io.EOF
			}
			chunks := rgs[s.rg].ColumnChunks()
			s.rg++
			s.curs = make([]*colCursor, len(s.cols))
			for c, ci := range s.leaves {
				if ci >= 0 {
					s.curs[c] = &colCursor{pages: chunks[ci].Pages()}
				}
			}
		}
		n := -1
		for c, cur := range s.curs {
			if cur == nil {
				continue
			}
			m, err := s.readColumn(b, c, s.rows)
			if err != nil && err != io.EOF {
				return 0, fmt.Errorf("column %s: %w", s.cols[c].Name, err)
			}
			if n >= 0 && m != n {
				return 0, fmt.Errorf("column %s: %d values where other columns have %d", s.cols[c].Name, m, n)
			}
			n = m
		}
		if n <= 0 {
			for _, c := range s.curs {
				if c != nil {
					c.close()
				}
			}
			s.curs = nil
			if n < 0 { // no column present at all: cannot happen with a required column
				return 0, io.EOF
			}
			continue
		}
		for c, cur := range s.curs {
			if cur == nil {
				ints := b.Ints[c]
				if ints != nil {
					ints = ints[:n]
				}
				setNull(ints, b.Nulls[c][:n])
			}
		}
		b.clearBad()
		s.markBad(b)
		return n, nil
	}
}

// decode turns parquet values into rows off… of the Batch's typed column c, for
// pages not read straight from their data (colCursor.next). A value that cannot
// be decoded becomes a null and is noted in s.badCells.
func (s *parquetSource) decode(b *Batch, c, off int, vals []parquet.Value) {
	sp, nulls, ints := s.cols[c], b.Nulls[c][off:], b.Ints[c]
	if ints != nil {
		ints = ints[off:]
	}
	bad := func(i int) {
		nulls[i], ints[i] = true, 0
		s.badCells = append(s.badCells, badCell{off + i, c, KindWrongType, ""})
	}
	switch {
	case sp.Type == String:
		for i, v := range vals {
			if nulls[i] = v.IsNull(); !nulls[i] {
				text := string(v.ByteArray())
				if k, why := checkText(text); k != KindNone {
					nulls[i] = true
					s.badCells = append(s.badCells, badCell{off + i, c, k, why})
					continue
				}
				b.Strs[c][off+i] = text
			}
		}
	case sp.Type == Code:
		for i, v := range vals {
			ints[i] = 0
			if nulls[i] = v.IsNull(); !nulls[i] {
				code, ok := resultCode(v.ByteArray())
				if !ok {
					bad(i)
					continue
				}
				ints[i] = int64(code)
			}
		}
	default:
		r := &s.ranges[c]
		for i, v := range vals {
			ints[i] = 0
			if nulls[i] = v.IsNull(); !nulls[i] {
				x, ok := s.anyInt(c, v)
				switch {
				case !ok:
					bad(i)
				case x < r.lo || x > r.hi:
					s.outOfRange(ints, nulls, c, off, i, x)
				default:
					ints[i] = x
				}
			}
		}
	}
}

// intRange is what the integers of a column may be: its Type's range (int64,
// or int32 for Int32 and Date), read from the column's Parquet type.
type intRange struct {
	lo, hi int64
	u32    bool // stored as UINT32: an INT32 read negative is its value + 2^32
	u64    bool // stored as UINT64: an INT64 read negative is above MaxInt64
	// check: values read straight from page data may lie outside [lo, hi]
	// (INT64 for a 32-bit Type, any unsigned).
	check bool
}

// newIntRange is the intRange of a column of Type t stored as Parquet type pt.
func newIntRange(t Type, pt parquet.Type) intRange {
	r := intRange{lo: math.MinInt64, hi: math.MaxInt64}
	if t == Int32 || t == Date {
		r.lo, r.hi = math.MinInt32, math.MaxInt32
	}
	if t != Int && t != Int32 && t != Date {
		return r
	}
	kind := pt.Kind()
	if it, ok := logicalInt(pt); ok && !it.IsSigned {
		r.lo = 0
		r.u32, r.u64 = kind == parquet.Int32, kind == parquet.Int64
	}
	r.check = r.u32 || r.u64 || kind == parquet.Int64 && t != Int
	return r
}

// logicalInt is the INT logical type of pt, if it has one.
func logicalInt(pt parquet.Type) (*format.IntType, bool) {
	lt := pt.LogicalType()
	if lt == nil {
		return nil, false
	}
	it, ok := lt.Value.(*format.IntType)
	return it, ok
}

// checkRange checks the integers read straight from page data into rows
// off… of column c (ints, nulls): an unsigned 32-bit value gets its
// value, and one outside the column's range becomes a null and a bad cell.
func (s *parquetSource) checkRange(ints []int64, nulls []bool, c, off int) {
	r := &s.ranges[c]
	for i, x := range ints {
		if r.u32 && x < 0 {
			x += 1 << 32
			ints[i] = x
		}
		if x < r.lo || x > r.hi {
			s.outOfRange(ints, nulls, c, off, i, x)
		}
	}
}

// outOfRange makes row i of ints (row off+i of column c) a null and notes it
// as a bad cell holding x, which its column's range does not hold.
func (s *parquetSource) outOfRange(ints []int64, nulls []bool, c, off, i int, x int64) {
	r := &s.ranges[c]
	ints[i], nulls[i] = 0, true
	v := strconv.FormatInt(x, 10)
	if r.u64 {
		v = strconv.FormatUint(uint64(x), 10)
	}
	typ := "int64"
	if r.hi == math.MaxInt32 {
		typ = "int32"
	}
	why := fmt.Sprintf("%s does not fit %s (row group %d)", v, typ, s.rg-1)
	s.badCells = append(s.badCells, badCell{off + i, c, KindOutOfRange, why})
}

// anyInt decodes one non-null value of an integer, date, time or bool column.
func (s *parquetSource) anyInt(c int, v parquet.Value) (int64, bool) {
	sp := s.cols[c]
	if sp.Type == Bool {
		if v.Boolean() {
			return 1, true
		}
		return 0, true
	}
	var x int64
	switch s.kinds[c] {
	case parquet.Int32:
		x = int64(v.Int32())
		if s.ranges[c].u32 {
			x = int64(uint32(v.Int32()))
		}
	case parquet.Int64:
		x = v.Int64()
	case parquet.ByteArray:
		// Tolerate text dates/numbers in Parquet written by other tools.
		var err error
		if x, err = textToInt(sp.Type, string(v.ByteArray())); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	switch {
	case sp.Type == Time && s.scale[c] > 0:
		x *= s.scale[c]
	case sp.Type == Time && s.scale[c] < 0:
		x /= -s.scale[c]
	case s.dateFromTS[c]:
		x = floorDiv(x*max(s.scale[c], 1), 86400e6)
	}
	return x, true
}

// badCell is a cell that could not be read (by decode, or an invalid result code
// or a value out of range in readColumn's page path): row i of column c, the
// kind of problem and why ("" for KindWrongType).
type badCell struct {
	i, c int
	kind Kind
	why  string
}

// markBad notes, per row, the first column (in spec order) that could not be
// decoded; decode notes bad cells column by column, so in that order.
func (s *parquetSource) markBad(b *Batch) {
	for _, bc := range s.badCells {
		if b.Bad[bc.i].Kind == KindNone {
			k, why := bc.kind, bc.why
			if why == "" {
				why = kindNames[k]
			}
			name := s.cols[bc.c].Name
			b.Bad[bc.i] = Problem{k, name, name + ": " + why}
			b.badSet = true
		}
	}
	s.badCells = s.badCells[:0]
}

func textToInt(t Type, s string) (int64, error) {
	if t == Int || t == Int32 {
		s = strings.TrimSpace(s)
	}
	return ParseCell(t, s)
}

// floorDiv divides rounding toward −∞ (days before 1970, period keys).
func floorDiv[T int | int64](a, b T) T {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
