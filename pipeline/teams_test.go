package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// teamTRFs are the real team competitions of docs/teams.md: a league (round
// robin, 2010–2011) and a team Swiss (2024), tournaments 1 and 2 once imported.
var teamTRFs = []string{"../testdata/teams/armstrong_2011.trf", "../testdata/teams/friendship_cup_2024.trf"}

// TestTeamStandingsRun: a run on an archive imported from the team TRFs
// writes each one's team standings, the CSV its file gives and `standings
// --archive --team` prints; a run resumed after the league's period keeps its
// file and ends with what a full run writes.
func TestTeamStandingsRun(t *testing.T) {
	dir := t.TempDir()
	importInto(t, dir, teamTRFs, nil)
	archive := os.DirFS(dir)
	full := Options{Archive: archive, Out: t.TempDir(), Period: day.Year, AllowGap: true}
	runOpt(t, full)
	for i, file := range teamTRFs {
		id := int64(i + 1)
		got, err := os.ReadFile(output.StandingsTeamCSV.Path(full.Out, strconv.FormatInt(id, 10)))
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := trf.Read(bytes.NewReader(src), file)
		if err != nil {
			t.Fatal(err)
		}
		tt, err := f.TeamTournament()
		if err != nil {
			t.Fatal(err)
		}
		want, err := TeamStandingsCSV(tt, tiebreak.DefaultTeamCodes(), tiebreak.TeamOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the run's team standings\n%s\nthe file's\n%s", file, got, want)
		}
		att, err := LoadTeamTournament(context.Background(), dir, id)
		if err != nil {
			t.Fatal(err)
		}
		if fromArchive, err := TeamStandingsCSV(att, tiebreak.DefaultTeamCodes(), tiebreak.TeamOptions{}); err != nil || !bytes.Equal(got, fromArchive) {
			t.Errorf("%s: the run's team standings differ from the archive's (%v):\n%s", file, err, fromArchive)
		}
	}

	resumed := full
	resumed.Out = t.TempDir()
	first := resumed
	first.Until = "2011"
	runOpt(t, first)
	league := output.StandingsTeamCSV.Path(resumed.Out, "1")
	before, err := os.Lstat(league)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(output.StandingsTeamCSV.Path(resumed.Out, "2")); err == nil {
		t.Error("the Swiss's team standings written by a run until 2011")
	}
	resumed.Resume = true
	runOpt(t, resumed)
	if after, err := os.Lstat(league); err != nil || !os.SameFile(before, after) {
		t.Errorf("the league's team standings not kept by --resume: %v", err)
	}
	sameTrees(t, "resume vs full", readTree(t, full.Out), readTree(t, resumed.Out), func(rel string) bool {
		return rel == output.Summary.Rel("")
	})

	// The league's teams gone, a resumed run names its period stale: its
	// published team standings are no longer what a full run writes.
	for _, name := range []string{"teams.parquet", "team_players.parquet"} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if sum := runOpt(t, resumed); len(sum.StalePeriods) == 0 || sum.StalePeriods[0] != "2011" {
		t.Errorf("teams removed: stale periods %v, want from 2011", sum.StalePeriods)
	}
}
