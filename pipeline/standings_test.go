package pipeline

import (
	"bytes"
	"cmp"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/tiebreak"
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

// TestStartEntryOrder: start entries sort as the start numbers go (rating
// descending, then dense index ascending) and give back their rating and
// index, over the whole range of both.
func TestStartEntryOrder(t *testing.T) {
	ratings := []int32{math.MinInt32, -1, 0, 1, 1500, 2800, math.MaxInt32}
	ps := []int32{0, 1, 7, 199999, math.MaxInt32}
	type pair struct{ rating, p int32 }
	var pairs []pair
	var es []startEntry
	for _, r := range ratings {
		for _, p := range ps {
			e := newStartEntry(r, p)
			if e.rating() != r || e.p() != p {
				t.Fatalf("entry of (%d, %d) gives (%d, %d)", r, p, e.rating(), e.p())
			}
			pairs, es = append(pairs, pair{r, p}), append(es, e)
		}
	}
	rand.New(rand.NewPCG(5, 6)).Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	slices.Sort(es)
	slices.SortFunc(pairs, func(a, b pair) int {
		if a.rating != b.rating {
			return cmp.Compare(b.rating, a.rating)
		}
		return cmp.Compare(a.p, b.p)
	})
	for i, e := range es {
		if got := (pair{e.rating(), e.p()}); got != pairs[i] {
			t.Fatalf("place %d: %v, want %v", i, got, pairs[i])
		}
	}
}

// TestStandingsInput: the engine's view of a tournament numbers its players
// by start rating (highest first), then dense index, indexes the games by
// those numbers, and leaves the per-player slots as it found them.
func TestStandingsInput(t *testing.T) {
	players := &archive.Players{ID: []int64{10, 11, 12, 13, 14, 15}, Name: []string{"a", "b", "c", "d", "e", "f"}}
	rows := []gameRow{
		{round: 1, white: 4, black: 1, wres: '1', bres: '0', wrat: 1500, brat: 1700},
		{round: 1, white: 3, black: 5, wres: '=', bres: '=', wrat: 0, brat: 1500},
		{round: 1, white: 0, black: -1, wres: 'U', wrat: 1700},
		{round: 2, white: 1, black: 3, wres: '0', bres: '1', wrat: 1700, brat: 0, hasPts: true, wpts: 3, bpts: 4},
	}
	sc := &standingsScratch{local: newLocal(len(players.ID))}
	tt := standingsInput(players, &archive.Tournament{ID: 1, Setup: &archive.Setup{System: "swiss"}}, rows, sc)
	// By rating: 0 and 1 (1700), 4 and 5 (1500), then 3 (unrated).
	wantIDs := []int64{10, 11, 14, 15, 13}
	var ids []int64
	for i, p := range tt.Players {
		ids = append(ids, p.ID)
		if p.StartNo != i+1 {
			t.Errorf("player %d: start number %d", i, p.StartNo)
		}
	}
	if !slices.Equal(ids, wantIDs) {
		t.Fatalf("players %v, want %v", ids, wantIDs)
	}
	wantGames := []tiebreak.Game{
		{Round: 1, White: 2, Black: 1, WhiteResult: '1', BlackResult: '0'},
		{Round: 1, White: 4, Black: 3, WhiteResult: '=', BlackResult: '='},
		{Round: 1, White: 0, Black: -1, WhiteResult: 'U'},
		{Round: 2, White: 1, Black: 4, WhiteResult: '0', BlackResult: '1', HasPoints: true, WhitePoints: 3, BlackPoints: 4},
	}
	if !slices.Equal(tt.Games, wantGames) {
		t.Errorf("games\n%+v\nwant\n%+v", tt.Games, wantGames)
	}
	if tt.Rounds != 2 {
		t.Errorf("rounds %d, want 2", tt.Rounds)
	}
	if slices.ContainsFunc(sc.local, func(l int32) bool { return l != -1 }) {
		t.Errorf("slots left %v", sc.local)
	}
	// Reused for a smaller tournament: nothing of the first is left.
	tt = standingsInput(players, &archive.Tournament{ID: 2, Rounds: 3, Setup: &archive.Setup{}}, rows[3:], sc)
	if len(tt.Players) != 2 || tt.Players[0].ID != 11 || len(tt.Games) != 1 || tt.Games[0] != (tiebreak.Game{Round: 2, White: 0, Black: 1, WhiteResult: '0', BlackResult: '1', HasPoints: true, WhitePoints: 3, BlackPoints: 4}) || tt.Rounds != 3 {
		t.Errorf("second tournament: %+v", tt)
	}
}
