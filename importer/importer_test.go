package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/pipeline"
)

func mustStats(t *testing.T) func(*Stats, error) *Stats {
	return func(st *Stats, err error) *Stats { return checkStats(t, st, err) }
}

func checkStats(t *testing.T, st *Stats, err error) *Stats {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if st.Read != st.Imported+st.Skipped {
		t.Errorf("counts do not add up: read %d, imported %d, skipped %d", st.Read, st.Imported, st.Skipped)
	}
	return st
}

func importFiles(t *testing.T, dir, kind string, files ...string) *Stats {
	t.Helper()
	a, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var st *Stats
	if kind == "trf" {
		st, err = ImportTRF(context.Background(), a, files, Options{})
	} else {
		st, err = ImportPGN(context.Background(), a, files, Options{})
	}
	checkStats(t, st, err)
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	return st
}

// importRefused imports files expecting ErrInArchive, and the archive left
// as it was; it returns the error.
func importRefused(t *testing.T, dir, kind string, files ...string) error {
	t.Helper()
	before := testutil.Snapshot(t, dir)
	a, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Abort()
	var st *Stats
	if kind == "trf" {
		st, err = ImportTRF(context.Background(), a, files, Options{})
	} else {
		st, err = ImportPGN(context.Background(), a, files, Options{})
	}
	if !errors.Is(err, ErrInArchive) || !errors.Is(err, ErrUsage) {
		t.Fatalf("%s: got %v, want ErrInArchive", files, err)
	}
	if st.Imported != 0 || st.Tournaments != 0 || st.Read != st.Skipped {
		t.Errorf("%s refused: %+v", files, st)
	}
	if w, err := a.Commit(); err == nil || len(w) > 0 {
		t.Errorf("%s refused: Commit wrote %v, %v", files, w, err)
	}
	after := testutil.Snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("%s refused: %d files, were %d", files, len(after), len(before))
	}
	for f, b := range before {
		if after[f] != b {
			t.Errorf("%s refused: %s changed", files, f)
		}
	}
	return err
}

// TestEndToEnd imports two TRF files and a PGN file into a generated Parquet
// archive, then rates it: validation must find nothing to reject.
func TestEndToEnd(t *testing.T) {
	dir := t.TempDir()
	err := generate.Archive(context.Background(), generate.Options{Players: 40, Games: 300, Months: 2, Seed: 7, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	st := importFiles(t, dir, "trf", "testdata/spring.trf", "testdata/swiss6.trf")
	if st.Tournaments != 2 || st.Skipped != 0 || st.NewPlayers != 11 || st.Imported != 8+13 {
		t.Errorf("trf: %+v", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "games.parquet")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("games.parquet still there: %v", err)
	}
	for _, p := range []string{"games/part-0000.parquet", "games/part-0001.parquet"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Error(err)
		}
	}

	st = importFiles(t, dir, "pgn", "testdata/club.pgn")
	if st.Read != 9 || st.Imported != 6 || st.Skipped != 3 || st.Unfinished != 1 || st.Tournaments != 2 {
		t.Errorf("pgn: %+v", st)
	}
	// Orlova by FIDE id, Popov and Gorina by name (from spring.trf); Zeta and Eta are new.
	if st.NewPlayers != 2 || st.Matched != 3 {
		t.Errorf("pgn players: %d new, %d matched", st.NewPlayers, st.Matched)
	}
	var msgs []string
	for _, p := range st.Problems {
		msgs = append(msgs, p.Error())
	}
	want := []string{
		"testdata/club.pgn:36: unfinished game",
		"testdata/club.pgn:59: tag White: value not closed: malformed",
		`testdata/club.pgn:84: event "Undated": none of its 1 games has a date (Date, UTCDate or EventDate tag): no date: malformed`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}

	// A second import of the same file is refused.
	if err := importRefused(t, dir, "trf", "testdata/spring.trf"); !strings.Contains(err.Error(), "same games as tournament") {
		t.Errorf("re-import: %v", err)
	}

	out := t.TempDir()
	sum, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(dir), ArchiveName: dir, Out: out, Workers: 1})
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, sum.RejectKinds)
	}
	if sum.RowsRejected != 0 || sum.Tournaments < 4 {
		t.Errorf("run: %+v", sum)
	}
	a, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tr := range a.Tournaments[len(a.Tournaments)-4:] {
		names = append(names, tr.Name+" "+day.Day(tr.StartDate).String()+" "+day.Day(tr.EndDate).String())
	}
	wantT := "Spring Swiss 2025 2025-03-08 2025-03-09|Six players, every unplayed kind 2024-03-01 2024-03-04|" +
		"Club Championship 2025-04-05 2025-04-06|Blitz \"Open\" 2025-05-01 2025-05-31"
	if got := strings.Join(names, "|"); got != wantT {
		t.Errorf("tournaments\n got %s\nwant %s", got, wantT)
	}
}

func TestFirstIDAndEmptyArchive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	a, err := Open(dir, Options{FirstID: 500})
	if err != nil {
		t.Fatal(err)
	}
	mustStats(t)(ImportTRF(context.Background(), a, []string{"testdata/spring.trf", "testdata/missing.trf"}, Options{}))
	if a.Tournaments[0].TournamentID != 500 || a.Players[0].PlayerID != 1 {
		t.Errorf("ids: tournament %d, first player %d", a.Tournaments[0].TournamentID, a.Players[0].PlayerID)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	_, err = pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(dir), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOpenRefusesCSV(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "players.csv"), []byte("player_id,name\n1,A\n"), 0o644)
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrArchive) {
		t.Errorf("got %v, want ErrArchive", err)
	}
}

func TestPGNDate(t *testing.T) {
	tests := []struct {
		in        string
		lo, hi    string
		exact, ok bool
	}{
		{"2025.04.05", "2025-04-05", "2025-04-05", true, true},
		{"2024.02.??", "2024-02-01", "2024-02-29", false, true},
		{"2024.??.??", "2024-01-01", "2024-12-31", false, true},
		{"2024-03-07", "2024-03-07", "2024-03-07", true, true},
		{"????.??.??", "", "", false, false},
		{"2024.02.30", "", "", false, false},
		{"2024.13.01", "2024-01-01", "2024-12-31", false, true},
		{"", "", "", false, false},
	}
	for _, tt := range tests {
		lo, hi, exact, ok := pgnDate(tt.in)
		if ok != tt.ok || exact != tt.exact || ok && (day.Day(lo).String() != tt.lo || day.Day(hi).String() != tt.hi) {
			t.Errorf("%q: got %s %s %v %v", tt.in, day.Day(lo).String(), day.Day(hi).String(), exact, ok)
		}
	}
}

func TestPGNReader(t *testing.T) {
	tests := []struct {
		name, in string
		games    []string // termination or "bad@LINE"
	}{
		{"empty", "", nil},
		{"tags only", `[White "a"]`, []string{""}},
		{"no blank line", "[White \"a\"]\n1. e4 1-0\n[White \"b\"]\n0-1\n", []string{"1-0", "0-1"}},
		{"missing termination", "[White \"a\"]\n1. e4\n[White \"b\"]\n1. d4 *", []string{"", "*"}},
		{"result in variation", "[White \"a\"]\n1. e4 (1. d4 0-1) 1/2-1/2", []string{"1/2-1/2"}},
		{"open comment", "[White \"a\"]\n1. e4 {never closed\n", []string{"bad@2"}},
		{"escape and tags on one line", "%comment\n[White \"a\"] [Black \"b\\\\\"]\n*", []string{"*"}},
		{"duplicate tag", "[White \"a\"]\n[White \"b\"]\n*", []string{"bad@2"}},
		{"no quotes", "[White a]\n*", []string{"bad@1"}},
		{"moves without tags", "1. e4 e5 1-0\n1. d4 0-1\n", []string{"1-0", "0-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewPGNReader(strings.NewReader(tt.in), "x.pgn")
			var got []string
			for r.Next() {
				g := r.Game()
				if g.Err != nil {
					got = append(got, "bad@"+strconv.FormatInt(g.Err.Line, 10))
				} else {
					got = append(got, g.Termination)
				}
			}
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
			if strings.Join(got, ",") != strings.Join(tt.games, ",") {
				t.Errorf("got %q, want %q", got, tt.games)
			}
		})
	}
}

func TestImportCSV(t *testing.T) {
	dir := t.TempDir()
	st := mustStats(t)(ImportCSV(context.Background(), dir, []string{"../testdata/demo"}))
	if st.Skipped != 0 || len(st.Tables) != 4 {
		t.Errorf("%+v", st)
	}
	want, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS("../testdata/demo"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	got, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(dir), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got.RowsRead != want.RowsRead || got.RowsUsed != want.RowsUsed || got.TournamentsRated != want.TournamentsRated {
		t.Errorf("parquet archive: read %d used %d rated %d; csv: %d %d %d", got.RowsRead, got.RowsUsed, got.TournamentsRated,
			want.RowsRead, want.RowsUsed, want.TournamentsRated)
	}
	// A second conversion into the same archive is refused.
	if _, err := ImportCSV(context.Background(), dir, []string{"../testdata/demo/players.csv"}); !errors.Is(err, ErrArchive) {
		t.Errorf("got %v, want ErrArchive", err)
	}
}

func TestImportCSVBadRows(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "games.csv"), []byte(
		"tournament_id,round,white_id,black_id,white_result,black_result,extra\n"+
			"1,1,1,2,1,0,x\n"+ // row 1 fine
			"1,x,1,2,1,0,x\n"+ // row 2: round
			"1,99999999999,1,2,1,0,x\n"+ // row 3: round beyond int32
			"1,1,1,2,Q,0,x\n"+ // row 4: code
			"1,1,1\n"+ // row 5: fields
			",1,1,2,1,0,x\n"+ // row 6: missing id
			"1,2,1,,h,,x\n"), 0o644) // row 7 fine: h → H
	st := mustStats(t)(ImportCSV(context.Background(), dir, []string{filepath.Join(dir, "games.csv")}))
	var msgs []string
	for _, p := range st.Problems {
		msgs = append(msgs, strings.TrimPrefix(p.Error(), dir+"/"))
	}
	want := []string{
		`games.csv:2: round: malformed integer "x": malformed`,
		`games.csv:3: round: 99999999999 is out of the int32 range: malformed`,
		`games.csv:4: white_result: invalid result code "Q": malformed`,
		`games.csv:5: 3 fields, the header has 7: malformed`,
		`games.csv:6: tournament_id: missing: malformed`,
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s", strings.Join(msgs, "\n"))
	}
	if st.Read != 7 || st.Imported != 2 || len(st.Notes) != 2 {
		t.Errorf("%+v", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "games.csv.bak")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "games.csv")); err == nil {
		t.Error("games.csv still there")
	}
}

// TestImportCSVYears: import takes the dates and timestamps the run reads,
// any four-digit year, and refuses the others as the run does.
func TestImportCSVYears(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tables.csv"), []byte(
		"game_id,played_at,player_id,place,score\n"+
			"1,0999-05-01,1,1,10\n"+
			"1,0500-01-01T00:00:00Z,2,2,5\n"+
			"1,10000-01-01,3,3,0\n"), 0o644)
	st := mustStats(t)(ImportCSV(context.Background(), dir, []string{filepath.Join(dir, "tables.csv")}))
	if st.Imported != 2 || len(st.Problems) != 1 || !strings.Contains(st.Problems[0].Error(), `played_at: malformed timestamp "10000-01-01"`) {
		t.Fatalf("%+v %v", st, st.Problems)
	}
	rows, err := readParquet[archive.TableRow](filepath.Join(dir, "tables.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(999, 5, 1, 0, 0, 0, 0, time.UTC).UnixMicro(); len(rows) != 2 || rows[0].PlayedAt != want {
		t.Errorf("rows %+v, want played_at %d first", rows, want)
	}
}

func TestCSVSources(t *testing.T) {
	for _, args := range [][]string{{"testdata/club.pgn"}, {"testdata"}, {"../testdata/demo", "../testdata/demo/games.csv"}} {
		if _, err := csvSources(args); !errors.Is(err, ErrUsage) {
			t.Errorf("%v: got %v, want ErrUsage", args, err)
		}
	}
}

// TestTRFPointSystemSkipped: the archive keeps result codes, not points, so a TRF
// scored 3-1-0 is skipped with ErrPoints instead of being stored as 1-½-0.
func TestTRFPointSystemSkipped(t *testing.T) {
	data, err := os.ReadFile("testdata/spring.trf")
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "football.trf")
	if err := os.WriteFile(name, append(data, "XXS WW=3 BW=3 WD=1 BD=1\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(filepath.Join(t.TempDir(), "archive"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := ImportTRF(context.Background(), a, []string{name}, Options{})
	checkStats(t, st, err)
	if st.Imported != 0 || len(st.Problems) != 1 || !errors.Is(st.Problems[0], ErrPoints) {
		t.Errorf("imported %d, problems %v; want the file skipped with ErrPoints", st.Imported, st.Problems)
	}
}
