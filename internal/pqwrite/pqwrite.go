// Package pqwrite writes Parquet files a whole column at a time: typed
// slices of values with their definition and repetition levels, where
// parquet-go's ColumnWriter takes one parquet.Value per value. It writes the
// file parquet-go's writer would write for the same schema, options and rows
// handed to it 64 at a time, byte for byte (data pages v2, the schema's
// encodings and compression, dictionary, chunk statistics, column and offset
// index, level histograms), from parquet-go's own building blocks: its format
// structs, thrift encoder, value encodings and column indexers. Its own option
// CompressIfWorth, which parquet-go lacks, leaves a column's pages
// uncompressed chunk by chunk, not its cells.
package pqwrite

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Writer writes one Parquet file. Its columns (Column) take values in row
// order; Flush ends a row group (every column must have the same rows by
// then), Close the file. Row groups can also be filled apart, concurrently
// (NewRowGroup), and written in turn (WriteRowGroup).
type Writer struct {
	out       offsetWriter
	meta      format.FileMetaData // the schema, writer and column orders, from parquet-go
	leaves    []parquet.LeafColumn
	config    *parquet.WriterConfig
	codec     compress.Codec // the columns' without a codec of their own
	rg        *RowGroup      // Column's
	colIndex  [][]format.ColumnIndex
	offIndex  [][]format.OffsetIndex
	pageLimit int
	closed    bool
	sampled   [][]string // the columns of CompressIfWorth
}

// RowGroup is a row group's columns being filled: Writer.Column's, or one of
// NewRowGroup. One goroutine at a time fills it.
type RowGroup struct {
	w    *Writer
	cols []*Column
	buf  *pageBuffers // its columns encode one page at a time
}

// pageBuffers are the scratch of a page's encoding.
type pageBuffers struct {
	values, compressed, levels, def []byte
}

// New returns a writer of a file with the schema and the writer options
// given (parquet-go's, and CompressIfWorth): it honors the schema's encodings
// and compression, Compression, PageBufferSize, SkipPageBounds and
// ColumnIndexSizeLimit, and writes no statistics in page headers
// (parquet.DataPageStatistics(false)).
func New(w io.Writer, schema *parquet.Schema, options ...parquet.WriterOption) (*Writer, error) {
	options = append([]parquet.WriterOption{schema}, options...)
	config, err := parquet.NewWriterConfig(options...)
	if err != nil {
		return nil, fmt.Errorf("parquet writer config: %w", err)
	}
	if config.DataPageStatistics || config.Encryption != nil || len(config.BloomFilters) > 0 || len(config.Sorting.SortingColumns) > 0 {
		return nil, errors.New("pqwrite: page statistics, encryption, bloom filters and sorting columns are not supported")
	}
	meta, err := footerOf(schema, options)
	if err != nil {
		return nil, err
	}
	wr := &Writer{out: offsetWriter{w: w}, meta: meta, config: config, codec: config.Compression,
		pageLimit: int(float64(config.PageBufferSize) * 0.98)}
	for _, o := range options {
		if o, ok := o.(compressIfWorth); ok {
			wr.sampled = append(wr.sampled, o.path)
		}
	}
	if wr.codec == nil {
		wr.codec = &parquet.Uncompressed
	}
	for i, path := range schema.Columns() {
		leaf, _ := schema.Lookup(path...)
		leaf.Path = path // Lookup's is the last name only, for a nested leaf
		if leaf.ColumnIndex != i {
			return nil, fmt.Errorf("pqwrite: column %v out of order", path)
		}
		wr.leaves = append(wr.leaves, leaf)
	}
	wr.rg = wr.NewRowGroup()
	return wr, nil
}

// NewRowGroup returns an empty row group of the file's columns, to be filled
// and then written with WriteRowGroup.
func (w *Writer) NewRowGroup() *RowGroup {
	rg := &RowGroup{w: w, buf: sparePages.Get()}
	for _, leaf := range w.leaves {
		c := newColumn(w, leaf, w.codec, w.config)
		c.buf = rg.buf
		rg.cols = append(rg.cols, c)
	}
	return rg
}

// CompressIfWorth is a writer option for the column at path: each of its
// column chunks' data pages are compressed with its codec only when the
// codec shrinks a sample of the chunk's first page by at least an eighth,
// else stored uncompressed (is_compressed false in their headers; the
// chunk's codec and its dictionary page stay compressed, as parquet-go's
// reader takes the first chunk's codec for every chunk of a column). For
// values that compress well in some row groups and not at all in others:
// the codec's CPU is spent only where it saves bytes.
func CompressIfWorth(path ...string) parquet.WriterOption { return compressIfWorth{path} }

type compressIfWorth struct{ path []string }

// ConfigureWriter: the option is New's, not parquet-go's.
func (compressIfWorth) ConfigureWriter(*parquet.WriterConfig) {}

// sampleSize is how many bytes of a chunk's first page CompressIfWorth
// compresses to decide.
const sampleSize = 64 << 10

// footerOf is the footer parquet-go writes for a file of schema without rows:
// its schema elements, created_by and column orders are this file's.
func footerOf(schema *parquet.Schema, options []parquet.WriterOption) (format.FileMetaData, error) {
	var buf bytes.Buffer
	var meta format.FileMetaData
	if err := parquet.NewWriter(&buf, options...).Close(); err != nil {
		return meta, fmt.Errorf("parquet footer of %s: %w", schema.Name(), err)
	}
	b := buf.Bytes()
	if len(b) < 12 {
		return meta, fmt.Errorf("parquet footer of %s: %d bytes", schema.Name(), len(b))
	}
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), b[len(b)-8-n:len(b)-8], &meta); err != nil {
		return meta, fmt.Errorf("parquet footer of %s: %w", schema.Name(), err)
	}
	meta.RowGroups, meta.NumRows = nil, 0
	if meta.KeyValueMetadata == nil {
		// parquet-go writes an empty list, which reads back as nil.
		meta.KeyValueMetadata = []format.KeyValue{}
	}
	return meta, nil
}

// Column is the column of leaf i in the schema, of the writer's own row
// group (Flush).
func (w *Writer) Column(i int) *Column { return w.rg.cols[i] }

// Lookup is the column at path in the writer's own row group; ok is false
// when the schema has none.
func (w *Writer) Lookup(path ...string) (c *Column, ok bool) { return w.rg.Lookup(path...) }

// Column is the row group's column of leaf i in the schema.
func (rg *RowGroup) Column(i int) *Column { return rg.cols[i] }

// Lookup is the row group's column at path; ok is false when the schema has
// none.
func (rg *RowGroup) Lookup(path ...string) (c *Column, ok bool) {
	for _, c := range rg.cols {
		if slices.Equal(c.leaf.Path, path) {
			return c, true
		}
	}
	return nil, false
}

// Flush ends the writer's own row group: it writes each column's pages (and
// dictionary). A row group without rows writes nothing.
func (w *Writer) Flush() error { return w.WriteRowGroup(w.rg) }

// Finish encodes the row group's last pages and dictionaries, so that
// WriteRowGroup has only to copy them; WriteRowGroup calls it when not
// called. It checks that every column has the same rows.
func (rg *RowGroup) Finish() error {
	rows := rg.cols[0].numRows()
	for _, c := range rg.cols {
		if c.numRows() != rows {
			return fmt.Errorf("pqwrite: column %v has %d rows, column %v %d", c.leaf.Path, c.numRows(), rg.cols[0].leaf.Path, rows)
		}
	}
	for _, c := range rg.cols {
		if err := c.finish(); err != nil {
			return fmt.Errorf("column %v: %w", c.leaf.Path, err)
		}
	}
	return nil
}

// WriteRowGroup writes rg (of this writer) to the file as its next row group
// and empties it for the next rows. A row group without rows writes nothing.
func (w *Writer) WriteRowGroup(rg *RowGroup) error {
	if w.closed {
		return errors.New("pqwrite: write after close")
	}
	if err := rg.Finish(); err != nil {
		return err
	}
	rows := rg.cols[0].rows
	if rows == 0 {
		return nil
	}
	if err := w.header(); err != nil {
		return err
	}
	g := format.RowGroup{NumRows: rows, FileOffset: w.out.n, Ordinal: int16(len(w.meta.RowGroups)),
		SortingColumns: []format.SortingColumn{}} // parquet-go writes an empty list
	ci := make([]format.ColumnIndex, len(rg.cols))
	oi := make([]format.OffsetIndex, len(rg.cols))
	for i, c := range rg.cols {
		chunk, err := c.writeTo(&w.out)
		if err != nil {
			return fmt.Errorf("column %v: %w", c.leaf.Path, err)
		}
		g.Columns = append(g.Columns, chunk)
		g.TotalByteSize += chunk.MetaData.TotalUncompressedSize
		g.TotalCompressedSize += chunk.MetaData.TotalCompressedSize
		ci[i], oi[i] = c.columnIndex(), c.offsetIndex()
		c.reset()
	}
	w.meta.RowGroups = append(w.meta.RowGroups, g)
	w.meta.NumRows += rows
	w.colIndex, w.offIndex = append(w.colIndex, ci), append(w.offIndex, oi)
	return nil
}

// Close flushes the last row group and writes the page index and the footer.
func (w *Writer) Close() error {
	if err := w.Flush(); err != nil {
		return err
	}
	w.closed = true
	if err := w.header(); err != nil {
		return err
	}
	for i := range w.colIndex {
		for j := range w.colIndex[i] {
			c := &w.meta.RowGroups[i].Columns[j]
			c.ColumnIndexOffset = w.out.n
			if err := w.marshal(&w.colIndex[i][j]); err != nil {
				return err
			}
			c.ColumnIndexLength = int32(w.out.n - c.ColumnIndexOffset)
		}
	}
	for i := range w.offIndex {
		for j := range w.offIndex[i] {
			c := &w.meta.RowGroups[i].Columns[j]
			c.OffsetIndexOffset = w.out.n
			if err := w.marshal(&w.offIndex[i][j]); err != nil {
				return err
			}
			c.OffsetIndexLength = int32(w.out.n - c.OffsetIndexOffset)
		}
	}
	start := w.out.n
	if err := w.marshal(&w.meta); err != nil {
		return err
	}
	tail := binary.LittleEndian.AppendUint32(nil, uint32(w.out.n-start))
	_, err := w.out.Write(append(tail, "PAR1"...))
	// The buffers go to the next files' columns, though the writer may be kept.
	w.rg.release()
	w.rg, w.colIndex, w.offIndex, w.meta = nil, nil, nil, format.FileMetaData{}
	return err
}

// header writes the file's magic first.
func (w *Writer) header() error {
	if w.out.n > 0 {
		return nil
	}
	_, err := w.out.Write([]byte("PAR1"))
	return err
}

func (w *Writer) marshal(v any) error {
	b, err := thrift.Marshal(new(thrift.CompactProtocol), v)
	if err != nil {
		return fmt.Errorf("pqwrite: %w", err)
	}
	_, err = w.out.Write(b)
	return err
}

// offsetWriter counts the bytes written.
type offsetWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (o *offsetWriter) Write(b []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(b)
	o.n += int64(n)
	o.err = err
	return n, err
}

// Column is one leaf column of a file: its values go into pages as they
// come, a page ending at a row boundary once its values take the writer's
// page size.
type Column struct {
	w        *Writer
	leaf     parquet.LeafColumn
	typ      parquet.Type
	kind     parquet.Kind
	enc      encoding.Encoding // the data pages' encoding
	codec    compress.Codec
	sampled  bool // CompressIfWorth: raw is decided at the chunk's first page
	raw      bool // the chunk's data pages are stored uncompressed
	bounds   bool // min and max in the chunk's statistics and the column index
	maxDef   byte
	maxRep   byte
	dict     *dictionary // nil: not dictionary-encoded
	indexer  parquet.ColumnIndexer
	page     *page    // the page being filled
	rows     int64    // rows in the chunk's pages so far
	slabs    [][]byte // the chunk's data pages (header, levels and values of each), in order, reused from row group to row group
	cur      int      // the slab being filled
	size     int64    // the data pages' bytes
	dictPage []byte   // the chunk's dictionary page, made by finish; empty before
	meta     format.ColumnMetaData
	locs     []format.PageLocation
	repHist  []int64 // the chunk's level histograms, then one per page
	defHist  []int64
	pageRep  []int64
	pageDef  []int64
	nullRows int64 // the chunk's null count
	min, max parquet.Value
	buf      *pageBuffers // its row group's
	dictIdx  []int32      // StringIndexes' scratch
	dictVals []dictIndex
}

func newColumn(w *Writer, leaf parquet.LeafColumn, defaultCodec compress.Codec, config *parquet.WriterConfig) *Column {
	node := leaf.Node
	c := &Column{
		w: w, leaf: leaf, typ: node.Type(), kind: node.Type().Kind(),
		maxDef: byte(leaf.MaxDefinitionLevel), maxRep: byte(leaf.MaxRepetitionLevel),
		codec:   node.Compression(),
		indexer: node.Type().NewColumnIndexer(config.ColumnIndexSizeLimit(leaf.Path)),
		bounds: !slices.ContainsFunc(config.SkipPageBounds, func(p []string) bool {
			return slices.Equal(p, leaf.Path)
		}),
	}
	if c.codec == nil {
		c.codec = defaultCodec
	}
	c.sampled = slices.ContainsFunc(w.sampled, func(p []string) bool { return slices.Equal(p, leaf.Path) })
	// The encoding parquet-go picks (encodingOf): the node's, else
	// DELTA_LENGTH_BYTE_ARRAY for byte arrays, else PLAIN.
	c.enc = node.Encoding()
	switch {
	case c.enc == nil && c.kind == parquet.ByteArray:
		c.enc = &parquet.DeltaLengthByteArray
	case c.enc == nil:
		c.enc = &parquet.Plain
	case c.enc.Encoding() == format.RLEDictionary || c.enc.Encoding() == format.PlainDictionary:
		c.enc = &parquet.RLEDictionary
	}
	b := takeColumnBuffers(c.kind, c.enc == &parquet.RLEDictionary)
	c.page, c.slabs, c.dict, c.dictPage, c.dictIdx, c.dictVals = b.page, b.slabs, b.dict, b.dictPage, b.dictIdx, b.dictVals
	var encs []format.Encoding
	if c.maxDef > 0 {
		encs = append(encs, format.RLE)
	}
	if c.dict != nil {
		encs = append(encs, format.Plain)
	}
	if e := c.enc.Encoding(); !slices.Contains(encs, e) {
		encs = append(encs, e)
	}
	slices.Sort(encs)
	c.meta = format.ColumnMetaData{
		Type: format.Type(c.kind), Encoding: encs, PathInSchema: leaf.Path,
		Codec: c.codec.CompressionCodec(),
	}
	if c.maxRep > 0 {
		c.repHist = make([]int64, c.maxRep+1)
	}
	if c.maxDef > 0 {
		c.defHist = make([]int64, c.maxDef+1)
	}
	return c
}

// numRows is the rows of the column's row group so far.
func (c *Column) numRows() int64 {
	return c.rows + c.page.rows
}

// page is the values and levels of the page being filled: the values in the
// slice of the column's kind (a dictionary column's in idx).
type page struct {
	def, rep []byte
	i32      []int32
	i64      []int64
	f64      []float64
	bytes    []byte   // byte arrays' bytes
	offs     []uint32 // byte arrays' offsets into bytes, from 0
	idx      []int32  // dictionary indexes
	uses     uint64   // bit j%64 for each index j in idx (note)
	greatest int32    // the greatest index in idx (0 when none)
	levels   int      // definition levels (values and nulls)
	values   int
	rows     int64
	size     int // the values' plain size
}

// Int32 appends values to an INT32 column (see write).
func (c *Column) Int32(vals []int32, def, rep []byte) error {
	return write(c, parquet.Int32, vals, def, rep, func(p *page, v []int32) int {
		p.i32 = append(grow(p.i32, c.w.pageLimit/4), v...)
		return 4 * len(v)
	})
}

// Int64 appends values to an INT64 column (see write).
func (c *Column) Int64(vals []int64, def, rep []byte) error {
	return write(c, parquet.Int64, vals, def, rep, func(p *page, v []int64) int {
		p.i64 = append(grow(p.i64, c.w.pageLimit/8), v...)
		return 8 * len(v)
	})
}

// Double appends values to a DOUBLE column (see write).
func (c *Column) Double(vals []float64, def, rep []byte) error {
	return write(c, parquet.Double, vals, def, rep, func(p *page, v []float64) int {
		p.f64 = append(grow(p.f64, c.w.pageLimit/8), v...)
		return 8 * len(v)
	})
}

// String appends values to a BYTE_ARRAY column (see write).
func (c *Column) String(vals []string, def, rep []byte) error {
	return write(c, parquet.ByteArray, vals, def, rep, func(p *page, v []string) int {
		n := len(p.bytes)
		p.bytes = grow(p.bytes, c.w.pageLimit)
		if len(p.offs) == 0 {
			p.offs = append(p.offs, 0)
		}
		for _, s := range v {
			p.bytes = append(p.bytes, s...)
			p.offs = append(p.offs, uint32(len(p.bytes)))
		}
		return len(p.bytes) - n + 4*len(v)
	})
}

// StringIndexes appends values to a dictionary-encoded BYTE_ARRAY column
// as indexes into dict: the set levels' values are dict[idx[0]],
// dict[idx[1]]... It writes what String writes of those values, looking
// each distinct one up once rather than each value (see write).
func (c *Column) StringIndexes(dict []string, idx []int32, def, rep []byte) error {
	if c.dict == nil || c.kind != parquet.ByteArray {
		return fmt.Errorf("pqwrite: column %v is not a dictionary of byte arrays", c.leaf.Path)
	}
	// The column's index of each of dict's values, found when first used:
	// the column's dictionary takes its values in the order they come.
	tr := c.dictIdx[:0]
	for range dict {
		tr = append(tr, -1)
	}
	ix := slices.Grow(c.dictVals[:0], len(idx))[:len(idx)]
	for i, j := range idx {
		if uint(j) >= uint(len(tr)) {
			return fmt.Errorf("pqwrite: column %v: index %d of a dictionary of %d", c.leaf.Path, j, len(dict))
		}
		t := tr[j]
		if t < 0 {
			index(c.dict.str, &c.dict.vstr, dict[j:j+1], tr[j:j+1])
			t = tr[j]
		}
		ix[i] = dictIndex(t)
	}
	c.dictIdx, c.dictVals = tr, ix
	return write(c, parquet.ByteArray, ix, def, rep, nil)
}

// dictIndex is a value of a dictionary column given by its index in the
// column's dictionary (StringIndexes).
type dictIndex int32

// grow gives a page's empty slice room for a page of values (n, and a
// piece's more): appending to it then copies nothing.
func grow[T any](s []T, n int) []T {
	if cap(s) == 0 {
		return make([]T, 0, n+piece)
	}
	return s
}

// piece is how many rows write adds to a page at a time before it looks at
// the page's size: parquet-go's GenericWriter hands its column writers 64
// rows at a time, and a caller's rows come from the start of each call, so
// that pages end where parquet-go's do.
const piece = 64

// write appends whole rows to column c of kind k: vals are the values of the
// levels at the column's maximum definition level, def the definition
// levels (nil: every value is set, one level each), rep the repetition
// levels (nil: a row per level). add appends values to a page, returning
// their plain size.
func write[T any](c *Column, k parquet.Kind, vals []T, def, rep []byte, add func(*page, []T) int) error {
	if c.kind != k {
		return fmt.Errorf("pqwrite: column %v is %v, not %v", c.leaf.Path, c.kind, k)
	}
	n := len(vals)
	if def != nil {
		n = len(def)
	}
	if rep != nil && len(rep) != n || rep != nil && n > 0 && rep[0] != 0 {
		return fmt.Errorf("pqwrite: column %v: %d repetition levels for %d values, not starting a row", c.leaf.Path, len(rep), n)
	}
	p := c.page
	v := 0
	for lo := 0; lo < n; {
		hi, rows := min(n, lo+piece), 0
		if rep != nil {
			hi = lo + 1
			for rows = 1; hi < n; hi++ {
				if rep[hi] == 0 {
					if rows == piece {
						break
					}
					rows++
				}
			}
			p.rep = append(p.rep, rep[lo:hi]...)
		} else {
			rows = hi - lo
			if c.maxRep > 0 {
				p.rep = appendLevel(p.rep, 0, hi-lo)
			}
		}
		nv := hi - lo
		if def != nil {
			nv = 0
			for _, d := range def[lo:hi] {
				if d == c.maxDef {
					nv++
				}
			}
			p.def = append(p.def, def[lo:hi]...)
		} else if c.maxDef > 0 {
			p.def = appendLevel(p.def, c.maxDef, hi-lo)
		}
		if v+nv > len(vals) {
			return fmt.Errorf("pqwrite: column %v: %d values for more set levels", c.leaf.Path, len(vals))
		}
		if c.dict != nil {
			at := len(p.idx)
			p.idx = addDict(c.dict, grow(p.idx, c.w.pageLimit/4), vals[v:v+nv])
			p.note(p.idx[at:])
			p.size += 4 * nv
		} else {
			p.size += add(p, vals[v:v+nv])
		}
		v += nv
		p.levels += hi - lo
		p.values += nv
		p.rows += int64(rows)
		if c.bufferSize() >= c.w.pageLimit {
			if err := c.flushPage(); err != nil {
				return err
			}
		}
		lo = hi
	}
	if v != len(vals) {
		return fmt.Errorf("pqwrite: column %v: %d values for %d set levels", c.leaf.Path, len(vals), v)
	}
	return nil
}

// bufferSize is what parquet-go's column buffer would count for the page:
// the values' plain size, and for an optional column 4 bytes a row and its
// levels, for a repeated one 8 bytes a row and its levels.
func (c *Column) bufferSize() int {
	p := c.page
	switch {
	case c.maxRep > 0:
		return p.size + 8*int(p.rows) + len(p.rep) + len(p.def)
	case c.maxDef > 0:
		return p.size + 4*p.levels + len(p.def)
	}
	return p.size
}

func appendLevel(b []byte, l byte, n int) []byte {
	m := len(b)
	b = slices.Grow(b, n)[:m+n]
	s := b[m:]
	for i := range s {
		s[i] = l
	}
	return b
}

// flushPage encodes, compresses and appends the page to the chunk's pages.
func (c *Column) flushPage() error {
	p := c.page
	if p == nil || p.levels == 0 {
		return nil
	}
	var (
		data []byte
		err  error
	)
	switch {
	case c.dict != nil:
		data, err = encodeIndexes(c.buf.values[:0], p.idx, p.greatest)
	case c.kind == parquet.Int32:
		data, err = c.enc.EncodeInt32(c.buf.values[:0], p.i32)
	case c.kind == parquet.Int64:
		data, err = c.enc.EncodeInt64(c.buf.values[:0], p.i64)
	case c.kind == parquet.Double:
		data, err = c.enc.EncodeDouble(c.buf.values[:0], p.f64)
	default:
		offs := p.offs
		if len(offs) == 0 {
			offs = []uint32{0}
		}
		data, err = c.enc.EncodeByteArray(c.buf.values[:0], p.bytes, offs)
	}
	if err != nil {
		return fmt.Errorf("encode page: %w", err)
	}
	c.buf.values = data
	levels := c.buf.levels[:0]
	if c.maxRep > 0 {
		levels, err = levelEncoding(c.maxRep).EncodeLevels(levels, p.rep)
		if err != nil {
			return fmt.Errorf("encode repetition levels: %w", err)
		}
	}
	nRep := len(levels)
	if c.maxDef > 0 {
		c.buf.def, err = levelEncoding(c.maxDef).EncodeLevels(c.buf.def, p.def)
		if err != nil {
			return fmt.Errorf("encode definition levels: %w", err)
		}
		levels = append(levels, c.buf.def...)
	}
	c.buf.levels = levels
	body, err := c.compress(data)
	if err != nil {
		return fmt.Errorf("compress page: %w", err)
	}
	crc := crc32.Update(crc32.Update(0, crc32.IEEETable, levels), crc32.IEEETable, body)
	nulls := p.levels - p.values
	h := format.PageHeader{
		Type:                 format.DataPageV2,
		UncompressedPageSize: int32(len(levels) + len(data)),
		CompressedPageSize:   int32(len(levels) + len(body)),
		CRC:                  int32(crc),
		DataPageHeaderV2: thrift.New(format.DataPageHeaderV2{
			NumValues: int32(p.levels), NumNulls: int32(nulls), NumRows: int32(p.rows),
			Encoding:                   c.enc.Encoding(),
			DefinitionLevelsByteLength: int32(len(levels) - nRep),
			RepetitionLevelsByteLength: int32(nRep),
			IsCompressed:               thrift.New(c.meta.Codec != format.Uncompressed && !c.raw), // as parquet-go marks them
		}),
	}
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		return fmt.Errorf("page header: %w", err)
	}
	c.locs = append(c.locs, format.PageLocation{
		Offset: c.size, CompressedPageSize: int32(len(hb)) + h.CompressedPageSize, FirstRowIndex: c.rows,
	})
	c.appendPage(hb, levels, body)
	c.size += int64(len(hb)) + int64(h.CompressedPageSize)

	var lo, hi parquet.Value // null: none (parquet-go's SkipPageBounds, nulls or NaNs only)
	if c.bounds {
		if l, h, ok := c.pageBounds(); ok {
			lo, hi = l, h
		}
	}
	if !lo.IsNull() {
		if c.min.IsNull() || c.typ.Compare(lo, c.min) < 0 {
			c.min = lo.Clone()
		}
		if c.max.IsNull() || c.typ.Compare(hi, c.max) > 0 {
			c.max = hi.Clone()
		}
	}
	c.indexer.IndexPage(int64(p.levels), int64(nulls), lo, hi)
	if c.maxRep > 0 {
		c.pageRep = histogram(c.repHist, c.pageRep, p.rep, c.maxRep)
	}
	if c.maxDef > 0 {
		c.pageDef = histogram(c.defHist, c.pageDef, p.def, c.maxDef)
	}
	if c.kind == parquet.ByteArray && c.dict == nil {
		c.meta.SizeStatistics.UnencodedByteArrayDataBytes += int64(len(p.bytes))
	}
	c.meta.NumValues += int64(p.levels)
	c.nullRows += int64(nulls)
	c.meta.TotalUncompressedSize += int64(len(hb)) + int64(h.UncompressedPageSize)
	c.meta.TotalCompressedSize += int64(len(hb)) + int64(h.CompressedPageSize)
	c.meta.EncodingStats = addStats(c.meta.EncodingStats, format.DataPageV2, c.enc.Encoding())
	c.rows += p.rows
	p.reset()
	return nil
}

// note adds indexes just added to idx to the page's uses and greatest: one
// pass while they are in the cache gives the indexes' bit width and, with
// every index below 64, the values of the page's bounds.
func (p *page) note(idx []int32) {
	set, g := p.uses, p.greatest
	for _, j := range idx {
		set |= 1 << (uint32(j) & 63)
		g = max(g, j)
	}
	p.uses, p.greatest = set, g
}

// reset empties the page, keeping its buffers.
func (p *page) reset() {
	*p = page{def: p.def[:0], rep: p.rep[:0], i32: p.i32[:0], i64: p.i64[:0], f64: p.f64[:0],
		bytes: p.bytes[:0], offs: p.offs[:0], idx: p.idx[:0]}
}

// compress is data compressed by the chunk's codec, in the row group's
// buffer; uncompressed data is data itself, not a copy of it.
func (c *Column) compress(data []byte) ([]byte, error) {
	if c.sampled && len(c.locs) == 0 && c.meta.Codec != format.Uncompressed { // the chunk's first page
		sample := data[:min(len(data), sampleSize)]
		out, err := c.codec.Encode(c.buf.compressed[:0], sample)
		if err != nil {
			return nil, err
		}
		c.buf.compressed = out
		c.raw = 8*len(out) > 7*len(sample)
	}
	if c.meta.Codec == format.Uncompressed || c.raw {
		return data, nil
	}
	body, err := c.codec.Encode(c.buf.compressed[:0], data)
	c.buf.compressed = body
	return body, err
}

// appendPage appends a page's parts to the chunk's current slab, or the
// next one when it has no room. Growing one buffer would copy the chunk as it
// grows; a slice per page would have the GC churn through the file's size.
func (c *Column) appendPage(parts ...[]byte) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if len(c.slabs) == 0 || cap(c.slabs[c.cur])-len(c.slabs[c.cur]) < n {
		if len(c.slabs) > 0 && len(c.slabs[c.cur]) > 0 {
			c.cur++
		}
		for c.cur < len(c.slabs) && cap(c.slabs[c.cur]) < n {
			c.slabs = slices.Delete(c.slabs, c.cur, c.cur+1) // an emptied slab too small for the page
		}
		if c.cur == len(c.slabs) {
			c.slabs = append(c.slabs, make([]byte, 0, max(n, minSlab<<min(c.cur, 4))))
		}
	}
	for _, p := range parts {
		c.slabs[c.cur] = append(c.slabs[c.cur], p...)
	}
}

// minSlab is the first slab's size; each next one doubles, up to 16 times.
const minSlab = 64 << 10

// levelEncoding is the RLE encoding of levels up to max.
func levelEncoding(max byte) *rle.Encoding {
	return &rle.Encoding{BitWidth: bits.Len8(max)}
}

// histogram adds levels to the chunk's histogram and appends the page's.
func histogram(chunk, pages []int64, levels []byte, max byte) []int64 {
	start := len(pages)
	pages = append(pages, make([]int64, int(max)+1)...)
	page := pages[start:]
	if max > 3 || !countLevels(page, levels) {
		for _, l := range levels {
			page[l]++
		}
	}
	for i, n := range page {
		chunk[i] += n
	}
	return pages
}

// countLevels counts levels of at most 3 into page (max+1 long), eight at a
// time with popcounts of their two bits (counted one at a time, each
// increment waits on the last). It counts nothing and returns false when a
// level is greater than 3 or than page allows.
func countLevels(page []int64, levels []byte) bool {
	const ones = 0x0101010101010101
	var n1, n2, n3, bad uint64
	i := 0
	for ; i+8 <= len(levels); i += 8 {
		w := binary.LittleEndian.Uint64(levels[i:])
		lo, hi := w&ones, w>>1&ones
		n1 += uint64(bits.OnesCount64(lo &^ hi))
		n2 += uint64(bits.OnesCount64(hi &^ lo))
		n3 += uint64(bits.OnesCount64(lo & hi))
		bad |= w &^ (3 * ones)
	}
	var tail [4]int64
	for _, l := range levels[i:] {
		if l > 3 {
			return false
		}
		tail[l]++
	}
	if bad != 0 || len(page) < 4 && n3+uint64(tail[3]) > 0 || len(page) < 3 && n2+uint64(tail[2]) > 0 {
		return false
	}
	counts := [4]int64{0, int64(n1) + tail[1], int64(n2) + tail[2], int64(n3) + tail[3]}
	counts[0] = int64(len(levels)) - counts[1] - counts[2] - counts[3]
	copy(page, counts[:])
	return true
}

// addStats counts a page of type t and encoding e.
func addStats(stats []format.PageEncodingStats, t format.PageType, e format.Encoding) []format.PageEncodingStats {
	for i := range stats {
		if stats[i].PageType == t && stats[i].Encoding == e {
			stats[i].Count++
			return stats
		}
	}
	return append(stats, format.PageEncodingStats{PageType: t, Encoding: e, Count: 1})
}

// pageBounds is the least and greatest value of the page; ok is false for a
// page of nulls (or NaNs) only.
func (c *Column) pageBounds() (lo, hi parquet.Value, ok bool) {
	p := c.page
	if p.values == 0 {
		return lo, hi, false
	}
	if c.dict != nil {
		return c.dict.bounds(p.idx, p.uses, p.greatest < 64)
	}
	switch c.kind {
	case parquet.Int32:
		lo, hi := minMax(p.i32)
		return parquet.Int32Value(lo), parquet.Int32Value(hi), true
	case parquet.Int64:
		lo, hi := minMax(p.i64)
		return parquet.Int64Value(lo), parquet.Int64Value(hi), true
	case parquet.Double:
		lo, hi, ok := floatBounds(p.f64, func(v float64) float64 { return v })
		return parquet.DoubleValue(lo), parquet.DoubleValue(hi), ok
	}
	lb, hb := p.bytes[:p.offs[1]], p.bytes[:p.offs[1]]
	for i := 1; i < len(p.offs)-1; i++ {
		b := p.bytes[p.offs[i]:p.offs[i+1]]
		if bytes.Compare(b, lb) < 0 {
			lb = b
		}
		if bytes.Compare(b, hb) > 0 {
			hb = b
		}
	}
	return parquet.ByteArrayValue(lb), parquet.ByteArrayValue(hb), true
}

// minMax is the least and greatest of s (not empty), in one pass with four
// of each: one min and max at a time, each waits on the last.
func minMax[T int32 | int64](s []T) (lo, hi T) {
	l0, l1, l2, l3 := s[0], s[0], s[0], s[0]
	h0, h1, h2, h3 := l0, l1, l2, l3
	i := 0
	for ; i+4 <= len(s); i += 4 {
		v := s[i : i+4 : i+4]
		l0, l1, l2, l3 = min(l0, v[0]), min(l1, v[1]), min(l2, v[2]), min(l3, v[3])
		h0, h1, h2, h3 = max(h0, v[0]), max(h1, v[1]), max(h2, v[2]), max(h3, v[3])
	}
	for _, v := range s[i:] {
		l0, h0 = min(l0, v), max(h0, v)
	}
	return min(l0, l1, l2, l3), max(h0, h1, h2, h3)
}

// finish encodes the chunk's last page and its dictionary page.
func (c *Column) finish() error {
	if err := c.flushPage(); err != nil {
		return err
	}
	if c.dict != nil && len(c.dictPage) == 0 {
		return c.encodeDictionary()
	}
	return nil
}

// writeTo writes the chunk's dictionary page and data pages to out and
// returns its metadata.
func (c *Column) writeTo(out *offsetWriter) (format.ColumnChunk, error) {
	if len(c.dictPage) > 0 {
		c.meta.DictionaryPageOffset = out.n
		if _, err := out.Write(c.dictPage); err != nil {
			return format.ColumnChunk{}, err
		}
	}
	c.meta.DataPageOffset = out.n
	for i := range c.locs {
		c.locs[i].Offset += out.n
	}
	for _, b := range c.slabs {
		if len(b) == 0 {
			break
		}
		if _, err := out.Write(b); err != nil {
			return format.ColumnChunk{}, err
		}
	}
	slices.SortFunc(c.meta.EncodingStats, func(a, b format.PageEncodingStats) int {
		if a.PageType != b.PageType {
			return int(a.PageType) - int(b.PageType)
		}
		return int(a.Encoding) - int(b.Encoding)
	})
	m := c.meta
	m.Statistics = format.Statistics{NullCount: c.nullRows}
	if !c.min.IsNull() {
		m.Statistics.MinValue = c.min.AppendBytes(make([]byte, 0, 8))
		m.Statistics.MaxValue = c.max.AppendBytes(make([]byte, 0, 8))
	}
	m.SizeStatistics.RepetitionLevelHistogram = slices.Clone(c.repHist)
	m.SizeStatistics.DefinitionLevelHistogram = slices.Clone(c.defHist)
	m.EncodingStats = slices.Clone(m.EncodingStats)
	return format.ColumnChunk{MetaData: m}, nil
}

// encodeDictionary makes the dictionary page, its values PLAIN.
func (c *Column) encodeDictionary() error {
	data, err := c.dict.encode(c.buf.values)
	if err != nil {
		return fmt.Errorf("encode dictionary: %w", err)
	}
	c.buf.values = data
	body := data
	if c.meta.Codec != format.Uncompressed {
		if body, err = c.codec.Encode(c.buf.compressed[:0], data); err != nil {
			return fmt.Errorf("compress dictionary: %w", err)
		}
		c.buf.compressed = body
	}
	h := format.PageHeader{
		Type:                 format.DictionaryPage,
		UncompressedPageSize: int32(len(data)),
		CompressedPageSize:   int32(len(body)),
		CRC:                  int32(crc32.ChecksumIEEE(body)),
		DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{NumValues: int32(c.dict.len()), Encoding: format.Plain}),
	}
	hb, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		return fmt.Errorf("dictionary page header: %w", err)
	}
	c.dictPage = append(append(c.dictPage[:0], hb...), body...)
	c.meta.TotalUncompressedSize += int64(len(hb) + len(data))
	c.meta.TotalCompressedSize += int64(len(hb) + len(body))
	c.meta.EncodingStats = addStats(c.meta.EncodingStats, format.DictionaryPage, format.Plain)
	return nil
}

func (c *Column) columnIndex() format.ColumnIndex {
	ci := c.indexer.ColumnIndex()
	ci.RepetitionLevelHistogram = slices.Clone(c.pageRep)
	ci.DefinitionLevelHistogram = slices.Clone(c.pageDef)
	return ci
}

func (c *Column) offsetIndex() format.OffsetIndex {
	return format.OffsetIndex{PageLocations: slices.Clone(c.locs)}
}

// reset readies the column for the next row group.
func (c *Column) reset() {
	c.indexer.Reset()
	c.rows, c.dictPage, c.size, c.locs, c.nullRows, c.cur = 0, c.dictPage[:0], 0, c.locs[:0], 0, 0
	for i := range c.slabs {
		c.slabs[i] = c.slabs[i][:0]
	}
	c.pageRep, c.pageDef = c.pageRep[:0], c.pageDef[:0]
	clear(c.repHist)
	clear(c.defHist)
	c.min, c.max = parquet.Value{}, parquet.Value{}
	m := &c.meta
	m.NumValues, m.TotalUncompressedSize, m.TotalCompressedSize = 0, 0, 0
	m.DataPageOffset, m.DictionaryPageOffset = 0, 0
	m.EncodingStats, m.SizeStatistics = nil, format.SizeStatistics{}
	m.Codec, c.raw = c.codec.CompressionCodec(), false
	if c.dict != nil {
		c.dict.reset()
	}
}
