package pipeline

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/day"
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
	_, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: t.TempDir(), Rules: rules, Period: day.Quarter})
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

// TestFideCardGames: under the FIDE rules the games of a period are rows of
// card_games.parquet, none of cards.parquet; each player-period's games add up
// to its period row (tournament_id 0): as many as its games, their w to its
// score, their pd to its expected score, their change_unrounded to its own,
// their opponents' ratings to its opponents_average (a pool's with the two
// hypothetical 1800 opponents); a rated game's Ro and K
// are its period row's.
func TestFideCardGames(t *testing.T) {
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
	games, err := parquet.ReadFile[output.CardGame](filepath.Join(out, "card_games.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		period string
		player int64
	}
	type sum struct {
		n                    int32
		w, pd, exact, oppSum float64
		rated, pooled        int
		wPDChange            [][3]float64 // each rated game's w, pd and change_unrounded
	}
	sums := map[key]*sum{}
	for _, g := range games {
		s := sums[key{g.Period, g.PlayerID}]
		if s == nil {
			s = &sum{}
			sums[key{g.Period, g.PlayerID}] = s
		}
		s.n++
		s.w += g.W
		s.oppSum += float64(g.OpponentRating)
		switch g.Reason {
		case "fide-game":
			s.rated++
			if g.PD == nil || g.ChangeUnrounded == nil || g.D == nil {
				t.Errorf("rated game of %d in %s: pd %v, change %v, d %v: want all set", g.PlayerID, g.Period, g.PD, g.ChangeUnrounded, g.D)
				continue
			}
			s.pd += *g.PD
			s.exact += *g.ChangeUnrounded
			s.wPDChange = append(s.wPDChange, [3]float64{g.W, *g.PD, *g.ChangeUnrounded})
		case "fide-pool-game":
			s.pooled++
			if g.PD != nil || g.ChangeUnrounded != nil || g.D != nil {
				t.Errorf("pooled game of %d in %s: pd, change or d set", g.PlayerID, g.Period)
			}
		default:
			t.Errorf("game of %d in %s: reason %q", g.PlayerID, g.Period, g.Reason)
		}
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 }
	periods, rated, pooled := 0, 0, 0
	for _, c := range cards {
		if strings.HasSuffix(c.Reason, "-game") {
			t.Errorf("per-game row of %d in %s in cards.parquet", c.PlayerID, c.Period)
		}
		if c.TournamentID != 0 {
			continue
		}
		periods++
		k := key{c.Period, c.PlayerID}
		s := sums[k]
		if s == nil {
			t.Errorf("period row of %d in %s (%d games): no games in card_games.parquet", c.PlayerID, c.Period, c.Games)
			continue
		}
		delete(sums, k)
		// A pool's Ra counts the two hypothetical 1800 opponents as well.
		avg := s.oppSum / float64(s.n)
		if s.pooled > 0 {
			avg = (s.oppSum + 2*1800) / float64(s.n+2)
		}
		if s.n != c.Games || !near(s.w, c.Score) || c.OppAverage == nil || math.Abs(avg-float64(*c.OppAverage)) > 0.5 {
			t.Errorf("%d in %s: %d games, w %v, opponents %v; period row: %d games, score %v, opponents_average %v",
				c.PlayerID, c.Period, s.n, s.w, s.oppSum/float64(s.n), c.Games, c.Score, c.OppAverage)
		}
		if s.rated > 0 {
			rated++
			if s.pooled > 0 || c.Expected == nil || c.ChangeUnrounded == nil || !near(s.pd, *c.Expected) || !near(s.exact, *c.ChangeUnrounded) {
				t.Errorf("%d in %s: %d rated and %d pooled games, pd %v, change %v; period row: expected %v, change_unrounded %v",
					c.PlayerID, c.Period, s.rated, s.pooled, s.pd, s.exact, c.Expected, c.ChangeUnrounded)
			}
			if c.K == nil || c.RatingBefore == nil {
				t.Errorf("%d in %s: period row's k %v, rating_before %v: want both", c.PlayerID, c.Period, c.K, c.RatingBefore)
				continue
			}
			// Each game was rated with its period row's K.
			for _, g := range s.wPDChange {
				if w, pd, change := g[0], g[1], g[2]; !near(change, float64(*c.K)*(w-pd)) {
					t.Errorf("%d in %s: game w %v, pd %v, change_unrounded %v; period row's k %d", c.PlayerID, c.Period, w, pd, change, *c.K)
				}
			}
		} else {
			pooled++
			if c.Expected != nil || c.RatingBefore != nil {
				t.Errorf("%d in %s: pooled games, but the period row has expected %v, rating_before %v", c.PlayerID, c.Period, c.Expected, c.RatingBefore)
			}
		}
	}
	for k, s := range sums {
		t.Errorf("%d games of %d in %s without a period row", s.n, k.player, k.period)
	}
	if rated == 0 || pooled == 0 {
		t.Errorf("%d period rows: %d with rated games, %d with pooled ones: want both", periods, rated, pooled)
	}
}
