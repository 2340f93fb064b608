package output

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/rating"
)

type testTableRow struct {
	Period string  `parquet:"period,dict"`
	At     int64   `parquet:"played_at,timestamp(microsecond)"`
	Tour   *int64  `parquet:"tournament_id,optional"`
	Place  int32   `parquet:"place"`
	Left   bool    `parquet:"left_table"`
	Name   string  `parquet:"name"`
	Score  float64 `parquet:"score"`
}

// TestRowsWriterSameBytes: a row type's file is the same whether its rows
// are taken apart one by one or written by the typed writer (RegisterRows),
// over row groups of more than one batch.
func TestRowsWriterSameBytes(t *testing.T) {
	rows := make([]testTableRow, 10_000)
	for i := range rows {
		rows[i] = testTableRow{Period: fmt.Sprintf("2025-%02d", i/1000+1), At: int64(i) * 1e9, Place: int32(i%4 + 1), Left: i%7 == 0,
			Name: fmt.Sprintf("player %d", i*7919%10_000), Score: float64(i) / 3}
		if i%3 == 0 {
			rows[i].Tour = new(int64(i / 100))
		}
	}
	f := &rating.TableFile{Schema: "testRow", Row: testTableRow{}}
	write := func() []byte {
		var buf bytes.Buffer
		w := NewRowsWriter(f.Row, &buf, TableSchema(f), parquet.Compression(&parquet.Snappy))
		for _, part := range [][]testTableRow{rows[:6000], rows[6000:]} {
			if err := w.Write(part); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	taken := write()
	RegisterRows[testTableRow]()
	typed := write()
	if !bytes.Equal(taken, typed) {
		t.Errorf("taken apart: %d bytes, typed: %d bytes, not the same", len(taken), len(typed))
	}
	got, err := parquet.Read[testTableRow](bytes.NewReader(typed), int64(len(typed)))
	if err != nil || len(got) != len(rows) || got[3].Tour == nil || *got[3].Tour != 0 || got[9999].Name != rows[9999].Name {
		t.Errorf("read back %d rows, %v", len(got), err)
	}
}
