package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// teamFiles are team competitions as their pairing programs wrote them: a
// club league (a round robin with unfielded boards and one-sided forfeits), a
// team Swiss, the small league of TestStandingsTeam, and a TRF-2026 team Swiss
// whose 320 record makes the pairing-allocated bye a match won 2–0.
var teamFiles = []string{"../../testdata/teams/armstrong_2011.trf", "../../testdata/teams/friendship_cup_2024.trf", "testdata/teams.trf", "../../testdata/teams/team_byes_2026.trf"}

// importTRF imports files into a new archive and returns its folder.
func importTRF(t *testing.T, files ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "archive")
	var stdout, stderr bytes.Buffer
	if rc := run(context.Background(), append([]string{"import", "trf", "--archive", dir, "--quiet"}, files...), &stdout, &stderr); rc != exitOK {
		t.Fatalf("import %v: exit %d\n%s%s", files, rc, stdout.String(), stderr.String())
	}
	return dir
}

// TestTeamStandingsArchive: a team competition imported into the archive
// gives the team standings its TRF gives, byte for byte, whatever the codes,
// the scores and the format.
func TestTeamStandingsArchive(t *testing.T) {
	flags := [][]string{
		{},
		{"--format", "text"},
		{"--tiebreaks", "EDE,EMGSB,BH:MP,BC,TBR,BBE,SSSC,AOB:MP,FB:GP,WIN,WON,PS"},
		{"--primary", "gp", "--match-points", "3,1,0", "--unplayed", "fide2026"},
	}
	for _, file := range teamFiles {
		dir := importTRF(t, file)
		for _, f := range flags {
			var want, got, errb bytes.Buffer
			if rc := cmdStandings(context.Background(), append([]string{"--trf", file, "--team"}, f...), &want, &errb); rc != exitOK {
				t.Fatalf("%s %v: --trf: exit %d: %s", file, f, rc, errb.String())
			}
			errb.Reset()
			if rc := cmdStandings(context.Background(), append([]string{"--archive", dir, "--tournament", "1", "--team"}, f...), &got, &errb); rc != exitOK {
				t.Fatalf("%s %v: --archive: exit %d: %s", file, f, rc, errb.String())
			}
			if got.String() != want.String() || strings.Count(want.String(), "\n") < 5 {
				t.Errorf("%s %v: the archive gives\n%s\nthe TRF\n%s", file, f, got.String(), want.String())
			}
		}
	}
	// A tournament without teams is no team competition.
	dir := importTRF(t, "testdata/rr.trf")
	var out, errb bytes.Buffer
	if rc := cmdStandings(context.Background(), []string{"--archive", dir, "--tournament", "1", "--team"}, &out, &errb); rc != exitFailed || !strings.Contains(errb.String(), "no teams") {
		t.Errorf("no teams: exit %d: %s", rc, errb.String())
	}
}

// TestTeamLeagueRatesAsIndividual: the league's players are rated exactly as
// the same games entered without their teams: the lists and cards of a run
// on the archive with team tables are those of a run on the archive of the
// file stripped of its team records.
func TestTeamLeagueRatesAsIndividual(t *testing.T) {
	src, err := os.ReadFile(teamFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	var stripped bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		if line := sc.Text(); !strings.HasPrefix(line, "013") {
			stripped.WriteString(line + "\n")
		}
	}
	plain := filepath.Join(t.TempDir(), "armstrong_2011.trf")
	if err := os.WriteFile(plain, stripped.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	withTeams, without := importTRF(t, teamFiles[0]), importTRF(t, plain)
	if _, err := os.Stat(filepath.Join(withTeams, "teams.parquet")); err != nil {
		t.Fatalf("no teams table: %v", err)
	}
	if _, err := os.Stat(filepath.Join(without, "teams.parquet")); err == nil {
		t.Fatal("a teams table from a file without team records")
	}
	outs := [2]string{}
	for i, dir := range []string{withTeams, without} {
		outs[i] = filepath.Join(t.TempDir(), "out")
		for _, rules := range []string{"school", "fide"} {
			var stdout, stderr bytes.Buffer
			if rc := run(context.Background(), []string{"run", "--archive", dir, "--out", outs[i] + rules, "--rules", rules, "--quiet"}, &stdout, &stderr); rc != exitOK {
				t.Fatalf("run %s %s: exit %d: %s", dir, rules, rc, stderr.String())
			}
		}
	}
	for _, rules := range []string{"school", "fide"} {
		for _, name := range []string{"lists/2011-03.csv", "lists/2011-03.parquet", "cards.parquet", "card_games.parquet"} {
			a, err := os.ReadFile(filepath.Join(outs[0]+rules, name))
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(outs[1]+rules, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) || len(a) < 100 {
				t.Errorf("%s %s: the league with its teams rates otherwise than without (%d and %d bytes)", rules, name, len(a), len(b))
			}
		}
	}
}

// TestValidateTeams: validate rejects the team tables' bad rows, naming file,
// row and reason, and counts them with the others.
func TestValidateTeams(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"players.csv":     "player_id,name\n1,Ann\n2,Bob\n3,Cid\n4,Dan\n",
		"tournaments.csv": "tournament_id,name,start_date,end_date,rounds\n10,League,2025-01-10,2025-01-10,1\n",
		"games.csv":       "tournament_id,round,white_id,black_id,white_result,black_result\n10,1,1,3,1,0\n10,1,4,2,=,=\n",
		"teams.csv":       "tournament_id,team,name,club\n10,1,Rooks,Rook Club\n10,2,Knights,\n10,2,Knights again,\n11,1,Nowhere,\n10,0,Zero,\n10,3,,\n",
		"team_players.csv": "tournament_id,team,player_id,board,round\n10,1,1,1,\n10,1,2,2,\n10,2,3,1,\n10,2,4,2,\n" +
			"10,2,1,3,\n10,3,2,1,\n10,1,9,3,\n10,1,4,2,\n10,2,4,0,\n10,1,2,1,0\n10,1,1,1,1\n10,1,2,2,1\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	rc := run(context.Background(), []string{"validate", "--archive", dir, "--as-of", "2025-06-01"}, &stdout, &stderr)
	if rc != exitRejected {
		t.Fatalf("exit %d, want %d: %s%s", rc, exitRejected, stdout.String(), stderr.String())
	}
	for _, want := range []string{
		": 25 rows read, 15 used, 10 rejected",
		"teams.csv:3: duplicate team 2 of tournament 10 (first at teams.csv row 2)",
		"teams.csv:4: unknown tournament 11",
		"teams.csv:5: team: 0 is not > 0",
		"teams.csv:6: name: missing",
		"team_players.csv:5: player 1 is listed twice in the teams of tournament 10 (first at team_players.csv row 1)",
		"team_players.csv:6: unknown team 3 of tournament 10 (not in the teams table)",
		"team_players.csv:7: unknown player 9",
		"team_players.csv:8: duplicate board 2 of team 1 in tournament 10 (first at team_players.csv row 2)",
		"team_players.csv:9: board: 0 is not > 0",
		"team_players.csv:10: round: 0 is not > 0",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("validate does not say %q:\n%s", want, stdout.String())
		}
	}
	// The rows kept make the league: Rooks beat Knights 1½–½.
	stdout.Reset()
	if rc := cmdStandings(context.Background(), []string{"--archive", dir, "--tournament", "10", "--team", "--tiebreaks", "MPvGP"}, &stdout, &stderr); rc != exitOK {
		t.Fatalf("standings: exit %d: %s", rc, stderr.String())
	}
	if want := "rank,team,name,mp,gp,MPvGP\n1,1,Rooks,2,1.5,1.5\n2,2,Knights,0,0.5,0.5\n"; stdout.String() != want {
		t.Errorf("standings:\n%s\nwant\n%s", stdout.String(), want)
	}
}

// TestTeamByesArchive: the hand-made file's declared byes (2 match points, 2
// game points) reach the archive's standings (by hand in its PROVENANCE.md);
// validate rejects bad team_byes rows.
func TestTeamByesArchive(t *testing.T) {
	dir := importTRF(t, teamFiles[3])
	var out, errb bytes.Buffer
	if rc := cmdStandings(context.Background(), []string{"--archive", dir, "--tournament", "1", "--team", "--tiebreaks", "MPvGP"}, &out, &errb); rc != exitOK {
		t.Fatalf("standings: exit %d: %s", rc, errb.String())
	}
	want := "rank,team,name,mp,gp,MPvGP\n1,4,Dragons,5,5,5\n2,5,Eagles,4,4,4\n3,1,Ajax,4,3,3\n4,2,Bishops,3,3.5,3.5\n5,3,Castles,2,2.5,2.5\n"
	if out.String() != want {
		t.Errorf("standings:\n%s\nwant\n%s", out.String(), want)
	}
	bad := "tournament_id,team,round,match_half_points,game_half_points\n1,5,1,4,4\n1,4,2,4,4\n1,4,2,4,4\n1,2,3,2,2\n1,9,3,4,4\n1,2,0,4,4\n1,3,3,-1,4\n2,1,1,4,4\n1,1,1,,4\n"
	if err := os.WriteFile(filepath.Join(dir, "team_byes.csv"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "team_byes.parquet")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if rc := run(context.Background(), []string{"validate", "--archive", dir, "--as-of", "2026-06-01"}, &out, &errb); rc != exitRejected {
		t.Fatalf("exit %d, want %d: %s%s", rc, exitRejected, out.String(), errb.String())
	}
	for _, w := range []string{
		"team_byes.csv:3: duplicate team bye of team 4 in round 2 of tournament 1 (first at team_byes.csv row 2)",
		"team_byes.csv:4: team bye points 2/2 differ from tournament 1's 4/4 (first at team_byes.csv row 1)",
		"team_byes.csv:5: unknown team 9 of tournament 1 (not in the teams table)",
		"team_byes.csv:6: round: 0 is not > 0",
		"team_byes.csv:7: match_half_points: -1 is not ≥ 0",
		"team_byes.csv:8: unknown tournament 2",
		"team_byes.csv:9: match_half_points: missing",
	} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("validate does not say %q:\n%s", w, out.String())
		}
	}
}

// trfPlayer is a TRF 001 record: starting rank, name, and a round "OPP COLOUR
// RESULT" from column 92.
func trfPlayer(sno int, name, round string) string {
	s := []rune(fmt.Sprintf("001 %4d      %-33s", sno, name) + strings.Repeat(" ", 91))[:91]
	f := strings.Fields(round)
	return strings.TrimRight(string(s)+fmt.Sprintf("%4s %s %s", f[0], f[1], f[2]), " ") + "\n"
}

// TestTeamBoardOrderArchive: a TRF-2026 300 record's board order goes through
// the archive. Team One (1, 2) meets Team Two (3, 4): 1 beats 4, 2 draws 3. In
// list order One's BC is 1·1 + 2·½ = 2; with `300   1   1   2    2    1` (2 on
// board 1) it is 1·½ + 2·1 = 2.5.
func TestTeamBoardOrderArchive(t *testing.T) {
	base := "012 T26\n042 2026/03/10\n" +
		fmt.Sprintf("310   1 %-32s%33s   1    2\n", "One", "") +
		fmt.Sprintf("310   2 %-32s%33s   3    4\n", "Two", "") +
		trfPlayer(1, "A", "4 w 1") + trfPlayer(2, "B", "3 b =") + trfPlayer(3, "C", "2 w =") + trfPlayer(4, "D", "1 b 0")
	for _, tc := range []struct{ file, bc string }{{base, "2"}, {base + "300   1   1   2    2    1\n", "2.5"}} {
		name := filepath.Join(t.TempDir(), "t.trf")
		if err := os.WriteFile(name, []byte(tc.file), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := importTRF(t, name)
		var want, got, errb bytes.Buffer
		args := []string{"--team", "--tiebreaks", "BC"}
		if rc := cmdStandings(context.Background(), append([]string{"--trf", name}, args...), &want, &errb); rc != exitOK {
			t.Fatalf("--trf: exit %d: %s", rc, errb.String())
		}
		if rc := cmdStandings(context.Background(), append([]string{"--archive", dir, "--tournament", "1"}, args...), &got, &errb); rc != exitOK {
			t.Fatalf("--archive: exit %d: %s", rc, errb.String())
		}
		if got.String() != want.String() || !strings.Contains(got.String(), "1,1,One,2,1.5,"+tc.bc+"\n") {
			t.Errorf("the archive gives\n%s\nthe TRF\n%s\nwant One's BC %s", got.String(), want.String(), tc.bc)
		}
	}
}
