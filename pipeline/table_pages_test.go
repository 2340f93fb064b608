package pipeline

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestParquetPagesReadAlike reads one games file with many small pages (nulls,
// byes, dictionary pages with invalid result codes, all-null point columns,
// pages that end inside batches) straight from page data and value by value,
// and wants the same batches.
func TestParquetPagesReadAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	codes := []string{"1", "0", "=", "½", "+", "-", "X", "", "w", "10"}
	var rows []gameRecord
	for i := range 30000 {
		g := gameRecord{TournamentID: int64(rng.IntN(500)) - 3, Round: int32(rng.IntN(12)) - 1, WhiteID: rng.Int64N(1 << 40),
			WhiteResult: codes[rng.IntN(len(codes))]}
		if rng.IntN(10) > 0 {
			b, r := rng.Int64N(1<<40), codes[rng.IntN(len(codes))]
			g.BlackID, g.BlackResult = &b, &r
		}
		if i > 20000 && rng.IntN(3) == 0 { // points only in the last pages
			w, b := int32(rng.IntN(600)), int32(rng.IntN(600))
			g.WhitePoints, g.BlackPoints = &w, &b
		}
		rows = append(rows, g)
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[gameRecord](&buf, parquet.PageBufferSize(700), parquet.MaxRowsPerRowGroup(9000))
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "games.parquet"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(fast bool) []string {
		defer func(old bool) { fastPages = old }(fastPages)
		fastPages = fast
		tr := openTable(os.DirFS(dir), []string{"games.parquet"}, gameCols)
		defer tr.Close()
		var out []string
		for tr.Next() {
			b := tr.Batch()
			for i := 0; i < b.n; i++ {
				row := fmt.Sprint(b.first+int64(i), b.bad[i])
				for c := range gameCols {
					row += fmt.Sprint(" ", b.nulls[c][i], b.ints[c][i])
				}
				out = append(out, row)
			}
		}
		if err := tr.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	fast, slow := read(true), read(false)
	if len(slow) != len(rows) {
		t.Fatalf("read %d rows of %d", len(slow), len(rows))
	}
	if !reflect.DeepEqual(fast, slow) {
		for i := range slow {
			if i >= len(fast) || fast[i] != slow[i] {
				t.Fatalf("row %d: straight from pages %q, value by value %q", i, fast[i], slow[i])
			}
		}
		t.Fatalf("%d rows against %d", len(fast), len(slow))
	}
	bad := 0
	for _, r := range slow {
		if len(r) > 0 && bytes.Contains([]byte(r), []byte("invalid code")) {
			bad++
		}
	}
	if bad == 0 {
		t.Fatal("no invalid result code was read: the test does not cover them")
	}
}
