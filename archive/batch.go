package archive

import (
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/day"
)

// batchRows is the most rows one Batch holds.
const batchRows = 8192

// Batch is a block of rows of one table, column by column: row i of column c
// is Ints[c][i] or Strs[c][i] (by the column's Type), null when Nulls[c][i].
// A Reader owns and reuses its Batch: callers copy what they keep.
type Batch struct {
	File  string // the source file, relative to the archive
	First int64  // data-row number of row 0 in File (1 = first data row)
	N     int    // rows filled
	Ints  [][]int64
	Strs  [][]string
	Nulls [][]bool
	// Bad holds, per row, the first cell that could not be decoded, KindNone
	// when none; such a cell reads as null.
	Bad []Problem
	// badSet tells whether Bad may hold a problem: clearBad then clears it.
	badSet bool
	cols   []Column
	// CSV only: the text of the rows, where each starts, the file's header.
	text   []byte
	starts []int
	hdr    []string
}

func newBatch(cols []Column) *Batch {
	b := &Batch{cols: cols}
	b.Ints = make([][]int64, len(cols))
	b.Strs = make([][]string, len(cols))
	b.Nulls = make([][]bool, len(cols))
	return b
}

// grow gives b room for n rows: a batch is as large as the files it reads
// need, not batchRows whatever their size.
func (b *Batch) grow(n int) {
	if len(b.Bad) >= n {
		return
	}
	b.Bad, b.badSet = make([]Problem, n), false
	for i, s := range b.cols {
		b.Nulls[i] = make([]bool, n)
		if s.Type == String {
			b.Strs[i] = make([]string, n)
		} else {
			b.Ints[i] = make([]int64, n)
		}
	}
}

// clearBad empties Bad (a source that notes bad rows one by one calls it
// first): cleared only when something was set, as most batches have no bad row.
func (b *Batch) clearBad() {
	if b.badSet {
		clear(b.Bad)
		b.badSet = false
	}
}

// BadAt returns row i's problem in Bad, nil when it has none. A batch without
// any (most Parquet ones) answers without reading Bad, a stream of 40 bytes a
// row.
func (b *Batch) BadAt(i int) *Problem {
	if !b.badSet || b.Bad[i].Kind == KindNone {
		return nil
	}
	return &b.Bad[i]
}

// Missing returns the name of the first required column (in column order)
// that row i leaves empty, "" when none does.
func (b *Batch) Missing(i int) string {
	for c, col := range b.cols {
		if col.Required && b.Nulls[c][i] {
			return col.Name
		}
	}
	return ""
}

// Values renders row i as it was read: the CSV row as written, or
// "column=value;…" for Parquet.
func (b *Batch) Values(i int) string {
	if b.hdr != nil {
		return csvValues(b.hdr, b.text, b.starts[i])
	}
	var sb strings.Builder
	for c, s := range b.cols {
		if c > 0 {
			sb.WriteByte(';')
		}
		sb.WriteString(s.Name)
		sb.WriteByte('=')
		if b.Nulls[c][i] {
			continue
		}
		sb.WriteString(Excerpt(formatCell(s.Type, b.Ints[c], b.Strs[c], i)))
	}
	return sb.String()
}

func formatCell(t Type, ints []int64, strs []string, i int) string {
	switch t {
	case String:
		return strs[i]
	case Date:
		return day.Day(ints[i]).String()
	case Time:
		return time.UnixMicro(ints[i]).UTC().Format(time.RFC3339)
	case Bool:
		return strconv.FormatBool(ints[i] != 0)
	case Code:
		return string(rune(ints[i]))
	}
	return strconv.FormatInt(ints[i], 10)
}
