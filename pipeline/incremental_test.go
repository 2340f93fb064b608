package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/testutil"
)

func genArchive(t *testing.T, seed uint64, csv bool) string {
	t.Helper()
	dir := t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 150, Games: 9000, Months: 8, Seed: seed, Dir: dir, CSV: csv}); err != nil {
		t.Fatal(err)
	}
	return dir
}

func runOpt(t *testing.T, o Options) *Summary {
	t.Helper()
	if o.Workers == 0 {
		o.Workers = 2
	}
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("Run(%+v): %v", o.Out, err)
	}
	return sum
}

// parquetRows is how many rows the Parquet file at p has.
func parquetRows(t *testing.T, p string) int64 {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return pf.NumRows()
}

// listsAndCards are the outputs an incremental run must reproduce exactly.
func listsAndCards(t *testing.T, out string) map[string][]byte {
	t.Helper()
	all := readTree(t, out)
	keep := map[string][]byte{}
	for n, b := range all {
		if strings.HasPrefix(n, "lists/") || n == "cards.parquet" || n == "card_games.parquet" || strings.HasPrefix(n, "state/") {
			keep[n] = b
		}
	}
	return keep
}

// TestResumeEqualsFull: --until a middle period, then --resume, gives the same
// lists, cards and states as one full run; the lists of the first run are not
// rewritten by the second.
func TestResumeEqualsFull(t *testing.T) {
	dir := genArchive(t, 11, false)
	full := t.TempDir()
	fs := os.DirFS(dir)
	sum := runOpt(t, Options{Archive: fs, Out: full})
	if sum.Lists < 6 {
		t.Fatalf("only %d lists", sum.Lists)
	}
	inc := t.TempDir()
	first := runOpt(t, Options{Archive: fs, Out: inc, Until: "2025-01"})
	if first.LastList != "2025-01" {
		t.Fatalf("--until 2025-01: last list %s", first.LastList)
	}
	before, _ := os.Stat(filepath.Join(inc, "lists", "2024-12.csv"))
	second := runOpt(t, Options{Archive: fs, Out: inc, Resume: true})
	if second.ResumedFrom != "2025-01" || second.FirstList != "2025-02" {
		t.Errorf("resumed from %q, first list %q; want 2025-01, 2025-02", second.ResumedFrom, second.FirstList)
	}
	after, _ := os.Stat(filepath.Join(inc, "lists", "2024-12.csv"))
	if !os.SameFile(before, after) {
		t.Error("lists/2024-12.csv was rewritten by the resumed run")
	}
	sameTrees(t, "resume vs full", listsAndCards(t, full), listsAndCards(t, inc), nil)
	if n := parquetRows(t, filepath.Join(inc, "card_games.parquet")); n != 0 {
		t.Errorf("school rules: card_games.parquet has %d rows, want an empty file", n)
	}
	// Resuming with nothing new writes no list and changes nothing.
	third := runOpt(t, Options{Archive: fs, Out: inc, Resume: true})
	if third.Lists != 0 {
		t.Errorf("second resume wrote %d lists", third.Lists)
	}
	sameTrees(t, "resume twice vs full", listsAndCards(t, full), listsAndCards(t, inc), nil)
}

// TestResumeSchoolGrownRegistry: the school system's saved state (its stage)
// names no player, so a run resumes after players joined the registry, and
// ends where a full run over the grown registry does.
func TestResumeSchoolGrownRegistry(t *testing.T) {
	dir := genArchive(t, 11, true)
	fs := os.DirFS(dir)
	inc := t.TempDir()
	if first := runOpt(t, Options{Archive: fs, Out: inc, Until: "2025-01"}); first.RuleSetField("stage") != 2 {
		t.Fatalf("--until 2025-01 ends in stage %d; the test needs a saved stage two", first.RuleSetField("stage"))
	}
	testutil.AppendFile(t, filepath.Join(dir, "players.csv"), "99999,\"Newcomer, Nina\",2015,2,,\n")
	full := t.TempDir()
	want := runOpt(t, Options{Archive: fs, Out: full})
	got := runOpt(t, Options{Archive: fs, Out: inc, Resume: true})
	if got.ResumedFrom != "2025-01" {
		t.Errorf("resumed from %q, want 2025-01", got.ResumedFrom)
	}
	for _, key := range []string{"stage", "stage2_from_tournament"} {
		if g, w := got.RuleSetField(key), want.RuleSetField(key); g != w || w == 0 {
			t.Errorf("%s: resumed %d, full %d (want equal, not 0)", key, g, w)
		}
	}
	listsOnly := func(out string) map[string][]byte {
		m := listsAndCards(t, out)
		for n := range m {
			if strings.HasPrefix(n, "state/") { // the states before the resume lack the new player
				delete(m, n)
			}
		}
		return m
	}
	sameTrees(t, "resume vs full", listsOnly(full), listsOnly(inc), nil)
}

// TestResumeOverOlderStates: a --resume or --from over states of an older
// version fails naming the file and the version; a full run over the same
// --out rewrites them, and resuming works again.
func TestResumeOverOlderStates(t *testing.T) {
	dir := genArchive(t, 11, false)
	fs := os.DirFS(dir)
	out := t.TempDir()
	runOpt(t, Options{Archive: fs, Out: out, Until: "2025-01"})
	names, err := filepath.Glob(filepath.Join(out, "state", "*.state"))
	if err != nil || len(names) == 0 {
		t.Fatalf("states %v, %v", names, err)
	}
	current := fmt.Sprintf("ratelist-state v%d ", stateVersion)
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil || !bytes.HasPrefix(b, []byte(current)) {
			t.Fatalf("%s: %v, header %.20q; want %q", n, err, b, current)
		}
		old := append([]byte(fmt.Sprintf("ratelist-state v%d ", stateVersion-1)), b[len(current):]...)
		if err := os.WriteFile(n, old, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []Options{{Resume: true}, {From: "2025-01"}} {
		o.Archive, o.Out, o.Workers = fs, out, 2
		_, err := Run(context.Background(), o)
		want := fmt.Sprintf("version %d, this ratelist reads version %d (a full run rebuilds it)", stateVersion-1, stateVersion)
		if !errors.Is(err, ErrBadState) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), ".state") {
			t.Errorf("resume %+v over older states: %v; want ErrBadState naming the file and %q", o.From, err, want)
		}
	}
	runOpt(t, Options{Archive: fs, Out: out, Until: "2025-01"})
	if got := runOpt(t, Options{Archive: fs, Out: out, Resume: true}); got.ResumedFrom != "2025-01" {
		t.Errorf("after a full run, resumed from %q, want 2025-01", got.ResumedFrom)
	}
}

// TestFromAfterCorrection: after a correction to one tournament, --from its
// period equals a full reprocess of the corrected archive, and earlier lists
// are untouched.
func TestFromAfterCorrection(t *testing.T) {
	dir := genArchive(t, 12, true)
	out := t.TempDir()
	runOpt(t, Options{Archive: os.DirFS(dir), Out: out})
	old := listsAndCards(t, out)

	// The correction: flip the first decisive result of a tournament in 2025-02.
	games, _ := os.ReadFile(filepath.Join(dir, "games.csv"))
	tours, _ := os.ReadFile(filepath.Join(dir, "tournaments.csv"))
	var tid string
	for _, line := range strings.Split(string(tours), "\n") {
		f := strings.Split(line, ",")
		if len(f) > 7 && strings.HasPrefix(f[3], "2025-02-1") && f[6] == "chess" && f[7] == "true" {
			tid = f[0]
			break
		}
	}
	if tid == "" {
		t.Fatal("no rated tournament ending mid February 2025")
	}
	lines := strings.Split(string(games), "\n")
	for i, line := range lines {
		f := strings.Split(line, ",")
		if len(f) > 5 && f[0] == tid && f[4] == "1" && f[5] == "0" {
			f[4], f[5] = "0", "1"
			lines[i] = strings.Join(f, ",")
			break
		}
	}
	os.WriteFile(filepath.Join(dir, "games.csv"), []byte(strings.Join(lines, "\n")), 0o644)

	sum := runOpt(t, Options{Archive: os.DirFS(dir), Out: out, From: "2025-02"})
	if sum.FirstList != "2025-02" {
		t.Errorf("--from 2025-02 wrote lists from %s", sum.FirstList)
	}
	clean := t.TempDir()
	runOpt(t, Options{Archive: os.DirFS(dir), Out: clean})
	got, want := listsAndCards(t, out), listsAndCards(t, clean)
	sameTrees(t, "--from vs full", want, got, nil)
	if !bytes.Equal(old["lists/2025-01.csv"], got["lists/2025-01.csv"]) {
		t.Error("lists/2025-01.csv changed")
	}
	if bytes.Equal(old["lists/2025-02.csv"], got["lists/2025-02.csv"]) {
		t.Error("the correction did not change lists/2025-02.csv: the test proves nothing")
	}
}

// TestLockRefusesSecondRun: while one run holds --out, another is refused
// naming the holder's pid.
func TestLockRefusesSecondRun(t *testing.T) {
	out := t.TempDir()
	l, err := lockOut(out)
	if err != nil {
		t.Fatal(err)
	}
	dir := genArchive(t, 13, true)
	_, err = Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "pid ") {
		t.Fatalf("second run: %v, want ErrLocked naming a pid", err)
	}
	l.unlock()
	runOpt(t, Options{Archive: os.DirFS(dir), Out: out})
}

func TestStateFile(t *testing.T) {
	s := &savedState{Fingerprint: "f", Key: 3, PlayerIDs: []int64{1, 2}, Rated: []bool{true, false},
		Rating: []int32{1500, 0}, GamesTotal: []int32{9, 0}, Tournaments: []int32{1, 0},
		PrevOn: []bool{true, false}, EverOn: []bool{true, false}, PrevRating: []int32{1490, 0}}
	var b bytes.Buffer
	if err := encodeState(&b, s); err != nil {
		t.Fatal(err)
	}
	got, err := decodeState(b.Bytes())
	if err != nil || got.Rating[0] != 1500 || got.Key != 3 {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	data := b.Bytes()
	data[len(data)-3] ^= 0xff
	if _, err := decodeState(data); !errors.Is(err, ErrBadState) {
		t.Errorf("damaged state: %v, want ErrBadState", err)
	}
	if _, err := decodeState([]byte("ratelist-state v9 00\nxx")); !errors.Is(err, ErrBadState) {
		t.Errorf("other version: %v, want ErrBadState", err)
	}
}

func TestParsePeriodLabel(t *testing.T) {
	tests := []struct {
		kind day.Kind
		s    string
		want int
		ok   bool
	}{
		{day.Month, "2025-03", 2025*12 + 2, true}, {day.Month, "2025-13", 0, false}, {day.Month, "2025-3", 0, false},
		{day.Quarter, "2025-Q2", 2025*4 + 1, true}, {day.Quarter, "2025-Q5", 0, false},
		{day.Year, "2025", 2025, true}, {day.Year, "25", 0, false},
	}
	for _, tt := range tests {
		got, err := parsePeriodLabel(tt.kind, tt.s)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("parsePeriodLabel(%s, %q) = %d, %v", tt.kind, tt.s, got, err)
		}
	}
}

// TestResumeFide: the FIDE rule set keeps state of its own (pools, the 2400
// marks); a resumed run must still equal a full one.
func TestResumeFide(t *testing.T) {
	dir := genArchive(t, 14, false)
	rules, err := DefaultRules("fide")
	if err != nil {
		t.Fatal(err)
	}
	fs := os.DirFS(dir)
	full, inc := t.TempDir(), t.TempDir()
	runOpt(t, Options{Archive: fs, Out: full, Rules: rules})
	runOpt(t, Options{Archive: fs, Out: inc, Rules: rules, Until: "2024-12"})
	sum := runOpt(t, Options{Archive: fs, Out: inc, Rules: rules, Resume: true})
	if sum.ResumedFrom != "2024-12" {
		t.Fatalf("resumed from %q", sum.ResumedFrom)
	}
	got, want := listsAndCards(t, inc), listsAndCards(t, full)
	sameTrees(t, "fide resume vs full", want, got, nil)
	// The lists must have rated players, the games file games before and
	// after the resumed period, for this to mean something.
	if n := parquetRows(t, filepath.Join(full, "card_games.parquet")); n < 1000 {
		t.Fatalf("card_games.parquet has %d rows", n)
	}
	if len(want["lists/2025-03.csv"]) < 200 {
		t.Fatalf("lists/2025-03.csv is nearly empty:\n%s", want["lists/2025-03.csv"])
	}
}

// TestStandingsWithoutRatedTournaments: tournaments the rule set does not rate
// (Scrabble, unrated chess) still get standings, in the period of their end
// date, even when no rated tournament exists or they end before the first one.
func TestStandingsWithoutRatedTournaments(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers,
		"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated
20,Scrabble Cup,2025-01-10,2025-01-10,swiss,2,scrabble,false
21,Friendly,2025-02-01,2025-02-01,swiss,1,chess,false
`,
		"games.csv": `tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points
20,1,1,2,1,0,420,380
20,1,3,4,0,1,350,400
20,2,1,4,=,=,390,390
20,2,2,3,1,0,410,300
21,1,1,2,=,=,,
`,
	})
	sum := runOpt(t, Options{Archive: os.DirFS(dir), Out: out})
	if sum.StandingsWritten != 2 || sum.Lists != 0 {
		t.Errorf("standings %d, lists %d; want 2 standings and no list", sum.StandingsWritten, sum.Lists)
	}
	// Without lists, the CSVs are the last period's (by end date).
	for _, f := range []string{"standings/2025-01.parquet", "standings/2025-02.parquet", "standings/21.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "standings/20.csv")); err == nil {
		t.Error("standings/20.csv written: it is not of the last period")
	}
}

// TestResumeNamesStalePeriods: a tournament reported late for a period that is
// already listed is not rated by --resume (the contract), but the run names the
// period so that the officer reruns with --from it; a plain resume names none.
func TestResumeNamesStalePeriods(t *testing.T) {
	dir := genArchive(t, 15, true)
	out := t.TempDir()
	runOpt(t, Options{Archive: os.DirFS(dir), Out: out, Until: "2025-01"})
	if s := runOpt(t, Options{Archive: os.DirFS(dir), Out: t.TempDir()}); len(s.StalePeriods) != 0 {
		t.Fatalf("a full run reports stale periods %v", s.StalePeriods)
	}
	// A late report: one more rated tournament ending in December 2024.
	testutil.AppendFile(t, filepath.Join(dir, "tournaments.csv"), "9999,Late Cup,2024-12-10,2024-12-11,swiss,1,chess,true,\n")
	testutil.AppendFile(t, filepath.Join(dir, "games.csv"), "9999,1,10001,10002,1,0,,\n")
	// Every list from December on follows from its ratings: all are named.
	sum := runOpt(t, Options{Archive: os.DirFS(dir), Out: out, Resume: true})
	if len(sum.StalePeriods) == 0 || sum.StalePeriods[0] != "2024-12" || sum.RerunFrom != "2024-12" ||
		sum.StalePeriods[len(sum.StalePeriods)-1] != sum.LastList {
		t.Errorf("stale periods %v (rerun from %q), want 2024-12 to the last list %s", sum.StalePeriods, sum.RerunFrom, sum.LastList)
	}
	// --from the stale period rates it; afterwards nothing is stale.
	sum = runOpt(t, Options{Archive: os.DirFS(dir), Out: out, From: "2024-12"})
	if len(sum.StalePeriods) != 0 {
		t.Errorf("after --from 2024-12: stale %v", sum.StalePeriods)
	}
	if sum = runOpt(t, Options{Archive: os.DirFS(dir), Out: out, Resume: true}); len(sum.StalePeriods) != 0 {
		t.Errorf("resume after --from: stale %v", sum.StalePeriods)
	}
}
