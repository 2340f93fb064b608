package school

import (
	"testing"

	"github.com/ratelist/ratelist/rating"
)

// Worked examples of the school rules, checked by hand.
func TestWorkedExamples(t *testing.T) {
	s := Defaults()
	// Ro 1500, Ra 1600, n 9, W 6, K 25: D −100 → 0.36; We 3.24; 25 × 2.76 = 69 → 1569.
	we, d := s.Expected(1500, make([]int32, 9), 1600)
	if we != 324 || d != -100 {
		t.Fatalf("example 1: We = %d/100, D = %d; want 324, -100", we, d)
	}
	exact, ch := rating.Change(25, 12, we)
	if exact != 6900 || ch != 69 || 1500+ch != 1569 {
		t.Errorf("example 1: change %d (%d/100), want 69 → 1569", ch, exact)
	}
	// Ro 2100, Ra 1700, n 7, W 6.5, K 10: D 400 → 350 → 0.89; We 6.23; 2.7 → 3 → 2103.
	we, d = s.Expected(2100, make([]int32, 7), 1700)
	if we != 623 || d != 350 {
		t.Fatalf("example 2: We = %d, D = %d; want 623, 350", we, d)
	}
	exact, ch = rating.Change(10, 13, we)
	if exact != 270 || ch != 3 {
		t.Errorf("example 2: change %d (%d/100), want 3 (270/100)", ch, exact)
	}
	// Stage two newcomer, 9 games, Ra 1650: W 3 → 0.33 → −125 → 1525; W 6 → +60 → 1710.
	if r, ok := s.InitialStage2(1650, 9, 6); !ok || r != 1525 {
		t.Errorf("stage-two W=3: %d,%v want 1525", r, ok)
	}
	if r, ok := s.InitialStage2(1650, 9, 12); !ok || r != 1710 {
		t.Errorf("stage-two W=6: %d,%v want 1710", r, ok)
	}
}

func TestK(t *testing.T) {
	s := Defaults()
	tests := []struct {
		name                       string
		tournaments, games, rating int32
		want                       int32
	}{
		{"first tournament", 0, 0, 1400, 40},
		{"second tournament", 1, 9, 1400, 40},
		{"third, 18 games so far", 2, 18, 1400, 40},
		{"third, 19 games so far", 2, 19, 1400, 25},
		{"fourth, few games", 3, 12, 1400, 25},
		{"29 games", 5, 29, 2300, 25},
		{"30 games, 2000", 5, 30, 2000, 15},
		{"30 games, 2001", 5, 30, 2001, 10},
		{"established, low", 9, 80, 1500, 15},
	}
	for _, tt := range tests {
		if got := s.K(tt.tournaments, tt.games, tt.rating); got != tt.want {
			t.Errorf("%s: K(%d,%d,%d) = %d, want %d", tt.name, tt.tournaments, tt.games, tt.rating, got, tt.want)
		}
	}
}

func TestRounding(t *testing.T) {
	tests := []struct {
		k, w2 int32
		we    int64
		exact int64
		want  int32
	}{
		{10, 13, 623, 270, 3},    // 2.70 → 3
		{10, 1, 45, 50, 1},       // W .5, We .45: 0.50 → 1 (half away from zero)
		{10, 1, 55, -50, -1},     // −0.50 → −1
		{10, 1, 46, 40, 0},       // 0.40 → 0
		{25, 2, 98, 50, 1},       // 25 × 0.02 = 0.50 → 1
		{15, 0, 350, -5250, -53}, // 15 × −3.5 = −52.5 → −53
		{15, 10, 450, 750, 8},    // 15 × 0.5 = 7.5 → 8
	}
	for _, tt := range tests {
		exact, got := rating.Change(tt.k, tt.w2, tt.we)
		if exact != tt.exact || got != tt.want {
			t.Errorf("Change(%d,%d,%d) = %d,%d want %d,%d", tt.k, tt.w2, tt.we, exact, got, tt.exact, tt.want)
		}
	}
	avg := []struct {
		rs   []int32
		want int32
	}{{[]int32{1600, 1601}, 1601}, {[]int32{1600, 1600, 1601}, 1600}, {[]int32{1600, 1601, 1601}, 1601}, {[]int32{1887, 1888}, 1888}}
	for _, tt := range avg {
		if got := AverageRating(tt.rs); got != tt.want {
			t.Errorf("AverageRating(%v) = %d, want %d", tt.rs, got, tt.want)
		}
	}
}

func TestCap(t *testing.T) {
	s := Defaults()
	tests := []struct {
		ro, ra int32
		wantD  int32
		wantWe int64 // for n = 1
	}{
		{2100, 1750, 350, 89}, {2100, 1749, 350, 89}, {1700, 2100, -350, 11}, {1700, 2049, -349, 11}, {1500, 1500, 0, 50},
	}
	for _, tt := range tests {
		we, d := s.Expected(tt.ro, []int32{tt.ra}, tt.ra)
		if d != tt.wantD || we != tt.wantWe {
			t.Errorf("Expected(%d vs %d) = %d, D %d; want %d, %d", tt.ro, tt.ra, we, d, tt.wantWe, tt.wantD)
		}
	}
	s.PerGame = true
	// Per game: 2100 vs 1700 (capped 350 → .89) and 2100 vs 2100 (.50) = 1.39.
	if we, _ := s.Expected(2100, []int32{1700, 2100}, 1900); we != 139 {
		t.Errorf("per-game We = %d, want 139", we)
	}
}

func TestInitialRatings(t *testing.T) {
	s := Defaults()
	st1 := []struct {
		cat  int8
		elo  int32
		want int32
		ok   bool
	}{
		{1, 0, 2000, true}, {2, 0, 1800, true}, {3, 0, 1600, true}, {4, 0, 1400, true},
		{0, 0, 0, false}, {5, 0, 0, false},
		{4, 1850, 2000, true}, // Elo below the floor
		{0, 2150, 2150, true}, // Elo above the floor
	}
	for _, tt := range st1 {
		got, ok := s.InitialStage1(tt.cat, tt.elo)
		if got != tt.want || ok != tt.ok {
			t.Errorf("InitialStage1(%d,%d) = %d,%v want %d,%v", tt.cat, tt.elo, got, ok, tt.want, tt.ok)
		}
	}
	st2 := []struct {
		ra    int32
		n, w2 int32
		want  int32
		ok    bool
		calc  string
	}{
		{1650, 9, 9, 1650, true, "exactly 50%"},
		{1650, 9, 10, 1670, true, "5/9: one half point above 4.5 → +20"},
		{1650, 4, 8, 1730, true, "4/4: 4 half points above 2 → +80"},
		{1650, 9, 0, 0, false, "0%: Table 1 undefined, stays unrated"},
		{1650, 8, 1, 1650 - 444, true, "0.5/8 = .0625 → .06 → dp −444"},
		{1500, 6, 5, 1500 - 57, true, "2.5/6 = .4167 → .42 → dp −57"},
	}
	for _, tt := range st2 {
		got, ok := s.InitialStage2(tt.ra, tt.n, tt.w2)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: InitialStage2(%d,%d,%d) = %d,%v want %d,%v", tt.calc, tt.ra, tt.n, tt.w2, got, ok, tt.want, tt.ok)
		}
	}
	// p rounding half up: 3.5/8 = .4375 → .44 → dp −43.
	if got, _ := s.InitialStage2(1600, 8, 7); got != 1600-43 {
		t.Errorf("p .4375 → .44: got %d, want %d", got, 1600-43)
	}
	// 1/8 = .125 → .13 (half up) → −322.
	if got, _ := s.InitialStage2(1600, 8, 2); got != 1600-322 {
		t.Errorf("p .125 → .13: got %d, want %d", got, 1600-322)
	}
}
