package reftb

import (
	"math/big"
	"testing"

	"github.com/ratelist/ratelist/tiebreak"
)

// The seed tiebreaks' virtual-opponent table: round 5 of 11, 2 points before the round.
func TestSvonSeedTable(t *testing.T) {
	for _, c := range []struct {
		name string
		sfpr int // half points
		want int // half points
	}{
		{"bye", 2, 10},
		{"forfeit win", 2, 10},
		{"forfeit loss", 0, 12},
	} {
		if got := Svon(4, c.sfpr, 11, 5); got != c.want {
			t.Errorf("%s: Svon = %d/2, want %d/2", c.name, got, c.want)
		}
	}
}

// The virtual-opponent examples of FIDE's tiebreak regulations (9 rounds).
func TestSvonFideExamples(t *testing.T) {
	cases := []struct{ spr, sfpr, round, want int }{
		{3, 0, 3, 11}, // absent R3 with 1.5 after R2: 5.5 at the end
		{7, 2, 6, 10}, // opponent no-show R6, P had 3.5: 5.0
		{4, 2, 3, 10}, // Vega: default win R3 after 2/2: 5
		{8, 0, 7, 12}, // Vega: absent R7 with 4 after R6: 6
	}
	for _, c := range cases {
		if got := Svon(c.spr, c.sfpr, 9, c.round); got != c.want {
			t.Errorf("Svon(%d,%d,9,%d) = %d/2, want %d/2", c.spr, c.sfpr, c.round, got, c.want)
		}
	}
}

// The seed's table, on a tournament: player 0 has 2 points after round 4, then a
// bye / forfeit win / forfeit loss in round 5 of 11; his own BH under fide2009
// gets 5 / 5 / 6 from that round.
func TestSvonInTournament(t *testing.T) {
	for _, c := range []struct {
		code byte
		want int64 // half points from round 5
	}{{'U', 10}, {'+', 10}, {'-', 12}, {'F', 10}, {'H', 11}, {'Z', 12}} {
		tt := &tiebreak.Tournament{Rounds: 11, System: "swiss"}
		for i := 0; i < 2; i++ {
			tt.Players = append(tt.Players, tiebreak.Player{StartNo: i + 1, Rating: 2000})
		}
		// rounds 1-4: player 0 wins twice and loses twice against player 1.
		for rd := 1; rd <= 4; rd++ {
			w, l := byte('1'), byte('0')
			if rd > 2 {
				w, l = '0', '1'
			}
			tt.Games = append(tt.Games, tiebreak.Game{Round: rd, White: 0, Black: 1, WhiteResult: w, BlackResult: l})
		}
		if c.code == '+' || c.code == '-' {
			other := byte('-')
			if c.code == '-' {
				other = '+'
			}
			tt.Games = append(tt.Games, tiebreak.Game{Round: 5, White: 0, Black: 1, WhiteResult: c.code, BlackResult: other})
		} else {
			tt.Games = append(tt.Games, tiebreak.Game{Round: 5, White: 0, Black: -1, WhiteResult: c.code})
		}
		r := newRef(tt, tiebreak.Fide2009)
		if got := r.own(0, 5); int64(got) != c.want {
			t.Errorf("%c: Svon = %d/2, want %d/2", c.code, got, c.want)
		}
	}
}

// The Lajevardi-zadeh seed's stage two: the nine normative examples.
func TestLJVSeedExamples(t *testing.T) {
	const W, D, L = 2, 1, 0
	cases := []struct {
		own, opp, res int
		black         bool
		want          int
	}{
		{2250, 2500, W, false, 11},
		{2570, 2400, D, true, 4},
		{2320, 2180, L, false, 0},
		{2700, 2200, W, true, 5},
		{2200, 2700, W, true, 15},
		{2700, 2200, D, true, 0},
		{2200, 2700, D, true, 10},
		{2700, 2200, L, false, -4},
		{2200, 2700, L, false, 6},
	}
	for i, c := range cases {
		if got := LJVStage2(c.res, c.black, c.own, c.opp); got != c.want {
			t.Errorf("example %d: %d, want %d", i+1, got, c.want)
		}
	}
	if LJVStage1(1, false) != 4 || LJVStage1(0, true) != 2 {
		t.Error("inferred stage-one values 4 (draw White) / 2 (loss Black)")
	}
}

// A three-round tournament worked by hand, LJV with stage three and side cases.
//
//	#1 r2250: 1:2w1 2:U   3:3b=
//	#2 r2500: 1:1b0 2:3w+ 3:Z
//	#3 r0   : 1:U   2:2b- 3:1w=
//
// Scores: #1 2.5, #2 1, #3 1.5. LJV multipliers (unplayed as draws): #1 2,
// #2 0 + ½ + ½ = 1, #3 ½ + ½ + ½ = 1.5.
// #1: r1 (9 + 2) × 1 = 11; r2 bye 5 × 2.5 = 12.5; r3 draw Black vs 1600:
// (5 + trunc(−650/100) = −1) × 1.5 = −1.5 → 22.
// #2: r1 (2 + trunc(−250/100) = 0) × 2.5 = 0; r2 forfeit win 3 × 1.5 = 4.5; r3 0 → 4.5.
// #3: r1 5 × 1.5 = 7.5; r2 0; r3 draw White 1600 vs 2250: (4 + 6) × 2 = 20 → 27.5
// (#1's multiplier counts his bye as a draw: 1 + ½ + ½ = 2).
func TestLJVHand(t *testing.T) {
	tt := &tiebreak.Tournament{Rounds: 3, System: "swiss", Players: []tiebreak.Player{{StartNo: 1, Rating: 2250}, {StartNo: 2, Rating: 2500}, {StartNo: 3}}}
	tt.Games = []tiebreak.Game{
		{Round: 1, White: 0, Black: 1, WhiteResult: '1', BlackResult: '0'},
		{Round: 1, White: 2, Black: -1, WhiteResult: 'U'},
		{Round: 2, White: 0, Black: -1, WhiteResult: 'U'},
		{Round: 2, White: 1, Black: 2, WhiteResult: '+', BlackResult: '-'},
		{Round: 3, White: 2, Black: 0, WhiteResult: '=', BlackResult: '='},
	}
	got, err := Compute(tt, []string{"LJV", "LJV/C1", "LJV/M1", "BH", "SB"}, tiebreak.Fide2009, Scrabble{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]*big.Rat{
		"LJV": {big.NewRat(22, 1), big.NewRat(9, 2), big.NewRat(55, 2)},
		// cut values: #1 rounds (1, 2.5 own, 1.5) → drop round 1 (11): 11.
		// #2 (2.5, 1.5, own 1) → drop r3 (0): 4.5. #3 (own 1.5, 1, 2) → drop r2: 27.5.
		"LJV/C1": {big.NewRat(11, 1), big.NewRat(9, 2), big.NewRat(55, 2)},
		// median: also drop the highest: #1 r2 (2.5) → −1.5; #2 r1 → 4.5; #3 r3 → 7.5.
		"LJV/M1": {big.NewRat(-3, 2), big.NewRat(9, 2), big.NewRat(15, 2)},
		// BH fide2009, adjusted scores (unplayed rounds as draws):
		// #1: played r1, r3, bye r2 → adj = 1 + ½ + ½ = 2. #2: played r1 → 0 + ½ + ½ = 1.
		// #3: played r3 → ½ + ½ + ½ = 1.5.
		// BH #1: r1 adj#2 = 1; r2 Svon = 1 + 0 + ½ = 1.5; r3 adj#3 = 1.5 → 4.
		// BH #2: r1 adj#1 = 2; r2 Svon = 0 + 0 + ½ = ½; r3 Svon = 1 + 1 + 0 = 2 → 4.5.
		// BH #3: r1 Svon = 0 + 0 + 1 = 1; r2 Svon = 1 + 1 + ½ = 2.5; r3 adj#1 = 2 → 5.5.
		"BH": {big.NewRat(4, 1), big.NewRat(9, 2), big.NewRat(11, 2)},
		// SB #1: 1×1 + 1.5×1 + 1.5×½ = 3.25; #2: 0 + ½×1 + 0 = 0.5; #3: 1×1 + 0 + 2×½ = 2.
		"SB": {big.NewRat(13, 4), big.NewRat(1, 2), big.NewRat(2, 1)},
	}
	for code, ws := range want {
		for p, w := range ws {
			if v := got[code][p]; !v.OK || v.R.Cmp(w) != 0 {
				t.Errorf("%s #%d = %v, want %s", code, p+1, v, w.RatString())
			}
		}
	}
}

// fide2023: dummy opponent and withdrawal tail, by hand.
//
//	#1: 1:2w1 2:3b1 3:H      (2.5)
//	#2: 1:1b0 2:Z   3:Z      (0; tail r2-r3 counts ½ each → adj 1)
//	#3: 1:U   2:1w0 3:F      (2; F is no VUR, so no tail → adj 2)
//
// BH #1 = adj#2 1 + adj#3 2 + dummy 2.5 = 5.5; C1 drops the VUR (H, 2.5) → 3;
// M1 then drops the highest remaining (2) → 1.
// SB #1 = 1×1 + 2×1 + 2.5×½ = 4.25.
func TestFide2023Hand(t *testing.T) {
	tt := &tiebreak.Tournament{Rounds: 3, System: "swiss", Players: []tiebreak.Player{{StartNo: 1}, {StartNo: 2}, {StartNo: 3}}}
	tt.Games = []tiebreak.Game{
		{Round: 1, White: 0, Black: 1, WhiteResult: '1', BlackResult: '0'},
		{Round: 1, White: 2, Black: -1, WhiteResult: 'U'},
		{Round: 2, White: 2, Black: 0, WhiteResult: '0', BlackResult: '1'},
		{Round: 3, White: 0, Black: -1, WhiteResult: 'H'},
		{Round: 3, White: 2, Black: -1, WhiteResult: 'F'},
	}
	got, err := Compute(tt, []string{"BH", "BH/C1", "BH/M1", "SB"}, tiebreak.Fide2023, Scrabble{})
	if err != nil {
		t.Fatal(err)
	}
	for code, w := range map[string]*big.Rat{"BH": big.NewRat(11, 2), "BH/C1": big.NewRat(3, 1), "BH/M1": big.NewRat(1, 1), "SB": big.NewRat(17, 4)} {
		if v := got[code][0]; !v.OK || v.R.Cmp(w) != 0 {
			t.Errorf("%s #1 = %v, want %s", code, v, w.RatString())
		}
	}
}

func TestTPRTable(t *testing.T) {
	if DP(100) != 800 || DP(0) != -800 || DP(50) != 0 || DP(49) != -7 || DP(75) != 193 {
		t.Fatal("dp table")
	}
	// ARO (2000+2101)/2 = 2050.5 → 2051; 1.5/2 = 0.75 → +193.
	tt := &tiebreak.Tournament{Rounds: 2, Players: []tiebreak.Player{{Rating: 1900}, {Rating: 2000}, {Rating: 2101}}}
	tt.Games = []tiebreak.Game{
		{Round: 1, White: 0, Black: 1, WhiteResult: '1', BlackResult: '0'},
		{Round: 2, White: 2, Black: 0, WhiteResult: '=', BlackResult: '='},
	}
	got, _ := Compute(tt, []string{"ARO", "TPR"}, tiebreak.Fide2023, Scrabble{})
	if got["ARO"][0].R.Cmp(big.NewRat(2051, 1)) != 0 || got["TPR"][0].R.Cmp(big.NewRat(2244, 1)) != 0 {
		t.Fatalf("ARO %v TPR %v", got["ARO"][0], got["TPR"][0])
	}
}

func TestRound4(t *testing.T) {
	if Round4(big.NewRat(12345, 1000000)).Cmp(big.NewRat(123, 10000)) != 0 { // 0.012345 → 0.0123
		t.Error("0.012345")
	}
	if Round4(big.NewRat(-5, 100000)).Sign() != 0 { // −0.00005 → 0 (half up)
		t.Error("-0.00005")
	}
}
