package correct

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/zstdcodec"
)

// table is one archive table as found in the archive folder: its files,
// relative to the folder, as archive.Files finds them (none when absent).
type table struct {
	name  string
	files []string
}

func locate(dir, name string) (table, error) {
	files, err := archive.Files(os.DirFS(dir), name)
	if err != nil {
		return table{}, fmt.Errorf("%s: %w", dir, err)
	}
	return table{name, files}, nil
}

// folder tells whether the table is a folder of Parquet parts.
func (t table) folder() bool { return len(t.files) > 0 && strings.Contains(t.files[0], "/") }

func isCSV(file string) bool { return strings.HasSuffix(file, ".csv") }

// Lock takes the archive's lock, an flock(2) on its folder, so that one
// correction or import at a time changes it (ErrBusy otherwise); unlock
// releases it. The kernel drops the lock of a process that dies, and the
// archive gets no file for it. A folder that is not there yet needs none.
func Lock(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("archive %s: %w", dir, ErrBusy)
		}
		return nil, fmt.Errorf("lock archive %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}

// change is what one correction writes: temporary files in the archive
// folder, renamed over their tables' files in the order they were added once
// every one of them is written (apply), or removed (discard). A correction
// that fails before apply leaves the archive as it was.
type change struct {
	dir  string
	todo []pending
}

// pending is one file of a change: tmp replaces dst (both under dir); an
// empty tmp removes dst.
type pending struct{ tmp, dst string }

// create opens a temporary file beside dst for its new content.
func (c *change) create(dst string) (*os.File, error) {
	full := filepath.Join(c.dir, dst)
	f, err := os.CreateTemp(filepath.Dir(full), "."+filepath.Base(dst)+"-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", dst, err)
	}
	f.Chmod(0o644)
	return f, nil
}

// done closes f, written for dst, and queues it; on error f is removed.
func (c *change) done(f *os.File, dst string, err error) error {
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", dst, err)
	}
	c.todo = append(c.todo, pending{f.Name(), dst})
	return nil
}

// remove queues the removal of dst.
func (c *change) remove(dst string) { c.todo = append(c.todo, pending{"", dst}) }

// files lists the files the change writes or removes, in order.
func (c *change) files() []string {
	var out []string
	for _, p := range c.todo {
		out = append(out, filepath.ToSlash(p.dst))
	}
	return out
}

// discard removes the temporary files not renamed yet.
func (c *change) discard() {
	for _, p := range c.todo {
		if p.tmp != "" {
			os.Remove(p.tmp)
		}
	}
	c.todo = nil
}

// apply renames the temporary files into place, in order, unless ctx was
// canceled (an interrupted correction changes nothing).
func (c *change) apply(ctx context.Context) error {
	defer c.discard()
	if err := ctx.Err(); err != nil {
		return err
	}
	for len(c.todo) > 0 {
		p := c.todo[0]
		var err error
		if p.tmp == "" {
			err = os.Remove(filepath.Join(c.dir, p.dst))
		} else {
			err = os.Rename(p.tmp, filepath.Join(c.dir, p.dst))
		}
		if err != nil {
			return fmt.Errorf("replace %s: %w", p.dst, err)
		}
		c.todo = c.todo[1:]
	}
	return nil
}

// A sheet is one file of a small table (players, tournaments) held whole:
// its columns as the file has them and every row's cells. Cells keep what
// was read; only the cells a correction sets, and the rows it adds, are
// encoded anew, so that columns outside the archive schema and the file's
// own types are kept.
type sheet struct {
	file string // relative to the archive folder
	cols []string
	rows [][]cell
	bom  bool // CSV: the file started with a byte-order mark
	crlf bool // CSV: its lines end in CR LF

	schema   *parquet.Schema // Parquet
	leaves   []parquet.Node  // Parquet: each column's node
	rowGroup int64           // Parquet: rows per row group when written

	dirty bool
}

// cell is one cell of a sheet: its text as CSV holds it ("" and null for
// an empty cell), and in a Parquet sheet its value (the text is then made
// when asked for, by get).
type cell struct {
	text string
	null bool
	v    parquet.Value
}

// loadSheets reads every file of a small table.
func loadSheets(dir string, t table) ([]*sheet, error) {
	var out []*sheet
	for _, f := range t.files {
		var s *sheet
		var err error
		if isCSV(f) {
			s, err = loadCSVSheet(dir, f)
		} else {
			s, err = loadParquetSheet(dir, f)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func loadCSVSheet(dir, file string) (*sheet, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	s := &sheet{file: file}
	if rest, ok := bytes.CutPrefix(b, []byte("\ufeff")); ok {
		b, s.bom = rest, true
	}
	s.crlf = crlf(b)
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	hdr, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", file, err)
	}
	for _, h := range hdr {
		s.cols = append(s.cols, strings.TrimSpace(h))
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		row := make([]cell, max(len(rec), len(s.cols)))
		for i := range row {
			if i < len(rec) {
				row[i].text = rec[i]
			}
			row[i].null = strings.TrimSpace(row[i].text) == ""
		}
		s.rows = append(s.rows, row)
	}
	return s, nil
}

func loadParquetSheet(dir, file string) (*sheet, error) {
	f, err := os.Open(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pf, err := openParquet(f, file)
	if err != nil {
		return nil, err
	}
	s := &sheet{file: file, schema: pf.Schema(), rowGroup: rowGroupSize(pf)}
	for _, fl := range s.schema.Fields() {
		s.cols = append(s.cols, fl.Name())
		s.leaves = append(s.leaves, fl)
	}
	err = eachRow(pf, func(r parquet.Row) error {
		row := make([]cell, len(s.cols))
		for _, v := range r.Clone() {
			i := v.Column()
			row[i] = cell{null: v.IsNull(), v: v}
		}
		s.rows = append(s.rows, row)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	return s, nil
}

// openParquet opens a table file written as Parquet; only flat schemas (one
// value per column per row) are archive tables.
func openParquet(f *os.File, file string) (*parquet.File, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	for _, fl := range pf.Schema().Fields() {
		if !fl.Leaf() || fl.Repeated() {
			return nil, fmt.Errorf("%s: column %s is nested or repeated: not an archive table", file, fl.Name())
		}
	}
	return pf, nil
}

// rowGroupSize is the largest row group of pf: a rewrite keeps the file's
// row groups about as large as they were (at least 1024 rows).
func rowGroupSize(pf *parquet.File) int64 {
	n := int64(1024)
	for _, rg := range pf.RowGroups() {
		n = max(n, rg.NumRows())
	}
	return n
}

// eachRow hands fn every row of pf, in order. A row is only valid during the
// call: fn copies what it keeps.
func eachRow(pf *parquet.File, fn func(parquet.Row) error) error {
	buf := make([]parquet.Row, 256)
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, r := range buf[:n] {
				if ferr := fn(r); ferr != nil {
					rows.Close()
					return ferr
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
	}
	return nil
}

// col is the position of column name, -1 when the file has none.
func (s *sheet) col(name string) int {
	for i, c := range s.cols {
		if c == name {
			return i
		}
	}
	return -1
}

// get is the text of row r's cell of column name; ok is false for null or
// a column the file does not have.
func (s *sheet) get(r int, name string) (string, bool) {
	c := s.col(name)
	if c < 0 || c >= len(s.rows[r]) || s.rows[r][c].null {
		return "", false
	}
	if s.schema != nil {
		return strings.TrimSpace(valueText(s.rows[r][c].v, s.leaves[c])), true
	}
	return strings.TrimSpace(s.rows[r][c].text), true
}

// getInt is row r's cell of column name as an integer; ok is false for null
// or a cell that is not one.
func (s *sheet) getInt(r int, name string) (int64, bool) {
	text, ok := s.get(r, name)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(text, 10, 64)
	return v, err == nil
}

// find is the row whose column name holds id, or -1.
func (s *sheet) find(name string, id int64) int {
	for r := range s.rows {
		if v, ok := s.getInt(r, name); ok && v == id {
			return r
		}
	}
	return -1
}

// set sets row r's cell of column name (text as CSV writes it; null for an
// empty cell). A file without the column gets it (addColumn); a Parquet file
// takes no value its column's type does not hold.
func (s *sheet) set(r int, name, text string, null bool) error {
	c := s.col(name)
	if c < 0 {
		if err := s.addColumn(name); err != nil {
			return err
		}
		c = s.col(name)
	}
	for len(s.rows[r]) <= c {
		s.rows[r] = append(s.rows[r], cell{null: true})
	}
	nc := cell{text: text, null: null}
	if s.schema != nil {
		v, err := textValue(text, null, s.leaves[c], c)
		if err != nil {
			return fmt.Errorf("%s column %s: %w: %w", s.file, name, err, ErrUsage)
		}
		nc.v = v
	}
	s.rows[r][c] = nc
	s.dirty = true
	return nil
}

// add appends a row of the given cells (text by column; a column left out
// is null).
func (s *sheet) add(cells map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(cells)) {
		if s.col(name) < 0 {
			if err := s.addColumn(name); err != nil {
				return err
			}
		}
	}
	row := make([]cell, len(s.cols))
	for c, name := range s.cols {
		text, ok := cells[name]
		row[c] = cell{text: text, null: !ok}
		if s.schema != nil {
			v, err := textValue(text, !ok, s.leaves[c], c)
			if err != nil {
				return fmt.Errorf("%s column %s: %w: %w", s.file, name, err, ErrUsage)
			}
			row[c].v = v
		}
	}
	s.rows = append(s.rows, row)
	s.dirty = true
	return nil
}

// addColumn adds an optional column to the file: at the end of a CSV
// header, and in a Parquet schema (a column of the archive schema only, of
// its type; parquet-go orders a built schema's columns by name, which the
// archive reader, finding columns by name, does not mind).
func (s *sheet) addColumn(name string) error {
	if s.schema == nil {
		s.cols = append(s.cols, name)
		return nil
	}
	node, ok := columnNode(name)
	if !ok {
		return fmt.Errorf("%s has no column %s: %w", s.file, name, ErrUsage)
	}
	g := parquet.Group{name: parquet.Optional(node)}
	for i, c := range s.cols {
		g[c] = s.leaves[i]
	}
	schema := parquet.NewSchema(s.schema.Name(), g)
	var cols []string
	var leaves []parquet.Node
	for _, fl := range schema.Fields() {
		cols = append(cols, fl.Name())
		leaves = append(leaves, fl)
	}
	for r, row := range s.rows {
		nr := make([]cell, len(cols))
		for j, c := range cols {
			i := s.col(c)
			if i < 0 || i >= len(row) {
				nr[j] = cell{null: true, v: parquet.NullValue().Level(0, 0, j)}
				continue
			}
			nr[j] = row[i]
			nr[j].v = row[i].v.Level(row[i].v.RepetitionLevel(), row[i].v.DefinitionLevel(), j)
		}
		s.rows[r] = nr
	}
	s.schema, s.cols, s.leaves = schema, cols, leaves
	s.dirty = true
	return nil
}

// columnNode is the Parquet node of an archive column: the type the
// archive's writers give it.
func columnNode(name string) (parquet.Node, bool) {
	t, ok := columnType(name)
	if !ok {
		return nil, false
	}
	switch t {
	case archive.Int:
		return parquet.Int(64), true
	case archive.Int32:
		return parquet.Int(32), true
	case archive.Date:
		return parquet.Date(), true
	case archive.Bool:
		return parquet.Leaf(parquet.BooleanType), true
	case archive.Time:
		return parquet.Timestamp(parquet.Microsecond), true
	}
	return parquet.String(), true
}

// delete removes row r.
func (s *sheet) delete(r int) {
	s.rows = append(s.rows[:r], s.rows[r+1:]...)
	s.dirty = true
}

// write queues the sheet's new content in c, when it changed.
func (s *sheet) write(c *change) error {
	if !s.dirty {
		return nil
	}
	f, err := c.create(s.file)
	if err != nil {
		return err
	}
	if s.schema == nil {
		err = s.writeCSV(f)
	} else {
		err = s.writeParquet(f)
	}
	return c.done(f, s.file, err)
}

func (s *sheet) writeCSV(f *os.File) error {
	bw := bufio.NewWriter(f)
	if s.bom {
		bw.WriteString("\ufeff")
	}
	w := csv.NewWriter(bw)
	w.UseCRLF = s.crlf
	w.Write(s.cols)
	rec := make([]string, len(s.cols))
	for _, row := range s.rows {
		for i := range rec {
			rec[i] = ""
			if i < len(row) && !row[i].null {
				rec[i] = row[i].text
			}
		}
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

func (s *sheet) writeParquet(f *os.File) error {
	w := newWriter(f, s.schema, s.rowGroup)
	rows := make([]parquet.Row, len(s.rows))
	for i, row := range s.rows {
		r := make(parquet.Row, len(row))
		for c := range row {
			r[c] = row[c].v
		}
		rows[i] = r
	}
	if _, err := w.WriteRows(rows); err != nil {
		return err
	}
	return w.Close()
}

// newWriter writes the archive's zstd Parquet with the schema of the file it
// replaces.
func newWriter(f io.Writer, schema *parquet.Schema, rowGroup int64) *parquet.Writer {
	return parquet.NewWriter(f, schema, parquet.Compression(zstdcodec.Codec), parquet.MaxRowsPerRowGroup(rowGroup))
}

// valueText is a Parquet value as a CSV cell holds it ("" for null).
func valueText(v parquet.Value, n parquet.Node) string {
	if v.IsNull() {
		return ""
	}
	t := n.Type()
	if lt := t.LogicalType(); lt != nil {
		switch lt.Value.(type) {
		case *format.DateType:
			return day.Day(v.Int32()).String()
		}
	}
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.FormatBool(v.Boolean())
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10)
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10)
	case parquet.Float:
		return strconv.FormatFloat(float64(v.Float()), 'g', -1, 32)
	case parquet.Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64)
	}
	return string(v.ByteArray())
}

// textValue encodes text (a CSV cell) as a value of column c, whose node is
// n; null gives a null, which only an optional column takes.
func textValue(text string, null bool, n parquet.Node, c int) (parquet.Value, error) {
	def := 0
	if n.Optional() {
		def = 1
	}
	if null {
		if !n.Optional() {
			return parquet.Value{}, errors.New("required: it cannot be empty")
		}
		return parquet.NullValue().Level(0, 0, c), nil
	}
	t := n.Type()
	var v parquet.Value
	if lt := t.LogicalType(); lt != nil {
		switch lt.Value.(type) {
		case *format.DateType:
			d, err := archive.ParseCell(archive.Date, text)
			if err != nil {
				return v, err
			}
			return parquet.Int32Value(int32(d)).Level(0, def, c), nil
		case *format.TimestampType:
			return v, errors.New("a timestamp column is not written by corrections")
		}
	}
	switch t.Kind() {
	case parquet.Boolean:
		b, err := archive.ParseCell(archive.Bool, text)
		if err != nil {
			return v, err
		}
		v = parquet.BooleanValue(b == 1)
	case parquet.Int32:
		i, err := strconv.ParseInt(text, 10, 32)
		if err != nil {
			return v, fmt.Errorf("%q is not a 32-bit integer", text)
		}
		v = parquet.Int32Value(int32(i))
	case parquet.Int64:
		i, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return v, fmt.Errorf("%q is not an integer", text)
		}
		v = parquet.Int64Value(i)
	case parquet.Float:
		x, err := strconv.ParseFloat(text, 32)
		if err != nil {
			return v, fmt.Errorf("%q is not a number", text)
		}
		v = parquet.FloatValue(float32(x))
	case parquet.Double:
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return v, fmt.Errorf("%q is not a number", text)
		}
		v = parquet.DoubleValue(x)
	case parquet.ByteArray:
		v = parquet.ByteArrayValue([]byte(text))
	default:
		return v, fmt.Errorf("column type %s is not written by corrections", t)
	}
	return v.Level(0, def, c), nil
}

// intOf is an integer cell of a Parquet row (an id): ok is false for null or
// a value that is not an integer.
func intOf(v parquet.Value, n parquet.Node) (int64, bool) {
	switch {
	case v.IsNull():
		return 0, false
	case v.Kind() == parquet.Int64:
		return v.Int64(), true
	case v.Kind() == parquet.Int32:
		return int64(v.Int32()), true
	}
	x, err := strconv.ParseInt(strings.TrimSpace(valueText(v, n)), 10, 64)
	return x, err == nil && x != math.MinInt64
}
