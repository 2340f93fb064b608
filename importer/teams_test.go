package importer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTRFTeams: a team competition's team records become the team tables'
// rows, and its system is the one the file names, none for a league whose
// header names none; a 320 record, which the tables do not keep, is a note.
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
		system         string // "" for none
		note           string
	}{
		{"../testdata/teams/armstrong_2011.trf", 12, 160, "", ""},
		{"../testdata/teams/friendship_cup_2024.trf", 15, 129, "swiss", ""},
		{name, 3, 3, "", "team byes of 320 records not kept"},
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
			for _, r := range a.TeamPlayers {
				if r.TournamentID != 1 || r.Board < 1 || r.Round != nil {
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
