package pipeline

import (
	"context"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// colType is how a column's cells are decoded into a batch.
type colType uint8

const (
	tInt    colType = iota // int64 in ints
	tString                // string in strs
	tDate                  // days since 1970-01-01 in ints
	tTime                  // microseconds since 1970-01-01 in ints (a date gives its midnight)
	tBool                  // 0/1 in ints
	tCode                  // a TRF result code byte in ints
)

type colSpec struct {
	name     string
	typ      colType
	required bool
}

// batchRows is how many rows one batch holds.
const batchRows = 8192

// batch is a block of rows of one table, column by column. A reader owns and
// reuses its batch: callers copy what they keep.
type batch struct {
	file  string // the source file, relative to the archive
	first int64  // data-row number of row 0 in file (1 = first data row)
	n     int
	ints  [][]int64 // per column (unused for tString)
	strs  [][]string
	nulls [][]bool
	bad   []string // per row: the first problem decoding it, "" when none
	raw   []string // CSV only: the row as it was written
	specs []colSpec
}

func newBatch(specs []colSpec) *batch {
	b := &batch{specs: specs, bad: make([]string, batchRows)}
	b.ints = make([][]int64, len(specs))
	b.strs = make([][]string, len(specs))
	b.nulls = make([][]bool, len(specs))
	for i, s := range specs {
		b.nulls[i] = make([]bool, batchRows)
		if s.typ == tString {
			b.strs[i] = make([]string, batchRows)
		} else {
			b.ints[i] = make([]int64, batchRows)
		}
	}
	return b
}

// values renders row i as "column=value;…", the rejects file's raw values.
func (b *batch) values(i int) string {
	if b.raw != nil {
		return b.raw[i]
	}
	var sb strings.Builder
	for c, s := range b.specs {
		if c > 0 {
			sb.WriteByte(';')
		}
		sb.WriteString(s.name)
		sb.WriteByte('=')
		if b.nulls[c][i] {
			continue
		}
		sb.WriteString(formatCell(s.typ, b.ints[c], b.strs[c], i))
	}
	return sb.String()
}

func formatCell(t colType, ints []int64, strs []string, i int) string {
	switch t {
	case tString:
		return strs[i]
	case tDate:
		return time.Unix(ints[i]*86400, 0).UTC().Format(time.DateOnly)
	case tTime:
		return time.UnixMicro(ints[i]).UTC().Format(time.RFC3339)
	case tBool:
		return strconv.FormatBool(ints[i] != 0)
	case tCode:
		return string(rune(ints[i]))
	}
	return strconv.FormatInt(ints[i], 10)
}

// tableReader streams one table in batches, like bufio.Scanner:
//
//	for r.Next() { b := r.Batch() … }
//	if err := r.Err(); …
type tableReader struct {
	fsys  fs.FS
	files []string
	specs []colSpec
	b     *batch

	fi      int // next file
	cur     source
	file    string // the open file
	nextRow int64  // data-row number of the next row in file
	err     error
}

type source interface {
	fill(b *batch) (int, error) // io.EOF at the end
	close() error
}

// tableFiles finds a table: NAME.parquet, NAME.csv or a folder NAME/ of Parquet
// parts (name order). It returns nil when the table is absent.
func tableFiles(fsys fs.FS, name string) ([]string, error) {
	var found []string
	for _, f := range []string{name + ".parquet", name + ".csv"} {
		if st, err := fs.Stat(fsys, f); err == nil && !st.IsDir() {
			found = append(found, f)
		}
	}
	if st, err := fs.Stat(fsys, name); err == nil && st.IsDir() {
		ents, err := fs.ReadDir(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read %s/: %w", name, err)
		}
		var parts []string
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".parquet") {
				parts = append(parts, path.Join(name, e.Name()))
			}
		}
		sort.Strings(parts)
		if len(parts) == 0 {
			return nil, fmt.Errorf("%s/: %w: folder holds no .parquet parts", name, ErrUnreadable)
		}
		found = append(found, path.Join(name)+"/")
		if len(found) > 1 {
			return nil, fmt.Errorf("table %s: found both %s: keep one", name, strings.Join(found, " and "))
		}
		return parts, nil
	}
	if len(found) > 1 {
		return nil, fmt.Errorf("table %s: found both %s: keep one", name, strings.Join(found, " and "))
	}
	return found, nil
}

func openTable(fsys fs.FS, files []string, specs []colSpec) *tableReader {
	return &tableReader{fsys: fsys, files: files, specs: specs, b: newBatch(specs)}
}

// Next reads the next batch; false at the end or on error.
func (r *tableReader) Next() bool {
	for r.err == nil {
		if r.cur == nil {
			if r.fi == len(r.files) {
				return false
			}
			name := r.files[r.fi]
			r.fi++
			if r.cur, r.err = openSource(r.fsys, name, r.specs); r.err != nil {
				return false
			}
			r.file, r.nextRow = name, 1
		}
		n, err := r.cur.fill(r.b)
		r.b.file, r.b.first, r.b.n = r.file, r.nextRow, n
		r.nextRow += int64(n)
		switch {
		case err == io.EOF:
			if cerr := r.cur.close(); cerr != nil {
				r.err = fmt.Errorf("close %s: %w", r.b.file, cerr)
			}
			r.cur = nil
			if n > 0 {
				return r.err == nil
			}
		case err != nil:
			r.err = fmt.Errorf("read %s: %w: %w", r.b.file, ErrUnreadable, err)
			return false
		default:
			return true
		}
	}
	return false
}

func (r *tableReader) Batch() *batch { return r.b }

// prefetch reads batches ahead in a goroutine, so that decoding overlaps the
// caller's work. It returns the channel of filled batches (closed at the end;
// then check r.Err()) and the channel to hand each batch back on once used.
// Batches come in order.
func (r *tableReader) prefetch(ctx context.Context, depth int) (full <-chan *batch, free chan<- *batch) {
	fullc := make(chan *batch, depth)
	freec := make(chan *batch, depth+1)
	freec <- r.b
	for i := 0; i < depth; i++ {
		freec <- newBatch(r.specs)
	}
	go func() {
		defer close(fullc)
		for {
			var b *batch
			select {
			case b = <-freec:
			case <-ctx.Done():
				return
			}
			r.b = b
			if !r.Next() {
				return
			}
			select {
			case fullc <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return fullc, freec
}
func (r *tableReader) Err() error { return r.err }

// Close releases the open file, if any.
func (r *tableReader) Close() {
	if r.cur != nil {
		r.cur.close()
		r.cur = nil
	}
}

func openSource(fsys fs.FS, name string, specs []colSpec) (source, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	if strings.HasSuffix(name, ".csv") {
		s, err := newCSVSource(f, specs)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return s, nil
	}
	s, err := newParquetSource(f, specs)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// ---- CSV ----

type csvSource struct {
	f    fs.File
	r    *csv.Reader
	cols []int // spec column → CSV field index, -1 when absent
	nf   int
	hdr  []string
}

func newCSVSource(f fs.File, specs []colSpec) (*csvSource, error) {
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	hdr, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%w: empty file, no header row", ErrUnreadable)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: header: %w", ErrUnreadable, err)
	}
	hdr = append([]string(nil), hdr...)
	if len(hdr) > 0 {
		hdr[0] = strings.TrimPrefix(hdr[0], "\ufeff")
	}
	s := &csvSource{f: f, r: r, nf: len(hdr), hdr: hdr}
	for _, sp := range specs {
		idx := -1
		for j, h := range hdr {
			if strings.TrimSpace(h) == sp.name {
				idx = j
			}
		}
		if idx < 0 && sp.required {
			return nil, fmt.Errorf("%w %q", ErrMissingColumn, sp.name)
		}
		s.cols = append(s.cols, idx)
	}
	return s, nil
}

func (s *csvSource) close() error { return s.f.Close() }

func (s *csvSource) fill(b *batch) (int, error) {
	if b.raw == nil {
		b.raw = make([]string, batchRows)
	}
	n := 0
	for n < batchRows {
		rec, err := s.r.Read()
		if err == io.EOF {
			return n, io.EOF
		}
		b.bad[n] = ""
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && !errors.Is(err, csv.ErrFieldCount) {
				// A quoting error spoils only this record; csv.Reader resumes after it.
				b.raw[n] = ""
				b.bad[n] = "malformed CSV: " + pe.Err.Error()
				for c := range b.specs {
					b.nulls[c][n] = true
				}
				n++
				continue
			}
			return n, err
		}
		b.raw[n] = rawValues(s.hdr, rec)
		if len(rec) != s.nf {
			b.bad[n] = fmt.Sprintf("wrong number of fields: %d, header has %d", len(rec), s.nf)
			for c := range b.specs {
				b.nulls[c][n] = true
			}
			n++
			continue
		}
		for c, sp := range b.specs {
			cell := ""
			if s.cols[c] >= 0 {
				cell = rec[s.cols[c]]
			}
			if msg := parseCell(b, c, n, sp, cell); msg != "" && b.bad[n] == "" {
				b.bad[n] = sp.name + ": " + msg
			}
		}
		n++
	}
	return n, nil
}

func rawValues(hdr, rec []string) string {
	var sb strings.Builder
	for i, v := range rec {
		if i > 0 {
			sb.WriteByte(';')
		}
		if i < len(hdr) {
			sb.WriteString(hdr[i])
		} else {
			sb.WriteString("?")
		}
		sb.WriteByte('=')
		sb.WriteString(v)
	}
	return sb.String()
}

// parseCell decodes one CSV cell into the batch and returns a problem, if any.
func parseCell(b *batch, c, i int, sp colSpec, cell string) string {
	cell = strings.TrimSpace(cell)
	b.nulls[c][i] = cell == ""
	if cell == "" {
		return ""
	}
	switch sp.typ {
	case tString:
		b.strs[c][i] = cell
	case tInt:
		v, err := strconv.ParseInt(cell, 10, 64)
		if err != nil {
			b.nulls[c][i] = true
			return fmt.Sprintf("malformed integer %q", cell)
		}
		b.ints[c][i] = v
	case tDate:
		d, err := time.Parse(time.DateOnly, cell)
		if err != nil {
			b.nulls[c][i] = true
			return fmt.Sprintf("malformed date %q (want YYYY-MM-DD)", cell)
		}
		b.ints[c][i] = d.Unix() / 86400
	case tTime:
		t, err := parseTime(cell)
		if err != nil {
			b.nulls[c][i] = true
			return fmt.Sprintf("malformed timestamp %q", cell)
		}
		b.ints[c][i] = t.UnixMicro()
	case tBool:
		switch strings.ToLower(cell) {
		case "true", "t", "1", "yes", "y":
			b.ints[c][i] = 1
		case "false", "f", "0", "no", "n":
			b.ints[c][i] = 0
		default:
			b.nulls[c][i] = true
			return fmt.Sprintf("malformed boolean %q", cell)
		}
	case tCode:
		code, ok := resultCode([]byte(cell))
		if !ok {
			b.nulls[c][i] = true
			return fmt.Sprintf("invalid result code %q", cell)
		}
		b.ints[c][i] = int64(code)
	}
	return ""
}

func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad time %q", s)
}

// resultCode maps a TRF result code (letters in either case, ½ for =) to its byte.
func resultCode(s []byte) (byte, bool) {
	if string(s) == "½" {
		return '=', true
	}
	if len(s) != 1 {
		return 0, false
	}
	c := s[0]
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	switch c {
	case '1', '=', '0', '+', '-', 'W', 'D', 'L', 'H', 'F', 'U', 'Z':
		return c, true
	}
	return 0, false
}

// ---- Parquet, column by column, page by page ----

// fastPages lets integer and result-code columns be read straight from page
// data; off, every value goes through parquet.Value (the test that compares the
// two turns it off).
var fastPages = true

type parquetSource struct {
	f          fs.File
	pf         *parquet.File
	specs      []colSpec
	cols       []int   // spec → leaf column index, -1 absent
	scale      []int64 // tTime: multiplier to microseconds; tDate from timestamp: divisor
	kinds      []parquet.Kind
	dateFromTS []bool
	fast       []bool // read straight from page data when the page allows (colCursor.next)
	rg         int    // next row group
	curs       []*colCursor
	vals       []parquet.Value
	badCells   []badCell // of the batch being filled
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
func (c *colCursor) next(fast bool, typ colType) error {
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
	case typ == tCode && dict != nil && dict.Type().Kind() == parquet.ByteArray:
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
	case typ != tCode && dict == nil && kind == parquet.Int64:
		data := p.Data()
		c.i64 = data.Int64()
	case typ != tCode && dict == nil && kind == parquet.Int32:
		data := p.Data()
		c.i32 = data.Int32()
	default:
		c.vr = p.Values()
		return nil
	}
	c.rows, c.defs = int(p.NumRows()), p.DefinitionLevels()
	dense := c.rows
	if len(c.defs) > 0 {
		dense = 0
		for _, d := range c.defs {
			if d > 1 {
				return fmt.Errorf("definition level %d in a column that is not nested", d)
			}
			dense += int(d)
		}
	} else {
		c.defs = nil
	}
	if have := len(c.i64) + len(c.i32) + len(c.idx); (c.defs != nil && len(c.defs) != c.rows) || have != dense {
		return fmt.Errorf("page of %d rows with %d values", c.rows, have)
	}
	return nil
}

// readColumn fills rows [0, want) of the batch's column c, crossing pages, and
// returns how many it filled (fewer at the end of the row group).
func (s *parquetSource) readColumn(b *batch, c int, want int) (int, error) {
	cur, typ := s.curs[c], s.specs[c].typ
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
		ints, nulls := b.ints[c][n:n+k], b.nulls[c][n:n+k]
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
			cur.val = take(ints, nulls, defs, cur.idx, cur.val)
			for i, x := range ints {
				if nulls[i] {
					continue
				}
				if x < 0 || x >= int64(len(cur.dict)) {
					return n, fmt.Errorf("dictionary index %d of %d entries", x, len(cur.dict))
				}
				if ints[i] = cur.dict[x]; ints[i] < 0 {
					nulls[i], ints[i] = true, 0
					s.badCells = append(s.badCells, badCell{n + i, c})
				}
			}
		}
		n += k
		if cur.row += k; cur.row == cur.rows {
			parquet.Release(cur.page)
			cur.page = nil
		}
	}
	return n, nil
}

// take copies dense page values into rows: a row whose definition level is 0 is
// a null. It returns the position after the values taken.
func take[T int32 | int64](ints []int64, nulls []bool, defs []byte, data []T, val int) int {
	for i := range ints {
		if defs != nil && defs[i] == 0 {
			nulls[i], ints[i] = true, 0
			continue
		}
		nulls[i], ints[i] = false, int64(data[val])
		val++
	}
	return val
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

func newParquetSource(f fs.File, specs []colSpec) (_ *parquetSource, err error) {
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
	s := &parquetSource{f: f, pf: pf, specs: specs, vals: make([]parquet.Value, batchRows)}
	for _, sp := range specs {
		leaf, ok := pf.Schema().Lookup(sp.name)
		if !ok {
			if sp.required {
				return nil, fmt.Errorf("%w %q", ErrMissingColumn, sp.name)
			}
			s.cols = append(s.cols, -1)
			s.scale = append(s.scale, 0)
			s.kinds = append(s.kinds, 0)
			s.dateFromTS = append(s.dateFromTS, false)
			s.fast = append(s.fast, false)
			continue
		}
		if leaf.MaxRepetitionLevel > 0 {
			return nil, fmt.Errorf("%w: column %q is repeated", ErrUnreadable, sp.name)
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
		if sp.typ == tTime && !isTS && t.Kind() == parquet.Int32 {
			scale = 86400 * 1e6 // a DATE column: days → microseconds
		}
		s.cols = append(s.cols, leaf.ColumnIndex)
		s.scale = append(s.scale, scale)
		s.kinds = append(s.kinds, t.Kind())
		s.dateFromTS = append(s.dateFromTS, sp.typ == tDate && isTS)
		plainInt := (sp.typ == tInt || sp.typ == tDate) && !isTS && (t.Kind() == parquet.Int32 || t.Kind() == parquet.Int64)
		s.fast = append(s.fast, fastPages && leaf.MaxDefinitionLevel <= 1 && (plainInt || sp.typ == tCode && t.Kind() == parquet.ByteArray))
	}
	if err := checkPages(ra, st.Size(), pf, s.cols); err != nil {
		return nil, err
	}
	return s, nil
}

// checkParquetFooter refuses a file whose footer length does not fit in it:
// parquet.OpenFile would allocate whatever the last bytes claim (fuzzing found
// 800 MB for "PAR1PAR1").
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

func (s *parquetSource) fill(b *batch) (n int, err error) {
	defer guard(&err)
	return s.fillPages(b)
}

func (s *parquetSource) fillPages(b *batch) (int, error) {
	for {
		if s.curs == nil {
			rgs := s.pf.RowGroups()
			if s.rg == len(rgs) {
				return 0, io.EOF
			}
			chunks := rgs[s.rg].ColumnChunks()
			s.rg++
			s.curs = make([]*colCursor, len(s.specs))
			for c, ci := range s.cols {
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
			m, err := s.readColumn(b, c, batchRows)
			if err != nil && err != io.EOF {
				return 0, fmt.Errorf("column %s: %w", s.specs[c].name, err)
			}
			if n >= 0 && m != n {
				return 0, fmt.Errorf("column %s: %d values where other columns have %d", s.specs[c].name, m, n)
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
				for i := 0; i < n; i++ {
					b.nulls[c][i] = true
					if b.ints[c] != nil {
						b.ints[c][i] = 0
					}
				}
			}
		}
		for i := 0; i < n; i++ {
			b.bad[i] = ""
		}
		s.markBad(b)
		return n, nil
	}
}

// decode turns parquet values into rows off… of the batch's typed column c, for
// pages not read straight from their data (colCursor.next). A value that cannot
// be decoded becomes a null and is noted in s.badCells.
func (s *parquetSource) decode(b *batch, c, off int, vals []parquet.Value) {
	sp, nulls, ints := s.specs[c], b.nulls[c][off:], b.ints[c]
	if ints != nil {
		ints = ints[off:]
	}
	bad := func(i int) {
		nulls[i], ints[i] = true, 0
		s.badCells = append(s.badCells, badCell{off + i, c})
	}
	switch {
	case sp.typ == tString:
		for i, v := range vals {
			if nulls[i] = v.IsNull(); !nulls[i] {
				b.strs[c][off+i] = string(v.ByteArray())
			}
		}
	case sp.typ == tCode:
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
		for i, v := range vals {
			ints[i] = 0
			if nulls[i] = v.IsNull(); !nulls[i] {
				x, ok := s.anyInt(c, v)
				if !ok {
					bad(i)
					continue
				}
				ints[i] = x
			}
		}
	}
}

// anyInt decodes one non-null value of an integer, date, time or bool column.
func (s *parquetSource) anyInt(c int, v parquet.Value) (int64, bool) {
	sp := s.specs[c]
	if sp.typ == tBool {
		if v.Boolean() {
			return 1, true
		}
		return 0, true
	}
	var x int64
	switch s.kinds[c] {
	case parquet.Int32:
		x = int64(v.Int32())
	case parquet.Int64:
		x = v.Int64()
	case parquet.ByteArray:
		// Tolerate text dates/numbers in Parquet written by other tools.
		var err error
		if x, err = textToInt(sp.typ, string(v.ByteArray())); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	switch {
	case sp.typ == tTime && s.scale[c] > 0:
		x *= s.scale[c]
	case sp.typ == tTime && s.scale[c] < 0:
		x /= -s.scale[c]
	case s.dateFromTS[c]:
		x = floorDiv(x*max(s.scale[c], 1), 86400e6)
	}
	return x, true
}

// badCell is a cell that could not be read (by decode, or an invalid result code
// in readColumn's page path): row i of column c.
type badCell struct{ i, c int }

// markBad notes, per row, the first column (in spec order) that could not be
// decoded; decode notes bad cells column by column, so in that order.
func (s *parquetSource) markBad(b *batch) {
	for _, bc := range s.badCells {
		if b.bad[bc.i] == "" {
			b.bad[bc.i] = s.specs[bc.c].name + ": value of the wrong type or an invalid code"
		}
	}
	s.badCells = s.badCells[:0]
}

func textToInt(t colType, s string) (int64, error) {
	switch t {
	case tDate:
		d, err := time.Parse(time.DateOnly, s)
		return d.Unix() / 86400, err
	case tTime:
		d, err := parseTime(s)
		return d.UnixMicro(), err
	}
	return strconv.ParseInt(strings.TrimSpace(s), 10, 64)
}

// floorDiv divides rounding toward −∞ (days before 1970, period keys).
func floorDiv[T int | int64](a, b T) T {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
