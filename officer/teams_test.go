package officer

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// importFile imports one TRF file into a new archive and returns its folder.
func importFile(t *testing.T, file string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "archive")
	a, err := importer.Open(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importer.ImportTRF(context.Background(), a, []string{file}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// teamTables is an archive's team tables as text: teams by number and name,
// team places by team, board, round and the player's name (player_ids differ
// between archives), team byes; rejects fail the test.
func teamTables(t *testing.T, dir string) []string {
	t.Helper()
	fsys := os.DirFS(dir)
	a, err := archive.Load(context.Background(), fsys, func(e archive.RowError) { t.Errorf("rejected: %v", e.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := a.LoadTeams(context.Background(), func(e archive.RowError) { t.Errorf("rejected: %v", e.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	players, err := ReadPlayers(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range all.Teams {
		out = append(out, fmt.Sprintf("team %d %s", r.Team, r.Name))
	}
	for _, r := range all.Players {
		round := 0
		if r.Round != nil {
			round = int(*r.Round)
		}
		out = append(out, fmt.Sprintf("place %d %d %d %s", r.Team, round, r.Board, players[r.PlayerID].Name))
	}
	for _, r := range all.Byes {
		out = append(out, fmt.Sprintf("bye %d %d %d %d", r.Team, r.Round, r.MatchHalfPoints, r.GameHalfPoints))
	}
	slices.Sort(out)
	return out
}

// teamStandings is a TRF file's team standings as CSV.
func teamStandings(t *testing.T, data []byte) string {
	t.Helper()
	f, err := trf.Read(bytes.NewReader(data), "t.trf")
	if err != nil {
		t.Fatal(err)
	}
	tt, err := f.TeamTournament()
	if err != nil {
		t.Fatal(err)
	}
	codes := []string{"MPvGP", "EDE", "BH:MP/C1", "BH:MP", "EMGSB", "BC", "TBR", "SSSC"}
	rows, err := tiebreak.TeamStandings(tt, codes, tiebreak.TeamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tiebreak.WriteTeamCSV(&b, codes, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestExportTRFTeams: a team competition goes import trf → export trf → import
// trf with its teams, places (reserves without a game too) and, in TRF-2026,
// its declared byes unchanged; the exported file's team standings are the
// original's, and check trf finds nothing in it that it does not find in the
// original (the Armstrong Cup's lists are not in board order: TRF-TEAM-BOARDS),
// but the header records an archive does not keep (city, federation, chief
// arbiter).
func TestExportTRFTeams(t *testing.T) {
	for _, tc := range []struct {
		file string
		v    trf.Version
	}{
		{"../testdata/teams/armstrong_2011.trf", trf.TRF16},
		{"../testdata/teams/armstrong_2011.trf", trf.TRF26},
		{"../testdata/teams/friendship_cup_2024.trf", trf.TRF16},
		{"../testdata/teams/friendship_cup_2024.trf", trf.TRF26},
		{"../testdata/teams/team_byes_2026.trf", trf.TRF26},
	} {
		t.Run(filepath.Base(tc.file)+" "+string(tc.v), func(t *testing.T) {
			src, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			dir := importFile(t, tc.file)
			var b bytes.Buffer
			if _, err := ExportTRF(context.Background(), &b, os.DirFS(dir), 1, tc.v, false); err != nil {
				t.Fatal(err)
			}
			if got, want := teamStandings(t, b.Bytes()), teamStandings(t, src); got != want {
				t.Errorf("the export's team standings\n%s\nthe original's\n%s", got, want)
			}
			had := map[string]int{} // the original's findings by code
			for _, fd := range trf.Check(src, "original.trf", trf.CheckOptions{}) {
				had[fd.Code]++
			}
			for _, fd := range trf.Check(b.Bytes(), "export.trf", trf.CheckOptions{}) {
				if had[fd.Code]--; fd.Code != "TRF-HEADER" && had[fd.Code] < 0 {
					t.Errorf("check trf: %s %s", fd.Code, fd.Message)
				}
			}
			exported := filepath.Join(t.TempDir(), "export.trf")
			if err := os.WriteFile(exported, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if got, want := teamTables(t, importFile(t, exported)), teamTables(t, dir); !slices.Equal(got, want) || len(want) < 10 {
				t.Errorf("team tables after the round trip\n%q\nwant\n%q", got, want)
			}
		})
	}
	// TRF16 has no record for a declared bye: the byes file exported as TRF16
	// keeps its teams, not its byes.
	dir := importFile(t, "../testdata/teams/team_byes_2026.trf")
	var b bytes.Buffer
	if _, err := ExportTRF(context.Background(), &b, os.DirFS(dir), 1, trf.TRF16, false); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b.Bytes(), []byte("\n320 ")) || bytes.Count(b.Bytes(), []byte("\n013 ")) != 5 {
		t.Errorf("TRF16 export of the byes file:\n%s", b.String())
	}
}
