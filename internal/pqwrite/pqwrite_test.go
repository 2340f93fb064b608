package pqwrite

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

type testCell struct {
	Code  string   `parquet:"code,dict"`
	Value *float64 `parquet:"value,optional"`
}

type testRow struct {
	ID    int64      `parquet:"id,delta"`
	Rank  int32      `parquet:"rank,delta"`
	P     int64      `parquet:"p"`
	Name  string     `parquet:"name"`
	Pts   float64    `parquet:"pts,uncompressed"` // a codec of its own
	Score float64    `parquet:"score,dict"`
	Opt   *int32     `parquet:"opt,optional"`
	Fed   string     `parquet:"fed,optional"`
	Date  *int32     `parquet:"date,optional,date"`
	Cells []testCell `parquet:"cells,list"`
	Empty *float64   `parquet:"empty,optional,dict"` // always null: a dictionary of none
}

var testSchema = parquet.NewSchema("testRow", parquet.SchemaOf(testRow{}))

func testOptions() []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(&snappy.Codec{}), parquet.DataPageStatistics(false),
		parquet.SkipPageBounds("name"), parquet.PageBufferSize(4096),
	}
}

func testRows(n int) []testRow {
	r := rand.New(rand.NewPCG(1, 2))
	rows := make([]testRow, n)
	codes := []string{"BH", "SB", "DE", ""}
	for i := range rows {
		row := &rows[i]
		row.ID, row.Rank, row.P = int64(i/50), int32(i%50+1), r.Int64N(1e9)
		row.Name = fmt.Sprintf("Player %d", r.IntN(10000))
		row.Pts, row.Score = float64(r.IntN(20))/2, float64(r.IntN(10))/4
		if r.IntN(3) > 0 {
			v := int32(r.IntN(4000) - 2000)
			row.Opt = &v
		}
		if r.IntN(2) > 0 {
			row.Fed = codes[r.IntN(3)]
		}
		if r.IntN(4) > 0 {
			d := int32(18000 + r.IntN(1000))
			row.Date = &d
		}
		if (i/50)%7 != 3 { // a tournament without tiebreaks has empty lists
			k := 1 + (i/50)%3
			for j := range k {
				c := testCell{Code: codes[j]}
				if r.IntN(5) > 0 {
					v := float64(r.IntN(100)) / 2
					c.Value = &v
				}
				row.Cells = append(row.Cells, c)
			}
		}
	}
	return rows
}

// writeColumns writes rows through w, column by column.
func writeColumns(t *testing.T, w *Writer, rows []testRow) { writeColumnsBy(t, w, rows, nil) }

// writeColumnsBy is writeColumns, the codes written as indexes into dict
// (StringIndexes) when it is not nil.
func writeColumnsBy(t *testing.T, w *Writer, rows []testRow, dict []string) {
	t.Helper()
	n := len(rows)
	col := func(path ...string) *Column {
		c, ok := w.Lookup(path...)
		if !ok {
			t.Fatalf("no column %v", path)
		}
		return c
	}
	ids, ranks, ps := make([]int64, n), make([]int32, n), make([]int64, n)
	names, pts, scores := make([]string, n), make([]float64, n), make([]float64, n)
	var opts, dates []int32
	var feds []string
	optDef, fedDef, dateDef := make([]byte, n), make([]byte, n), make([]byte, n)
	var codes []string
	var vals []float64
	var codeDef, valDef, rep []byte
	for i, r := range rows {
		ids[i], ranks[i], ps[i], names[i], pts[i], scores[i] = r.ID, r.Rank, r.P, r.Name, r.Pts, r.Score
		if r.Opt != nil {
			opts, optDef[i] = append(opts, *r.Opt), 1
		}
		if r.Fed != "" {
			feds, fedDef[i] = append(feds, r.Fed), 1
		}
		if r.Date != nil {
			dates, dateDef[i] = append(dates, *r.Date), 1
		}
		if len(r.Cells) == 0 {
			codeDef, valDef, rep = append(codeDef, 0), append(valDef, 0), append(rep, 0)
		}
		for j, c := range r.Cells {
			codes, codeDef, rep = append(codes, c.Code), append(codeDef, 1), append(rep, byte(min(j, 1)))
			if c.Value != nil {
				vals, valDef = append(vals, *c.Value), append(valDef, 2)
			} else {
				valDef = append(valDef, 1)
			}
		}
	}
	var codeErr error
	if dict == nil {
		codeErr = col("cells", "list", "element", "code").String(codes, codeDef, rep)
	} else {
		idx := make([]int32, len(codes))
		for i, c := range codes {
			idx[i] = int32(slices.Index(dict, c))
		}
		codeErr = col("cells", "list", "element", "code").StringIndexes(dict, idx, codeDef, rep)
	}
	for _, err := range []error{
		col("id").Int64(ids, nil, nil), col("rank").Int32(ranks, nil, nil), col("p").Int64(ps, nil, nil),
		col("name").String(names, nil, nil), col("pts").Double(pts, nil, nil), col("score").Double(scores, nil, nil),
		col("opt").Int32(opts, optDef, nil), col("fed").String(feds, fedDef, nil), col("date").Int32(dates, dateDef, nil),
		codeErr,
		col("cells", "list", "element", "value").Double(vals, valDef, rep),
		col("empty").Double(nil, make([]byte, n), nil),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestSameFile: a file written column by column is the one GenericWriter
// writes from the rows, in one row group and in several, with dictionary,
// delta, optional and repeated columns, pages ending mid-call.
func TestSameFile(t *testing.T) {
	rows := testRows(20000)
	for _, group := range []int{len(rows), 7000} {
		t.Run(fmt.Sprint(group), func(t *testing.T) {
			old, got := bothFiles(t, testSchema, rows, group, func(w *Writer, part []testRow) { writeColumns(t, w, part) })
			want := readAll(t, old)
			if g := readAll(t, got); !reflect.DeepEqual(g, want) {
				for i := range g {
					if !reflect.DeepEqual(g[i], want[i]) {
						t.Fatalf("row %d: got %+v, want %+v", i, g[i], want[i])
					}
				}
				t.Fatalf("got %d rows, want %d", len(g), len(want))
			}
			for i := range want {
				if len(rows[i].Cells) == 0 {
					want[i].Cells = nil // reads back empty, not nil
				}
				if w, r := want[i], rows[i]; !reflect.DeepEqual(w, r) {
					t.Fatalf("row %d reads back from parquet-go's file as %+v, written %+v", i, w, r)
				}
			}
			sameFooter(t, footer(t, old), footer(t, got))
			if !bytes.Equal(old, got) {
				t.Errorf("%d bytes, parquet-go's %d: the same cells, not the same bytes", len(got), len(old))
			}
		})
	}
}

// TestStringIndexes: codes written as indexes into a list of them, in pieces
// of a tournament, are the file of the codes themselves, whatever the list's
// order.
func TestStringIndexes(t *testing.T) {
	rows := testRows(5000)
	var want, got bytes.Buffer
	for _, c := range []struct {
		buf  *bytes.Buffer
		dict []string
	}{{&want, nil}, {&got, []string{"", "DE", "unused", "SB", "BH"}}} {
		w, err := New(c.buf, testSchema, testOptions()...)
		if err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < len(rows); lo += 50 {
			writeColumnsBy(t, w, rows[lo:lo+50], c.dict)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(want.Bytes(), got.Bytes()) {
		t.Errorf("%d bytes, by the codes themselves %d", got.Len(), want.Len())
	}
	w, err := New(io.Discard, testSchema, testOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	name, _ := w.Lookup("name")
	if err := name.StringIndexes([]string{"a"}, []int32{0}, nil, nil); err == nil {
		t.Error("indexes into a column without a dictionary: no error")
	}
	code, _ := w.Lookup("cells", "list", "element", "code")
	if err := code.StringIndexes([]string{"a"}, []int32{1}, []byte{1}, []byte{0}); err == nil {
		t.Error("an index past the list: no error")
	}
}

// TestCompressIfWorth: a sampled column whose pages are random bits (score's
// dictionary indexes) is stored uncompressed, one whose values share their
// high bytes (p) compressed, and the file has the cells of parquet-go's.
func TestCompressIfWorth(t *testing.T) {
	rows := testRows(20000)
	old := parquetGoFile(t, rows)
	var got bytes.Buffer
	w, err := New(&got, testSchema, append(testOptions(), CompressIfWorth("p"), CompressIfWorth("score"))...)
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < len(rows); lo += 7000 { // three row groups
		writeColumns(t, w, rows[lo:min(len(rows), lo+7000)])
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := SameCells(old, got.Bytes()); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"p": true, "score": false, "name": true} // pages compressed
	for i, g := range footer(t, got.Bytes()).Metadata().RowGroups {
		for _, c := range g.Columns {
			m := &c.MetaData
			want, ok := want[m.PathInSchema[0]]
			if !ok {
				continue
			}
			if m.Codec != format.Snappy {
				t.Errorf("row group %d, column %v: codec %v, want SNAPPY", i, m.PathInSchema, m.Codec)
			}
			if h := pageHeader(t, got.Bytes(), m.DataPageOffset); h.DataPageHeaderV2.V.IsCompressed.V != want {
				t.Errorf("row group %d, column %v: first page compressed %v, want %v", i, m.PathInSchema, !want, want)
			}
		}
	}
}

// TestCompressIfWorthOrder: parquet-go's reader reads a sampled column
// whose first chunk is stored uncompressed and the next one compressed.
func TestCompressIfWorthOrder(t *testing.T) {
	type row struct {
		X float64 `parquet:"x"`
		D float64 `parquet:"d,dict"`
	}
	schema := parquet.NewSchema("row", parquet.SchemaOf(row{}))
	var got bytes.Buffer
	w, err := New(&got, schema, append(testOptions(), CompressIfWorth("x"), CompressIfWorth("d"))...)
	if err != nil {
		t.Fatal(err)
	}
	var want []row
	r := rand.New(rand.NewPCG(1, 2))
	for g := range 2 {
		vals := make([]float64, 5000)
		for i := range vals {
			if g == 0 {
				vals[i] = r.Float64()
			}
			want = append(want, row{vals[i], vals[i]})
		}
		for _, name := range []string{"x", "d"} {
			c, _ := w.Lookup(name)
			if err := c.Double(vals, nil, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rows, err := parquet.Read[row](bytes.NewReader(got.Bytes()), int64(got.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows, want) {
		t.Error("rows read back differ")
	}
}

// pageHeader is the header of the page at off in the file b.
func pageHeader(t *testing.T, b []byte, off int64) format.PageHeader {
	t.Helper()
	var h format.PageHeader
	if err := thrift.NewDecoder(new(thrift.CompactProtocol).NewReader(bytes.NewReader(b[off:]))).Decode(&h); err != nil {
		t.Fatal(err)
	}
	return h
}

func readAll(t *testing.T, b []byte) []testRow {
	t.Helper()
	rows, err := parquet.Read[testRow](bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func footer(t *testing.T, b []byte) *parquet.File {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// sameFooter compares what does not depend on where pages end.
func sameFooter(t *testing.T, want, got *parquet.File) {
	t.Helper()
	wm, gm := want.Metadata(), got.Metadata()
	if !reflect.DeepEqual(wm.Schema, gm.Schema) || wm.CreatedBy != gm.CreatedBy || !reflect.DeepEqual(wm.ColumnOrders, gm.ColumnOrders) ||
		wm.NumRows != gm.NumRows || wm.Version != gm.Version || len(wm.RowGroups) != len(gm.RowGroups) {
		t.Fatalf("file metadata differ:\n%+v\n%+v", wm, gm)
	}
	for i := range wm.RowGroups {
		wr, gr := wm.RowGroups[i], gm.RowGroups[i]
		if wr.NumRows != gr.NumRows || wr.Ordinal != gr.Ordinal {
			t.Errorf("row group %d: %d rows (ordinal %d), want %d (%d)", i, gr.NumRows, gr.Ordinal, wr.NumRows, wr.Ordinal)
		}
		for j := range wr.Columns {
			w, g := wr.Columns[j].MetaData, gr.Columns[j].MetaData
			kinds := func(s []format.PageEncodingStats) (k []format.PageEncodingStats) {
				for _, e := range s {
					k = append(k, format.PageEncodingStats{PageType: e.PageType, Encoding: e.Encoding})
				}
				return k
			}
			if w.Type != g.Type || !reflect.DeepEqual(w.Encoding, g.Encoding) || !reflect.DeepEqual(w.PathInSchema, g.PathInSchema) ||
				w.Codec != g.Codec || w.NumValues != g.NumValues || !reflect.DeepEqual(w.Statistics, g.Statistics) ||
				!reflect.DeepEqual(w.SizeStatistics, g.SizeStatistics) || !reflect.DeepEqual(kinds(w.EncodingStats), kinds(g.EncodingStats)) ||
				(w.DictionaryPageOffset == 0) != (g.DictionaryPageOffset == 0) {
				t.Errorf("row group %d column %v:\n got  %+v\n want %+v", i, w.PathInSchema, g, w)
			}
		}
	}
	wi, gi := want.ColumnIndexes(), got.ColumnIndexes()
	if len(wi) != len(gi) {
		t.Fatalf("%d column indexes, want %d", len(gi), len(wi))
	}
	if len(got.OffsetIndexes()) != len(want.OffsetIndexes()) {
		t.Fatalf("%d offset indexes, want %d", len(got.OffsetIndexes()), len(want.OffsetIndexes()))
	}
}

// TestHistogram: the counts eight levels at a time are a byte at a time's,
// for every maximum level and page length.
func TestHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for max := byte(1); max <= 5; max++ {
		for n := range 40 {
			levels := make([]byte, n)
			for i := range levels {
				levels[i] = byte(rng.IntN(int(max) + 1))
			}
			want := make([]int64, max+1)
			for _, l := range levels {
				want[l]++
			}
			chunk := make([]int64, max+1)
			got := histogram(chunk, []int64{7}, levels, max)
			if !slices.Equal(got[1:], want) || !slices.Equal(chunk, want) || got[0] != 7 {
				t.Fatalf("max %d, levels %v: %v (chunk %v), want %v", max, levels, got[1:], chunk, want)
			}
		}
	}
}

// TestMinMax: minMax is slices.Min and slices.Max, for every length and
// position of the extremes.
func TestMinMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n < 40; n++ {
		for range 20 {
			s := make([]int64, n)
			for i := range s {
				s[i] = rng.Int64N(1000) - 500
			}
			if lo, hi := minMax(s); lo != slices.Min(s) || hi != slices.Max(s) {
				t.Fatalf("%v: %d, %d", s, lo, hi)
			}
		}
	}
}

// TestStringIndexesRequired: a required dictionary column written as
// indexes into labels, a row group at a time, is the file String writes,
// whatever order the labels are in.
func TestStringIndexesRequired(t *testing.T) {
	type labelRow struct {
		Period string `parquet:"period,dict"`
	}
	schema := parquet.NewSchema("labelRow", parquet.SchemaOf(labelRow{}))
	labels := []string{"2025-03", "", "2025-01", "2025-02"}
	r := rand.New(rand.NewPCG(5, 6))
	codes := make([]int32, 5000)
	strs := make([]string, len(codes))
	for i := range codes {
		codes[i] = int32(r.IntN(len(labels)))
		strs[i] = labels[codes[i]]
	}
	file := func(byIndex bool) []byte {
		var b bytes.Buffer
		w, err := New(&b, schema, testOptions()...)
		if err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < len(codes); lo += 2000 { // three row groups
			hi := min(len(codes), lo+2000)
			if byIndex {
				err = w.Column(0).StringIndexes(labels, codes[lo:hi], nil, nil)
			} else {
				err = w.Column(0).String(strs[lo:hi], nil, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if !bytes.Equal(file(true), file(false)) {
		t.Error("StringIndexes and String wrote different files")
	}
}

// bothFiles writes rows with parquet-go's writer (the file ours is compared
// with) and with ours through write, a row group of group rows at a time.
func bothFiles[T any](t *testing.T, schema *parquet.Schema, rows []T, group int, write func(w *Writer, part []T)) (want, got []byte) {
	t.Helper()
	var wb, gb bytes.Buffer
	gw := parquet.NewGenericWriter[T](&wb, append([]parquet.WriterOption{schema}, testOptions()...)...)
	w, err := New(&gb, schema, testOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < len(rows); lo += group {
		part := rows[lo:min(len(rows), lo+group)]
		if _, err := gw.Write(part); err != nil {
			t.Fatal(err)
		}
		if err := gw.Flush(); err != nil {
			t.Fatal(err)
		}
		write(w, part)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := gw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return wb.Bytes(), gb.Bytes()
}

// parquetGoFile is rows written in one piece by parquet-go's own writer,
// with the tests' schema and options: the file ours is compared with.
func parquetGoFile(t *testing.T, rows []testRow) []byte {
	t.Helper()
	var b bytes.Buffer
	gw := parquet.NewGenericWriter[testRow](&b, append([]parquet.WriterOption{testSchema}, testOptions()...)...)
	if _, err := gw.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := gw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReusedBuffers: files written one after another, each with the buffers
// the last one left (its dictionaries' tables and values, pages, slabs), are
// parquet-go's files.
func TestReusedBuffers(t *testing.T) {
	for _, n := range []int{20000, 3000, 20000} {
		rows := testRows(n)
		old := parquetGoFile(t, rows)
		var got bytes.Buffer
		w, err := New(&got, testSchema, testOptions()...)
		if err != nil {
			t.Fatal(err)
		}
		writeColumns(t, w, rows)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(old, got.Bytes()) {
			t.Errorf("%d rows: %d bytes, parquet-go's %d", n, got.Len(), len(old))
		}
	}
}

// TestDoubleDictionary: a double dictionary column is parquet-go's file,
// with a few values and with thousands, nulls, in several row groups. (With
// -0 or NaN parquet-go's chunk statistics differ from ours.)
func TestDoubleDictionary(t *testing.T) {
	type row struct {
		D *float64 `parquet:"d,optional,dict"`
	}
	schema := parquet.NewSchema("row", parquet.SchemaOf(row{}))
	r := rand.New(rand.NewPCG(7, 8))
	special := []float64{0, 0.5, 1, math.Pi}
	var rows []row
	for g := range 3 {
		for i := range 9000 {
			var v float64
			switch {
			case r.IntN(8) == 0:
				rows = append(rows, row{})
				continue
			case g == 1 && i > 3000: // more distinct values than a page's index set holds (64)
				v = float64(r.IntN(4000)) / 100
			case r.IntN(4) == 0:
				v = special[r.IntN(len(special))]
			default:
				v = float64(r.IntN(300)) / 100
			}
			rows = append(rows, row{&v})
		}
	}
	want, got := bothFiles(t, schema, rows, 9000, func(w *Writer, part []row) {
		var vals []float64
		def := make([]byte, len(part))
		for i, x := range part {
			if x.D != nil {
				vals, def[i] = append(vals, *x.D), 1
			}
		}
		if err := w.Column(0).Double(vals, def, nil); err != nil {
			t.Fatal(err)
		}
	})
	sameFooter(t, footer(t, want), footer(t, got))
	if !bytes.Equal(want, got) {
		t.Errorf("%d bytes, parquet-go's %d", len(got), len(want))
	}
}

// TestPageUses: a page's bounds and encoded indexes taken from the set and
// the greatest of its indexes (page.note) are those of its indexes one by
// one, and parquet-go's rle.DictionaryEncoding's, with every index below 64
// and not, with 0 and -0 and NaN in either order.
func TestPageUses(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 5, 64, 65, 300} {
		for _, kind := range []parquet.Kind{parquet.Double, parquet.Int64, parquet.ByteArray} {
			d := newDictionary(kind)
			for i := range n {
				switch kind {
				case parquet.Double:
					v := float64(r.IntN(1000)-500) / 8
					switch i % 7 {
					case 1:
						v = 0
					case 2:
						v = math.Copysign(0, -1)
					case 3:
						v = math.NaN()
					}
					d.vf64 = append(d.vf64, v)
				case parquet.Int64:
					d.vi64 = append(d.vi64, r.Int64N(1000))
				default:
					d.vstr = append(d.vstr, fmt.Sprint(r.IntN(1000)))
				}
			}
			for range 50 {
				idx := make([]int32, 1+r.IntN(600))
				k := 1 + r.IntN(n)
				for i := range idx {
					idx[i] = int32(r.IntN(k))
				}
				var p page
				for lo := 0; lo < len(idx); lo += 64 {
					p.note(idx[lo:min(len(idx), lo+64)])
				}
				if p.greatest != slices.Max(idx) {
					t.Fatalf("greatest %d, want %d", p.greatest, slices.Max(idx))
				}
				lo, hi, ok := d.bounds(idx, p.uses, p.greatest < 64)
				wlo, whi, wok := d.bounds(idx, 0, false)
				same := func(a, b parquet.Value) bool { return bytes.Equal(a.AppendBytes(nil), b.AppendBytes(nil)) } // -0 is not 0
				if ok != wok || !same(lo, wlo) || !same(hi, whi) {
					t.Fatalf("%v, %d values: bounds %v %v %v, want %v %v %v", kind, n, lo, hi, ok, wlo, whi, wok)
				}
				got, err := encodeIndexes(nil, idx, p.greatest)
				if err != nil {
					t.Fatal(err)
				}
				want, err := parquet.RLEDictionary.EncodeInt32(nil, idx)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%v, %d values: indexes encoded differently", kind, n)
				}
			}
		}
	}
}
