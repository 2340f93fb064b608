package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/output"
)

// fideArchive is a small archive for --rules fide. Carol (3) is unrated; the
// others have a FIDE Elo. Tournament 12 ends on 29 January (the February
// list); 11 ends on 30 January (the 3-day rule: the March list).
var fideArchive = map[string]string{
	"players.csv": `player_id,name,birth_year,category,fide_rating,club
1,Alice,,,2000,
2,Bob,,,2020,
3,Carol,2010,,,
4,Dan,,,1600,
5,Eve,,,1800,
`,
	"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Jan Open,2025-01-05,2025-01-10,swiss,3,chess,true,
11,Jan Late,2025-01-28,2025-01-30,swiss,2,chess,true,
12,Jan Blitz,2025-01-29,2025-01-29,swiss,2,chess,true,
`,
	"games.csv": `tournament_id,round,white_id,black_id,white_result,black_result
10,1,1,2,=,=
10,1,3,4,1,0
10,2,5,3,0,1
10,3,3,1,=,=
12,1,2,1,=,=
12,2,3,2,0,1
11,1,3,5,1,0
11,2,4,3,0,1
`,
}

// TestRunFide runs the pipeline with --rules fide and checks every list by hand.
//
// 2025-01 (the first end date's month): the starting ratings, 30 games each.
//
// 2025-02 (period January, tournaments 10 and 12, rated with the 2025-01 list):
// Alice (2000, K 20) draws Bob (2020) twice: D = −20 → PD .47, 20 × 2 × .03 =
// 1.2 → +1 → 2001; Bob −1.2 → −1 → 2019. Dan, Eve and Bob's games against
// Carol are not rated games (Carol is unrated). Carol's pool: Dan 1600 (1),
// Eve 1800 (1), Alice 2000 (½), Bob 2020 (0): 4 games, still unrated.
//
// 2025-03 (tournament 11): Carol beats Eve (1800) and Dan (1600): 6 games,
// W = 4.5, Σ = 10820. Ra = (10820 + 3600)/8 = 1802.5 → 1803; p = 5.5/8 =
// .6875 → .69 → dp 141 → 1944. Carol is born 2010 with 6 games: K 40.
func TestRunFide(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, dir, fideArchive)
	rules, err := DefaultRules("fide")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, Rules: rules, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sum.FirstList != "2025-01" || sum.LastList != "2025-03" || sum.Lists != 3 || sum.TournamentsRated != 3 || sum.GamesRated != 4 {
		t.Errorf("summary: first %s last %s lists %d tournaments %d games %d", sum.FirstList, sum.LastList, sum.Lists, sum.TournamentsRated, sum.GamesRated)
	}
	const header = "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n"
	want := map[string]string{
		"2025-01": header +
			"1,2,Bob,2020,,0,30,20,,new\n" +
			"2,1,Alice,2000,,0,30,20,,new\n" +
			"3,5,Eve,1800,,0,30,20,,new\n" +
			"4,4,Dan,1600,,0,30,20,,new\n",
		"2025-02": header +
			"1,2,Bob,2019,-1,2,32,20,,\n" +
			"2,1,Alice,2001,1,2,32,20,,\n" +
			"3,5,Eve,1800,0,0,30,20,,\n" +
			"4,4,Dan,1600,0,0,30,20,,\n",
		"2025-03": header +
			"1,2,Bob,2019,0,0,32,20,,\n" +
			"2,1,Alice,2001,0,0,32,20,,\n" +
			"3,3,Carol,1944,,0,6,40,,new\n" +
			"4,5,Eve,1800,0,0,30,20,,\n" +
			"5,4,Dan,1600,0,0,30,20,,\n",
	}
	for label, w := range want {
		got, err := os.ReadFile(filepath.Join(out, "lists", label+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != w {
			t.Errorf("list %s:\n%s\nwant\n%s", label, got, w)
		}
	}
}

func TestRunFideRules(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, fideArchive)
	rules, _ := DefaultRules("fide")
	_, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: t.TempDir(), Rules: rules, Period: PeriodQuarter})
	if !errors.Is(err, ErrUsage) {
		t.Errorf("--period quarter with fide rules: %v, want ErrUsage", err)
	}
	r, err := ParseRules("x.toml", []byte("base = \"fide\"\n[fide]\nversion = \"dated\"\ncap = 350\n"))
	if err != nil || r.Base != "fide" || fideOf(r).Version != "dated" || fideOf(r).Cap != 350 || fideOf(r).KNew != 40 {
		t.Errorf("rules file: %+v, %v", fideOf(r), err)
	}
	if _, err := ParseRules("x.toml", []byte("base = \"fide\"\n[fide]\nversion = \"1999\"\n")); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "fide.version") {
		t.Errorf("bad version: %v", err)
	}
}

// TestFideCardsPerGameNoAverage: under the FIDE rules a per-game card row
// (one opponent) leaves opponents_average null instead of 0; the period's
// total row of a player carries the average of the games.
func TestFideCardsPerGameNoAverage(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, dir, fideArchive)
	rules, err := DefaultRules("fide")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, Rules: rules, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	cards, err := parquet.ReadFile[output.Card](filepath.Join(out, "cards.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	perGame, totals := 0, 0
	for _, c := range cards {
		switch {
		case c.OpponentID != nil:
			perGame++
			if c.OppAverage != nil {
				t.Errorf("per-game row %d vs %d: opponents_average %d, want null", c.PlayerID, *c.OpponentID, *c.OppAverage)
			}
		case c.Games > 0:
			totals++
			if c.OppAverage == nil || *c.OppAverage == 0 {
				t.Errorf("period row of %d (%d games): opponents_average %v, want the average", c.PlayerID, c.Games, c.OppAverage)
			}
		}
	}
	if perGame == 0 || totals == 0 {
		t.Errorf("%d per-game rows and %d period rows, want both", perGame, totals)
	}
}
