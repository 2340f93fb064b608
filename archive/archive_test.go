package archive

import (
	"github.com/ratelist/ratelist/internal/testutil"

	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unsafe"
)

// TestLoadErrorNamesItsTable: when one of the two tables loaded side by side
// cannot be read, the error is that table's, not the other's stop.
func TestLoadErrorNamesItsTable(t *testing.T) {
	var many strings.Builder
	many.WriteString("player_id,name\n")
	for i := range 200000 {
		fmt.Fprintf(&many, "%d,Player %d\n", i+1, i)
	}
	for _, tc := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"players.csv": many.String(), "tournaments.parquet": "PAR1 not parquet PAR1"}, "tournaments.parquet"},
		{map[string]string{"players.parquet": "PAR1 not parquet PAR1", "tournaments.csv": fuzzTournaments}, "players.parquet"},
	} {
		dir := t.TempDir()
		testutil.WriteFiles(t, dir, tc.files)
		_, err := Load(context.Background(), os.DirFS(dir), func(RowError) {})
		if err == nil || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one naming %s", err, tc.want)
		}
	}
}

// TestLoadPlayersOrderAndDuplicates: whatever the order of the ids, the
// players come out in id order, and every later row of an id is rejected
// naming the first, as a map of every id read would find them.
func TestLoadPlayersOrderAndDuplicates(t *testing.T) {
	const n = 3 * batchRows
	for _, tc := range []struct {
		name string
		id   func(i int) int64 // id of data row i (0-based)
	}{
		{"increasing", func(i int) int64 { return int64(10 + 3*i) }},
		{"increasing with repeats", func(i int) int64 { return int64(10 + i - i%5000/4999) }},
		{"one step back late", func(i int) int64 {
			if i == n-10 {
				return 7
			}
			return int64(10 + i)
		}},
		{"back to an earlier id late", func(i int) int64 {
			if i == n-10 {
				return 500
			}
			return int64(10 + i)
		}},
		{"decreasing", func(i int) int64 { return int64(n - i) }},
		{"scattered", func(i int) int64 { return int64(i*7919%(n/2) + 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var csv strings.Builder
			csv.WriteString("player_id,name,birth_year,category,fide_rating,club\n")
			first := map[int64]int{}
			var wantRejects []string
			for i := range n {
				id := tc.id(i)
				fmt.Fprintf(&csv, "%d,P%d,2010,,,C%d\n", id, i, i)
				if row, ok := first[id]; ok {
					wantRejects = append(wantRejects, fmt.Sprintf("players.csv row %d: duplicate player_id %d (first at players.csv row %d)", i+1, id, row))
					continue
				}
				first[id] = i + 1
			}
			fsys := fstest.MapFS{"players.csv": {Data: []byte(csv.String())}}
			var gotRejects []string
			a, err := Load(context.Background(), fsys, func(e RowError) { gotRejects = append(gotRejects, e.Error()) })
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(gotRejects, wantRejects) {
				t.Errorf("%d rejects, want %d; first %q, want %q", len(gotRejects), len(wantRejects), head(gotRejects), head(wantRejects))
			}
			p := &a.Players
			if len(p.ID) != len(first) || !slices.IsSorted(p.ID) {
				t.Fatalf("%d players (sorted: %v), want %d in id order", len(p.ID), slices.IsSorted(p.ID), len(first))
			}
			for k, id := range p.ID {
				row := first[id]
				if p.Name[k] != fmt.Sprintf("P%d", row-1) || p.Club[k] != fmt.Sprintf("C%d", row-1) || p.BirthYear[k] != 2010 {
					t.Fatalf("player %d: %q %q %d, want row %d's", id, p.Name[k], p.Club[k], p.BirthYear[k], row)
				}
				if p.Index(id) != int32(k) {
					t.Fatalf("Index(%d) = %d, want %d", id, p.Index(id), k)
				}
			}
		})
	}
}

func head(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// TestSizeHint: after one batch a Reader knows a Parquet file's rows and
// estimates a CSV file's from its bytes per row.
func TestSizeHint(t *testing.T) {
	type player struct {
		ID   int64  `parquet:"player_id"`
		Name string `parquet:"name"`
	}
	const n = 5*batchRows + 17
	var csv strings.Builder
	csv.WriteString("player_id,name\n")
	rows := make([]player, n)
	for i := range rows {
		rows[i] = player{int64(i + 1), fmt.Sprintf("Player %d", i%1000)}
		fmt.Fprintf(&csv, "%d,%s\n", rows[i].ID, rows[i].Name)
	}
	fsys := fstest.MapFS{
		"players.csv":     {Data: []byte(csv.String())},
		"players.parquet": {Data: testutil.ParquetBytes(t, rows)},
	}
	for _, tc := range []struct {
		file     string
		from, to int
	}{{"players.csv", n * 9 / 10, n * 11 / 10}, {"players.parquet", n, n}} {
		r := NewReader(fsys, []string{tc.file}, PlayerColumns)
		if !r.Next() {
			t.Fatal(r.Err())
		}
		if h := r.SizeHint(); h < tc.from || h > tc.to {
			t.Errorf("%s: SizeHint %d after one batch, want %d–%d", tc.file, h, tc.from, tc.to)
		}
		for r.Next() {
		}
		if h := r.SizeHint(); h != n {
			t.Errorf("%s: SizeHint %d at the end, want %d", tc.file, h, n)
		}
		r.Close()
	}
}

// TestIndexShapes: Index finds every id, and no other, and IDOf gives every
// index's id back, whether the ids are gapless, have gaps (a direct table) or
// are sparse (binary search).
func TestIndexShapes(t *testing.T) {
	for name, ids := range map[string][]int64{
		"gapless": {7, 8, 9, 10, 11},
		"gaps":    {7, 8, 10, 11, 20},
		"sparse":  {7, 1 << 20, 1 << 40},
		"one":     {42},
	} {
		p := Players{ID: ids}
		p.buildIndex()
		for k, id := range ids {
			if got := p.Index(id); got != int32(k) {
				t.Errorf("%s: Index(%d) = %d, want %d", name, id, got, k)
			}
			if got := p.IDOf(int32(k)); got != id {
				t.Errorf("%s: IDOf(%d) = %d, want %d", name, k, got, id)
			}
		}
		for _, id := range []int64{0, 6, 9 + 3, 12, 19, 21, 1<<40 + 1, -1} {
			if slices.Contains(ids, id) {
				continue
			}
			if got := p.Index(id); got != -1 {
				t.Errorf("%s: Index(%d) = %d, want -1", name, id, got)
			}
		}
	}
}

// TestTournamentSetupsShared: a Tournament stays at 48 bytes, held for every
// tournament of the archive, because equal setups are one shared value.
func TestTournamentSetupsShared(t *testing.T) {
	if n := unsafe.Sizeof(Tournament{}); n > 48 {
		t.Errorf("Tournament is %d bytes, want at most 48", n)
	}
	csv := "tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks,time_class\n" +
		"1,A,2024-03-01,2024-03-03,Swiss,3,,true,BH,\n" +
		"2,B,2024-03-01,2024-03-03, swiss ,3,chess,true,BH,standard\n" +
		"3,C,2024-03-01,2024-03-03,swiss,3,chess,true,BH,rapid\n"
	a, err := Load(context.Background(), fstest.MapFS{"players.csv": {Data: []byte("player_id,name\n1,P\n")}, "tournaments.csv": {Data: []byte(csv)}}, func(e RowError) { t.Error(e) })
	if err != nil {
		t.Fatal(err)
	}
	ts := a.Tournaments
	if len(ts) != 3 || ts[0].Setup != ts[1].Setup || ts[2].Setup == ts[0].Setup {
		t.Fatalf("setups not shared by equal value: %d tournaments", len(ts))
	}
	if want := (Setup{System: "swiss", Discipline: "chess", Tiebreaks: "BH", TimeClass: TimeStandard}); *ts[0].Setup != want {
		t.Errorf("setup %+v, want %+v", *ts[0].Setup, want)
	}
	if ts[2].TimeClass != TimeRapid {
		t.Errorf("time class %q, want rapid", ts[2].TimeClass)
	}
}
