package pipeline

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/ratelist/ratelist/internal/generate"
)

// TestRankOrder: the counting sort and its wide-span fallback give the order
// rating high to low, then entry order.
func TestRankOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, span := range []int32{1, 3, 400, 3000, 1 << 30} {
		for _, n := range []int{0, 1, 2, 17, 5000} {
			entries := make([]listEntry, n)
			for i := range entries {
				entries[i].rating = int32(rng.Int64N(int64(span))) - span/2
			}
			want := make([]int32, n)
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortStableFunc(want, func(a, b int32) int { return int(entries[b].rating) - int(entries[a].rating) })
			if got := rankOrder(entries); !slices.Equal(got, want) {
				t.Fatalf("span %d, n %d: order %v, want %v", span, n, got[:min(n, 20)], want[:min(n, 20)])
			}
		}
	}
}

// TestArrowListMatchesCSV: with --arrow, each list's Arrow IPC copy holds the
// CSV list's rows, cell for cell, across several chunks of rows (listChunk).
func TestArrowListMatchesCSV(t *testing.T) {
	arch, out := t.TempDir(), t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 2 * listChunk, Games: 60000, Months: 2, Seed: 5, Dir: arch}); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), Options{Archive: os.DirFS(arch), ArchiveName: "a", Out: out, Workers: 2, Arrow: true})
	if err != nil {
		t.Fatal(err)
	}
	lists, _ := filepath.Glob(filepath.Join(out, "lists", "*.csv"))
	if len(lists) == 0 {
		t.Fatal("no lists")
	}
	longest := 0
	for _, p := range lists {
		want := readCSVFile(t, p)
		got := readArrowCells(t, strings.TrimSuffix(p, ".csv")+".arrow")
		longest = max(longest, len(want))
		if len(got) != len(want) {
			t.Fatalf("%s: %d Arrow rows, %d CSV rows (with header)", p, len(got), len(want))
		}
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Fatalf("%s row %d: Arrow %q, CSV %q", p, i, got[i], want[i])
			}
		}
	}
	if longest <= listChunk+1 {
		t.Errorf("the longest list has %d lines: too few to cross chunks", longest)
	}
}

// readArrowCells reads an Arrow IPC file as a header and rows of cells, as
// the list CSV writes them (a null is an empty cell).
func readArrowCells(t *testing.T, p string) [][]string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var rows [][]string
	for k := 0; k < r.NumRecords(); k++ {
		rec, err := r.Record(k)
		if err != nil {
			t.Fatal(err)
		}
		if rows == nil {
			var hdr []string
			for _, fl := range rec.Schema().Fields() {
				hdr = append(hdr, fl.Name)
			}
			rows = append(rows, hdr)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]string, rec.NumCols())
			for c := range row {
				if col := rec.Column(c); !col.IsNull(i) {
					row[c] = col.ValueStr(i)
				}
			}
			rows = append(rows, row)
		}
	}
	return rows
}
