package tiebreak

import (
	"slices"
	"testing"
)

// swissTail: a final forfeit loss keeps its 0 for the opponents; a final bye or
// absence counts as a draw (C.07 16.2.5, 16.3).
//
//	R1 1–2 1-0, 3–4 1-0;  R2 1–3 =, 2–4 =;  R3 1–2 +− (2 does not come), 3 Z, 4 H.
//	Scores: 1 2.5, 2 0.5, 3 1.5, 4 1.
//
// Opponents see (fide2023): 2 0.5 (his R3 forfeit loss stays 0), 3 1 + ½ + ½ = 2 (the
// Z after his last round of availability is a draw), 4 1 (the H counts ½ either way).
func swissTail(t *testing.T) *Tournament {
	return build(t, 3, []int{2000, 2000, 2000, 2000},
		"1 1 2 1-0", "1 3 4 1-0", "2 1 3 =", "2 2 4 =", "3 1 2 +-", "3 3 - Z", "3 4 - H")
}

func TestForfeitLossAtEndKeepsZero(t *testing.T) {
	// BH 1: 2 0.5 + 3 2 + dummy 2.5 (his forfeit win) = 5.  2: 1 2.5 + 4 1 + dummy 0.5 = 4.
	// 3: 4 1 + 1 2.5 + dummy 1.5 = 5.  4: 3 2 + 2 0.5 + dummy 1 = 3.5.
	want := []string{"5", "4", "5", "3.5"}
	if got := col(t, swissTail(t), "BH", Options{Unplayed: Fide2023}); !slices.Equal(got, want) {
		t.Errorf("BH = %v, want %v", got, want)
	}
}

// TestFBForfeitIsDrawnGame: R3's 1–2 forfeit becomes a drawn game between them; 3's Z
// and 4's H stay as they are. Fore scores: 1 2, 2 1, 3 1.5, 4 1; opponents see 2 as 1
// (R3 is now a game), 3 as 2 (Z tail as a draw), 4 as 1.
// FB 1: 2 1 + 3 2 + 2 1 = 4.  2: 1 2 + 4 1 + 1 2 = 5.  3: 4 1 + 1 2 + dummy 1.5 = 4.5.
// 4: 3 2 + 2 1 + dummy 1 = 4.
func TestFBForfeitIsDrawnGame(t *testing.T) {
	want := []string{"4", "5", "4.5", "4"}
	if got := col(t, swissTail(t), "FB", Options{Unplayed: Fide2023}); !slices.Equal(got, want) {
		t.Errorf("FB = %v, want %v", got, want)
	}
}

// TestPTPFullScore: a full score follows the general rule. Player 1 beats 2000 and
// 2100: at 2835 the 2100 opponent still expects 0.01 (D = 735), at 2836 both give 1.
// A zero score is the special case: lowest opponent − 800.
func TestPTPFullScore(t *testing.T) {
	tour := build(t, 2, []int{1900, 2000, 2100}, "1 1 2 1-0", "1 3 - U", "2 1 3 1-0", "2 2 - U")
	got := col(t, tour, "PTP", Options{})
	if got[0] != "2836" || got[2] != "1100" {
		t.Errorf("PTP = %v, want 2836 for player 1, 2100 − 800 = 1100 for player 3", got)
	}
}

// roundRobin3: three players, each with one rest round coded U (a point, as FIDE's
// generator writes it). R1 1–2 1-0, 3 rest; R2 2–3 =, 1 rest; R3 1–3 1-0, 2 rest.
// Scores: 1 3, 2 1.5, 3 1.5.
func roundRobin3(t *testing.T) *Tournament {
	tour := build(t, 3, []int{2000, 2000, 2000}, "1 1 2 1-0", "1 3 - U", "2 2 3 =", "2 1 - U", "3 1 3 1-0", "3 2 - U")
	tour.System = "round-robin"
	return tour
}

// TestRestRoundIsNoRound: BH 1: 2 1.5 + 3 1.5 = 3; 2: 3 + 1.5 = 4.5; 3: 1.5 + 3 = 4.5.
// The cut takes the lowest opponent, never the rest round: 1.5, 3, 3.
// SB 1: 1.5 + 1.5 = 3; 2: 0 + 1.5 × ½ = 0.75; 3: 1.5 × ½ + 0 = 0.75.
func TestRestRoundIsNoRound(t *testing.T) {
	for _, c := range []struct {
		code string
		want []string
	}{
		{"BH", []string{"3", "4.5", "4.5"}},
		{"BH/C1", []string{"1.5", "3", "3"}},
		{"SB", []string{"3", "0.75", "0.75"}},
	} {
		for _, p := range []Policy{Fide2023, Fide2026} {
			if got := col(t, roundRobin3(t), c.code, Options{Unplayed: p}); !slices.Equal(got, c.want) {
				t.Errorf("%s %s = %v, want %v", c.code, p, got, c.want)
			}
		}
	}
}

// TestRoundRobinForfeitPerCode: in a round robin a forfeit is a game against the
// scheduled opponent for BH, but the codes defined over the board ignore it.
//
//	R1 1–2 +−, 3–4 1-0;  R2 1–3 =, 2–4 =;  R3 4–1 0-1, 2–3 0-1.
//	Ratings 2000, 1800, 1900, 1700; scores 1 2.5, 2 0.5, 3 2.5, 4 0.5.
//
// Player 1: BH 2 0.5 + 3 2.5 + 4 0.5 = 3.5; WON 1, BPG 1, BWG 1 (R3 with Black);
// ARO (1900 + 1700)/2 = 1800; TPR p = 1.5/2 = .75 → +193 = 1993;
// AOB over 3 and 4: BH 3 = 0.5 + 2.5 + 0.5 = 3.5, BH 4 = 2.5 + 0.5 + 2.5 = 5.5 → 4.5.
func TestRoundRobinForfeitPerCode(t *testing.T) {
	tour := build(t, 3, []int{2000, 1800, 1900, 1700},
		"1 1 2 +-", "1 3 4 1-0", "2 1 3 =", "2 2 4 =", "3 4 1 0-1", "3 2 3 0-1")
	tour.System = "round-robin"
	want := map[string]string{"BH": "3.5", "WON": "1", "BPG": "1", "BWG": "1", "ARO": "1800", "TPR": "1993", "AOB": "4.5", "WIN": "2"}
	for _, p := range []Policy{Fide2023, Fide2026} {
		for code, w := range want {
			if got := col(t, tour, code, Options{Unplayed: p})[0]; got != w {
				t.Errorf("%s %s = %s, want %s", code, p, got, w)
			}
		}
	}
}

// TestLJVCutsOwnForfeitFirst: player 1 (all rated 2000) beats 2 with White (9 × 2's
// score 1 = 9) and loses R2 by forfeit to 3 (0; 3's score with the forfeit as a draw
// 1.5 is the higher value). LJV 9; /C1 cuts the forfeit, not the lower-valued game: 9.
func TestLJVCutsOwnForfeitFirst(t *testing.T) {
	tour := build(t, 2, []int{2000, 2000, 2000, 2000}, "1 1 2 1-0", "1 3 4 1-0", "2 1 3 -+", "2 2 4 1-0")
	for code, want := range map[string]string{"LJV": "9", "LJV/C1": "9"} {
		if got := col(t, tour, code, Options{})[0]; got != want {
			t.Errorf("%s = %s, want %s", code, got, want)
		}
	}
}
