package tiebreak

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"
)

func TestDirectEncounter(t *testing.T) {
	// Players 1, 2, 3 tied. Games among them only matter.
	tests := []struct {
		name  string
		games []string
		want  [][]int // blocks of player indexes, best first
	}{
		// 1 beat 2 and 3; 2 and 3 never met: 1 is ahead whatever 2–3 would give
		// (1 has 2 points, 2 and 3 at most 1); 2 and 3 stay tied.
		{"one ahead, rest unmet", []string{"1 1 2 1-0", "2 1 3 1-0"}, [][]int{{0}, {1, 2}}},
		// All met: 1 beat 2, 2 beat 3, 1 drew 3: 1.5, 1, 0.5.
		{"complete", []string{"1 1 2 1-0", "2 2 3 1-0", "3 1 3 ="}, [][]int{{0}, {1}, {2}}},
		// 1 beat 2 only: 3 met nobody and could still score 2, so nobody is separated.
		{"undecided", []string{"1 1 2 1-0"}, [][]int{{0, 1, 2}}},
		// Cycle 1>2>3>1: all 1 point, tied.
		{"cycle", []string{"1 1 2 1-0", "2 2 3 1-0", "3 3 1 1-0"}, [][]int{{0, 1, 2}}},
		// A forfeit does not count in a Swiss: as "undecided".
		{"forfeit excluded", []string{"1 1 2 +-"}, [][]int{{0, 1, 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := newModel(build(t, 3, []int{0, 0, 0}, tt.games...), Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := deBlocks(m, false, []int{0, 1, 2}, make([]int, 3))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("blocks %v, want %v", got, tt.want)
			}
		})
	}
}

// TestStandingsDE ranks with DE: 1 and 3 tie on 2 points and 1 beat 3; 2 and 4 tie on
// 1 point and 2 beat 4.
func TestStandingsDE(t *testing.T) {
	tour := build(t, 3, []int{0, 0, 0, 0},
		"1 1 2 1-0", "1 3 4 1-0", "2 1 3 1-0", "2 2 4 1-0", "3 4 1 1-0", "3 3 2 1-0")
	rows, err := Standings(tour, []string{"DE"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	var de []string
	for _, r := range rows {
		order = append(order, r.Player.StartNo)
		de = append(de, FormatValue(r.Values[0]))
	}
	if !reflect.DeepEqual(order, []int{1, 3, 2, 4}) || !reflect.DeepEqual(de, []string{"1", "0", "1", "0"}) {
		t.Errorf("order %v DE %v", order, de)
	}
}

// TestSharedRank: players equal on points and every tiebreak share the rank.
func TestSharedRank(t *testing.T) {
	tour := build(t, 1, []int{0, 0, 0, 0}, "1 1 2 =", "1 3 4 =")
	rows, err := Standings(tour, []string{"DE"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Rank != 1 {
			t.Errorf("player %d rank %d, want 1", r.Player.StartNo, r.Rank)
		}
	}
}

// TestRoundRobinForfeits: in a round robin a forfeit is a game against the scheduled
// opponent for BH (C.07 art. 15), but not for the codes defined over the board (WON).
// R1 1–2 +−, 3–4 1-0; R2 1–3 =, 2–4 =; R3 1–4 1-0, 2–3 0-1.
// Scores: 1 2.5, 2 0.5, 3 2.5, 4 0.5.
func TestRoundRobinForfeits(t *testing.T) {
	games := []string{"1 1 2 +-", "1 3 4 1-0", "2 1 3 =", "2 2 4 =", "3 1 4 1-0", "3 2 3 0-1"}
	tests := []struct {
		name, system, code string
		want               string
	}{
		// played: 2 (0.5) + 3 (2.5) + 4 (0.5) = 3.5.
		{"RR BH", "round-robin", "BH", "3.5"},
		// Swiss 2023: the forfeit is a dummy with own 2.5: 2.5 + 2.5 + 0.5 = 5.5.
		{"Swiss BH", "swiss", "BH", "5.5"},
		// /P: forfeits as played for this code only.
		{"Swiss BH/P", "swiss", "BH/P", "3.5"},
		{"RR WON", "round-robin", "WON", "1"},
		{"Swiss WON", "swiss", "WON", "1"},
		{"RR WON/P", "round-robin", "WON/P", "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour := build(t, 3, []int{0, 0, 0, 0}, games...)
			tour.System = tt.system
			if got := col(t, tour, tt.code, Options{Unplayed: Fide2023})[0]; got != tt.want {
				t.Errorf("%s = %s, want %s", tt.code, got, tt.want)
			}
		})
	}
}

// TestSBCutVUR: the TEC rule for SB with a VUR. Player 1: R1 beat 2, R2 beat 3, R3 Z,
// R4 beat 4. Final scores: 1 3, 2 1.5, 3 2.5, 4 1.5, 5 2.5 (no withdrawal tails).
// fide2023 items of 1: (val 1.5, SB 1.5), (2.5, 2.5), Z (dummy 3, SB 0, VUR), (1.5, 1.5).
func TestSBCutVUR(t *testing.T) {
	tour := build(t, 4, make([]int, 5),
		"1 1 2 1-0", "1 3 4 1-0", "1 5 - U",
		"2 1 3 1-0", "2 2 5 0-1", "2 4 - U",
		"3 2 3 =", "3 4 5 =",
		"4 1 4 1-0", "4 3 5 1-0", "4 2 - U")
	tests := []struct{ code, want string }{
		{"SB", "5.5"},    // 1.5 + 2.5 + 0 + 1.5
		{"SB/C1", "4"},   // VUR addend 0 vs least opponent (2: 1.5, addend 1.5): cut the larger, 1.5
		{"BH", "8.5"},    // 1.5 + 2.5 + 3 + 1.5
		{"BH/C1", "5.5"}, // the VUR goes first: 8.5 − 3
	}
	for _, tt := range tests {
		if got := col(t, tour, tt.code, Options{Unplayed: Fide2023})[0]; got != tt.want {
			t.Errorf("%s = %s, want %s", tt.code, got, tt.want)
		}
	}
}

// scrabble3: three players, one bye per round (odd player), points given.
// R1 1 starts vs 2, 400:350; 3 bye.  R2 3 starts vs 1, 380:390; 2 bye.
// R3 3 starts vs 2, 300:420; 1 bye.
// Wins: 1 3, 2 2, 3 1. Abs: 1 790, 2 770, 3 680.
// Spread (+50 per bye): 1 50+10+50 = 110; 2 −50+50+120 = 120; 3 50−10−120 = −80.
// Zacinani: 1 (started R1, not R2) 0; 2 (not R1, not R3) +2; 3 (started R2, R3) −2.
// BH (wins, opponents' byes as ½, own bye by the virtual opponent):
// opponents' adjusted wins 1 2.5, 2 1.5, 3 0.5.
// 1: 1.5 + 0.5 + Svon(R3: 2 + 0 + 0) 2 = 4;  2: 2.5 + Svon(R2: 0+0+½) 0.5 + 0.5 = 3.5;
// 3: Svon(R1: 0+0+1) 1 + 2.5 + 1.5 = 5.
func scrabble3(t *testing.T) *Tournament {
	tour := build(t, 3, []int{0, 0, 0},
		"1 1 2 1-0 400:350", "1 3 - U", "2 3 1 0-1 380:390", "2 2 - U", "3 3 2 0-1 300:420", "3 1 - U")
	tour.Discipline = "scrabble"
	return tour
}

func TestScrabble(t *testing.T) {
	sets := map[string]Coefficients{"test": {A: 1, B: 0.01, C: 0.02, D: 0.5}}
	tests := []struct {
		name string
		code string
		opt  Options
		set  string
		want []string
	}{
		{"SCORE", "SCORE", Options{}, "", []string{"790", "770", "680"}},
		{"SPREAD", "SPREAD", Options{}, "", []string{"110", "120", "-80"}},
		{"SPREAD bye 100", "SPREAD", Options{Scrabble: ScrabbleOptions{ByeSpread: 100}}, "", []string{"160", "170", "-30"}},
		{"SPREAD no bye", "SPREAD", Options{Scrabble: ScrabbleOptions{NoByeSpread: true}}, "", []string{"60", "70", "-130"}},
		// default A = 1: BH/3.
		{"TURCAS default", "TURCAS", Options{}, "", []string{"1.3333", "1.1667", "1.6667"}},
		// 1: 4/3 + 7.9 + 2.2 + 0 = 11.4333; 2: 3.5/3 + 7.7 + 2.4 + 1 = 12.2667;
		// 3: 5/3 + 6.8 − 1.6 − 1 = 5.8667.
		{"TURCAS coefficients", "TURCAS", Options{Scrabble: ScrabbleOptions{Coefficients: sets["test"]}}, "", []string{"11.4333", "12.2667", "5.8667"}},
		{"TURCAS named set per tournament", "TURCAS", Options{Scrabble: ScrabbleOptions{Sets: sets}}, "test", []string{"11.4333", "12.2667", "5.8667"}},
		{"TURCAS named set in options", "TURCAS", Options{Scrabble: ScrabbleOptions{Sets: sets, Set: "test"}}, "", []string{"11.4333", "12.2667", "5.8667"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour := scrabble3(t)
			tour.TurCAS = tt.set
			if got := col(t, tour, tt.code, tt.opt); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	tour := scrabble3(t)
	tour.TurCAS = "nope"
	if _, err := Standings(tour, []string{"TURCAS"}, Options{}); !errors.Is(err, ErrUnknownCoefficientSet) {
		t.Errorf("unknown set: %v", err)
	}
}

// TestCalibrate on scrabble3: b = mean BH/3 = (4 + 3.5 + 5)/9 = 12.5/9;
// a = (790 + 770 + 680)/3 = 2240/3; r = mean |spread over games| = (60 + 70 + 130)/3 = 260/3;
// δ = (50 − 10 − 120)/3 = −80/3; B = b/(2a), C = b/(2r), D = Cδ + Bδ/2.
func TestCalibrate(t *testing.T) {
	got, err := Calibrate([]*Tournament{scrabble3(t), {ID: 9, Discipline: "scrabble"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, a, r, d := 12.5/9, 2240.0/3, 260.0/3, -80.0/3
	B, C := b/(2*a), b/(2*r)
	want := Calibration{A: 1, B: B, C: C, D: C*d + B*d/2, MeanBH: b, MeanAbs: a, MeanRel: r, Delta: d, Games: 3, Players: 3, Tournaments: 1}
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12*math.Max(1, math.Abs(y)) }
	if got.Games != want.Games || got.Players != want.Players || got.Tournaments != want.Tournaments ||
		!near(got.A, want.A) || !near(got.B, want.B) || !near(got.C, want.C) || !near(got.D, want.D) ||
		!near(got.MeanBH, b) || !near(got.MeanAbs, a) || !near(got.MeanRel, r) || !near(got.Delta, d) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if _, err := Calibrate(nil, Options{}); !errors.Is(err, ErrNoData) {
		t.Errorf("empty: %v", err)
	}
}

func TestParseCode(t *testing.T) {
	tests := []struct {
		in      string
		want    Code
		wantErr error
	}{
		{"BH/C1", Code{Name: "BH/C1", Base: "BH", Cut: 1}, nil},
		{"bh/m2", Code{Name: "bh/m2", Base: "BH", Median: 2}, nil},
		{"GE", Code{Name: "GE", Base: "REP"}, nil},
		{"KS/L-2", Code{Name: "KS/L-2", Base: "KS", Limit: -2}, nil},
		{"KS/L+1", Code{Name: "KS/L+1", Base: "KS", Limit: 1}, nil},
		{"BH/L1", Code{}, ErrBadModifier},
		{"SB/C1/P", Code{Name: "SB/C1/P", Base: "SB", Cut: 1, Played: true}, nil},
		{"XYZ", Code{}, ErrUnknownCode},
		{"TPR/C1", Code{}, ErrBadModifier},
		{"BH/C", Code{}, ErrBadModifier},
		{"BH/Q1", Code{}, ErrBadModifier},
		{"BH/C1/M1", Code{}, ErrBadModifier},
	}
	for _, tt := range tests {
		got, err := ParseCode(tt.in)
		if !errors.Is(err, tt.wantErr) || got != tt.want {
			t.Errorf("ParseCode(%q) = %+v, %v; want %+v, %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestBadGames(t *testing.T) {
	tests := []struct {
		name string
		g    Game
	}{
		{"index", Game{Round: 1, White: 0, Black: 7, WhiteResult: '1', BlackResult: '0'}},
		{"round 0", Game{Round: 0, White: 0, Black: 1, WhiteResult: '1', BlackResult: '0'}},
		{"code", Game{Round: 1, White: 0, Black: 1, WhiteResult: 'x', BlackResult: '0'}},
		{"played bye", Game{Round: 1, White: 0, Black: -1, WhiteResult: '1'}},
		{"mismatch", Game{Round: 1, White: 0, Black: 1, WhiteResult: '1', BlackResult: '-'}},
	}
	for _, tt := range tests {
		tour := build(t, 1, []int{0, 0})
		tour.Games = []Game{tt.g}
		if _, err := Standings(tour, []string{"BH"}, Options{}); !errors.Is(err, ErrBadGame) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	tour := build(t, 1, []int{0, 0}, "1 1 2 1-0", "1 1 - U")
	if _, err := Standings(tour, nil, Options{}); !errors.Is(err, ErrBadGame) {
		t.Errorf("twice in a round: %v", err)
	}
}

func TestPolicyAt(t *testing.T) {
	tests := []struct {
		date string
		want Policy
	}{
		{"2023-06-30", Fide2009}, {"2023-07-01", Fide2023}, {"2026-02-28", Fide2023}, {"2026-03-01", Fide2026},
	}
	for _, tt := range tests {
		d, _ := time.Parse("2006-01-02", tt.date)
		if got := PolicyAt(d); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.date, got, tt.want)
		}
	}
}
