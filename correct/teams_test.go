package correct

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/importer"
)

var teamFiles = []string{"../testdata/teams/armstrong_2011.trf", "../testdata/teams/friendship_cup_2024.trf"}

// teamRows loads the archive's team tables as the run would (nothing may be
// rejected) and counts each tournament's teams and team players.
func teamRows(t *testing.T, dir string) (teams, players map[int64]int, all *archive.Teams) {
	t.Helper()
	all, _, err := load(t, dir).LoadTeams(context.Background(), func(e archive.RowError) { t.Errorf("rejected: %v", e.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	teams, players = map[int64]int{}, map[int64]int{}
	for _, r := range all.Teams {
		teams[r.TournamentID]++
	}
	for _, r := range all.Players {
		players[r.TournamentID]++
	}
	return teams, players, all
}

// importTeams imports the team files into dir in its own form and returns
// the new tournaments' ids.
func importTeams(t *testing.T, dir, form string) (league, swiss int64) {
	t.Helper()
	first := len(load(t, dir).Tournaments)
	if form == "csv" {
		if _, _, err := Import(context.Background(), dir, "trf", teamFiles, importer.Options{}); err != nil {
			t.Fatal(err)
		}
	} else {
		a, err := importer.Open(dir, importer.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := importer.ImportTRF(context.Background(), a, teamFiles, importer.Options{}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	ts := load(t, dir).Tournaments
	if len(ts) != first+2 {
		t.Fatalf("%d tournaments after the import, were %d", len(ts), first)
	}
	return ts[len(ts)-2].ID, ts[len(ts)-1].ID
}

// TestTeamTables: every edit of an archive keeps its team tables consistent,
// whatever its form: an import adds the teams, a replacement replaces them (a
// file without team records drops them), a merge moves a player's places, a
// removal drops the tournament's teams.
func TestTeamTables(t *testing.T) {
	for form, dir := range forms(t) {
		t.Run(form, func(t *testing.T) {
			league, swiss := importTeams(t, dir, form)
			teams, players, all := teamRows(t, dir)
			if teams[league] != 12 || teams[swiss] != 15 || players[league] != 160 || players[swiss] != 129 || len(teams) != 2 {
				t.Fatalf("teams %v, team players %v", teams, players)
			}
			if _, err := os.Stat(filepath.Join(dir, "teams.csv")); (err == nil) != (form == "csv") {
				t.Errorf("teams.csv in a %s archive: %v", form, err)
			}

			// The league again: the same teams; without its team records: none.
			if _, _, err := Replace(context.Background(), dir, "trf", teamFiles[:1], importer.Options{Replace: league}, now); err != nil {
				t.Fatal(err)
			}
			if again, p, _ := teamRows(t, dir); again[league] != 12 || p[league] != 160 || p[swiss] != 129 {
				t.Errorf("after a replacement: teams %v, team players %v", again, p)
			}
			src, err := os.ReadFile(teamFiles[0])
			if err != nil {
				t.Fatal(err)
			}
			var plain bytes.Buffer
			for line := range strings.Lines(string(src)) {
				if !strings.HasPrefix(line, "013") {
					plain.WriteString(line)
				}
			}
			stripped := filepath.Join(t.TempDir(), "armstrong.trf")
			if err := os.WriteFile(stripped, plain.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			e, _, err := Replace(context.Background(), dir, "trf", []string{stripped}, importer.Options{Replace: league}, now)
			if err != nil {
				t.Fatal(err)
			}
			if again, p, _ := teamRows(t, dir); again[league] != 0 || p[league] != 0 || again[swiss] != 15 {
				t.Errorf("after a replacement without teams: teams %v, team players %v", again, p)
			}
			if !strings.Contains(e.String(), "teams: 12 → 0") {
				t.Errorf("log: %s", e)
			}

			// A player of the Swiss merged into a player of no team: his place is keep's.
			var drop int64
			for _, r := range all.Players {
				if r.TournamentID == swiss {
					drop = r.PlayerID
					break
				}
			}
			keep := load(t, dir).Players.ID[0] // a generated player, in no team
			if _, err := MergePlayers(context.Background(), dir, keep, drop, now); err != nil {
				t.Fatal(err)
			}
			_, p, moved := teamRows(t, dir)
			kept := 0
			for _, r := range moved.Players {
				if r.PlayerID == drop {
					t.Errorf("player %d still in team %d", drop, r.Team)
				}
				if r.PlayerID == keep {
					kept++
				}
			}
			if kept != 1 {
				t.Errorf("player %d holds %d team places, want 1", keep, kept)
			}
			if p[swiss] != 129 {
				t.Errorf("team players of the Swiss after the merge: %d", p[swiss])
			}

			// Removing the Swiss removes its teams.
			if _, err := RemoveTournament(context.Background(), dir, swiss, now); err != nil {
				t.Fatal(err)
			}
			if teams, p, _ := teamRows(t, dir); len(teams) != 0 || len(p) != 0 {
				t.Errorf("after the removal: teams %v, team players %v", teams, p)
			}
		})
	}
}

// TestMergeTeamMates: two players listed in the teams of one tournament are
// two people, even when they never played in one round.
func TestMergeTeamMates(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"players.csv":      "player_id,name\n1,Ann\n2,Bob\n3,Cid\n",
		"tournaments.csv":  "tournament_id,name,start_date,end_date\n10,League,2025-01-10,2025-01-10\n",
		"games.csv":        "tournament_id,round,white_id,black_id,white_result,black_result\n10,1,1,3,1,0\n",
		"teams.csv":        "tournament_id,team,name\n10,1,Rooks\n10,2,Knights\n",
		"team_players.csv": "tournament_id,team,player_id,board\n10,1,1,1\n10,1,2,2\n10,2,3,1\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := MergePlayers(context.Background(), dir, 1, 2, now)
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "both listed in the teams of tournament 10 (team_players.csv row 2)") {
		t.Errorf("merge of team-mates: %v", err)
	}
}

// TestTeamByes: a TRF-2026 file's declared team byes (320) go into team_byes in
// any form of the archive; a replacement by the file without its 320 record drops
// them (and logs it), the file again brings them back, a removal drops them.
func TestTeamByes(t *testing.T) {
	const file = "../testdata/teams/team_byes_2026.trf"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	for line := range strings.Lines(string(src)) {
		if !strings.HasPrefix(line, "320") {
			plain.WriteString(line)
		}
	}
	stripped := filepath.Join(t.TempDir(), "team_byes.trf")
	if err := os.WriteFile(stripped, plain.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	byes := func(dir string) []archive.TeamByeRow {
		_, _, all := teamRows(t, dir)
		return all.Byes
	}
	for form, dir := range forms(t) {
		t.Run(form, func(t *testing.T) {
			first := len(load(t, dir).Tournaments)
			if _, _, err := Import(context.Background(), dir, "trf", []string{file}, importer.Options{}); err != nil {
				t.Fatal(err)
			}
			ts := load(t, dir).Tournaments
			if len(ts) != first+1 {
				t.Fatalf("%d tournaments after the import, were %d", len(ts), first)
			}
			id := ts[len(ts)-1].ID
			bye := func(team, round int32) archive.TeamByeRow {
				return archive.TeamByeRow{TournamentID: id, Team: team, Round: round, MatchHalfPoints: 4, GameHalfPoints: 4}
			}
			want := []archive.TeamByeRow{bye(5, 1), bye(4, 2), bye(2, 3)}
			if got := byes(dir); !slices.Equal(got, want) {
				t.Fatalf("team byes %v, want %v", got, want)
			}
			e, _, err := Replace(context.Background(), dir, "trf", []string{stripped}, importer.Options{Replace: id}, now)
			if err != nil {
				t.Fatal(err)
			}
			if got := byes(dir); len(got) != 0 || !strings.Contains(e.String(), "team byes: 3 → 0") {
				t.Errorf("after a replacement without the 320 record: %v; log %s", got, e)
			}
			if _, _, err := Replace(context.Background(), dir, "trf", []string{file}, importer.Options{Replace: id}, now); err != nil {
				t.Fatal(err)
			}
			if got := byes(dir); !slices.Equal(got, want) {
				t.Errorf("after a replacement by the file: %v", got)
			}
			e, err = RemoveTournament(context.Background(), dir, id, now)
			if err != nil {
				t.Fatal(err)
			}
			if got := byes(dir); len(got) != 0 || !strings.Contains(e.String(), "team byes: 3 → 0") {
				t.Errorf("after the removal: %v; log %s", got, e)
			}
		})
	}
}
