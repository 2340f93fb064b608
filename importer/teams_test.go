package importer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/trf"
)

// TestTRFTeams: a team competition's team records become the team tables'
// rows, and its system is the one the file names, none for a league whose
// header names none; a 320 record's team byes go into team_byes at its points.
func TestTRFTeams(t *testing.T) {
	rec := func(sno int, name, round string) string {
		return strings.TrimRight(fmt.Sprintf("001 %4d      %-33s", sno, name)+strings.Repeat(" ", 44)+round, " ") + "\n"
	}
	t2026 := "012 T26\n042 2026/03/10\n" +
		fmt.Sprintf("310   1 %-32s%33s   1\n", "One", "") + fmt.Sprintf("310   2 %-32s%33s   2\n", "Two", "") +
		fmt.Sprintf("310   3 %-32s%33s   3\n", "Three", "") + "320  1.0  1.0   3\n" +
		rec(1, "A", "   2 w 1") + rec(2, "B", "   1 b 0") + rec(3, "C", "0000 - -")
	name := filepath.Join(t.TempDir(), "t2026.trf")
	if err := os.WriteFile(name, []byte(t2026), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file           string
		teams, players int
		byes           int
		system         string // "" for none
		note           string
	}{
		{"../testdata/teams/armstrong_2011.trf", 12, 160, 0, "", ""},
		{"../testdata/teams/friendship_cup_2024.trf", 15, 129, 0, "swiss", ""},
		{name, 3, 3, 1, "", ""},
		{"../testdata/teams/team_byes_2026.trf", 5, 12, 3, "swiss", ""}, // 10 in the lists, 2 in a 300 order
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			a, err := Open(filepath.Join(t.TempDir(), "archive"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			st, err := ImportTRF(context.Background(), a, []string{tt.file}, Options{})
			checkStats(t, st, err)
			if len(a.Teams) != tt.teams || len(a.TeamPlayers) != tt.players {
				t.Errorf("%d teams, %d team players; want %d, %d", len(a.Teams), len(a.TeamPlayers), tt.teams, tt.players)
			}
			if len(a.TeamByes) != tt.byes {
				t.Errorf("team byes %v, want %d", a.TeamByes, tt.byes)
			}
			for _, r := range a.TeamByes {
				if r.TournamentID != 1 || r.Round < 1 || r.MatchHalfPoints != a.TeamByes[0].MatchHalfPoints || r.GameHalfPoints != a.TeamByes[0].GameHalfPoints {
					t.Errorf("team bye %+v", r)
				}
			}
			for _, r := range a.TeamPlayers {
				if r.TournamentID != 1 || r.Board < 1 || r.Round != nil && *r.Round != 2 { // the hand-made file's 300 is round 2
					t.Errorf("team player %+v", r)
				}
			}
			if s := a.Tournaments[0].System; (s == nil) != (tt.system == "") || s != nil && *s != tt.system {
				t.Errorf("system %v, want %q", s, tt.system)
			}
			notes := fmt.Sprint(st.Notes)
			if tt.note != "" && !strings.Contains(notes, tt.note) || tt.note == "" && strings.Contains(notes, "not kept") {
				t.Errorf("notes %s, want %q", notes, tt.note)
			}
			if _, err := a.Commit(); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"teams.parquet", "team_players.parquet"} {
				if _, err := os.Stat(filepath.Join(a.Dir, f)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestTRFTeamByes: 320 records become team_byes rows, one a team and round,
// at the last record's points (the standings give every pairing-allocated bye
// those); a record naming no team, or points differing from the last
// record's, is a note.
func TestTRFTeamByes(t *testing.T) {
	bye := func(team, round, mp, gp int32) archive.TeamByeRow {
		return archive.TeamByeRow{Team: team, Round: round, MatchHalfPoints: mp, GameHalfPoints: gp}
	}
	for _, tc := range []struct {
		records []string
		want    []archive.TeamByeRow
		note    string
	}{
		{[]string{"320  2.0  1.5   3   2"}, []archive.TeamByeRow{bye(3, 1, 4, 3), bye(2, 2, 4, 3)}, ""},
		{[]string{"320  1.0  1.0   3", "320  2.0  2.0   0   2"}, []archive.TeamByeRow{bye(3, 1, 4, 4), bye(2, 2, 4, 4)}, "line 1: its points"},
		{[]string{"320  1.0  1.0   3   3", "320  1.0  1.0   3"}, []archive.TeamByeRow{bye(3, 1, 2, 2), bye(3, 2, 2, 2)}, ""},
		{[]string{"320  2.0  2.0"}, nil, "line 1: a 320 record naming no team"},
	} {
		var pabs []trf.TeamPAB
		for i, rec := range tc.records {
			f, err := trf.Read(strings.NewReader("012 T\n001    1      A\n"+rec+"\n"), "t.trf")
			if err != nil || len(f.TeamPABs) != 1 {
				t.Fatalf("%s: %v %v", rec, err, f)
			}
			p := f.TeamPABs[0]
			p.Line = i + 1
			pabs = append(pabs, p)
		}
		got, note := trfTeamByes(pabs)
		if !slices.Equal(got, tc.want) || (tc.note == "") != (note == "") || !strings.Contains(note, tc.note) {
			t.Errorf("%v: %v %q, want %v %q", tc.records, got, note, tc.want, tc.note)
		}
	}
}
