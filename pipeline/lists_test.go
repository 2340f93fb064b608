package pipeline

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/output"

	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/testutil"
)

// TestRankOrder: the counting sort and its wide-span fallback give the order
// key high to low, then entry order.
func TestRankOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, span := range []int32{1, 3, 400, 3000, 1 << 30} {
		for _, n := range []int{0, 1, 2, 17, 5000} {
			keys := make([]int32, n)
			for i := range keys {
				keys[i] = int32(rng.Int64N(int64(span))) - span/2
			}
			want := make([]int32, n)
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortStableFunc(want, func(a, b int32) int { return int(keys[b]) - int(keys[a]) })
			if got := rankOrder(slices.Repeat([]int32{-1}, n), keys); !slices.Equal(got, want) { // a used buffer
				t.Fatalf("span %d, n %d: order %v, want %v", span, n, got[:min(n, 20)], want[:min(n, 20)])
			}
		}
	}
}

// TestListPlayerColumns: each list's CSV has the contract's columns; its
// Parquet and Arrow IPC copies hold the CSV's rows, cell for cell, across
// several chunks of rows (listChunk), then the player's columns from the
// players table, null where it has none.
func TestListPlayerColumns(t *testing.T) {
	arch, out := t.TempDir(), t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 2 * listChunk, Games: 60000, Months: 2, Seed: 5, Dir: arch}); err != nil {
		t.Fatal(err)
	}
	info := addPlayerInfo(t, arch)
	_, err := Run(context.Background(), Options{Archive: os.DirFS(arch), ArchiveName: "a", Out: out, Workers: 2, Arrow: true})
	if err != nil {
		t.Fatal(err)
	}
	lists, _ := filepath.Glob(filepath.Join(out, "lists", "*.csv"))
	if len(lists) == 0 {
		t.Fatal("no lists")
	}
	longest, filled := 0, 0
	for _, p := range lists {
		want := testutil.ReadCSV(t, p)
		if !slices.Equal(want[0], strings.Split(strings.TrimSpace(listHeader), ",")) {
			t.Fatalf("%s: header %q", p, want[0])
		}
		for i, r := range want[1:] {
			id, _ := strconv.ParseInt(r[1], 10, 64)
			want[i+1] = append(r, info[id]...)
			if info[id][0] != "" {
				filled++
			}
		}
		want[0] = append(want[0], "federation", "sex", "title", "fide_id", "birth_date")
		longest = max(longest, len(want))
		base := strings.TrimSuffix(p, ".csv")
		for name, got := range map[string][][]string{"Arrow": readArrowCells(t, base+".arrow"), "Parquet": readParquetCells(t, base+".parquet")} {
			if len(got) != len(want) {
				t.Fatalf("%s: %d %s rows, %d CSV rows (with header)", p, len(got), name, len(want))
			}
			for i := range want {
				if !slices.Equal(got[i], want[i]) {
					t.Fatalf("%s row %d: %s %q, want %q", p, i, name, got[i], want[i])
				}
			}
		}
	}
	if longest <= listChunk+1 {
		t.Errorf("the longest list has %d lines: too few to cross chunks", longest)
	}
	if filled == 0 {
		t.Error("no listed player has player columns: the test tests nothing")
	}
}

// addPlayerInfo fills the player columns of every third player of the
// archive in dir (and birth_date of every sixth) and returns them by id as
// the list files show them (null as empty).
func addPlayerInfo(t *testing.T, dir string) map[int64][]string {
	t.Helper()
	p := filepath.Join(dir, "players.parquet")
	rows, err := parquet.ReadFile[archive.PlayerRow](p)
	if err != nil {
		t.Fatal(err)
	}
	info := map[int64][]string{}
	for i := range rows {
		r := &rows[i]
		info[r.PlayerID] = make([]string, 5)
		if i%3 != 0 {
			continue
		}
		fed, sex, title, fide := "ISL", []string{"m", "w"}[i%2], "", int64(900000+i)
		if i%9 == 0 {
			title = "FM"
		}
		r.Federation, r.Sex, r.FideID = &fed, &sex, &fide
		if title != "" {
			r.Title = &title
		}
		cells := []string{fed, sex, title, strconv.FormatInt(fide, 10), ""}
		if i%6 == 0 {
			day := int32(i % 20000) // 1970-01-01 (day 0) is a date like any other
			r.BirthDate = &day
			cells[4] = time.Unix(int64(day)*86400, 0).UTC().Format(time.DateOnly)
		}
		info[r.PlayerID] = cells
	}
	if err := parquet.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	return info
}

// readParquetCells reads a list's Parquet file as a header and rows of cells,
// as the list CSV writes them (a null is an empty cell).
func readParquetCells(t *testing.T, p string) [][]string {
	t.Helper()
	rows, err := parquet.ReadFile[output.ListRow](p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var hdr []string
	for _, c := range pf.Schema().Fields() {
		hdr = append(hdr, c.Name())
	}
	cells := [][]string{hdr}
	for _, r := range rows {
		rec, err := csv.NewReader(bytes.NewReader(appendListCSV(nil, []output.ListRow{r}))).Read()
		if err != nil {
			t.Fatal(err)
		}
		date := ""
		if r.BirthDate != nil {
			date = time.Unix(int64(*r.BirthDate)*86400, 0).UTC().Format(time.DateOnly)
		}
		fide := ""
		if r.FideID != 0 {
			fide = strconv.FormatInt(r.FideID, 10)
		}
		cells = append(cells, append(rec, r.Federation, r.Sex, r.Title, fide, date))
	}
	return cells
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

// TestAppendFixed: appendFixed prints every value as strconv does at the
// same decimals: values rounded to them (the fast way), and any other.
func TestAppendFixed(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-7, -1e-7, 1e15, 123456789.125, math.Inf(1), math.NaN(), math.MaxFloat64, 5e-324}
	for range 20000 {
		x := (rnd.Float64() - 0.3) * math.Pow(10, float64(rnd.IntN(12)-3))
		vals = append(vals, x)
		for _, d := range []float64{1e2, 1e6, 10} {
			vals = append(vals, math.Round(x*d)/d)
		}
	}
	for _, x := range vals {
		for d := 1; d <= 15; d++ {
			if got, want := string(appendFixed(nil, x, d)), strconv.FormatFloat(x, 'f', d, 64); got != want {
				t.Fatalf("%v at %d decimals: %q, want %q", x, d, got, want)
			}
		}
	}
}

// appendListCSV appends the CSV lines of rows, a list without columns of
// its own.
func appendListCSV(b []byte, rows []output.ListRow) []byte {
	var c listCols
	c.fromRows(rows, nil, nil)
	return c.appendCSV(b, nil)
}
