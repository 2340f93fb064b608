package tiebreak

import (
	"slices"
	"testing"
)

// football is a 3–1–0 point system: a win 3, a draw 1, a loss 0 (half-points).
var football = PointSystem{Win: 6, Draw: 2, ForfeitWin: 6, FullBye: 6, HalfBye: 2, PAB: 6}

// roundRobin4 is a four-player round robin, everyone rated 2000:
//
//	R1 A–B 1-0, C–D =;  R2 A–C =, B–D 1-0;  R3 A–D 0-1, B–C 1-0.
func roundRobin4(t *testing.T) *Tournament {
	tour := build(t, 3, []int{2000, 2000, 2000, 2000},
		"1 1 2 1-0", "1 3 4 =", "2 1 3 =", "2 2 4 1-0", "3 1 4 0-1", "3 2 3 1-0")
	tour.System = "round-robin"
	return tour
}

// TestFootballPoints works roundRobin4 under 3–1–0 by hand.
//
//	Points: A 3+1+0 = 4, B 0+3+3 = 6, C 1+1+0 = 2, D 1+0+3 = 4.
//	BH (opponents' points): A 6+2+4 = 12, B 4+4+2 = 10, C 4+4+6 = 14, D 2+6+4 = 12.
//	SB (opponent's points × points scored against him): A 6·3 + 2·1 + 4·0 = 20,
//	B 4·0 + 4·3 + 2·3 = 18, C 4·1 + 4·1 + 6·0 = 8, D 2·1 + 6·0 + 4·3 = 14.
//	PS (cumulative after each round): A 3+4+4 = 11, B 0+3+6 = 9, C 1+2+2 = 5, D 1+1+4 = 6.
//	WIN: A 1, B 2, C 0, D 1.
//	TPR uses the game results: B 2 of 3 against 2000s, p 0.67 → 2000 + 125 = 2125;
//	A and D 1½ of 3 → 2000.
//
// Ranking: B 6; A and D 4, equal on BH, A ahead on SB; C 2. Under 1–½–0 the same
// tournament gives A and D 1½, BH 4½, SB 2½ and 2.
func TestFootballPoints(t *testing.T) {
	tour := roundRobin4(t)
	tour.Points = &football
	opt := Options{Unplayed: Fide2023}
	rows, err := Standings(tour, []string{"BH", "SB", "PS", "WIN", "TPR"}, opt)
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	var points []float64
	for _, r := range rows {
		order, points = append(order, r.Index), append(points, r.Points)
	}
	if !slices.Equal(order, []int{1, 0, 3, 2}) || !slices.Equal(points, []float64{6, 4, 4, 2}) {
		t.Errorf("order %v points %v, want B A D C with 6 4 4 2", order, points)
	}
	want := map[string][]string{
		"BH":  {"12", "10", "14", "12"},
		"SB":  {"20", "18", "8", "14"},
		"PS":  {"11", "9", "5", "6"},
		"WIN": {"1", "2", "0", "1"},
		"TPR": {"2000", "2125", "1875", "2000"},
	}
	for code, w := range want {
		if got := col(t, tour, code, opt); !slices.Equal(got, w) {
			t.Errorf("%s = %v, want %v", code, got, w)
		}
	}
}

// TestStandardPointSystemChangesNothing: the standard system given explicitly is
// the same as none.
func TestStandardPointSystemChangesNothing(t *testing.T) {
	for _, code := range []string{"BH", "BH/C1", "SB", "PS", "KS", "WIN", "FB", "AOB"} {
		plain := col(t, swissTail(t), code, Options{})
		tour := swissTail(t)
		ps := StandardPoints()
		tour.Points = &ps
		if got := col(t, tour, code, Options{}); !slices.Equal(got, plain) {
			t.Errorf("%s = %v with the standard system, %v without", code, got, plain)
		}
	}
}

// TestHalfPointPAB: a pairing-allocated bye worth ½ scores ½, is no win, and the
// player's own dummy opponent (fide2023) has his final score.
//
//	R1 1–2 1-0, 3 U;  R2 1–3 =, 2 U.  Points 1 1½, 2 ½, 3 1.
//	BH 3: dummy 1 + 1's 1½ = 2½.  WIN 3: 0 (with PAB 1 it would be 1).
func TestHalfPointPAB(t *testing.T) {
	tour := build(t, 2, []int{0, 0, 0}, "1 1 2 1-0", "1 3 - U", "2 1 3 =", "2 2 - U")
	ps := StandardPoints()
	ps.PAB = 1
	tour.Points = &ps
	opt := Options{Unplayed: Fide2023}
	if got := col(t, tour, "BH", opt); got[2] != "2.5" {
		t.Errorf("BH = %v, want 2.5 for player 3", got)
	}
	if got := col(t, tour, "WIN", opt); !slices.Equal(got, []string{"1", "0", "0"}) {
		t.Errorf("WIN = %v, want 1 0 0", got)
	}
	rows, err := Standings(tour, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if want := []float64{1.5, 0.5, 1}[r.Index]; r.Points != want {
			t.Errorf("player %d: %g points, want %g", r.Index+1, r.Points, want)
		}
	}
}

// TestAdjustments: roundRobin4 under 1–½–0 (A 1½, B 2, C 1, D 1½) with C penalised
// one point in round 2 and D given one point in no round.
//
//	C 0; cumulative ½, ½ + ½ − 1 = 0, 0: PS ½.  D 2½; his PS ½ + ½ + 1½ = 2½ leaves the bonus out.
//	BH A: B 2 + C 0 + D 2½ = 4½.
func TestAdjustments(t *testing.T) {
	tour := roundRobin4(t)
	tour.Adjustments = []Adjustment{{Player: 2, Round: 2, Points: -2}, {Player: 3, Points: 2}}
	opt := Options{Unplayed: Fide2023}
	if got := col(t, tour, "PS", opt); !slices.Equal(got, []string{"4", "3", "0.5", "2.5"}) {
		t.Errorf("PS = %v", got)
	}
	if got := col(t, tour, "BH", opt); got[0] != "4.5" {
		t.Errorf("BH = %v, want 4.5 for A", got)
	}
	rows, err := Standings(tour, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if want := []float64{1.5, 2, 0, 2.5}[r.Index]; r.Points != want {
			t.Errorf("player %d: %g points, want %g", r.Index+1, r.Points, want)
		}
	}
	tour.Adjustments = []Adjustment{{Player: 4, Round: 1, Points: 1}}
	if _, err := Standings(tour, nil, opt); err == nil {
		t.Error("adjustment of a player not in the tournament accepted")
	}
}
