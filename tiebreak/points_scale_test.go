package tiebreak_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ratelist/ratelist/tiebreak"
)

// TestDoubledPointSystem: a point system worth exactly twice the standard one (a win
// 2, a draw 1, byes by their code) doubles every value built on points (SB, a product
// of two scores, four times), and leaves the counts and the rating-based codes, which
// use the game results, as they are. The ranking is the same. This reaches every
// place that reads points, on the random tournaments of the cross-check.
func TestDoubledPointSystem(t *testing.T) {
	factor := map[string]float64{
		"BH": 2, "BH/C1": 2, "BH/M1": 2, "FB": 2, "FB/C1": 2, "AOB": 2, "SB": 4, "SB/C1": 4, "KS": 2,
		"PS": 2, "PS/C1": 2, "DE": 2, "LJV": 2, "LJV/C1": 2,
		"WIN": 1, "WON": 1, "BPG": 1, "BWG": 1, "REP": 1,
		"ARO": 1, "ARO/C1": 1, "TPR": 1, "PTP": 1, "APRO": 1, "APPO": 1,
	}
	codes := make([]string, 0, len(factor))
	for c := range factor {
		codes = append(codes, c)
	}
	double := tiebreak.StandardPoints()
	for _, p := range []*int{&double.Win, &double.Draw, &double.Loss, &double.ForfeitWin, &double.ForfeitLoss, &double.FullBye, &double.HalfBye, &double.ZeroBye, &double.PAB} {
		*p *= 2
	}
	rng := rand.New(rand.NewPCG(20261201, 7))
	for i := 0; i < 200; i++ {
		plain := genTournament(rng, i, false)
		doubled := *plain
		doubled.Points = &double
		for _, pol := range crossPolicies {
			opt := tiebreak.Options{Unplayed: pol, UnratedRating: 1500}
			want, err := tiebreak.Standings(plain, codes, opt)
			if err != nil {
				t.Fatal(err)
			}
			want = append([]tiebreak.Row(nil), want...)
			got, err := tiebreak.Standings(&doubled, codes, opt)
			if err != nil {
				t.Fatal(err)
			}
			for k := range want {
				w, g := want[k], got[k]
				if w.Index != g.Index || w.Rank != g.Rank || g.Points != 2*w.Points {
					t.Fatalf("tournament %d %s row %d: player %d rank %d %g points, want player %d rank %d %g", i, pol, k, g.Index, g.Rank, g.Points, w.Index, w.Rank, 2*w.Points)
				}
				for c, code := range codes {
					wv, gv := w.Values[c], g.Values[c]
					tol := 0.0
					if code == "AOB" {
						tol = 0.0151 // rounded to hundredths before and after doubling
					}
					if wv.OK != gv.OK || math.Abs(gv.V-factor[code]*wv.V) > tol {
						t.Errorf("tournament %d %s player %d %s = %v, want %g × %v", i, pol, w.Index, code, gv, factor[code], wv)
					}
				}
			}
		}
	}
}
