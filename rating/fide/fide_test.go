package fide

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/rating"
)

// Hand-computed cases of the FIDE rule set (docs/fide.md). rating.PD values are
// Table 8.1.2 (pd.tsv), dp values Table 8.1.1 (dp.tsv).

func dayOf(s string) int32 {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return int32(t.Unix() / 86400)
}

// fp is a player of a FIDE test: starting Elo (0 = unrated) and birth year.
type fp struct{ elo, birth int32 }

// fideWorld drives a Rater the way the pipeline does: Rate per
// tournament, then ClosePeriod and ListInfo per monthly list.
type fideWorld struct {
	t         *testing.T
	st        *rating.State
	r         *Rater
	id        int64
	cards     []rating.Card // of the last close
	rateCards []rating.Card // of the last tournament
}

func newFideWorld(t *testing.T, f Settings, ps ...fp) *fideWorld {
	st := rating.NewState(len(ps))
	for i, p := range ps {
		st.Elo[i], st.BirthYear[i] = p.elo, p.birth
	}
	return &fideWorld{t: t, st: st, r: NewRater(f, st)}
}

// play rates a tournament ending on end; it must fall in the list of month.
func (w *fideWorld) play(end, list string, games ...rating.Game) {
	w.t.Helper()
	if got := w.r.ListDay(dayOf(end)); got != dayOf(list+"-01") {
		w.t.Fatalf("ListDay(%s) = %s, want %s-01", end, time.Unix(int64(got)*86400, 0).UTC().Format(time.DateOnly), list)
	}
	w.id++
	w.rateCards = append(w.rateCards[:0], w.r.Rate(w.st, &rating.Event{ID: w.id, Start: dayOf(end), End: dayOf(end), Games: games})...)
}

// close closes the list of month (YYYY-MM), keeping its cards.
func (w *fideWorld) close(list string) {
	first := dayOf(list + "-01")
	last := monthStart(monthKey(first)+1) - 1
	w.cards = nil
	w.r.ClosePeriod(w.st, first, last, func(cards []rating.Card) error {
		w.cards = append(w.cards, cards...)
		return nil
	})
}

func (w *fideWorld) info(p int32) (listed bool, k int32, flags string) {
	listed, k, _, flags = w.r.ListInfo(w.st, p)
	return listed, k, flags
}

// endPeriod resets games_period after a list, as the pipeline does.
func (w *fideWorld) endPeriod() { clear(w.st.GamesPeriod) }

func (w *fideWorld) want(p int32, rated bool, rating, total int32) {
	w.t.Helper()
	st := w.st
	if st.Rated[p] != rated || (rated && st.Rating[p] != rating) || st.GamesTotal[p] != total {
		w.t.Errorf("player %d: rated %v rating %d total %d, want %v %d %d", p, st.Rated[p], st.Rating[p], st.GamesTotal[p], rated, rating, total)
	}
}

// periodCard returns player p's total card of the last close.
func (w *fideWorld) periodCard(p int32) rating.Card {
	w.t.Helper()
	for _, c := range w.cards {
		if c.Player == p && c.PeriodTotal {
			return c
		}
	}
	w.t.Fatalf("no period card for player %d in %+v", p, w.cards)
	return rating.Card{}
}

func TestFideListDay(t *testing.T) {
	r := NewRater(Defaults(), rating.NewState(0))
	tests := []struct{ end, list string }{
		{"2025-01-01", "2025-02-01"},
		{"2025-01-29", "2025-02-01"}, // 29 Jan + 3 = 1 Feb: in the February list
		{"2025-01-30", "2025-03-01"}, // 30 Jan + 3 = 2 Feb: too late for February
		{"2025-01-31", "2025-03-01"},
		{"2025-02-26", "2025-03-01"}, // 26 Feb + 3 = 1 Mar
		{"2025-02-27", "2025-04-01"}, // 2025 is not a leap year: 27 Feb + 3 = 2 Mar
		{"2024-02-27", "2024-03-01"}, // 2024 is: 27 Feb + 3 = 1 Mar
		{"2025-12-29", "2026-01-01"},
		{"2025-12-30", "2026-02-01"},
	}
	for _, tt := range tests {
		if got, want := r.ListDay(dayOf(tt.end)), dayOf(tt.list); got != want {
			t.Errorf("ListDay(%s) = %d, want %d (%s)", tt.end, got, want, tt.list)
		}
	}
}

func TestFideTwoTournamentsOnePeriod(t *testing.T) {
	// January 2025 (the February list): 0 (2000, K 20) draws 1 (2020, K 20) in
	// tournament A and again in tournament B. Both games use the January list:
	// D = −20 → rating.PD .47 for 0, .53 for 1.
	// 0: 20 × ((.5 − .47) + (.5 − .47)) = 20 × .06 = 1.2 → +1 (rounded once;
	// tournament by tournament it would be 0.6 → 1 twice = +2).
	// 1: 20 × (−.06) = −1.2 → −1.
	// 2 (2400, reached → K 10) draws 3 (2435, K 10): D = −35 → rating.PD .45:
	// 10 × .05 = 0.5 → +1 and −0.5 → −1 (half away from zero).
	w := newFideWorld(t, Defaults(), fp{2000, 0}, fp{2020, 0}, fp{2400, 0}, fp{2435, 0})
	w.close("2025-01")
	w.endPeriod()
	w.play("2025-01-10", "2025-02", g(0, 1, 1), g(2, 3, 1))
	w.play("2025-01-20", "2025-02", g(1, 0, 1))
	w.close("2025-02")
	w.want(0, true, 2001, 32)
	w.want(1, true, 2019, 32)
	w.want(2, true, 2401, 31)
	w.want(3, true, 2434, 31)
	c := w.periodCard(0)
	if c.Games != 2 || c.Score2 != 2 || c.Expected != 94 || c.K != 20 || c.ChangeExact != 120 || c.Change != 1 || c.Before != 2000 || c.After != 2001 {
		t.Errorf("period card of 0 = %+v", c)
	}
	var games int
	for _, c := range w.cards {
		if c.Player == 0 && c.PerGame {
			games++
			if c.OppRating != 2020 || c.D != -20 || c.Expected != 47 || c.K != 20 || c.Score2 != 1 || c.ChangeExact != 60 || c.Opponent != 1 {
				t.Errorf("game card of 0 = %+v", c)
			}
		}
	}
	if games != 2 {
		t.Errorf("player 0 has %d game cards, want 2", games)
	}
	if w.st.GamesPeriod[0] != 2 || w.periodCard(2).ChangeExact != 50 || w.periodCard(3).ChangeExact != -50 {
		t.Errorf("games_period %d, exact changes %d %d", w.st.GamesPeriod[0], w.periodCard(2).ChangeExact, w.periodCard(3).ChangeExact)
	}
}

func TestFideKTimesN(t *testing.T) {
	// Player 0 is 2000 and a junior (born 2010, period 2025: 2028 ≥ 2025), so
	// K 40, and beats n opponents rated 2000: W − rating.PD = .5 a game.
	tests := []struct {
		n          int32
		k          int32
		wantRating int32
	}{
		{17, 40, 2340}, // 40 × 17 = 680 ≤ 700: 40 × 8.5 = 340
		{18, 38, 2342}, // 40 × 18 = 720 > 700: K = 700/18 = 38 (684); 38 × 9 = 342
		{25, 28, 2350}, // 700/25 = 28 (700); 28 × 12.5 = 350
		{70, 10, 2350}, // 700/70 = 10; 10 × 35 = 350
	}
	for _, tt := range tests {
		ps := []fp{{2000, 2010}}
		var games []rating.Game
		for i := int32(1); i <= tt.n; i++ {
			ps = append(ps, fp{2000, 0})
			games = append(games, g(0, i, 2))
		}
		w := newFideWorld(t, Defaults(), ps...)
		w.close("2025-01")
		w.play("2025-01-15", "2025-02", games...)
		w.close("2025-02")
		if c := w.periodCard(0); c.K != tt.k || w.st.Rating[0] != tt.wantRating {
			t.Errorf("n = %d: K %d rating %d, want %d %d", tt.n, c.K, w.st.Rating[0], tt.k, tt.wantRating)
		}
		// Each opponent: 1 game, K 20: 20 × (0 − .5) = −10.
		w.want(1, true, 1990, 31)
	}
}

func TestFideK(t *testing.T) {
	f := Defaults()
	r := f.at(dayOf("2025-12-01"))
	tests := []struct {
		name                 string
		reached              bool
		games, rating, birth int32
		year                 int
		want                 int32
	}{
		{"new player", false, 29, 2000, 0, 2025, 40},
		{"established", false, 30, 2000, 0, 2025, 20},
		{"junior in the year of the 18th birthday", false, 30, 2299, 2007, 2025, 40}, // 2007 + 18 = 2025 ≥ 2025
		{"junior the year after", false, 30, 2299, 2007, 2026, 20},                   // 2025 < 2026
		{"junior rated 2300", false, 30, 2300, 2010, 2025, 20},                       // not below 2300
		{"birth year unknown", false, 30, 2000, 0, 2025, 20},
		{"reached 2400, now 2350", true, 30, 2350, 0, 2025, 10},
		{"reached 2400 beats the new-player K", true, 10, 2450, 0, 2025, 10},
		{"2400 not reached (impossible on a list, but the flag decides)", false, 30, 2450, 0, 2025, 20},
	}
	for _, tt := range tests {
		if got := r.k(tt.reached, tt.games, tt.rating, tt.birth, tt.year); got != tt.want {
			t.Errorf("%s: K = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestFideJuniorInPeriod(t *testing.T) {
	// Player 0 (2000, born 2007) beats 1 (2000, K 20) in December 2025 (the
	// January 2026 list): junior, K 40 → 40 × .5 = +20. The list of January
	// 2026 gives K for January 2026: 2025 < 2026 → 20.
	w := newFideWorld(t, Defaults(), fp{2000, 2007}, fp{2000, 0})
	w.close("2025-12")
	w.play("2025-12-20", "2026-01", g(0, 1, 2))
	w.close("2026-01")
	w.want(0, true, 2020, 31)
	w.want(1, true, 1990, 31)
	if _, k, _ := w.info(0); k != 20 {
		t.Errorf("k on the 2026-01 list = %d, want 20", k)
	}
}

func TestFidePermanentK10(t *testing.T) {
	// 0 (2390, K 20) beats 1 (2390): +10 → 2400, published on the February list:
	// K 10 from now on. In February 0 loses to 2 (2400, K 10): D = 0, rating.PD .5,
	// 10 × (−.5) = −5 → 2395, and the March list still gives K 10.
	// 3 (2395, never 2400) is listed with K 20.
	w := newFideWorld(t, Defaults(), fp{2390, 0}, fp{2390, 0}, fp{2400, 0}, fp{2395, 0})
	w.close("2025-01")
	if _, k, _ := w.info(0); k != 20 {
		t.Fatalf("K of 0 before = %d, want 20", k)
	}
	w.play("2025-01-15", "2025-02", g(0, 1, 2))
	w.close("2025-02")
	w.want(0, true, 2400, 31)
	if _, k, _ := w.info(0); k != 10 {
		t.Errorf("K of 0 after reaching 2400 = %d, want 10", k)
	}
	w.play("2025-02-15", "2025-03", g(2, 0, 2))
	w.close("2025-03")
	w.want(0, true, 2395, 32)
	if _, k, _ := w.info(0); k != 10 {
		t.Errorf("K of 0 at 2395 = %d, want 10", k)
	}
	if _, k, _ := w.info(3); k != 20 {
		t.Errorf("K of 3 = %d, want 20", k)
	}
}

func TestFideCap400And2650(t *testing.T) {
	// 0 (2700, K 10) beats 1 (2200, K 20): D = 500.
	// Period September 2025 (the October list): the cap applies to all:
	//   0: D 400 → rating.PD .92, 10 × .08 = 0.8 → +1; 1: D −400 → .08, 20 × (−.08) = −1.6 → −2.
	// Period October 2025 (the November list) starts on 1 October 2025: 0 uses
	// D = 500 → rating.PD .96, 10 × .04 = 0.4 → 0; 1 is below 2650: still −400 → −2.
	// 2 (2650, exactly) vs 3 (2150): the same in October; 4 (2649) vs 5 (2149) capped: +1.
	tests := []struct {
		name       string
		end, list  string
		hi, lo     int32
		wantHi     int32
		wantLo     int32
		wantDUsed  int32
		wantPDUsed int64
	}{
		{"September 2025: capped", "2025-09-20", "2025-10", 2700, 2200, 2701, 2198, 400, 92},
		{"October 2025: exempt", "2025-10-20", "2025-11", 2700, 2200, 2700, 2198, 500, 96},
		{"October 2025: 2650 is exempt", "2025-10-20", "2025-11", 2650, 2150, 2650, 2148, 500, 96},
		{"October 2025: 2649 is not", "2025-10-20", "2025-11", 2649, 2149, 2650, 2147, 400, 92},
	}
	for _, tt := range tests {
		w := newFideWorld(t, Defaults(), fp{tt.hi, 0}, fp{tt.lo, 0})
		w.play(tt.end, tt.list, g(0, 1, 2))
		w.close(tt.list)
		if w.st.Rating[0] != tt.wantHi || w.st.Rating[1] != tt.wantLo {
			t.Errorf("%s: ratings %d %d, want %d %d", tt.name, w.st.Rating[0], w.st.Rating[1], tt.wantHi, tt.wantLo)
		}
		for _, c := range w.cards {
			if c.PerGame && c.Player == 0 && (c.D != tt.wantDUsed || c.Expected != tt.wantPDUsed) {
				t.Errorf("%s: D used %d PD %d, want %d %d", tt.name, c.D, c.Expected, tt.wantDUsed, tt.wantPDUsed)
			}
			if c.PerGame && c.Player == 1 && c.D != -400 {
				t.Errorf("%s: the lower player's D = %d, want −400", tt.name, c.D)
			}
		}
	}
}

func TestFideVersions(t *testing.T) {
	// The dated versions (docs/fide.md, "Older versions"): D used by a 2700 against a 2200, and K of an
	// established junior / adult / new player, by the period's first day.
	cur := Defaults()
	dated := Defaults()
	dated.Version = "dated"
	pinned := Defaults()
	pinned.Version = "2025-10"
	tests := []struct {
		name                  string
		f                     Settings
		period                string
		d                     int32
		kNew, kJunior, kAdult int32
		floor, initialGames   int32
		method                string
	}{
		{"current, 2008", cur, "2008-06-01", 400, 40, 40, 20, 1400, 5, InitialDraws},
		{"current, 2025-10", cur, "2025-10-01", 500, 40, 40, 20, 1400, 5, InitialDraws},
		{"dated, before July 2009: 350 cap, K 25/15", dated, "2009-06-01", 350, 25, 15, 15, 1400, 9, InitialStep},
		{"dated, July 2009: 400 cap", dated, "2009-07-01", 400, 25, 15, 15, 1200, 9, InitialStep},
		{"dated, July 2014: K 40/20, juniors", dated, "2014-07-01", 400, 40, 40, 20, 1000, 5, InitialStep},
		{"dated, March 2024: the 2024 rules", dated, "2024-03-01", 400, 40, 40, 20, 1400, 5, InitialDraws},
		{"dated, September 2025: no exemption yet", dated, "2025-09-01", 400, 40, 40, 20, 1400, 5, InitialDraws},
		{"dated, October 2025: exemption", dated, "2025-10-01", 500, 40, 40, 20, 1400, 5, InitialDraws},
		{"pinned 2025-10, 2020: exemption", pinned, "2020-01-01", 500, 40, 40, 20, 1400, 5, InitialDraws},
	}
	for _, tt := range tests {
		d := dayOf(tt.period)
		r := tt.f.at(d)
		y := time.Unix(int64(d)*86400, 0).UTC().Year()
		got := [3]int32{r.k(false, 0, 2000, 0, y), r.k(false, 30, 2000, int32(y)-10, y), r.k(false, 30, 2000, 0, y)}
		if dd := r.d(2700, 2200, d); dd != tt.d || got != [3]int32{tt.kNew, tt.kJunior, tt.kAdult} ||
			r.Floor != tt.floor || r.InitialGames != tt.initialGames || r.InitialMethod != tt.method {
			t.Errorf("%s: D %d K %v floor %d games %d method %s", tt.name, dd, got, r.Floor, r.InitialGames, r.InitialMethod)
		}
	}
}

func TestFideInitial(t *testing.T) {
	draws := Defaults().at(0)
	step := Defaults()
	step.Version = "2014-07"
	old := Defaults()
	old.Version = "pre-2009"
	tests := []struct {
		name    string
		r       fideRules
		opps    []int32
		w2      int32
		ra, ru  int32
		wantPct int32
	}{
		// Ra = (1600+1700+1800+1900+2000 + 2×1800)/7 = 12600/7 = 1800;
		// p = (3 + 1)/7 = .5714 → .57 → dp 50 → 1850.
		{"two 1800 draws", draws, []int32{1600, 1700, 1800, 1900, 2000}, 6, 1800, 1850, 57},
		// Ra = (5×2100 + 3600)/7 = 14100/7 = 2014.29 → 2014; p = 6/7 = .857 → .86
		// → dp 309 → 2323 → capped at 2200.
		{"2200 cap", draws, []int32{2100, 2100, 2100, 2100, 2100}, 10, 2014, 2200, 86},
		// Ra = (5×1400 + 3600)/7 = 10600/7 = 1514.29 → 1514; p = 1.5/7 = .214 →
		// .21 → dp −230 → 1284.
		{"below 1400", draws, []int32{1400, 1400, 1400, 1400, 1400}, 1, 1514, 1284, 21},
		// Ra = (198 × 1800 + 3600)/200 = 1800; p = 199/200 = .995 → 1.00 → +800 → 2600 → 2200.
		{"p rounds to 1.00", draws, make198(1800), 396, 1800, 2200, 100},
		// 2014 rules: Ra = 2000, 4 of 5 = 1.5 points above 50% → 3 half points × 20 = +60.
		{"2014, above 50%", step.at(0), []int32{2000, 2000, 2000, 2000, 2000}, 8, 2000, 2060, 0},
		// 2014 rules: 1 of 5: p = .20 → dp −240 → 1760.
		{"2014, below 50%", step.at(0), []int32{2000, 2000, 2000, 2000, 2000}, 2, 2000, 1760, 20},
		// Before 2009: 12.5 per half point: 7 of 9 = 2.5 points above 50% = 5 half
		// points × 12.5 = 62.5 → 63.
		{"pre-2009, 12.5 a half point", old.at(0), []int32{2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000}, 14, 2000, 2063, 0},
	}
	for _, tt := range tests {
		var sum int64
		for _, o := range tt.opps {
			sum += int64(o)
		}
		ra, pct, ru := tt.r.initial(sum, int32(len(tt.opps)), tt.w2)
		if ra != tt.ra || ru != tt.ru || pct != tt.wantPct {
			t.Errorf("%s: Ra %d p %d Ru %d, want %d %d %d", tt.name, ra, pct, ru, tt.ra, tt.wantPct, tt.ru)
		}
	}
}

func make198(r int32) []int32 {
	s := make([]int32, 198)
	for i := range s {
		s[i] = r
	}
	return s
}

func TestFidePoolAcrossPeriods(t *testing.T) {
	// U (unrated, player 0) meets rated 1600, 1700, 1800 in January (W, W, L:
	// 2 points), 3 games < 5: unrated on the February list. In February it meets
	// 1900 (W) and 2000 (L): 5 games, 3 points → Ra = (9000 + 3600)/7 = 1800,
	// p = 4/7 → .57 → +50 → 1850 on the March list, games_total 5,
	// games_period 0. The opponents' ratings do not move.
	w := newFideWorld(t, Defaults(), fp{0, 0}, fp{1600, 0}, fp{1700, 0}, fp{1800, 0}, fp{1900, 0}, fp{2000, 0})
	w.close("2025-01")
	w.play("2025-01-15", "2025-02", g(0, 1, 2), g(2, 0, 0), g(0, 3, 0))
	w.close("2025-02")
	if listed, _, _ := w.info(0); listed {
		t.Fatal("U is listed after 3 games")
	}
	w.endPeriod()
	w.play("2025-02-15", "2025-03", g(4, 0, 0), g(0, 5, 0))
	w.close("2025-03")
	w.want(0, true, 1850, 5)
	for p, r := range []int32{1600, 1700, 1800, 1900, 2000} {
		w.want(int32(p+1), true, r, 30)
	}
	if listed, k, flags := w.info(0); !listed || k != 40 || flags != "" || w.st.GamesPeriod[0] != 0 {
		t.Errorf("U on the March list: listed %v k %d flags %q games_period %d", listed, k, flags, w.st.GamesPeriod[0])
	}
	if c := w.periodCard(0); c.Reason != ReasonInitial || c.OppAverage != 1800 || c.Games != 5 || c.Score2 != 6 {
		t.Errorf("initial card = %+v", c)
	}
}

func TestFidePoolBelow1400KeepsPooling(t *testing.T) {
	// January: U scores ½ of 5 against 1400s → 1284 (see TestFideInitial): stays
	// unrated. February: U beats three 1800s: n = 8, W = 3.5, Ra = (7000 + 5400
	// + 3600)/10 = 1600, p = 4.5/10 = .45 → −36 → 1564.
	w := newFideWorld(t, Defaults(), fp{0, 0}, fp{1400, 0}, fp{1400, 0}, fp{1400, 0}, fp{1400, 0}, fp{1400, 0},
		fp{1800, 0}, fp{1800, 0}, fp{1800, 0})
	w.close("2025-01")
	w.play("2025-01-15", "2025-02", g(0, 1, 1), g(0, 2, 0), g(0, 3, 0), g(0, 4, 0), g(0, 5, 0))
	w.close("2025-02")
	w.want(0, false, 0, 0)
	if c := w.periodCard(0); c.Reason != ReasonInitialLow || c.After != 1284 {
		t.Errorf("low card = %+v", c)
	}
	w.play("2025-02-15", "2025-03", g(0, 6, 2), g(0, 7, 2), g(0, 8, 2))
	w.close("2025-03")
	w.want(0, true, 1564, 8)
}

func TestFidePoolExpiry(t *testing.T) {
	// U plays 4 games against 1600s (2 points) in January 2023 (taken in by the
	// February 2023 list) and one draw against a 1600 later. The pool spans at
	// most 26 periods: at the close of list L it holds the games of lists
	// L−25 … L. At 2025-03 (L − G = 25): n = 5, W = 2.5, Ra = (8000 + 3600)/7 =
	// 1657.14 → 1657, p = 3.5/7 = .50 → 1657. At 2025-04 (L − G = 26) the 4
	// games have dropped out, 1 game: unrated.
	tests := []struct {
		name      string
		end, list string
		rated     bool
	}{
		{"L − G = 25", "2025-02-15", "2025-03", true},
		{"L − G = 26", "2025-03-15", "2025-04", false},
	}
	for _, tt := range tests {
		w := newFideWorld(t, Defaults(), fp{0, 0}, fp{1600, 0}, fp{1600, 0})
		w.close("2023-01")
		w.play("2023-01-15", "2023-02", g(0, 1, 2), g(0, 2, 2), g(1, 0, 2), g(2, 0, 2))
		for k := monthKey(dayOf("2023-02-01")); k < monthKey(dayOf(tt.list+"-01")); k++ {
			w.close(time.Unix(int64(monthStart(k))*86400, 0).UTC().Format("2006-01"))
			w.endPeriod()
		}
		w.play(tt.end, tt.list, g(0, 1, 1))
		w.close(tt.list)
		if tt.rated {
			w.want(0, true, 1657, 5)
		} else {
			w.want(0, false, 0, 0)
			if len(w.r.pool[0]) != 1 {
				t.Errorf("%s: pool holds %d games, want 1", tt.name, len(w.r.pool[0]))
			}
		}
	}
}

func TestFidePoolExpiryOutOfOrder(t *testing.T) {
	// U's pool takes a game of the March 2023 list, then two of the February
	// one (a tournament that ended earlier, rated later), so its oldest game
	// is not its first. At 2025-03 (L − G = 25 for February) all three are
	// kept; at 2025-04 the two February games drop out and the March one
	// stays. Halfway the rater is saved and restored, as --resume does.
	w := newFideWorld(t, Defaults(), fp{0, 0}, fp{1600, 0}, fp{1600, 0})
	w.close("2023-01")
	w.play("2023-02-15", "2023-03", g(0, 1, 2))
	w.play("2023-01-15", "2023-02", g(0, 2, 2), g(0, 1, 0))
	for k := monthKey(dayOf("2023-02-01")); k <= monthKey(dayOf("2025-04-01")); k++ {
		list := time.Unix(int64(monthStart(k))*86400, 0).UTC().Format("2006-01")
		w.close(list)
		w.endPeriod()
		switch list {
		case "2024-06":
			data, err := w.r.MarshalState()
			if err != nil {
				t.Fatal(err)
			}
			back := NewRater(Defaults(), rating.NewState(3))
			if err := back.UnmarshalState(data, nil); err != nil {
				t.Fatal(err)
			}
			w.r = back
		case "2025-03":
			if len(w.r.pool[0]) != 3 {
				t.Errorf("%s: pool holds %d games, want 3", list, len(w.r.pool[0]))
			}
		case "2025-04":
			march := int32(monthKey(dayOf("2023-03-01")))
			if len(w.r.pool[0]) != 1 || w.r.pool[0][0].period != march || w.r.poolFrom[0] != march {
				t.Errorf("%s: pool %+v from %d, want the one game of list %d", list, w.r.pool[0], w.r.poolFrom[0], march)
			}
		}
	}
	w.want(0, false, 0, 0)
}

func TestFidePoolsKeptAcrossCloses(t *testing.T) {
	// Pools live in an arena rebuilt at each close, the one before reused: a
	// pool seen after a close must still be there, games only added behind
	// it, at the next close; and no two pools may share memory. Pools here
	// take up to 12 games and expire after 3 periods, so many are kept,
	// grown, shortened and emptied.
	const n = 80
	f := Defaults()
	f.InitialGames, f.PoolMonths = 12, 3
	rnd := rand.New(rand.NewPCG(8, 9))
	ps := make([]fp, n)
	for i := range ps {
		if i%4 == 0 {
			ps[i] = fp{1500 + int32(rnd.IntN(800)), 0}
		}
	}
	w := newFideWorld(t, f, ps...)
	w.close("2025-01")
	var seen [][]fideGame
	for k := monthKey(dayOf("2025-02-01")); k < monthKey(dayOf("2026-06-01")); k++ {
		list := time.Unix(int64(monthStart(k))*86400, 0).UTC().Format("2006-01")
		end := time.Unix(int64(monthStart(k)-10)*86400, 0).UTC().Format(time.DateOnly)
		for range 2 {
			var gs []rating.Game
			for range 30 {
				a, b := int32(rnd.IntN(n)), int32(rnd.IntN(n-1))
				if b >= a {
					b++
				}
				gs = append(gs, g(a, b, 1+rnd.IntN(2)))
			}
			w.play(end, list, gs...)
		}
		for p, old := range seen {
			if now := w.r.pool[p]; len(now) < len(old) || !slices.Equal(now[:len(old)], old) {
				t.Fatalf("%s: player %d's pool was %v after the last close, is %v", list, p, old, now)
			}
		}
		w.close(list)
		w.endPeriod()
		seen = make([][]fideGame, n)
		owner := map[*fideGame]int{}
		for p, gs := range w.r.pool {
			seen[p] = slices.Clone(gs)
			for i := range gs {
				if q, ok := owner[&gs[i]]; ok {
					t.Fatalf("%s: players %d and %d share pool memory", list, q, p)
				}
				owner[&gs[i]] = p
			}
		}
	}
	if len(w.r.pooling) == 0 {
		t.Fatal("nobody pooling: the test wants some")
	}
}

func TestFideCloseGathersBlocks(t *testing.T) {
	// The close reads the games a block at a time; players whose games run
	// past a block's nominal end (0 and 1: 1500 games, more than a block) or
	// meet it anywhere must get all their games, in the order played, once.
	ps := []fp{{1800, 0}, {1800, 0}, {1700, 0}, {1750, 0}, {1900, 0}, {1600, 0}, {2000, 0}}
	w := newFideWorld(t, Defaults(), ps...)
	w.close("2025-01")
	w.endPeriod()
	type side struct{ opp, w2 int32 }
	want := make([][]side, len(ps))
	var games []rating.Game
	add := func(a, b int32, count int) {
		for i := range count {
			x := g(a, b, i%3)
			games = append(games, x)
			want[a] = append(want[a], side{b, int32(i % 3)})
			want[b] = append(want[b], side{a, 2 - int32(i%3)})
		}
	}
	add(0, 1, 1500)
	add(2, 3, 700)
	add(4, 2, 330)
	add(5, 6, 3)
	add(6, 3, 1)
	w.play("2025-01-10", "2025-02", games...)
	w.close("2025-02")
	got := make([][]side, len(ps))
	for _, c := range w.cards {
		if c.PerGame {
			got[c.Player] = append(got[c.Player], side{c.Opponent, c.Score2})
		} else if c.Games != int32(len(want[c.Player])) {
			t.Errorf("player %d: total card of %d games, want %d", c.Player, c.Games, len(want[c.Player]))
		}
	}
	for p := range ps {
		if !slices.Equal(got[p], want[p]) {
			t.Errorf("player %d: %d game cards, want %d in the order played", p, len(got[p]), len(want[p]))
		}
	}
}

func TestFideStateOfOpenPeriod(t *testing.T) {
	// The open period's games, rated or pooled, are kept only until its
	// close: a snapshot then would lose them, so it is refused.
	for _, tt := range []struct {
		name string
		game rating.Game
	}{{"rated game", g(1, 2, 1)}, {"pool game", g(0, 1, 1)}} {
		w := newFideWorld(t, Defaults(), fp{0, 0}, fp{1600, 0}, fp{1700, 0})
		w.close("2025-01")
		w.play("2025-01-15", "2025-02", tt.game)
		if _, err := w.r.MarshalState(); err == nil || !strings.Contains(err.Error(), "a period is open") {
			t.Errorf("%s: MarshalState before the close: %v", tt.name, err)
		}
		w.close("2025-02")
		if _, err := w.r.MarshalState(); err != nil {
			t.Errorf("%s: MarshalState after the close: %v", tt.name, err)
		}
	}
}

func TestFideSortPooling(t *testing.T) {
	r := NewRater(Defaults(), rating.NewState(10))
	tests := []struct {
		name    string
		pooling []int32
		sorted  int
		want    []int32
	}{
		{"none added", []int32{1, 4, 8}, 3, []int32{1, 4, 8}},
		{"added after", []int32{1, 4, 9, 7}, 2, []int32{1, 4, 7, 9}},
		{"merged", []int32{2, 5, 7, 9, 1, 6}, 4, []int32{1, 2, 5, 6, 7, 9}},
		{"all added", []int32{3, 0, 2}, 0, []int32{0, 2, 3}},
	}
	for _, tt := range tests {
		r.pooling, r.sorted = slices.Clone(tt.pooling), tt.sorted
		got := r.sortPooling()
		if !slices.Equal(got, tt.want) || !slices.Equal(r.pooling, tt.want) {
			t.Errorf("%s: sortPooling = %v, pooling %v, want %v", tt.name, got, r.pooling, tt.want)
		}
	}
}

func TestFideZeroFirstTournament(t *testing.T) {
	// The "first tournament" is the first rated tournament in which the player
	// met a rated opponent over the board (docs/fide.md, "Initial ratings").
	// U (0) loses twice to 1600s in its first tournament: disregarded. Its
	// second tournament: 5 games against 1600s, 2.5 points → Ra = (8000 +
	// 3600)/7 = 1657, p = .50 → 1657 (with the zeros kept it would be n = 7:
	// Ra = 14800/9 = 1644, p = 3.5/9 = .39 → −80 → 1564).
	// V (6) first plays only U2 (7, unrated): no first tournament yet, so its
	// 0 of 5 against 1600s in the next one is its first and is disregarded: V
	// stays unrated with an empty pool (counted, it would be Ra 1657, p 1/7 →
	// .14 → −309 → 1348).
	// F (8) first has only a forfeit win against a 1600: no first tournament
	// yet; then it loses to a 1600 (its first: disregarded) and scores 2½ of 5
	// against 1600s in a third tournament → 1657 (counted, the loss would make
	// n = 6: Ra = 13200/8 = 1650, p = 3.5/8 → .44 → −43 → 1607).
	ps := []fp{{0, 0}, {1600, 0}, {1600, 0}, {1600, 0}, {1600, 0}, {1600, 0}, {0, 0}, {0, 0}, {0, 0}}
	w := newFideWorld(t, Defaults(), ps...)
	w.close("2025-01")
	w.play("2025-01-10", "2025-02", g(0, 1, 0), g(2, 0, 2), g(6, 7, 2), rating.Game{White: 8, Black: 1, WhiteResult: '+', BlackResult: '-'})
	if len(w.rateCards) != 1 || w.rateCards[0].Player != 0 || w.rateCards[0].Reason != ReasonZeroFirst {
		t.Errorf("first tournament's cards = %+v, want U's zero-first card only", w.rateCards)
	}
	w.play("2025-01-20", "2025-02", g(0, 1, 2), g(0, 2, 0), g(0, 3, 1), g(4, 0, 2), g(5, 0, 0),
		g(6, 1, 0), g(6, 2, 0), g(6, 3, 0), g(6, 4, 0), g(6, 5, 0), g(1, 8, 2))
	if len(w.rateCards) != 2 || w.rateCards[0].Player != 6 || w.rateCards[1].Player != 8 {
		t.Errorf("second tournament's cards = %+v, want zero-first cards of V and F", w.rateCards)
	}
	w.play("2025-01-25", "2025-02", g(8, 1, 2), g(8, 2, 0), g(8, 3, 1), g(4, 8, 2), g(5, 8, 0))
	w.close("2025-02")
	w.want(0, true, 1657, 5)
	w.want(6, false, 0, 0)
	w.want(8, true, 1657, 5)
	if len(w.r.pool[6]) != 0 {
		t.Errorf("V's pool holds %d games, want 0", len(w.r.pool[6]))
	}
	for _, c := range w.cards {
		if c.Player == 6 {
			t.Errorf("V has a card at the close: %+v", c)
		}
	}
}

func TestFideFloor(t *testing.T) {
	// 0 (1405, K 20) loses to 1 (1405): −10 → 1395 < 1400: removed. 2 (1410)
	// loses to 3 (1410): 1400, stays. In March 0 re-enters with an empty pool:
	// 5 games against 1600s, 2.5 points → 1657 (TestFidePoolExpiry's
	// arithmetic); its game total goes on: 31 + 5 = 36.
	w := newFideWorld(t, Defaults(), fp{1405, 0}, fp{1405, 0}, fp{1410, 0}, fp{1410, 0}, fp{1600, 0})
	w.close("2025-01")
	w.play("2025-01-15", "2025-02", g(1, 0, 2), g(3, 2, 2))
	w.close("2025-02")
	w.want(0, false, 0, 31)
	w.want(2, true, 1400, 31)
	if listed, _, _ := w.info(0); listed {
		t.Error("0 is listed below 1400")
	}
	if c := w.periodCard(0); c.Reason != ReasonBelowFloor || c.After != 1395 || c.RatedAfter {
		t.Errorf("floor card = %+v", c)
	}
	w.endPeriod()
	w.play("2025-02-15", "2025-03", g(0, 4, 2), g(0, 4, 2), g(4, 0, 2), g(4, 0, 2), g(0, 4, 1))
	w.close("2025-03")
	w.want(0, true, 1657, 36)
}

func TestFideStartBelowFloor(t *testing.T) {
	// docs/fide.md, "Starting list": a starting fide_rating below 1400 is below
	// the floor. 0 (1399) starts
	// unrated like a player without one: not listed, no games, and its games
	// against 2 (1600) are pooled and do not move 2. 1 (exactly 1400) is rated.
	// January: 0 plays five 1600s, 2½ points: Ra = (8000 + 3600)/7 = 1657.14 →
	// 1657, p = 3.5/7 = .50 → dp 0 → 1657 on the February list, 5 games.
	w := newFideWorld(t, Defaults(), fp{1399, 0}, fp{1400, 0}, fp{1600, 0})
	w.close("2025-01")
	w.want(0, false, 0, 0)
	w.want(1, true, 1400, 30)
	if listed, _, _ := w.info(0); listed {
		t.Error("a starting 1399 is listed")
	}
	w.endPeriod()
	w.play("2025-01-15", "2025-02", g(0, 2, 2), g(2, 0, 2), g(0, 2, 1), g(2, 0, 0), g(0, 2, 0))
	w.close("2025-02")
	w.want(0, true, 1657, 5)
	w.want(2, true, 1600, 30)
	if c := w.periodCard(0); c.Reason != ReasonInitial || c.Games != 5 {
		t.Errorf("initial card of 0 = %+v", c)
	}
}

func TestFideInactive(t *testing.T) {
	// 0 and 1 are rated at the start (the first list, 2025-01, counts as
	// played). 1 plays 2 in January (the 2025-02 list). Flag "i" when the 12
	// periods up to and including the one just rated hold no rated game:
	// 0 from the 2026-01 list (12 after 2025-01), 1 from 2026-02.
	w := newFideWorld(t, Defaults(), fp{2000, 0}, fp{2000, 0}, fp{2000, 0})
	tests := []struct {
		list         string
		flag0, flag1 string
	}{
		{"2025-01", "", ""},
		{"2025-02", "", ""},
		{"2025-12", "", ""},
		{"2026-01", "i", ""},
		{"2026-02", "i", "i"},
	}
	next := monthKey(dayOf("2025-01-01"))
	for _, tt := range tests {
		for ; next <= monthKey(dayOf(tt.list+"-01")); next++ {
			label := time.Unix(int64(monthStart(next))*86400, 0).UTC().Format("2006-01")
			if label == "2025-02" {
				w.play("2025-01-15", "2025-02", g(1, 2, 1))
			}
			w.close(label)
			w.endPeriod()
		}
		_, _, f0 := w.info(0)
		listed, _, f1 := w.info(1)
		if f0 != tt.flag0 || f1 != tt.flag1 || !listed {
			t.Errorf("%s: flags %q %q (listed %v), want %q %q", tt.list, f0, f1, listed, tt.flag0, tt.flag1)
		}
	}
}

func TestFideRatedGamesOnly(t *testing.T) {
	// Forfeits and unrated-played codes are not rated games; games of an unrated
	// player do not move the rated opponent.
	w := newFideWorld(t, Defaults(), fp{2000, 0}, fp{2000, 0}, fp{0, 0})
	w.close("2025-01")
	w.play("2025-01-15", "2025-02",
		rating.Game{White: 0, Black: 1, WhiteResult: '+', BlackResult: '-'},
		rating.Game{White: 0, Black: 1, WhiteResult: 'W', BlackResult: 'L'},
		g(2, 0, 2))
	w.close("2025-02")
	w.want(0, true, 2000, 30)
	w.want(1, true, 2000, 30)
	if len(w.r.pool[2]) != 1 {
		t.Errorf("pool of 2 = %d games, want 1", len(w.r.pool[2]))
	}
}

func TestFideCheck(t *testing.T) {
	for _, mod := range []func(*Settings){
		func(f *Settings) { f.Version = "1999" },
		func(f *Settings) { f.CapExemptFrom = "October" },
		func(f *Settings) { f.InitialMethod = "guess" },
		func(f *Settings) { f.KMid = 0 },
		func(f *Settings) { f.CloseDays = 40 },
	} {
		f := Defaults()
		mod(&f)
		if f.Check() == nil {
			t.Errorf("Check accepted %+v", f)
		}
	}
	f := Defaults()
	if err := f.Check(); err != nil {
		t.Errorf("default: %v", err)
	}
}

// TestFideByeIgnored: a bye row (Black −1) is neither a game nor a first
// tournament for the FIDE rule set.
func TestFideByeIgnored(t *testing.T) {
	st := rating.NewState(2)
	st.Elo[0] = 1800
	r := NewRater(Defaults(), st)
	r.Rate(st, &rating.Event{ID: 1, End: 20100, Games: []rating.Game{{White: 1, Black: -1, WhiteResult: 'U'}, {White: 0, Black: -1, WhiteResult: 'H'}}})
	if r.seen[1] {
		t.Error("a bye made player 1's first tournament")
	}
	if r.openSides() != 0 || len(r.pending) != 0 {
		t.Errorf("a bye was gathered as a game: %d sides, %d pending", r.openSides(), len(r.pending))
	}
}

// TestFideCloseInChunks: a period with more cards than ClosePeriod hands on
// at a time comes out in several slices, together in player order, rated and
// pooled players interleaved, each player's games before its total.
func TestFideCloseInChunks(t *testing.T) {
	const n = 6000 // even players rated, odd ones unrated
	ps := make([]fp, n)
	for p := range ps {
		if p%2 == 0 {
			ps[p] = fp{elo: int32(1800 + p%300)}
		}
	}
	w := newFideWorld(t, Defaults(), ps...)
	w.close("2025-01")
	w.endPeriod()
	var games []rating.Game
	for p := int32(0); p < n; p += 4 {
		games = append(games, g(p, p+2, 1)) // rated against rated
	}
	for p := int32(1); p < n; p += 2 {
		for range 5 {
			games = append(games, g(p, p-1, 1)) // five pooled games against a rated player
		}
	}
	w.play("2025-01-10", "2025-02", games...)
	var chunks [][]rating.Card
	err := w.r.ClosePeriod(w.st, dayOf("2025-02-01"), dayOf("2025-02-28"), func(cs []rating.Card) error {
		chunks = append(chunks, append([]rating.Card(nil), cs...))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) < 2 {
		t.Fatalf("%d slices, want several", len(chunks))
	}
	var all []rating.Card
	for _, c := range chunks {
		all = append(all, c...)
	}
	totals := 0
	for i, c := range all {
		if i > 0 && c.Player < all[i-1].Player {
			t.Fatalf("card %d: player %d after %d", i, c.Player, all[i-1].Player)
		}
		if c.PeriodTotal {
			totals++
			if i+1 < len(all) && all[i+1].Player == c.Player {
				t.Fatalf("card %d: player %d has cards after its total", i, c.Player)
			}
		}
	}
	if want := n/2 + n/2; totals != want || len(all) != n/2*2+n/2*6 {
		t.Errorf("%d cards, %d totals; want %d and %d", len(all), totals, n/2*2+n/2*6, want)
	}
	// The same chunks again: an error from emit stops the close and comes back.
	w2 := newFideWorld(t, Defaults(), ps...)
	w2.close("2025-01")
	w2.play("2025-01-10", "2025-02", games...)
	stop := errors.New("stop")
	if err := w2.r.ClosePeriod(w2.st, dayOf("2025-02-01"), dayOf("2025-02-28"), func([]rating.Card) error { return stop }); err != stop {
		t.Errorf("emit's error: got %v", err)
	}
}

// TestFideEmitGames: the rows EmitGames hands on are the per-game cards
// ClosePeriod hands on without it, in the same order, over several hand-ons,
// pool games and games rated with K 0 (the K × n limit) among them; the
// other cards are the same.
func TestFideEmitGames(t *testing.T) {
	const n = 400 // players 0 mod 3 unrated, so that pools form
	ps := make([]fp, n)
	for p := range ps {
		if p%3 != 0 {
			ps[p] = fp{elo: int32(1500 + p*7%900)}
		}
	}
	f := Defaults()
	f.KNMax = 200 // K 0 above 20 games at K 10
	run := func(emitGames bool) (cards, games []rating.Card) {
		w := newFideWorld(t, f, ps...)
		if emitGames {
			w.r.EmitGames(func(g *rating.GameRows) error {
				for i := range g.Len() {
					c := rating.Card{Player: g.Player[i], Opponent: g.Opponent[i], OppRating: g.OppRating[i], Score2: g.Score2[i],
						Tournament: g.Tournament[i], End: g.End[i], Reason: g.Reasons[i]}
					if g.Rated[i] {
						c.D, c.Expected, c.ChangeExact = g.D[i], g.Expected[i], g.ChangeExact[i]
					}
					games = append(games, c)
				}
				return nil
			})
		}
		w.close("2025-01")
		for m, list := range []string{"2025-02", "2025-03", "2025-04"} {
			end := []string{"2025-01-10", "2025-02-10", "2025-03-10"}[m]
			var gs []rating.Game
			for i := range int32(3000) {
				a, b := (i*7+int32(m))%n, (i*13+5)%n
				if a != b {
					gs = append(gs, g(a, b, int(i%3)))
				}
			}
			for i := range 250 { // players 1 and 2: K 0
				gs = append(gs, g(1, 2, i%3))
			}
			w.play(end, list, gs...)
			w.close(list)
			w.endPeriod()
			for _, c := range w.cards {
				if !c.PerGame {
					cards = append(cards, c)
					continue
				}
				row := rating.Card{Player: c.Player, Opponent: c.Opponent, OppRating: c.OppRating, Score2: c.Score2,
					Tournament: c.Tournament, End: c.End, Reason: c.Reason}
				if c.K > 0 {
					row.D, row.Expected, row.ChangeExact = c.D, c.Expected, c.ChangeExact
				}
				games = append(games, row)
			}
		}
		return cards, games
	}
	cards, games := run(false)
	rowCards, rows := run(true)
	kinds := map[string]int{}
	for _, c := range games {
		kinds[c.Reason.String()]++
		if c.Reason == ReasonGame && c.Expected == 0 {
			kinds["k0"]++
		}
	}
	if len(games) <= 2*closeChunk || kinds["fide-pool-game"] == 0 || kinds["k0"] == 0 {
		t.Fatalf("%d per-game cards (%v): want more than two hand-ons, pool games and games rated with K 0", len(games), kinds)
	}
	if !slices.Equal(games, rows) {
		t.Errorf("EmitGames' %d rows differ from the %d per-game cards", len(rows), len(games))
	}
	if !slices.Equal(cards, rowCards) {
		t.Errorf("the other cards differ with EmitGames: %d against %d", len(rowCards), len(cards))
	}
}

// TestFideStateRevision: a saved state round-trips, and one of another
// revision (the gob layout of revision 1, or a revision number this ratelist
// does not read) is refused with a clear error.
func TestFideStateRevision(t *testing.T) {
	w := newFideWorld(t, Defaults(), fp{0, 0}, fp{1600, 0})
	w.close("2025-01")
	w.play("2025-01-15", "2025-02", g(0, 1, 1))
	w.close("2025-02")
	data, err := w.r.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	r := NewRater(Defaults(), rating.NewState(2))
	if err := r.UnmarshalState(data, nil); err != nil || len(r.pool[0]) != 1 || !r.seen[0] || r.cur != w.r.cur {
		t.Errorf("round trip: %v, pool %d seen %v cur %d", err, len(r.pool[0]), r.seen[0], r.cur)
	}
	type gameV1 struct {
		Tour                        int64
		End, Period, P, Opp, OR, W2 int32
	}
	var old bytes.Buffer
	if err := gob.NewEncoder(&old).Encode(&struct {
		Revision              int
		Reached, Seen, InPool []bool
		LastPlayed, Pooling   []int32
		Pool                  [][]gameV1
		Started               bool
		Cur                   int
	}{Revision: 1, Reached: make([]bool, 2), Seen: make([]bool, 2), InPool: make([]bool, 2),
		LastPlayed: make([]int32, 2), Pool: make([][]gameV1, 2)}); err != nil {
		t.Fatal(err)
	}
	other := append(binary.AppendUvarint(nil, fideStateRevision+1), data[1:]...)
	for name, b := range map[string][]byte{"gob, revision 1": old.Bytes(), "next revision": other} {
		err = NewRater(Defaults(), rating.NewState(2)).UnmarshalState(b, nil)
		if err == nil || !strings.Contains(err.Error(), "other FIDE rules") {
			t.Errorf("state of %s: %v", name, err)
		}
	}
	if err := NewRater(Defaults(), rating.NewState(3)).UnmarshalState(data, nil); err == nil || !strings.Contains(err.Error(), "made for 2 players, not 3") {
		t.Errorf("state of 2 players onto 3: %v", err)
	}
}

// TestFideStateRemap: a state saved before players joined the registry (and
// one left it) is restored onto today's dense indexes: the unrated player's
// pool follows him to his new index, with its opponent's; a newcomer with a
// FIDE rating starts as NewRater made him; the player who left is gone
// with the pool games against him.
func TestFideStateRemap(t *testing.T) {
	// Saved: 0 unrated, 1 (1600) and 2 (1700); 0 played both.
	w := newFideWorld(t, Defaults(), fp{0, 0}, fp{1600, 0}, fp{1700, 0})
	w.close("2025-01")
	w.play("2025-01-15", "2025-02", g(0, 1, 1), g(0, 2, 2))
	w.close("2025-02")
	data, err := w.r.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	// Today: a newcomer (2000) at index 0, saved 0 → 1, 1 → 2, 2 left.
	st := rating.NewState(3)
	st.Elo[0] = 2000
	r := NewRater(Defaults(), st)
	if err := r.UnmarshalState(data, []int32{1, 2, -1}); err != nil {
		t.Fatal(err)
	}
	if len(r.pool[1]) != 1 || r.pool[1][0].p != 1 || r.pool[1][0].opp != 2 || r.pool[1][0].oppRating != 1600 {
		t.Errorf("pool of the unrated player at his new index: %+v, want one game against 2 (1600)", r.pool[1])
	}
	if !r.inPool[1] || r.inPool[0] || !slices.Equal(r.pooling, []int32{1}) {
		t.Errorf("inPool %v, pooling %v; want the unrated player at 1 only", r.inPool, r.pooling)
	}
	if !r.seen[0] || !st.Rated[0] || st.Rating[0] != 2000 {
		t.Errorf("newcomer: seen %v, rated %v %d; want him on the starting list with 2000", r.seen[0], st.Rated[0], st.Rating[0])
	}
	if !r.seen[2] || r.lastPlayed[2] != w.r.lastPlayed[1] {
		t.Errorf("saved player 1 at 2: seen %v, last played %d, want %d", r.seen[2], r.lastPlayed[2], w.r.lastPlayed[1])
	}
}

// TestFideStateRoundTrip: a rater restored from a state of a busy world holds
// what the saved one held, and rates the next period the same; every
// truncation of the data is refused, and no damaged byte panics.
func TestFideStateRoundTrip(t *testing.T) {
	const n = 60
	rnd := rand.New(rand.NewPCG(3, 7))
	ps := make([]fp, n)
	for i := range ps {
		if i%3 == 0 {
			ps[i] = fp{1400 + int32(rnd.IntN(1200)), 0}
		}
	}
	w := newFideWorld(t, Defaults(), ps...)
	games := func() []rating.Game {
		var gs []rating.Game
		for range 40 {
			a, b := int32(rnd.IntN(n)), int32(rnd.IntN(n-1))
			if b >= a {
				b++
			}
			gs = append(gs, g(a, b, rnd.IntN(3)))
		}
		return gs
	}
	w.close("2025-01")
	for _, m := range []string{"2025-02", "2025-03", "2025-04", "2025-05"} {
		prev := time.Unix(int64(dayOf(m+"-01")-20)*86400, 0).UTC().Format(time.DateOnly)
		w.play(prev, m, games()...)
		w.play(prev, m, games()...)
		w.close(m)
		w.endPeriod()
	}
	if len(w.r.pooling) == 0 || len(w.r.pooling) == n {
		t.Fatalf("%d players pooling: the test wants some", len(w.r.pooling))
	}
	data, err := w.r.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	st := rating.NewState(n)
	copy(st.Rated, w.st.Rated)
	copy(st.Rating, w.st.Rating)
	copy(st.GamesTotal, w.st.GamesTotal)
	back := &fideWorld{t: t, st: st, r: NewRater(Defaults(), rating.NewState(n)), id: w.id}
	if err := back.r.UnmarshalState(data, nil); err != nil {
		t.Fatal(err)
	}
	a, b := w.r, back.r
	if !slices.Equal(a.reached, b.reached) || !slices.Equal(a.seen, b.seen) || !slices.Equal(a.inPool, b.inPool) ||
		!slices.Equal(a.lastPlayed, b.lastPlayed) || !slices.Equal(a.pooling, b.pooling) || a.started != b.started || a.cur != b.cur {
		t.Errorf("restored state differs")
	}
	for p := range a.pool {
		if !slices.Equal(a.pool[p], b.pool[p]) {
			t.Errorf("player %d: pool %v, restored %v", p, a.pool[p], b.pool[p])
		}
		if len(a.pool[p]) > 0 && a.poolFrom[p] != b.poolFrom[p] {
			t.Errorf("player %d: pool from period %d, restored %d", p, a.poolFrom[p], b.poolFrom[p])
		}
	}
	next := games()
	for _, x := range []*fideWorld{w, back} {
		x.play("2025-05-20", "2025-06", next...)
		x.close("2025-06")
	}
	if !slices.Equal(w.cards, back.cards) {
		for i := range min(len(w.cards), len(back.cards)) {
			if w.cards[i] != back.cards[i] {
				t.Logf("%+v\n%+v", w.cards[i], back.cards[i])
				break
			}
		}
		t.Errorf("the restored rater rates 2025-06 differently: %d, %d cards", len(w.cards), len(back.cards))
	}
	for i := range data {
		if err := NewRater(Defaults(), rating.NewState(n)).UnmarshalState(data[:i], nil); err == nil {
			t.Errorf("the first %d of %d bytes: no error", i, len(data))
		}
	}
	for i := range data {
		bad := slices.Clone(data)
		bad[i] ^= 0xa5
		NewRater(Defaults(), rating.NewState(n)).UnmarshalState(bad, nil) // must not panic
	}
}

// BenchmarkFideState saves and restores the state of a FIDE rater of 200,000
// players, 80,000 of them pooling 150,000 games (about a 10M-game archive's
// last states).
func BenchmarkFideState(b *testing.B) {
	const n, pooling, games = 200000, 80000, 150000
	r := NewRater(Defaults(), rating.NewState(n))
	rnd := rand.New(rand.NewPCG(1, 2))
	for p := range n {
		r.seen[p], r.reached[p] = rnd.IntN(2) == 0, rnd.IntN(20) == 0
		r.lastPlayed[p] = int32(24300 + rnd.IntN(24))
	}
	r.started, r.cur = true, 24323
	for i := range games {
		p := int32(rnd.IntN(pooling) * (n / pooling))
		tour := int64(60000 + i/4)
		r.pool[p] = append(r.pool[p], fideGame{tour: tour, end: 20100 + int32(i/400), period: 24300 + int32(i/7000),
			p: p, opp: int32(rnd.IntN(n)), oppRating: 1400 + int32(rnd.IntN(1300)), w2: int32(rnd.IntN(3))})
		if !r.inPool[p] {
			r.inPool[p] = true
			r.pooling = append(r.pooling, p)
		}
	}
	slices.Sort(r.pooling)
	var data []byte
	for b.Loop() {
		var err error
		if data, err = r.MarshalState(); err != nil {
			b.Fatal(err)
		}
		if err := NewRater(Defaults(), rating.NewState(n)).UnmarshalState(data, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "bytes")
}

// BenchmarkFideClose closes a month of 175,000 games between 200,000 players
// rated at the start, about a 10M-game archive's month: the games walked in
// player order and their cards made (emit drops them).
func BenchmarkFideClose(b *testing.B) {
	const n, games = 200000, 175000
	st := rating.NewState(n)
	rnd := rand.New(rand.NewPCG(3, 4))
	for p := range n {
		st.Elo[p] = 1400 + int32(rnd.IntN(1300))
	}
	r := NewRater(Defaults(), st)
	ev := &rating.Event{End: dayOf("2025-01-10")}
	for range games {
		a, c := int32(rnd.IntN(n)), int32(rnd.IntN(n-1))
		if c >= a {
			c++
		}
		ev.Games = append(ev.Games, g(a, c, rnd.IntN(3)))
	}
	first, last := dayOf("2025-02-01"), dayOf("2025-02-28")
	emit := func([]rating.Card) error { return nil }
	r.ClosePeriod(st, dayOf("2025-01-01"), dayOf("2025-01-31"), emit)
	rating := slices.Clone(st.Rating)
	for b.Loop() {
		copy(st.Rating, rating)
		r.cur = 0
		r.Rate(st, ev)
		if err := r.ClosePeriod(st, first, last, emit); err != nil {
			b.Fatal(err)
		}
	}
}

// g is a game: white, black, and white's score in half points (2 win, 1 draw, 0 loss).
func g(w, b int32, ws int) rating.Game {
	code := [3][2]byte{{'0', '1'}, {'=', '='}, {'1', '0'}}[ws]
	return rating.Game{White: w, Black: b, WhiteResult: code[0], BlackResult: code[1]}
}
