package tiebreak

import (
	"strconv"
	"strings"
	"testing"
)

// build makes a tournament: ratings[i] for player i+1 (start numbers 1..n); each game
// is "round white black result" with result 1-0, 0-1, =, +-, -+, or "round player - CODE"
// for a bye; Scrabble points may follow as "wp:bp".
func build(t *testing.T, rounds int, ratings []int, games ...string) *Tournament {
	t.Helper()
	tour := &Tournament{Rounds: rounds, System: "swiss"}
	for i, r := range ratings {
		tour.Players = append(tour.Players, Player{ID: int64(100 + i + 1), StartNo: i + 1, Name: "P" + strconv.Itoa(i+1), Rating: r})
	}
	for _, g := range games {
		f := strings.Fields(g)
		r, _ := strconv.Atoi(f[0])
		w, _ := strconv.Atoi(f[1])
		gm := Game{Round: r, White: w - 1, Black: -1}
		if f[2] == "-" {
			gm.WhiteResult = f[3][0]
		} else {
			b, _ := strconv.Atoi(f[2])
			gm.Black = b - 1
			res := map[string][2]byte{"1-0": {'1', '0'}, "0-1": {'0', '1'}, "=": {'=', '='}, "+-": {'+', '-'}, "-+": {'-', '+'}, "--": {'-', '-'}}[f[3]]
			gm.WhiteResult, gm.BlackResult = res[0], res[1]
		}
		if len(f) > 4 {
			p := strings.Split(f[4], ":")
			wp, _ := strconv.Atoi(p[0])
			bp, _ := strconv.Atoi(p[1])
			gm.WhitePoints, gm.BlackPoints, gm.HasPoints = int32(wp), int32(bp), true
		}
		tour.Games = append(tour.Games, gm)
	}
	return tour
}

func col(t *testing.T, tour *Tournament, code string, opt Options) []string {
	t.Helper()
	rows, err := Standings(tour, []string{code}, opt)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	out := make([]string, len(tour.Players))
	for _, r := range rows {
		out[r.Index] = FormatValue(r.Values[0])
	}
	return out
}

// TestSVON is the seed's virtual-opponent table: round 5 of 11, the player has 2
// points before the round. Svon = SPR + (1 − SfPR) + ½(n − R).
func TestSVON(t *testing.T) {
	tests := []struct {
		name string
		code string
		want int // half-points
	}{
		{"bye", "U", 10},            // 2 + (1 − 1) + ½·6 = 5
		{"forfeit win +", "+", 10},  // 2 + 0 + 3 = 5
		{"forfeit loss -", "-", 12}, // 2 + (1 − 0) + 3 = 6
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Player 1 wins rounds 1–2, loses 3–4 (2 points), round 5 unplayed.
			g := []string{"1 1 2 1-0", "2 1 3 1-0", "3 1 4 0-1", "4 1 5 0-1"}
			if tt.code == "U" {
				g = append(g, "5 1 - U")
			} else {
				g = append(g, "5 1 6 "+map[string]string{"+": "+-", "-": "-+"}[tt.code])
			}
			m, err := newModel(build(t, 11, make([]int, 6), g...), Options{})
			if err != nil {
				t.Fatal(err)
			}
			c := newCalc(m, Fide2009, false, m.score)
			if got := c.playerItems(0)[4].val; got != tt.want {
				t.Errorf("Svon = %v, want %v", float64(got)/2, float64(tt.want)/2)
			}
		})
	}
}

// TestLJVStageTwo is the nine normative examples of the Lajevardi-zadeh seed's stage two.
func TestLJVStageTwo(t *testing.T) {
	o := LJVOptions{}.withDefaults()
	tests := []struct {
		name     string
		pts      int
		color    byte
		own, opp int
		want     int
	}{
		{"2250 beats 2500 with White", 2, 'w', 2250, 2500, 11},    // 9 + trunc(2.5) = 11
		{"2570 draws 2400 with Black", 1, 'b', 2570, 2400, 4},     // 5 + trunc(−1.7) = 4
		{"2320 loses to 2180 with White", 0, 'w', 2320, 2180, 0},  // 1 + trunc(−1.4) = 0
		{"2700 beats 2200 with Black", 2, 'b', 2700, 2200, 5},     // 10 − 5
		{"2200 beats 2700 with Black", 2, 'b', 2200, 2700, 15},    // 10 + 5
		{"2700 draws 2200 with Black", 1, 'b', 2700, 2200, 0},     // 5 − 5
		{"2200 draws 2700 with Black", 1, 'b', 2200, 2700, 10},    // 5 + 5
		{"2700 loses to 2200 with White", 0, 'w', 2700, 2200, -4}, // 1 − 5
		{"2200 loses to 2700 with White", 0, 'w', 2200, 2700, 6},  // 1 + 5
		// stage one alone: the inferred draw with White and loss with Black.
		{"draw with White, equal", 1, 'w', 2000, 2000, 4},
		{"loss with Black, equal", 0, 'b', 2000, 2000, 2},
	}
	for _, tt := range tests {
		if got := ljvStage(o, tt.pts, tt.color, tt.own, tt.opp); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestLJVSideCases uses testdata/swiss6.trf's games (see policy_test.go), rebuilt here.
// Multipliers = final scores with unplayed rounds as draws (points):
// A 2.5, B 1, C 2, D 2.5, E 2.5, F 1.5. Ratings A 2000 B 1800 C 1900 D 1700 E 2100, F unrated.
func TestLJVSideCases(t *testing.T) {
	tour := build(t, 4, []int{2000, 1800, 1900, 1700, 2100, 0},
		"1 1 2 1-0", "1 3 4 =", "1 5 6 +-",
		"2 1 3 1-0", "2 2 5 0-1", "2 4 - H", "2 6 - U",
		"3 1 5 =", "3 3 6 1-0", "3 2 - F", "3 4 - Z",
		"4 1 4 0-1", "4 2 3 =", "4 5 - U")
	tests := []struct {
		name string
		code string
		opt  LJVOptions
		want []string // by start number 1..6; "" = not checked
	}{
		// A (2000): B White win 9−2 = 7 × 1 = 7; C White win 9−1 = 8 × 2 = 16;
		//   E White draw 4+1 = 5 × 2.5 = 12.5; D White loss 1−3 = −2 × 2.5 = −5 → 30.5.
		// B (1800): A Black loss 2+2 = 4 × 2.5 = 10; E White loss 1+3 = 4 × 2.5 = 10;
		//   own F bye: 5 × own 1.5 = 7.5; C White draw 4+1 = 5 × 2 = 10 → 37.5.
		// D (1700): C Black draw 5+2 = 7 × 2 = 14; H: 5 × own 2 = 10; Z: 0;
		//   A Black win 10+3 = 13 × 2.5 = 32.5 → 56.5.
		// E (2100): forfeit win over F: 3 × 1.5 = 4.5; B Black win 10−3 = 7 × 1 = 7;
		//   A Black draw 5−1 = 4 × 2.5 = 10; PAB 5 × own 3.5 = 17.5 → 39.
		// F (unrated → 1600): forfeit loss 0; PAB 5 × 1 = 5; C Black loss 2+3 = 5 × 2 = 10; Z 0 → 15.
		{"LJV", "LJV", LJVOptions{}, []string{"30.5", "37.5", "", "56.5", "39", "15"}},
		// E: values 1.5 (F), 1 (B), 2.5 (A), 3.5 (own, PAB) → drop B's 7 → 32.
		// D: values 2 (C), 2 (own, H), 2 (own, Z), 2.5 → lowest 2 with the smallest addend (Z, 0) → 56.5.
		{"LJV/C1", "LJV/C1", LJVOptions{}, []string{"", "", "", "56.5", "32", ""}},
		// E: drop B (7) and the PAB (17.5) → 4.5 + 10 = 14.5.
		{"LJV/M1", "LJV/M1", LJVOptions{}, []string{"", "", "", "", "14.5", ""}},
		// base rating 2000 for F: C Black loss 2 − 1 = 1 × 2 = 2 → 7; E's forfeit win has no rating term.
		{"base rating 2000", "LJV", LJVOptions{BaseRating: 2000}, []string{"", "", "", "", "39", "7"}},
		// no forfeit bonus: E loses 4.5 → 34.5.
		{"no forfeit bonus", "LJV", LJVOptions{NoForfeitBonus: true}, []string{"", "", "", "", "34.5", ""}},
		// + TPR/10: E's TPR = 1900 + dp(.75) 193 = 2093 → 39 + 209.3 = 248.3.
		// F: opponent C 1900, p = 0 → 1900 − 800 = 1100 → 15 + 110 = 125.
		{"add TPR", "LJV", LJVOptions{AddTPR: true}, []string{"", "", "", "", "248.3", "125"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := col(t, tour, tt.code, Options{LJV: tt.opt})
			for i, w := range tt.want {
				if w != "" && got[i] != w {
					t.Errorf("player %d: %s, want %s", i+1, got[i], w)
				}
			}
		})
	}
}
