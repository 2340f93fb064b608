package pipeline

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/output"
)

// readStandingsFile reads a standings/LABEL.parquet back into its rows.
func readStandingsFile(t *testing.T, path string) []output.StandingsRow {
	t.Helper()
	rows, err := parquet.ReadFile[output.StandingsRow](path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// standingsFiles lists the names in out/standings with the suffix ext.
func standingsFiles(t *testing.T, out, ext string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(out, "standings"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ext) {
			names = append(names, e.Name())
		}
	}
	return names
}

// tournamentsOf returns the tournaments of standings files, as the names of
// their CSV files.
func tournamentsOf(t *testing.T, out string, files []string) []string {
	t.Helper()
	ids := map[string]bool{}
	for _, f := range files {
		for _, r := range readStandingsFile(t, filepath.Join(out, "standings", f)) {
			ids[strconv.FormatInt(r.TournamentID, 10)+".csv"] = true
		}
	}
	return slices.Sorted(maps.Keys(ids))
}

// TestStandingsCSVChoice: --standings-csv none writes no CSV, all one per
// tournament of every period, last (the default) those of the last list's
// period; the Parquet files are the same in all three runs.
func TestStandingsCSVChoice(t *testing.T) {
	fs := os.DirFS(genArchive(t, 21, false))
	outs := map[string]string{}
	var last string
	for _, mode := range []string{"", StandingsCSVAll, StandingsCSVNone} {
		outs[mode] = t.TempDir()
		sum := runOpt(t, Options{Archive: fs, Out: outs[mode], StandingsCSV: mode})
		last = sum.LastList
	}
	pq := standingsFiles(t, outs[""], ".parquet")
	if len(pq) < 6 || !slices.Contains(pq, last+".parquet") {
		t.Fatalf("standings Parquet files %v: want one per period up to %s", pq, last)
	}
	want := map[string][]string{
		"":               tournamentsOf(t, outs[""], []string{last + ".parquet"}),
		StandingsCSVAll:  tournamentsOf(t, outs[""], pq),
		StandingsCSVNone: nil,
	}
	if len(want[""]) == 0 || len(want[StandingsCSVAll]) <= len(want[""]) {
		t.Fatalf("last period has %d tournaments of %d: the test needs both more than none", len(want[""]), len(want[StandingsCSVAll]))
	}
	for mode, out := range outs {
		got := standingsFiles(t, out, ".csv")
		slices.Sort(got)
		if !slices.Equal(got, want[mode]) {
			t.Errorf("--standings-csv %q: CSV files %v, want %v", mode, got, want[mode])
		}
		sameTrees(t, "standings Parquet of "+mode, parquetOnly(t, outs[""]), parquetOnly(t, out), nil)
	}
	if _, err := Run(t.Context(), Options{Archive: fs, Out: t.TempDir(), StandingsCSV: "some"}); err == nil {
		t.Error("StandingsCSV \"some\" accepted")
	}
}

// parquetOnly is the standings Parquet files of out.
func parquetOnly(t *testing.T, out string) map[string][]byte {
	keep := map[string][]byte{}
	for n, b := range readTree(t, out) {
		if strings.HasPrefix(n, "standings/") && strings.HasSuffix(n, ".parquet") {
			keep[n] = b
		}
	}
	return keep
}

// TestStandingsParquetEqualsCSV: the last period's Parquet file holds, row for
// row, what its tournaments' CSV files hold: same tournaments in the same
// order, and in each the same ranks, players, points and tiebreaks (codes as
// the CSV's header, an undefined value null where the CSV cell is empty).
func TestStandingsParquetEqualsCSV(t *testing.T) {
	out := t.TempDir()
	sum := runOpt(t, Options{Archive: os.DirFS(genArchive(t, 22, false)), Out: out})
	rows := readStandingsFile(t, filepath.Join(out, "standings", sum.LastList+".parquet"))
	if len(rows) == 0 {
		t.Fatal("no standings rows in the last period")
	}
	for len(rows) > 0 {
		id := rows[0].TournamentID
		n := 0
		for n < len(rows) && rows[n].TournamentID == id {
			n++
		}
		recs := testutil.ReadCSV(t, filepath.Join(out, "standings", strconv.FormatInt(id, 10)+".csv"))
		if len(recs)-1 != n {
			t.Fatalf("tournament %d: %d Parquet rows, %d CSV rows", id, n, len(recs)-1)
		}
		for i, r := range rows[:n] {
			got := []string{strconv.Itoa(int(r.Rank)), strconv.Itoa(int(r.StartNo)), strconv.FormatInt(r.PlayerID, 10),
				r.Name, strconv.FormatFloat(r.Points, 'f', -1, 64)}
			header := []string{"rank", "start_no", "player_id", "name", "points"}
			for _, c := range r.Tiebreaks {
				header = append(header, c.Code)
				v := ""
				if c.Value != nil {
					v = strconv.FormatFloat(*c.Value, 'f', -1, 64)
				}
				got = append(got, v)
			}
			if !slices.Equal(header, recs[0]) {
				t.Fatalf("tournament %d: Parquet codes give header %v, CSV has %v", id, header, recs[0])
			}
			if !slices.Equal(got, recs[i+1]) {
				t.Errorf("tournament %d row %d: Parquet %v, CSV %v", id, i+1, got, recs[i+1])
			}
		}
		rows = rows[n:]
	}
	if csvs := standingsFiles(t, out, ".csv"); len(csvs) == 0 {
		t.Error("no CSV files")
	}
}

// TestResumeWritesNewStandingsOnly: a --resume run writes the standings of the
// new periods only; the earlier periods' files stay as they are, and every
// period's file equals a full run's, under both rule sets.
func TestResumeWritesNewStandingsOnly(t *testing.T) {
	for _, name := range []string{"school", "fide"} {
		t.Run(name, func(t *testing.T) { resumeWritesNewStandingsOnly(t, name) })
	}
}

func resumeWritesNewStandingsOnly(t *testing.T, name string) {
	rules, err := DefaultRules(name)
	if err != nil {
		t.Fatal(err)
	}
	fs := os.DirFS(genArchive(t, 23, false))
	full, inc := t.TempDir(), t.TempDir()
	runOpt(t, Options{Archive: fs, Out: full, Rules: rules})
	runOpt(t, Options{Archive: fs, Out: inc, Rules: rules, Until: "2025-01"})
	before := map[string]os.FileInfo{}
	for _, f := range standingsFiles(t, inc, ".parquet") {
		st, err := os.Stat(filepath.Join(inc, "standings", f))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = st
	}
	if before["2025-01.parquet"] == nil || before["2025-02.parquet"] != nil {
		t.Fatalf("--until 2025-01 wrote standings %v", slices.Sorted(maps.Keys(before)))
	}
	sum := runOpt(t, Options{Archive: fs, Out: inc, Rules: rules, Resume: true})
	if sum.FirstList != "2025-02" {
		t.Fatalf("resumed run's first list %s", sum.FirstList)
	}
	for f, st := range before {
		now, err := os.Stat(filepath.Join(inc, "standings", f))
		if err != nil || !os.SameFile(st, now) {
			t.Errorf("standings/%s was rewritten by the resumed run (%v)", f, err)
		}
	}
	got, want := parquetOnly(t, inc), parquetOnly(t, full)
	if len(got) <= len(before) {
		t.Errorf("the resumed run wrote no new standings file: %d files", len(got))
	}
	sameTrees(t, "standings after resume vs full", want, got, nil)
	// The CSVs the resumed run wrote are its last period's, as in a full run.
	for _, f := range tournamentsOf(t, full, []string{sum.LastList + ".parquet"}) {
		a, errA := os.ReadFile(filepath.Join(full, "standings", f))
		b, errB := os.ReadFile(filepath.Join(inc, "standings", f))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("standings/%s differs from the full run's (%v, %v)", f, errA, errB)
		}
	}
}
