package tiebreak_test

import (
	"os"
	"testing"

	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// testdata/swiss6.trf, 4 rounds, start 2024-03-01 (so fide2023 by default):
//
//	      R1        R2        R3        R4        score  rating
//	A(1)  B w 1     C w 1     E w =     D w 0     2.5    2000
//	B(2)  A b 0     E w 0     F bye     C w =     1.5    1800
//	C(3)  D w =     A b 0     F w 1     B b =     2      1900
//	D(4)  C b =     H bye     Z absent  A b 1     2      1700
//	E(5)  F w +     B b 1     A b =     U (PAB)   3.5    2100
//	F(6)  E b -     U (PAB)   C b 0     (blank)   1      unrated
//
// F's line stops after round 3 (a short line: round 4 is Z, a withdrawal tail).
// In the hand calculations below scores are in points.
//
// fide2009, opponents' scores with their unplayed rounds as ½:
// A 2.5, B 0+0+½+½ = 1, C 2, D ½+½+½+1 = 2.5, E ½+1+½+½ = 2.5, F ½+½+0+½ = 1.5.
// Own unplayed rounds: Svon = SPR + (1 − SfPR) + ½(4 − R):
// B R3 F: 0+0+½ = ½;  D R2 H: ½+½+1 = 2, R3 Z: 1+1+½ = 2.5;
// E R1 +: 0+0+1½ = 1½, R4 U: 2½+0+0 = 2½;  F R1 −: 0+1+1½ = 2½, R2 U: 0+0+1 = 1, R4 Z: 1+1+0 = 2.
//
// fide2023, opponents' scores at face value except a withdrawal tail as draws:
// A 2.5, B 1.5, C 2, D 2 (the H and Z are followed by R4), E 3.5, F 0+1+0+½ = 1.5.
// Own unplayed round: dummy with the player's own score.
// fide2026: dummy capped at min(own, forfeit opponent's score) or min(own, 4 × ½ = 2).
func loadSwiss6(t *testing.T) *tiebreak.Tournament {
	t.Helper()
	f, err := os.Open("testdata/swiss6.trf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tour, err := trf.ReadTournament(f, "swiss6.trf")
	if err != nil {
		t.Fatal(err)
	}
	return tour
}

// values runs Standings with one code and returns start number → printed value.
func values(t *testing.T, tour *tiebreak.Tournament, code string, opt tiebreak.Options) map[int]string {
	t.Helper()
	rows, err := tiebreak.Standings(tour, []string{code}, opt)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	out := map[int]string{}
	for _, r := range rows {
		out[r.Player.StartNo] = tiebreak.FormatValue(r.Values[0])
	}
	return out
}

func TestPoliciesSwiss6(t *testing.T) {
	tests := []struct {
		name   string
		policy tiebreak.Policy
		code   string
		want   map[int]string
	}{
		// A: B 1 + C 2 + E 2.5 + D 2.5 = 8.  B: A 2.5 + E 2.5 + Svon ½ + C 2 = 7.5.
		// C: D 2.5 + A 2.5 + F 1.5 + B 1 = 7.5.  D: C 2 + Svon 2 + Svon 2.5 + A 2.5 = 9.
		// E: Svon 1.5 + B 1 + A 2.5 + Svon 2.5 = 7.5.  F: 2.5 + 1 + C 2 + 2 = 7.5.
		{"BH 2009", tiebreak.Fide2009, "BH", map[int]string{1: "8", 2: "7.5", 3: "7.5", 4: "9", 5: "7.5", 6: "7.5"}},
		// A: B 1.5 + C 2 + E 3.5 + D 2 = 9.  B: 2.5 + 3.5 + dummy 1.5 + 2 = 9.5.
		// C: 2 + 2.5 + 1.5 + 1.5 = 7.5.  D: 2 + dummy 2 + dummy 2 + 2.5 = 8.5.
		// E: dummy 3.5 + 1.5 + 2.5 + dummy 3.5 = 11.  F: dummy 1 + dummy 1 + 2 + dummy 1 = 5.
		{"BH 2023", tiebreak.Fide2023, "BH", map[int]string{1: "9", 2: "9.5", 3: "7.5", 4: "8.5", 5: "11", 6: "5"}},
		// Only E changes: forfeit win over F: min(3.5, F 1.5) = 1.5; PAB: min(3.5, 2) = 2.
		// E: 1.5 + 1.5 + 2.5 + 2 = 7.5.  B's bye min(1.5, 2), D's min(2, 2), F's min(1, ·) unchanged.
		{"BH 2026", tiebreak.Fide2026, "BH", map[int]string{1: "9", 2: "9.5", 3: "7.5", 4: "8.5", 5: "7.5", 6: "5"}},
		// Cut the lowest value. A: 8 − 1 = 7; B: 7.5 − ½ = 7; C: 7.5 − 1 = 6.5; D: 9 − 2 = 7;
		// E: 7.5 − 1 = 6.5; F: 7.5 − 1 = 6.5.
		{"BH/C1 2009", tiebreak.Fide2009, "BH/C1", map[int]string{1: "7", 2: "7", 3: "6.5", 4: "7", 5: "6.5", 6: "6.5"}},
		// VURs first. A (none): 9 − 1.5 = 7.5; B (F is no VUR): its lowest, the F bye's
		// dummy 1.5 → 8; C: 7.5 − 1.5 = 6; D: one of H/Z (2) → 6.5; E (+ and U are not
		// VUR): 11 − 1.5 = 9.5; F: − or Z (1) → 4.
		{"BH/C1 2023", tiebreak.Fide2023, "BH/C1", map[int]string{1: "7.5", 2: "8", 3: "6", 4: "6.5", 5: "9.5", 6: "4"}},
		// E: values 1.5, 1.5, 2.5, 2 → 7.5 − 1.5 = 6.
		{"BH/C1 2026", tiebreak.Fide2026, "BH/C1", map[int]string{1: "7.5", 2: "8", 3: "6", 4: "6.5", 5: "6", 6: "4"}},
		// A: values 1, 2, 2.5, 2.5 → drop 1 and 2 → 5.
		{"BH/C2 2009", tiebreak.Fide2009, "BH/C2", map[int]string{1: "5"}},
		// D: values 2, 2, 2.5, 2.5 → drop 2 and 2.5 → 4.5.
		{"BH/M1 2009", tiebreak.Fide2009, "BH/M1", map[int]string{4: "4.5"}},
		// D: drop the Z (VUR, value 2, SB addend 0) and A (2.5) → C 2 + H 2 = 4.
		{"BH/M1 2023", tiebreak.Fide2023, "BH/M1", map[int]string{4: "4"}},
		// opponent score × result. A: 1×1 + 2×1 + 2.5×½ + 0 = 4.25; B: ½×1 (bye) + 2×½ = 1.5;
		// C: 2.5×½ + 1.5×1 + 1×½ = 3.25; D: 2×½ + 2×½ (H) + 0 + 2.5×1 = 4.5;
		// E: 1.5×1 + 1×1 + 2.5×½ + 2.5×1 = 6.25; F: 1×1 (U) = 1.
		{"SB 2009", tiebreak.Fide2009, "SB", map[int]string{1: "4.25", 2: "1.5", 3: "3.25", 4: "4.5", 5: "6.25", 6: "1"}},
		// A: 1.5 + 2 + 3.5×½ = 5.25; B: 1.5 + 2×½ = 2.5; C: 2×½ + 1.5 + 1.5×½ = 3.25;
		// D: 2×½ + 2×½ + 2.5 = 4.5; E: 3.5 + 1.5 + 2.5×½ + 3.5 = 9.75; F: 1 (U).
		{"SB 2023", tiebreak.Fide2023, "SB", map[int]string{1: "5.25", 2: "2.5", 3: "3.25", 4: "4.5", 5: "9.75", 6: "1"}},
		// E: 1.5 + 1.5 + 1.25 + 2 = 6.25.
		{"SB 2026", tiebreak.Fide2026, "SB", map[int]string{1: "5.25", 5: "6.25"}},
		// B: no VUR; the least significant round is the F bye (value 1.5, SB 1.5) → 1.
		// D: the Z (addend 0) is both the smallest VUR and the least → 4.5.
		{"SB/C1 2023", tiebreak.Fide2023, "SB/C1", map[int]string{2: "1", 4: "4.5"}},
		// Policy-free counts.
		{"WIN", "", "WIN", map[int]string{1: "2", 2: "1", 4: "1", 5: "3", 6: "1"}},
		{"WON", "", "WON", map[int]string{1: "2", 2: "0", 4: "1", 5: "1", 6: "0"}},
		{"BPG", "", "BPG", map[int]string{1: "0", 2: "1", 4: "2", 5: "2", 6: "1"}},
		{"BWG", "", "BWG", map[int]string{4: "1", 5: "1", 6: "0"}},
		// rounds minus VUR: B 4 (F is a round played), D (H, Z) 2, E 4, F (−, Z) 2.
		{"REP", "", "REP", map[int]string{1: "4", 2: "4", 4: "2", 5: "4", 6: "2"}},
		{"GE alias", "", "GE", map[int]string{2: "4"}},
		// A: 1 + 2 + 2.5 + 2.5 = 8; D: ½ + 1 + 1 + 2 = 4.5; E: 1 + 2 + 2.5 + 3.5 = 9.
		{"PS", "", "PS", map[int]string{1: "8", 4: "4.5", 5: "9"}},
		{"PS/C1", "", "PS/C1", map[int]string{1: "7"}},
		// 2023 scores: threshold 2 points; A beat C (2), drew E (3.5), lost to D (2); B 1.5 is out → 1.5.
		{"KS 2023", tiebreak.Fide2023, "KS", map[int]string{1: "1.5"}},
		// /L-1: threshold 1.5 points, so B (1.5) counts too: A beat B → 2.5.
		{"KS/L-1 2023", tiebreak.Fide2023, "KS/L-1", map[int]string{1: "2.5"}},
		// /L+2: threshold 3 points: only E (3.5), a draw → 0.5.
		{"KS/L+2 2023", tiebreak.Fide2023, "KS/L+2", map[int]string{1: "0.5"}},
		// Fore scores (R4 A–D a draw): A 3, D 1.5, others unchanged.
		// A: B 1.5 + C 2 + E 3.5 + D 1.5 = 8.5.  D: C 2 + dummy 1.5 + dummy 1.5 + A 3 = 8.
		{"FB 2023", tiebreak.Fide2023, "FB", map[int]string{1: "8.5", 4: "8"}},
		// A: BH of B 9.5, C 7.5, E 11, D 8.5 → 36.5/4 = 9.125 → 9.13.
		{"AOB 2023", tiebreak.Fide2023, "AOB", map[int]string{1: "9.13"}},
	}
	tour := loadSwiss6(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := values(t, tour, tt.code, tiebreak.Options{Unplayed: tt.policy})
			for sno, want := range tt.want {
				if got[sno] != want {
					t.Errorf("%s player %d = %q, want %q", tt.code, sno, got[sno], want)
				}
			}
		})
	}
}

// TestRatingCodesSwiss6: the rating-based codes count games over the board only. F is
// unrated: with no rating configured for him every value of the tournament is
// undefined (C.07 art. 10); with unrated = 1600 they are computed.
func TestRatingCodesSwiss6(t *testing.T) {
	tests := []struct {
		name    string
		code    string
		want    map[int]string
		unrated int // Options.UnratedRating
	}{
		// F is unrated and no rating is configured: every rating-based value is undefined.
		{"ARO unrated", "ARO", map[int]string{1: "", 3: "", 6: ""}, 0},
		{"TPR unrated", "TPR", map[int]string{1: "", 5: "", 6: ""}, 0},
		{"PTP unrated", "PTP", map[int]string{5: "", 6: ""}, 0},
		{"APRO unrated", "APRO", map[int]string{1: ""}, 0},
		{"APPO unrated", "APPO", map[int]string{1: ""}, 0},
		// With F at 1600: ARO A: (1800+1900+2100+1700)/4 = 1875; C: (1700+2000+1600+1800)/4
		// = 1775; F: C 1900 (its R1 forfeit is no game) = 1900.
		{"ARO", "ARO", map[int]string{1: "1875", 3: "1775", 6: "1900"}, 1600},
		// A without 1700: 5800/3 = 1933.3.
		{"ARO/C1", "ARO/C1", map[int]string{1: "1933"}, 1600},
		// A: p = 2.5/4 = .625 → .63 → dp 95 → 1970.  B: ARO 2000, p = .5/3 = .17 → −273 → 1727.
		// C: 1775, p = 2/4 = .5 → 0 → 1775.  D: 1950, .75 → 193 → 2143.  E: 1900 + 193 = 2093.
		// F: 1900, p = 0 → −800 → 1100.
		{"TPR", "TPR", map[int]string{1: "1970", 2: "1727", 3: "1775", 4: "2143", 5: "2093", 6: "1100"}, 1600},
		// E vs 1800, 2000, 1.5 points: R = 2102: pd(302) .85 + pd(102) .64 = 1.49;
		// R = 2103: pd(303) .86 + .64 = 1.50 → 2103.  F: zero score: 1900 − 800 = 1100.
		{"PTP", "PTP", map[int]string{5: "2103", 6: "1100"}, 1600},
		// A: opponents' TPR (1727 + 1775 + 2093 + 2143)/4 = 1934.5 → 1935.
		{"APRO", "APRO", map[int]string{1: "1935"}, 1600},
	}
	tour := loadSwiss6(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := values(t, tour, tt.code, tiebreak.Options{UnratedRating: tt.unrated})
			for sno, want := range tt.want {
				if got[sno] != want {
					t.Errorf("%s player %d = %q, want %q", tt.code, sno, got[sno], want)
				}
			}
		})
	}
}

func TestDefaultPolicyByDate(t *testing.T) {
	tour := loadSwiss6(t) // starts 2024-03-01 → fide2023: E's BH is 11
	if got := values(t, tour, "BH", tiebreak.Options{})[5]; got != "11" {
		t.Errorf("default policy: E BH = %s, want 11 (fide2023)", got)
	}
}
