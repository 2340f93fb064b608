package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/testutil"
)

func readRejects(t *testing.T, out string) [][]string {
	t.Helper()
	recs := testutil.ReadCSV(t, filepath.Join(out, "rejects.csv"))
	if strings.Join(recs[0], ",") != "file,row,reason,values" {
		t.Fatalf("rejects header %v", recs[0])
	}
	return recs[1:]
}

const goodPlayers = `player_id,name,birth_year,category,fide_rating,club
1,Ann,2010,1,,A
2,Bob,2011,2,,A
3,Cid,2012,3,,B
4,Dan,2012,4,,B
`

// TestRejects plants every kind of bad row and checks that each lands in
// rejects.csv with its file, row and reason, and that the counts add up.
func TestRejects(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers +
			"1,Duplicate Ann,,,,\n" + // row 5: duplicate id
			"x,Bad Id,,,,\n" + // row 6: malformed number
			"7,,,,,\n" + // row 7: missing name
			"8,Eve,,9,,\n" + // row 8: category out of range
			"9,Fay,,,\n", // row 9: wrong number of fields
		"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Autumn Open,2025-01-10,2025-01-12,swiss,3,chess,true,
11,Backwards,2025-02-10,2025-02-01,swiss,3,chess,true,
12,Bad Date,2025-02-30,2025-03-01,swiss,3,chess,true,
10,Duplicate,2025-01-10,2025-01-12,swiss,3,chess,true,
13,Bad Discipline,2025-01-10,2025-01-12,swiss,3,go,true,
`,
		"games.csv": `tournament_id,round,white_id,black_id,white_result,black_result
10,1,1,2,1,0
10,1,3,4,=,=
10,2,1,3,0,1
10,2,2,4,+,-
10,3,1,4,1,1
10,3,2,3,X,0
10,4,1,2,1,0
10,0,1,2,1,0
10,3,1,1,1,0
10,3,5,2,1,0
99,1,1,2,1,0
10,3,2,3,1,0
10,3,4,3,0,1
10,2,1,,H,
10,2,1,4,1
10,x,1,2,1,0
10,3,2,,H,0
`,
	})
	sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, Workers: 2})
	if err != nil || sum.RowsRejected == 0 {
		t.Fatalf("Run: %v, want success with rejected rows", err)
	}
	want := []struct{ file, row, reason string }{
		{"players.csv", "5", "duplicate player_id 1"},
		{"players.csv", "6", "player_id: malformed integer"},
		{"players.csv", "7", "name: missing"},
		{"players.csv", "8", "category: 9 is not 1–4"},
		{"players.csv", "9", "wrong number of fields"},
		{"tournaments.csv", "2", "start_date is after end_date"},
		{"tournaments.csv", "3", "start_date: malformed date"},
		{"tournaments.csv", "4", "duplicate tournament_id 10"},
		{"tournaments.csv", "5", "discipline"},
		{"games.csv", "5", "do not mirror"},
		{"games.csv", "6", "white_result: invalid result code"},
		{"games.csv", "7", "round 4 is outside 1–3"},
		{"games.csv", "8", "round 0 is outside 1–3"},
		{"games.csv", "9", "paired against himself"},
		{"games.csv", "10", "unknown player 5"},
		{"games.csv", "11", "unknown tournament 99"},
		{"games.csv", "15", "wrong number of fields"},
		{"games.csv", "16", "round: malformed integer"},
		{"games.csv", "17", "must have an empty black_result"},
		{"games.csv", "13", "paired twice in round 3"},
		{"games.csv", "14", "paired twice in round 2"},
	}
	got := readRejects(t, out)
	if len(got) != len(want) {
		for _, g := range got {
			t.Log(g)
		}
		t.Fatalf("%d rejects, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g[0] != w.file || g[1] != w.row || !strings.Contains(g[2], w.reason) {
			t.Errorf("reject %d = %v, want %s:%s %q", i, g, w.file, w.row, w.reason)
		}
		if g[3] == "" && !strings.Contains(g[2], "malformed CSV") {
			t.Errorf("reject %d has no raw values", i)
		}
	}
	if sum.RowsRead != sum.RowsUsed+sum.RowsRejected || sum.RowsRejected != int64(len(want)) {
		t.Errorf("summary read %d used %d rejected %d", sum.RowsRead, sum.RowsUsed, sum.RowsRejected)
	}
	if sum.RowsRead != 9+5+17 {
		t.Errorf("rows read %d, want %d", sum.RowsRead, 9+5+17)
	}
	// Row 12 (10,3,2,3) is the first valid pairing of 2 and 3 in round 3 and is used;
	// row 13 pairs 3 again in round 3. Row 14 (a bye for 1 in round 2) clashes with
	// row 3. The valid games are rows 1–4 and 12.
	if g := sum.Tables["games"]; g.Used != 5 {
		t.Errorf("games used %d, want 5", g.Used)
	}
}

// TestUnreadable: a corrupt Parquet file or a missing players table fails the
// run with a message naming the file, and nothing is left in --out.
func TestUnreadable(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		wantErr error
		wantMsg string
	}{
		{"missing players", map[string]string{"games.csv": "tournament_id,round,white_id,black_id,white_result,black_result\n"}, archive.ErrMissingTable, "players"},
		{"corrupt parquet", map[string]string{"players.csv": goodPlayers, "games.parquet": "PAR1 this is not parquet at all PAR1"}, archive.ErrUnreadable, "games.parquet"},
		{"truncated parquet", map[string]string{"players.parquet": "PAR1\x15\x00"}, archive.ErrUnreadable, "players.parquet"},
		{"missing column", map[string]string{"players.csv": "player_id,club\n1,A\n"}, archive.ErrMissingColumn, "players.csv"},
		{"empty csv", map[string]string{"players.csv": ""}, archive.ErrUnreadable, "players.csv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, out := t.TempDir(), t.TempDir()
			testutil.WriteFiles(t, dir, tt.files)
			_, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out})
			if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("err = %v, want %v naming %q", err, tt.wantErr, tt.wantMsg)
			}
			if ents := outEntries(t, out); len(ents) != 0 {
				t.Errorf("--out holds %v after a failed run, want nothing", ents)
			}
		})
	}
}

// TestTruncatedGames: a games.parquet cut in half fails cleanly.
func TestTruncatedGames(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 50, Games: 3000, Months: 2, Seed: 3, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "games.parquet")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, data[:len(data)/2], 0o644)
	_, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out})
	if !errors.Is(err, archive.ErrUnreadable) || !strings.Contains(err.Error(), "games.parquet") {
		t.Fatalf("err = %v", err)
	}
	if ents := outEntries(t, out); len(ents) != 0 {
		t.Errorf("--out holds %v after a failed run", ents)
	}
}

// outEntries lists --out without the lock file, which stays (empty) between runs.
func outEntries(t *testing.T, out string) []string {
	t.Helper()
	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.Name() != ".ratelist.lock" {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestTripleDuplicate: every later duplicate names the row that was kept.
func TestTripleDuplicate(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{"players.csv": "player_id,name\n5,Ann\n5,Bob\n5,Cid\n"})
	if sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out}); err != nil || sum.RowsRejected == 0 {
		t.Fatalf("Run: %v, want success with rejected rows", err)
	}
	got := readRejects(t, out)
	if len(got) != 2 {
		t.Fatalf("%d rejects, want 2", len(got))
	}
	for _, g := range got {
		if !strings.Contains(g[2], "first at players.csv row 1") {
			t.Errorf("reject %v does not name row 1", g)
		}
	}
}

// TestRejectOrderConcurrentLoad: the players and tournaments load at the same
// time; however they finish (here the tournaments long before the players), the
// players' rejects come first, in row order, then the tournaments', with each
// table's counts.
func TestRejectOrderConcurrentLoad(t *testing.T) {
	var players strings.Builder
	players.WriteString("player_id,name\n1,Ann\n0,Zero\n")
	for id := 2; id < 50000; id++ {
		fmt.Fprintf(&players, "%d,P%d\n", id, id)
	}
	players.WriteString("1,Late Duplicate\n")
	dir, out := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": players.String(),
		"tournaments.csv": "tournament_id,name,start_date,end_date\n" +
			"10,Open,2025-01-10,2025-01-12\n10,Again,2025-01-10,2025-01-12\n11,,2025-01-10,2025-01-12\n",
	})
	for _, workers := range []int{1, 4} {
		sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, Workers: workers})
		if err != nil || sum.RowsRejected == 0 {
			t.Fatalf("Run: %v, want success with rejected rows", err)
		}
		var got []string
		for _, g := range readRejects(t, out) {
			got = append(got, g[0]+":"+g[1])
		}
		want := []string{"players.csv:2", "players.csv:50001", "tournaments.csv:2", "tournaments.csv:3"}
		if !slices.Equal(got, want) {
			t.Errorf("workers %d: rejects %v, want %v", workers, got, want)
		}
		if p, tt := sum.Tables["players"], sum.Tables["tournaments"]; *p != (archive.TableCount{Read: 50001, Used: 49999, Rejected: 2}) || *tt != (archive.TableCount{Read: 3, Used: 1, Rejected: 2}) {
			t.Errorf("workers %d: counts players %+v tournaments %+v", workers, *p, *tt)
		}
	}
}

// TestGameDateOutsideTournament: a game dated outside its tournament's start
// and end dates (a typo: 1999 in a 2025 event) is rejected naming its row and
// both dates; games dated on the first and last day are used.
func TestGameDateOutsideTournament(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers,
		"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Spring Open,2025-03-01,2025-03-03,swiss,3,chess,true,
`,
		"games.csv": `tournament_id,round,date,white_id,black_id,white_result,black_result
10,1,2025-03-01,1,2,1,0
10,1,,3,4,=,=
10,2,1999-03-02,1,3,0,1
10,2,2025-03-03,2,4,1,0
10,3,2025-03-04,1,4,1,0
`,
	})
	sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out})
	if err != nil {
		t.Fatal(err)
	}
	got := readRejects(t, out)
	want := [][2]string{
		{"3", "date 1999-03-02 is outside tournament 10's dates 2025-03-01 to 2025-03-03"},
		{"5", "date 2025-03-04 is outside tournament 10's dates 2025-03-01 to 2025-03-03"},
	}
	if len(got) != len(want) {
		t.Fatalf("rejects %v, want rows 3 and 5", got)
	}
	for i, w := range want {
		if got[i][0] != "games.csv" || got[i][1] != w[0] || got[i][2] != w[1] {
			t.Errorf("reject %v, want games.csv row %s %q", got[i], w[0], w[1])
		}
	}
	if g := sum.Tables["games"]; g.Used != 3 || g.Rejected != 2 {
		t.Errorf("games used %d rejected %d, want 3 and 2", g.Used, g.Rejected)
	}
}

// TestRunDate: the run checks "in the future" against Options.Now, the date it
// runs with: a tournament a year and a day after it is rejected with its games,
// one exactly a year after it is kept (and, in a period still to come, waits
// for a later run: nothing is rated).
func TestRunDate(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers,
		"tournaments.csv": "tournament_id,name,start_date,end_date\n" +
			"1,Next year,2026-06-15,2026-06-16\n2,Too far,2026-06-16,2026-06-16\n",
		"games.csv": "tournament_id,round,white_id,black_id,white_result,black_result\n" +
			"1,1,1,2,1,0\n2,1,3,4,=,=\n",
	})
	for _, tc := range []struct {
		now      time.Time
		rejected int64
	}{
		{time.Date(2025, 6, 15, 23, 59, 0, 0, time.UTC), 2}, // tournament 2 and its game
		{time.Date(2025, 6, 16, 0, 0, 0, 0, time.UTC), 0},
	} {
		out := t.TempDir()
		sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, Workers: 1, Now: tc.now})
		if err != nil {
			t.Fatal(err)
		}
		if sum.RowsRejected != tc.rejected || sum.TournamentsRated != 0 || sum.Tournaments != 2-int(tc.rejected/2) {
			t.Errorf("run dated %s: %d rows rejected, %d tournaments kept, %d rated; want %d rejected, none rated", tc.now.Format(time.DateOnly),
				sum.RowsRejected, sum.Tournaments, sum.TournamentsRated, tc.rejected)
		}
		// The game says why its tournament is unknown.
		const why = "unknown tournament 2: its row was rejected (start_date 2026-06-16 is in the future"
		if got := readRejects(t, out); tc.rejected > 0 && (len(got) != 2 || got[1][0] != "games.csv" || !strings.HasPrefix(got[1][2], why)) {
			t.Errorf("run dated %s: rejects %q, want the game's reason to start %q", tc.now.Format(time.DateOnly), got, why)
		}
	}
}

// TestRejectedTournamentGamesOneLine: the games of a tournament whose own row
// was rejected (a year typed a century ahead) are counted on one rejects line,
// not listed one by one, and the counts still add up.
func TestRejectedTournamentGamesOneLine(t *testing.T) {
	dir := t.TempDir()
	var games strings.Builder
	games.WriteString("tournament_id,round,white_id,black_id,white_result,black_result\n1,1,1,2,1,0\n")
	for r := 1; r <= 40; r++ {
		fmt.Fprintf(&games, "2,%d,3,4,=,=\n2,%d,1,2,1,0\n", r, r)
	}
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers,
		"tournaments.csv": "tournament_id,name,start_date,end_date\n" +
			"1,Spring,2025-03-01,2025-03-02\n2,Typo,2125-03-01,2125-03-02\n",
		"games.csv": games.String(),
	})
	out := t.TempDir()
	sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, Workers: 1, Now: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	got := readRejects(t, out)
	const why = "unknown tournament 2: its row was rejected (start_date 2125-03-01 is in the future"
	if len(got) != 2 || got[1][0] != "games.csv" || got[1][1] != "2" || !strings.HasPrefix(got[1][2], why) ||
		!strings.HasSuffix(got[1][2], ": 80 games rows, the first at row 2 of games.csv") {
		t.Errorf("rejects %q, want the tournament's line and one line for its 80 games", got)
	}
	g := sum.Tables["games"]
	if g.Read != 81 || g.Used != 1 || g.Rejected != 80 || sum.RowsRead != sum.RowsUsed+sum.RowsRejected {
		t.Errorf("games %+v, rows %d read, %d used, %d rejected", *g, sum.RowsRead, sum.RowsUsed, sum.RowsRejected)
	}
	for _, k := range sum.RejectKinds {
		if k.Kind == "unknown tournament" && k.Count != 80 {
			t.Errorf("reject kind %q counts %d rows, want 80", k.Kind, k.Count)
		}
	}
}

// TestValidateSummaryLikeRun: validate, which takes no lists, reports the same
// lists and players on the last one as a run that writes them.
func TestValidateSummaryLikeRun(t *testing.T) {
	dir := t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 300, Games: 3000, Months: 4, Seed: 3, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	val, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	run, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: t.TempDir(), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if val.Lists != run.Lists || val.FirstList != run.FirstList || val.LastList != run.LastList || val.PlayersListed != run.PlayersListed || run.PlayersListed == 0 {
		t.Errorf("validate: %d lists %s…%s, %d listed; run: %d lists %s…%s, %d listed", val.Lists, val.FirstList, val.LastList, val.PlayersListed,
			run.Lists, run.FirstList, run.LastList, run.PlayersListed)
	}
}
