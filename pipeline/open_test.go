package pipeline

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/internal/testutil"
)

// monthsArchive writes a small CSV archive: eight players and, per entry of
// ends, a rated six-player round robin (ids 101, 102, …) ending that day.
// unrated adds an unrated one ending on that day (id 900), "" none.
func monthsArchive(t *testing.T, dir string, ends []string, unrated string) {
	t.Helper()
	var pl, tr, gm strings.Builder
	pl.WriteString("player_id,name,birth_year,category,fide_rating,club\n")
	for p := 1; p <= 8; p++ {
		fmt.Fprintf(&pl, "%d,Player %d,2010,%d,,Club %d\n", p, p, 1+p%4, p%3)
	}
	tr.WriteString("tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n")
	gm.WriteString("tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points\n")
	add := func(id int, end string, rated bool, first int) {
		fmt.Fprintf(&tr, "%d,Event %d,%s,%s,round-robin,5,chess,%t,\n", id, id, end, end, rated)
		// A six-player round robin by the circle method: five games each.
		ring := []int{1, 2, 3, 4, 5}
		for r := range 5 {
			seats := append([]int{0}, ring...)
			for g := range 3 {
				res := [3]string{"1,0", "0,1", "=,="}[(id+r+g)%3]
				fmt.Fprintf(&gm, "%d,%d,%d,%d,%s,,\n", id, r+1, first+seats[g], first+seats[5-g], res)
			}
			ring = append(ring[1:], ring[0])
		}
	}
	for i, end := range ends {
		add(101+i, end, true, 1+(i%2)*2)
	}
	if unrated != "" {
		add(900, unrated, false, 3)
	}
	testutil.WriteFiles(t, dir, map[string]string{"players.csv": pl.String(), "tournaments.csv": tr.String(), "games.csv": gm.String()})
}

func asOf(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func notSummary(n string) bool { return n == "summary.json" }

// TestOpenPeriod: a run lists only the periods that ended before its date; the
// open period's tournaments wait as after --until; --provisional (or --until
// naming the open period) lists it too, flagged, without a state; and the
// same date gives the same bytes.
func TestOpenPeriod(t *testing.T) {
	dir := t.TempDir()
	monthsArchive(t, dir, []string{"2026-09-12", "2026-10-10", "2026-11-07"}, "2026-11-08")
	fsys := os.DirFS(dir)
	day := asOf("2026-11-15")

	out := t.TempDir()
	sum := runOpt(t, Options{Archive: fsys, ArchiveName: "a", Out: out, Now: day})
	if sum.LastList != "2026-10" || sum.Lists != 2 || sum.Provisional != "" {
		t.Errorf("default run on 2026-11-15: lists %d, last %s, provisional %q; want 2, 2026-10, none", sum.Lists, sum.LastList, sum.Provisional)
	}
	for _, f := range []string{"lists/2026-11.csv", "standings/2026-11.parquet", "state/2026-11.state"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s written on 2026-11-15: the period is still open", f)
		}
	}
	until := t.TempDir()
	runOpt(t, Options{Archive: fsys, ArchiveName: "a", Out: until, Until: "2026-10", Now: asOf("2030-01-01")})
	sameTrees(t, "open period vs --until", readTree(t, until), readTree(t, out), notSummary)

	again := t.TempDir()
	runOpt(t, Options{Archive: fsys, ArchiveName: "a", Out: again, Now: day})
	sameTrees(t, "rerun with the same date", readTree(t, out), readTree(t, again), nil)

	for _, o := range []Options{{Provisional: true}, {Until: "2026-11"}, {Until: "2027-05"}} {
		prov := t.TempDir()
		o.Archive, o.ArchiveName, o.Out, o.Now = fsys, "a", prov, day
		sum := runOpt(t, o)
		if sum.LastList != "2026-11" || sum.Provisional != "2026-11" {
			t.Errorf("%+v: last list %s, provisional %q; want 2026-11 for both", o.Until, sum.LastList, sum.Provisional)
		}
		if _, err := os.Stat(filepath.Join(prov, "lists", "2026-11.csv")); err != nil {
			t.Errorf("provisional list: %v", err)
		}
		if _, err := os.Stat(filepath.Join(prov, "state", "2026-11.state")); err == nil {
			t.Error("a provisional list left its state: a later --resume would start after it")
		}
	}
}

// TestResumeAfterProvisional: a provisional list is not final. A report of the
// open period arriving after it is taken in by the next --resume, which
// re-rates that period: the folder equals a full run on the same date, with no
// stale period.
func TestResumeAfterProvisional(t *testing.T) {
	dir := t.TempDir()
	monthsArchive(t, dir, []string{"2026-09-12", "2026-10-10", "2026-11-07"}, "")
	fsys := os.DirFS(dir)
	inc := t.TempDir()
	if sum := runOpt(t, Options{Archive: fsys, ArchiveName: "a", Out: inc, Now: asOf("2026-11-15"), Provisional: true}); sum.Provisional != "2026-11" {
		t.Fatalf("provisional %q, want 2026-11", sum.Provisional)
	}
	before, err := os.ReadFile(filepath.Join(inc, "lists", "2026-11.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// A late report of November, and December's first tournament.
	monthsArchive(t, dir, []string{"2026-09-12", "2026-10-10", "2026-11-07", "2026-11-28", "2026-12-05"}, "")
	for _, prov := range []bool{false, true} {
		sum := runOpt(t, Options{Archive: fsys, ArchiveName: "a", Out: inc, Now: asOf("2026-12-10"), Resume: true, Provisional: prov})
		if len(sum.StalePeriods) > 0 {
			t.Errorf("provisional %t: stale periods %v after a provisional list", prov, sum.StalePeriods)
		}
		full := t.TempDir()
		runOpt(t, Options{Archive: fsys, ArchiveName: "a", Out: full, Now: asOf("2026-12-10"), Provisional: prov})
		sameTrees(t, fmt.Sprintf("resume after a provisional list (provisional %t)", prov), readTree(t, full), readTree(t, inc), notSummary)
	}
	after, err := os.ReadFile(filepath.Join(inc, "lists", "2026-11.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if string(after) == string(before) {
		t.Error("the November list did not take in the late report")
	}
}

// TestNothingEnded: a run on a date before any period with a rated tournament
// has ended writes no list and says why in one warning.
func TestNothingEnded(t *testing.T) {
	dir := t.TempDir()
	monthsArchive(t, dir, []string{"2026-11-07"}, "")
	var log strings.Builder
	sum := runOpt(t, Options{Archive: os.DirFS(dir), Out: t.TempDir(), Now: asOf("2026-11-20"), Log: slog.New(slog.NewTextHandler(&log, nil))})
	if sum.Lists != 0 || strings.Count(log.String(), "no list written") != 1 {
		t.Errorf("%d lists; log:\n%s\nwant none and one warning", sum.Lists, log.String())
	}
}

// TestOpenPeriodFide: under FIDE's rules the list of the 1st of M takes the
// tournaments that ended 3 days or more before it, so on 2026-11-02 the
// November list is complete and listed, and the December one, which takes a
// tournament ended on 2026-11-07, is not; a day after the last tournament
// that list could take (2026-11-28), 2026-11-29, lists it too.
func TestOpenPeriodFide(t *testing.T) {
	dir := t.TempDir()
	monthsArchive(t, dir, []string{"2026-09-12", "2026-10-10", "2026-11-07"}, "")
	r, err := DefaultRules("fide")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ day, last string }{{"2026-11-02", "2026-11"}, {"2026-11-28", "2026-11"}, {"2026-11-29", "2026-12"}} {
		sum := runOpt(t, Options{Archive: os.DirFS(dir), ArchiveName: "a", Out: t.TempDir(), Rules: r, Now: asOf(tc.day)})
		if sum.LastList != tc.last || sum.Provisional != "" {
			t.Errorf("FIDE run on %s: last list %s (provisional %q), want %s", tc.day, sum.LastList, sum.Provisional, tc.last)
		}
	}
}
