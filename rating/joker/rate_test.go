package joker

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/BurntSushi/toml"
)

// jokerTable builds a state of len(ratings) players with the given player
// ratings (personal ratings 0) and a game where seat i is player i.
func jokerTable(ratings [4]int32, places [4]int8, scores [4]int32, leaver int, stopped int8) (*State, *Game) {
	s := &State{}
	s.Grow(4)
	g := &Game{StoppedPulka: stopped}
	for i := range 4 {
		s.PlayerRating[i] = ratings[i]
		g.Seats[i] = Seat{Player: int32(i), Place: places[i], Score: scores[i], Left: i == leaver}
	}
	return s, g
}

func mustApply(t *testing.T, r *Rules, s *State, g *Game) [4]Change {
	t.Helper()
	ch, err := r.Apply(s, g)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return ch
}

// TestWorkedExample is the finished game of docs/joker.md §4.
func TestWorkedExample(t *testing.T) {
	r := DefaultRules()
	// Levels 1,4,4,4: sum 13, table level floor(13/4) = 3.
	s, g := jokerTable([4]int32{150, 420, 480, 455}, [4]int8{1, 2, 3, 4}, [4]int32{}, -1, 0)
	ch := mustApply(t, &r, s, g)
	want := []struct {
		level, mult, delta, rating int32
	}{
		{1, 2, 24, 174},  // Beginner 1st: m = 3−1 = 2 → 12×2 = +24; 150+24 = 174
		{4, 1, 1, 421},   // Master 2nd: m = max(1, 3−4) = 1 → +1; 420+1 = 421
		{4, 1, -4, 476},  // Master 3rd: −4, never multiplied; 480−4 = 476
		{4, 1, -12, 443}, // Master 4th: −12; 455−12 = 443
	}
	for i, w := range want {
		c := ch[i]
		if c.Level != w.level || c.Multiplier != w.mult || c.PlayerDelta != w.delta || c.PlayerRating != w.rating ||
			c.LevelSum != 13 || c.TableLevel != 3 || c.Reason != ReasonPlace {
			t.Errorf("seat %d: got %+v, want %+v (level sum 13, table 3, place)", i+1, c, w)
		}
		if s.PlayerRating[i] != w.rating || s.Games[i] != 1 {
			t.Errorf("seat %d: state rating %d games %d, want %d 1", i+1, s.PlayerRating[i], s.Games[i], w.rating)
		}
	}
}

// otherPlaces returns the four places with the tested seat (seat 0) at place p.
func otherPlaces(p int8) [4]int8 {
	places := [4]int8{p}
	next := int8(1)
	for i := 1; i < 4; i++ {
		if next == p {
			next++
		}
		places[i] = next
		next++
	}
	return places
}

// TestGainsTable checks every cell of the gains table. All four players
// share the tested level, so the table level equals the own level and
// m = max(1, 0) = 1: the change is the cell itself.
func TestGainsTable(t *testing.T) {
	r := DefaultRules()
	tests := []struct {
		level  int32
		place  int8
		rating int32 // before: level×100 + 50
		want   int32 // after
	}{
		{0, 1, 50, 65},   // Teapot 1st: 50+15
		{0, 2, 50, 55},   // Teapot 2nd: 50+5
		{0, 3, 50, 50},   // Teapot 3rd: 50−0
		{0, 4, 50, 49},   // Teapot 4th: 50−1
		{1, 1, 150, 162}, // Beginner 1st: 150+12
		{1, 2, 150, 154}, // Beginner 2nd: 150+4
		{1, 3, 150, 149}, // Beginner 3rd: 150−1
		{1, 4, 150, 147}, // Beginner 4th: 150−3
		{2, 1, 250, 259}, // Amateur 1st: 250+9
		{2, 2, 250, 253}, // Amateur 2nd: 250+3
		{2, 3, 250, 248}, // Amateur 3rd: 250−2
		{2, 4, 250, 244}, // Amateur 4th: 250−6
		{3, 1, 350, 356}, // Professional 1st: 350+6
		{3, 2, 350, 352}, // Professional 2nd: 350+2
		{3, 3, 350, 347}, // Professional 3rd: 350−3
		{3, 4, 350, 341}, // Professional 4th: 350−9
		{4, 1, 450, 453}, // Master 1st: 450+3
		{4, 2, 450, 451}, // Master 2nd: 450+1
		{4, 3, 450, 446}, // Master 3rd: 450−4
		{4, 4, 450, 438}, // Master 4th: 450−12
		{5, 1, 550, 550}, // Joker's Father 1st: 550+0
		{5, 2, 550, 550}, // Joker's Father 2nd: 550+0
		{5, 3, 550, 545}, // Joker's Father 3rd: 550−5
		{5, 4, 550, 535}, // Joker's Father 4th: 550−15
	}
	for _, tt := range tests {
		t.Run(r.LevelName(int(tt.level))+"/"+string(rune('0'+tt.place)), func(t *testing.T) {
			rt := tt.rating
			s, g := jokerTable([4]int32{rt, rt, rt, rt}, otherPlaces(tt.place), [4]int32{}, -1, 0)
			c := mustApply(t, &r, s, g)[0]
			if c.Level != tt.level || c.Multiplier != 1 || c.PlaceBase != tt.want-tt.rating ||
				c.PlayerRating != tt.want || c.PlayerDelta != tt.want-tt.rating || c.Reason != ReasonPlace {
				t.Errorf("got %+v, want level %d, ×1, %d → %d", c, tt.level, tt.rating, tt.want)
			}
		})
	}
}

// TestPenaltyTable checks every cell of the leave-penalty table. The
// leaver is seat 0, placed 4th (its place does not matter); the others share
// its level.
func TestPenaltyTable(t *testing.T) {
	r := DefaultRules()
	tests := []struct {
		level  int32
		pulka  int8
		rating int32 // before: level×100 + 50
		want   int32 // after
	}{
		{0, 1, 50, 49},   // Teapot: 50−1
		{0, 2, 50, 48},   // 50−2
		{0, 3, 50, 47},   // 50−3
		{0, 4, 50, 46},   // 50−4
		{1, 1, 150, 146}, // Beginner: 150−4
		{1, 2, 150, 145}, // 150−5
		{1, 3, 150, 144}, // 150−6
		{1, 4, 150, 143}, // 150−7
		{2, 1, 250, 242}, // Amateur: 250−8
		{2, 2, 250, 241}, // 250−9
		{2, 3, 250, 240}, // 250−10
		{2, 4, 250, 239}, // 250−11
		{3, 1, 350, 338}, // Professional: 350−12
		{3, 2, 350, 337}, // 350−13
		{3, 3, 350, 336}, // 350−14
		{3, 4, 350, 335}, // 350−15
		{4, 1, 450, 434}, // Master: 450−16
		{4, 2, 450, 433}, // 450−17
		{4, 3, 450, 432}, // 450−18
		{4, 4, 450, 431}, // 450−19
		{5, 1, 550, 530}, // Joker's Father: 550−20
		{5, 2, 550, 528}, // 550−22
		{5, 3, 550, 526}, // 550−24
		{5, 4, 550, 524}, // 550−26
	}
	for _, tt := range tests {
		t.Run(r.LevelName(int(tt.level))+"/pulka"+string(rune('0'+tt.pulka)), func(t *testing.T) {
			rt := tt.rating
			s, g := jokerTable([4]int32{rt, rt, rt, rt}, [4]int8{4, 1, 2, 3}, [4]int32{}, 0, tt.pulka)
			c := mustApply(t, &r, s, g)[0]
			if c.Level != tt.level || c.Penalty != tt.want-tt.rating || c.PlaceBase != 0 ||
				c.PlayerRating != tt.want || c.Reason != ReasonLeave {
				t.Errorf("got %+v, want level %d, %d → %d, leave", c, tt.level, tt.rating, tt.want)
			}
		})
	}
}

// TestMultiplier: m = max(1, floor(sum/4) − own level), used only for
// gains and only when m ≥ the threshold (default 2).
func TestMultiplier(t *testing.T) {
	tests := []struct {
		name      string
		threshold int32 // 0 = default (2)
		ratings   [4]int32
		places    [4]int8
		wantMult  [4]int32
		wantDelta [4]int32
	}{
		{
			// levels 0,4,4,4: sum 12 → 3. Teapot 1st m = 3 → 15×3 = 45;
			// Masters: 2nd +1, 3rd −4, 4th −12.
			"teapot wins at master table", 0,
			[4]int32{0, 400, 400, 400}, [4]int8{1, 2, 3, 4},
			[4]int32{3, 1, 1, 1}, [4]int32{45, 1, -4, -12},
		},
		{
			// levels 0,5,5,5: sum 15 → 3. Teapot 2nd m = 3 → 5×3 = 15;
			// Fathers 1st +0 (0×1), 3rd −5, 4th −15.
			"teapot second at father table", 0,
			[4]int32{0, 500, 500, 500}, [4]int8{2, 1, 3, 4},
			[4]int32{3, 1, 1, 1}, [4]int32{15, 0, -5, -15},
		},
		{
			// levels 0,5,5,5 again (teapot at 50), teapot 4th: the loss −1
			// is never multiplied → 49.
			"loss not multiplied", 0,
			[4]int32{50, 500, 500, 500}, [4]int8{4, 1, 2, 3},
			[4]int32{1, 1, 1, 1}, [4]int32{-1, 0, 0, -5},
		},
		{
			// levels 1,3,3,3: sum 10 → 2. Beginner m = 2−1 = 1 → 12×1 = 12
			// (m = 1 boundary); Pros 2nd +2, 3rd −3, 4th −9.
			"m=1 boundary", 0,
			[4]int32{100, 300, 300, 300}, [4]int8{1, 2, 3, 4},
			[4]int32{1, 1, 1, 1}, [4]int32{12, 2, -3, -9},
		},
		{
			// levels 1,3,3,4: sum 11 → 2 (2.75 rounds down). m = 1 → +12.
			"average rounds down", 0,
			[4]int32{100, 300, 399, 400}, [4]int8{1, 2, 3, 4},
			[4]int32{1, 1, 1, 1}, [4]int32{12, 2, -3, -12},
		},
		{
			// levels 1,3,4,4: sum 12 → 3. Beginner m = 2 → 12×2 = 24
			// (m = 2 boundary); Pro 2nd m = 0 → 1 → +2; Masters −4, −12.
			"m=2 boundary", 0,
			[4]int32{199, 300, 400, 499}, [4]int8{1, 2, 3, 4},
			[4]int32{2, 1, 1, 1}, [4]int32{24, 2, -4, -12},
		},
		{
			// levels 0,0,5,5: sum 10 → 2. Teapots m = 2: 1st 15×2 = 30,
			// 2nd 5×2 = 10; Fathers 3rd −5, 4th −15.
			"two teapots two fathers", 0,
			[4]int32{10, 20, 550, 999}, [4]int8{1, 2, 3, 4},
			[4]int32{2, 2, 1, 1}, [4]int32{30, 10, -5, -15},
		},
		{
			// levels 0,0,0,5: sum 5 → 1. Teapot m = 1 → 15; the rest ×1.
			"one father does not lift the table", 0,
			[4]int32{0, 0, 0, 500}, [4]int8{1, 2, 3, 4},
			[4]int32{1, 1, 1, 1}, [4]int32{15, 5, 0, -15},
		},
		{
			// levels 0,4,4,4 (table 3), threshold 4: teapot m = 3 < 4 → ×1 → 15.
			"threshold 4", 4,
			[4]int32{0, 400, 400, 400}, [4]int8{1, 2, 3, 4},
			[4]int32{1, 1, 1, 1}, [4]int32{15, 1, -4, -12},
		},
		{
			// levels 1,4,4,4 (table 3), threshold 3: beginner m = 2 < 3 → ×1 → 12.
			"threshold 3", 3,
			[4]int32{150, 420, 480, 455}, [4]int8{1, 2, 3, 4},
			[4]int32{1, 1, 1, 1}, [4]int32{12, 1, -4, -12},
		},
		{
			// levels 1,4,4,4, beginner 3rd: −1 not multiplied; Master 1st +3.
			"beginner loses at master table", 0,
			[4]int32{150, 420, 480, 455}, [4]int8{3, 1, 2, 4},
			[4]int32{1, 1, 1, 1}, [4]int32{-1, 3, 1, -12},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := DefaultRules()
			if tt.threshold != 0 {
				r.MultiplierThreshold = tt.threshold
			}
			s, g := jokerTable(tt.ratings, tt.places, [4]int32{}, -1, 0)
			ch := mustApply(t, &r, s, g)
			for i, c := range ch {
				if c.Multiplier != tt.wantMult[i] || c.PlayerDelta != tt.wantDelta[i] {
					t.Errorf("seat %d: multiplier %d delta %d, want %d %d", i+1, c.Multiplier, c.PlayerDelta, tt.wantMult[i], tt.wantDelta[i])
				}
			}
		})
	}
}

// TestPulkaRules: the place table applies only to finished games and
// games stopped in pulka 4; the leaver always gets the penalty; the leave
// bonus goes to the seats still at the table.
func TestPulkaRules(t *testing.T) {
	// Everyone level 1 (rating 150), so m = 1. Scores 0: no score gain.
	type want struct {
		reason   Reason
		delta    int32
		personal int32
	}
	tests := []struct {
		name    string
		leaver  int // seat index, −1 none
		stopped int8
		places  [4]int8
		want    [4]want
	}{
		{
			// Seat 0 leaves in pulka 1: −4; others unchanged, bonus 5×1 = 5.
			"left in pulka 1", 0, 1, [4]int8{4, 1, 2, 3},
			[4]want{{ReasonLeave, -4, 0}, {ReasonStoppedEarly, 0, 5}, {ReasonStoppedEarly, 0, 5}, {ReasonStoppedEarly, 0, 5}},
		},
		{
			// Seat 1 leaves in pulka 2: −5; bonus 5×2 = 10.
			"left in pulka 2", 1, 2, [4]int8{1, 4, 2, 3},
			[4]want{{ReasonStoppedEarly, 0, 10}, {ReasonLeave, -5, 0}, {ReasonStoppedEarly, 0, 10}, {ReasonStoppedEarly, 0, 10}},
		},
		{
			// Seat 2 leaves in pulka 3: −6; bonus 5×3 = 15.
			"left in pulka 3", 2, 3, [4]int8{1, 2, 4, 3},
			[4]want{{ReasonStoppedEarly, 0, 15}, {ReasonStoppedEarly, 0, 15}, {ReasonLeave, -6, 0}, {ReasonStoppedEarly, 0, 15}},
		},
		{
			// Seat 3 leaves in pulka 4: −7 instead of its place (4th, −3);
			// seated players get the place table: 1st +12, 2nd +4, 3rd −1;
			// bonus 5×4 = 20.
			"left in pulka 4", 3, 4, [4]int8{1, 2, 3, 4},
			[4]want{{ReasonPlace, 12, 20}, {ReasonPlace, 4, 20}, {ReasonPlace, -1, 20}, {ReasonLeave, -7, 0}},
		},
		{
			// The leaver placed 1st in pulka 4 still gets −7, not +12.
			"leaver placed first", 0, 4, [4]int8{1, 2, 3, 4},
			[4]want{{ReasonLeave, -7, 0}, {ReasonPlace, 4, 20}, {ReasonPlace, -1, 20}, {ReasonPlace, -3, 20}},
		},
		{
			// Stopped in pulka 2 with nobody leaving: no player-rating
			// change and no bonus.
			"stopped in pulka 2 without leaver", -1, 2, [4]int8{1, 2, 3, 4},
			[4]want{{ReasonStoppedEarly, 0, 0}, {ReasonStoppedEarly, 0, 0}, {ReasonStoppedEarly, 0, 0}, {ReasonStoppedEarly, 0, 0}},
		},
		{
			// Stopped in pulka 4 with nobody leaving: place table, no bonus.
			"stopped in pulka 4 without leaver", -1, 4, [4]int8{1, 2, 3, 4},
			[4]want{{ReasonPlace, 12, 0}, {ReasonPlace, 4, 0}, {ReasonPlace, -1, 0}, {ReasonPlace, -3, 0}},
		},
		{
			// Played to the end: place table, no bonus.
			"finished", -1, 0, [4]int8{4, 3, 2, 1},
			[4]want{{ReasonPlace, -3, 0}, {ReasonPlace, -1, 0}, {ReasonPlace, 4, 0}, {ReasonPlace, 12, 0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := DefaultRules()
			s, g := jokerTable([4]int32{150, 150, 150, 150}, tt.places, [4]int32{}, tt.leaver, tt.stopped)
			ch := mustApply(t, &r, s, g)
			for i, c := range ch {
				w := tt.want[i]
				if c.Reason != w.reason || c.PlayerDelta != w.delta || c.PersonalDelta != w.personal ||
					c.PersonalBonus != w.personal || s.PlayerRating[i] != 150+w.delta || s.PersonalRating[i] != w.personal {
					t.Errorf("seat %d: got %+v, want %+v", i+1, c, w)
				}
			}
		})
	}
}

// TestRulesSettings covers RatedFromPulka and LeaverAlsoPlaced.
func TestRulesSettings(t *testing.T) {
	// RatedFromPulka 5: only finished games; pulka 4 stop → stopped-early.
	r := DefaultRules()
	r.RatedFromPulka = 5
	s, g := jokerTable([4]int32{150, 150, 150, 150}, [4]int8{1, 2, 3, 4}, [4]int32{}, -1, 4)
	if c := mustApply(t, &r, s, g)[0]; c.Reason != ReasonStoppedEarly || c.PlayerDelta != 0 {
		t.Errorf("rated_from_pulka 5, stopped in 4: got %+v", c)
	}
	// RatedFromPulka 3: pulka 3 stop applies the table: 1st +12.
	r.RatedFromPulka = 3
	s, g = jokerTable([4]int32{150, 150, 150, 150}, [4]int8{1, 2, 3, 4}, [4]int32{}, -1, 3)
	if c := mustApply(t, &r, s, g)[0]; c.Reason != ReasonPlace || c.PlayerDelta != 12 {
		t.Errorf("rated_from_pulka 3, stopped in 3: got %+v", c)
	}
	// LeaverAlsoPlaced: levels 1,4,4,4 (table 3); the beginner leaves in
	// pulka 4 placed 1st: 12×2 − 7 = +17 → 167.
	r = DefaultRules()
	r.LeaverAlsoPlaced = true
	s, g = jokerTable([4]int32{150, 420, 480, 455}, [4]int8{1, 2, 3, 4}, [4]int32{}, 0, 4)
	if c := mustApply(t, &r, s, g)[0]; c.Reason != ReasonLeave || c.PlaceBase != 12 || c.Multiplier != 2 ||
		c.Penalty != -7 || c.PlayerDelta != 17 || c.PlayerRating != 167 {
		t.Errorf("leaver_also_placed: got %+v", c)
	}
	// LeaverAlsoPlaced but stopped in pulka 2: penalty only, −5.
	s, g = jokerTable([4]int32{150, 420, 480, 455}, [4]int8{1, 2, 3, 4}, [4]int32{}, 0, 2)
	if c := mustApply(t, &r, s, g)[0]; c.PlaceBase != 0 || c.PlayerDelta != -5 {
		t.Errorf("leaver_also_placed, pulka 2: got %+v", c)
	}
}

// TestFloor: losses and penalties stop at the rating floor (0).
func TestFloor(t *testing.T) {
	tests := []struct {
		name    string
		floor   int32
		rating  int32 // seat 0, the others are 50 (level 0)
		place   int8
		leaver  bool
		stopped int8
		want    int32
		floored bool
	}{
		{"teapot at 0 loses", 0, 0, 4, false, 0, 0, true},                 // 0−1 = −1 → 0
		{"teapot at 1 loses", 0, 1, 4, false, 0, 0, false},                // 1−1 = 0, exactly the floor
		{"teapot at 3 leaves in 4", 0, 3, 4, true, 4, 0, true},            // 3−4 = −1 → 0
		{"teapot at 4 leaves in 4", 0, 4, 4, true, 4, 0, false},           // 4−4 = 0
		{"teapot at 0 third", 0, 0, 3, false, 0, 0, false},                // 0−0 = 0, no cut
		{"beginner at 101 fourth", 0, 101, 4, false, 0, 98, false},        // level 1: 101−3 = 98 (drops a level)
		{"floor 100: beginner at 101", 100, 101, 4, false, 0, 100, true},  // 101−3 = 98 → 100
		{"floor 100: rating below floor", 100, 50, 4, false, 0, 50, true}, // 50−1 = 49 → stays 50, never raised
		{"floor 100: gain below floor", 100, 50, 1, false, 0, 65, false},  // 50+15 = 65: gains are not cut
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := DefaultRules()
			r.RatingFloor = tt.floor
			leaver := -1
			if tt.leaver {
				leaver = 0
			}
			s, g := jokerTable([4]int32{tt.rating, 50, 50, 50}, otherPlaces(tt.place), [4]int32{}, leaver, tt.stopped)
			c := mustApply(t, &r, s, g)[0]
			if c.PlayerRating != tt.want || c.PlayerDelta != tt.want-tt.rating || c.Floored != tt.floored {
				t.Errorf("got %+v, want %d floored %v", c, tt.want, tt.floored)
			}
		})
	}
}

// TestPersonal: score gain, negative-score transfers, leave bonus.
func TestPersonal(t *testing.T) {
	tests := []struct {
		name    string
		ties    bool
		places  [4]int8
		scores  [4]int32
		leaver  int
		stopped int8
		// want: score gain, transfer received, bonus per seat
		score, transfer, bonus [4]int32
	}{
		{
			// floor(1999/100) = 19, floor(99/100) = 0, 0 → 0, floor(100/100) = 1.
			"score gains", false, [4]int8{1, 3, 4, 2}, [4]int32{1999, 99, 0, 100}, -1, 0,
			[4]int32{19, 0, 0, 1}, [4]int32{}, [4]int32{},
		},
		{
			// Seat 3 at −700: T = 7, 7/3 = 2 each, remainder 1 to the best
			// placed of seats 0–2 (seat 0, 1st). Seat 3 gains 0.
			// Seat 0: 500/100 = 5; seat 1: 300/100 = 3; seat 2: 150/100 = 1.
			"transfer remainder 1", false, [4]int8{1, 2, 3, 4}, [4]int32{500, 300, 150, -700}, -1, 0,
			[4]int32{5, 3, 1, 0}, [4]int32{3, 2, 2, 0}, [4]int32{},
		},
		{
			// Seat 0 at −250 is 1st(!): T = 2, 0 each, remainder 2 all to the
			// best placed of the others, seat 2 (2nd).
			"transfer remainder 2 all to best placed", false, [4]int8{1, 3, 2, 4}, [4]int32{-250, 10, 20, 30}, -1, 0,
			[4]int32{0, 0, 0, 0}, [4]int32{0, 0, 2, 0}, [4]int32{},
		},
		{
			// −300: T = 3, 1 each, no remainder. −99: T = 0, nothing.
			"transfer exact and below divisor", false, [4]int8{4, 1, 2, 3}, [4]int32{-300, 0, 0, -99}, -1, 0,
			[4]int32{}, [4]int32{0, 1, 1, 1}, [4]int32{},
		},
		{
			// Two negatives: seat 0 −1000 → T = 10: 3 each, +1 to seat 2
			// (1st). Seat 1 −500 → T = 5: 1 each (seat 0 included), +2 to
			// seat 2. Seat 0: 1; seat 1: 3; seat 2: 3+1+1+2 = 7; seat 3: 3+1 = 4.
			"two negative seats", false, [4]int8{4, 3, 1, 2}, [4]int32{-1000, -500, 1200, 300}, -1, 0,
			[4]int32{0, 0, 12, 3}, [4]int32{1, 3, 7, 4}, [4]int32{},
		},
		{
			// Negative leaver (seat 1, −600, pulka 2): T = 6 → 2 each to the
			// seated; they also get the bonus 5×2 = 10; the leaver none.
			"negative leaver", false, [4]int8{1, 4, 2, 3}, [4]int32{200, -600, 100, 0}, 1, 2,
			[4]int32{2, 0, 1, 0}, [4]int32{2, 0, 2, 2}, [4]int32{10, 0, 10, 10},
		},
		{
			// Negative seated player (seat 3, −400, T = 4: 1 each, +1 to the
			// best placed): the leaver (seat 0, 1st) receives like anyone,
			// including the remainder. Leaver keeps its score gain 300/100 = 3.
			// Bonus 5×3 = 15 to seats 1–3.
			"leaver receives transfer", false, [4]int8{1, 2, 3, 4}, [4]int32{300, 0, 0, -400}, 0, 3,
			[4]int32{3, 0, 0, 0}, [4]int32{2, 1, 1, 0}, [4]int32{0, 15, 15, 15},
		},
		{
			// Ties allowed, seats 1 and 2 share 1st: the higher score (seat 2,
			// 900) is best placed. Seat 0 −500: T = 5, 1 each, +2 to seat 2.
			"tie broken by score", true, [4]int8{4, 1, 1, 3}, [4]int32{-500, 800, 900, 100}, -1, 0,
			[4]int32{0, 8, 9, 1}, [4]int32{0, 1, 3, 1}, [4]int32{},
		},
		{
			// Ties allowed, seats 1 and 2 share 1st with equal scores: the
			// first in seat order (seat 1) is best placed. T = 5 → +1 each,
			// +2 to seat 1.
			"tie broken by seat order", true, [4]int8{4, 1, 1, 3}, [4]int32{-500, 800, 800, 100}, -1, 0,
			[4]int32{0, 8, 8, 1}, [4]int32{0, 3, 1, 1}, [4]int32{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := DefaultRules()
			r.AllowTiedPlaces = tt.ties
			s, g := jokerTable([4]int32{150, 150, 150, 150}, tt.places, tt.scores, tt.leaver, tt.stopped)
			for i := range 4 {
				s.PersonalRating[i] = 1000
			}
			ch := mustApply(t, &r, s, g)
			for i, c := range ch {
				sum := tt.score[i] + tt.transfer[i] + tt.bonus[i]
				if c.PersonalScore != tt.score[i] || c.PersonalTransfer != tt.transfer[i] || c.PersonalBonus != tt.bonus[i] ||
					c.PersonalDelta != sum || c.PersonalRating != 1000+sum || s.PersonalRating[i] != 1000+sum {
					t.Errorf("seat %d: got score %d transfer %d bonus %d delta %d rating %d, want %d %d %d (1000+%d)",
						i+1, c.PersonalScore, c.PersonalTransfer, c.PersonalBonus, c.PersonalDelta, c.PersonalRating,
						tt.score[i], tt.transfer[i], tt.bonus[i], sum)
				}
			}
		})
	}
}

func TestValidate(t *testing.T) {
	seats := func(places [4]int8) [4]Seat {
		var s [4]Seat
		for i := range s {
			s[i] = Seat{Player: int32(i), Place: places[i]}
		}
		return s
	}
	ok := seats([4]int8{1, 2, 3, 4})
	with := func(f func(g *Game)) *Game {
		g := &Game{Seats: ok}
		f(g)
		return g
	}
	tests := []struct {
		name string
		ties bool
		g    *Game
		want error
	}{
		{"valid finished", false, &Game{Seats: ok}, nil},
		{"valid stopped with leaver", false, with(func(g *Game) { g.StoppedPulka = 2; g.Seats[1].Left = true }), nil},
		{"valid stopped without leaver", false, with(func(g *Game) { g.StoppedPulka = 4 }), nil},
		{"nil game", false, nil, ErrSeatCount},
		{"stopped pulka 5", false, with(func(g *Game) { g.StoppedPulka = 5 }), ErrStoppedPulka},
		{"stopped pulka -1", false, with(func(g *Game) { g.StoppedPulka = -1 }), ErrStoppedPulka},
		{"negative player", false, with(func(g *Game) { g.Seats[2].Player = -1 }), ErrPlayerIndex},
		{"place 0", false, with(func(g *Game) { g.Seats[0].Place = 0 }), ErrPlace},
		{"place 5", false, with(func(g *Game) { g.Seats[3].Place = 5 }), ErrPlace},
		{"place -128", false, with(func(g *Game) { g.Seats[3].Place = math.MinInt8 }), ErrPlace},
		{"duplicate player", false, with(func(g *Game) { g.Seats[3].Player = 1 }), ErrDuplicatePlayer},
		{"two leavers", false, with(func(g *Game) {
			g.StoppedPulka = 3
			g.Seats[0].Left, g.Seats[1].Left = true, true
		}), ErrLeavers},
		{"leaver in finished game", false, with(func(g *Game) { g.Seats[0].Left = true }), ErrLeaverNotStopped},
		{"tie not allowed", false, &Game{Seats: seats([4]int8{1, 1, 3, 4})}, ErrTiedPlaces},
		{"tie allowed 1134", true, &Game{Seats: seats([4]int8{1, 1, 3, 4})}, nil},
		{"tie allowed 1222", true, &Game{Seats: seats([4]int8{1, 2, 2, 2})}, nil},
		{"tie allowed 1111", true, &Game{Seats: seats([4]int8{1, 1, 1, 1})}, nil},
		{"tie allowed 1123 not a ranking", true, &Game{Seats: seats([4]int8{1, 1, 2, 3})}, ErrPlaceRanking},
		{"tie allowed 2234 not a ranking", true, &Game{Seats: seats([4]int8{2, 2, 3, 4})}, ErrPlaceRanking},
		{"no tie 1234 with ties allowed", true, &Game{Seats: ok}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := DefaultRules()
			r.AllowTiedPlaces = tt.ties
			err := r.Validate(tt.g)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Errorf("Validate = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	r := DefaultRules()
	s, g := jokerTable([4]int32{150, 150, 150, 150}, [4]int8{1, 2, 3, 4}, [4]int32{}, -1, 0)
	g.Seats[3].Player = 4 // the state covers 0..3
	if _, err := r.Apply(s, g); !errors.Is(err, ErrPlayerIndex) {
		t.Errorf("index past state: %v", err)
	}
	if s.PlayerRating[0] != 150 || s.Games[0] != 0 {
		t.Errorf("state changed on error: %+v", s)
	}
	g.Seats[3].Player = math.MaxInt32
	if _, err := r.Apply(s, g); !errors.Is(err, ErrPlayerIndex) {
		t.Errorf("huge index: %v", err)
	}
	g.Seats[3].Player = 3
	if _, err := r.Apply(nil, g); !errors.Is(err, ErrNilState) {
		t.Errorf("nil state: %v", err)
	}
	if _, err := r.Apply(&State{PlayerRating: make([]int32, 4)}, g); !errors.Is(err, ErrPlayerIndex) {
		t.Errorf("ragged state: %v", err)
	}
	var nilRules *Rules
	if _, err := nilRules.Apply(s, g); !errors.Is(err, ErrRules) {
		t.Errorf("nil rules: %v", err)
	}
	bad := []func(r *Rules){
		func(r *Rules) { r.LevelWidth = 0 },
		func(r *Rules) { r.Gains = nil },
		func(r *Rules) { r.LeavePenalties = r.LeavePenalties[:5] },
		func(r *Rules) { r.PersonalDivisor = 0 },
		func(r *Rules) { r.TransferDivisor = -1 },
	}
	for i, f := range bad {
		r := DefaultRules()
		f(&r)
		if _, err := r.Apply(s, g); !errors.Is(err, ErrRules) {
			t.Errorf("bad rules %d: Apply error %v", i, err)
		}
		if err := r.Check(); !errors.Is(err, ErrRules) {
			t.Errorf("bad rules %d: Check error %v", i, err)
		}
	}
	for i, f := range []func(r *Rules){
		func(r *Rules) { r.LevelNames = r.LevelNames[:2] },
		func(r *Rules) { r.LevelNamesKa = r.LevelNamesKa[:2] },
		func(r *Rules) { r.RatedFromPulka = 0 },
		func(r *Rules) { r.RatedFromPulka = 6 },
	} {
		r := DefaultRules()
		f(&r)
		if err := r.Check(); !errors.Is(err, ErrRules) {
			t.Errorf("bad rules %d: Check error %v", i, err)
		}
	}
	if err := r.Check(); err != nil {
		t.Errorf("defaults: Check = %v", err)
	}
}

func TestLevel(t *testing.T) {
	r := DefaultRules()
	tests := []struct {
		rating int32
		level  int
		name   string
	}{
		{math.MinInt32, 0, "Teapot"},
		{-1, 0, "Teapot"},
		{0, 0, "Teapot"},
		{99, 0, "Teapot"},
		{100, 1, "Beginner"},
		{199, 1, "Beginner"},
		{200, 2, "Amateur"},
		{300, 3, "Professional"},
		{499, 4, "Master"},
		{500, 5, "Joker's Father"},
		{599, 5, "Joker's Father"},
		{600, 5, "Joker's Father"}, // capped at the top level
		{math.MaxInt32, 5, "Joker's Father"},
	}
	for _, tt := range tests {
		if got := r.Level(tt.rating); got != tt.level || r.LevelName(got) != tt.name {
			t.Errorf("Level(%d) = %d %q, want %d %q", tt.rating, got, r.LevelName(got), tt.level, tt.name)
		}
	}
	if r.LevelNameKa(1) != "დამწყები" || r.LevelName(6) != "" || r.LevelName(-1) != "" || r.LevelNameKa(99) != "" {
		t.Error("level names out of range")
	}
}

// TestRulesTOML checks that a rules file can override settings by their
// TOML names and leaves the rest at the defaults.
func TestRulesTOML(t *testing.T) {
	r := DefaultRules()
	const file = `
level_width = 50
multiplier_threshold = 3
allow_tied_places = true
rated_from_pulka = 5
leave_bonus = [1, 2, 3, 4]
gains = [[10, 5, 0, -1], [8, 4, -2, -4]]
leave_penalties = [[-1, -1, -1, -1], [-2, -2, -2, -2]]
level_names = ["Low", "High"]
level_names_ka = []
`
	if _, err := toml.Decode(file, &r); err != nil {
		t.Fatal(err)
	}
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	if r.LevelWidth != 50 || r.MultiplierThreshold != 3 || !r.AllowTiedPlaces || r.RatedFromPulka != 5 ||
		r.LeaveBonus != [4]int32{1, 2, 3, 4} || r.Gains[1] != [4]int32{8, 4, -2, -4} || r.Levels() != 2 ||
		r.PersonalDivisor != 100 || r.Level(75) != 1 || r.LevelName(1) != "High" {
		t.Errorf("decoded %+v", r)
	}
}

// TestHostile applies random, mostly invalid games: no panics, errors
// leave the state alone, and the invariants hold for the games applied.
func TestHostile(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 64452635177545))
	r := DefaultRules()
	const players = 12
	var s State
	s.Grow(players)
	applied := 0
	for range 200000 {
		var g Game
		g.StoppedPulka = int8(rng.IntN(7) - 1)
		for i := range g.Seats {
			g.Seats[i] = Seat{
				Player: int32(rng.IntN(players+2) - 1),
				Place:  int8(rng.IntN(6)),
				Score:  int32(rng.Uint32()) >> rng.IntN(32),
				Left:   rng.IntN(8) == 0,
			}
		}
		if rng.IntN(4) == 0 {
			g.Seats = [4]Seat{{0, 1, 0, false}, {1, 2, 0, false}, {2, 3, 0, false}, {3, 4, 0, false}}
			rng.Shuffle(4, func(i, j int) { g.Seats[i].Place, g.Seats[j].Place = g.Seats[j].Place, g.Seats[i].Place })
			for i := range g.Seats {
				g.Seats[i].Score = int32(rng.IntN(4000) - 1500)
			}
		}
		r.AllowTiedPlaces = rng.IntN(2) == 0
		before := State{
			PlayerRating:   append([]int32(nil), s.PlayerRating...),
			PersonalRating: append([]int32(nil), s.PersonalRating...),
		}
		ch, err := r.Apply(&s, &g)
		if err != nil {
			if r.Validate(&g) == nil && !errors.Is(err, ErrPlayerIndex) {
				t.Fatalf("Apply error %v on a valid game %+v", err, g)
			}
			for p := range players {
				if s.PlayerRating[p] != before.PlayerRating[p] || s.PersonalRating[p] != before.PersonalRating[p] {
					t.Fatalf("state changed on error %v", err)
				}
			}
			continue
		}
		applied++
		for i, c := range ch {
			p := g.Seats[i].Player
			if c.PersonalDelta < 0 || c.PersonalRating < before.PersonalRating[p] {
				t.Fatalf("personal rating went down: %+v", c)
			}
			if c.PlayerRating < r.RatingFloor || c.PlayerRating-c.PlayerDelta != before.PlayerRating[p] {
				t.Fatalf("player rating %+v from %d", c, before.PlayerRating[p])
			}
		}
	}
	if applied < 1000 {
		t.Errorf("only %d games applied", applied)
	}
}

func BenchmarkApply(b *testing.B) {
	r := DefaultRules()
	var s State
	s.Grow(1000)
	games := make([]Game, 1024)
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range games {
		perm := rng.Perm(1000)
		places := rng.Perm(4)
		for i := range 4 {
			games[k].Seats[i] = Seat{Player: int32(perm[i]), Place: int8(places[i] + 1), Score: int32(rng.IntN(4000) - 500)}
		}
	}
	n := 0
	for b.Loop() {
		if _, err := r.Apply(&s, &games[n%len(games)]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "game/s")
}

// TestDocStoppedExample is the second worked example of docs/joker.md.
func TestDocStoppedExample(t *testing.T) {
	r := DefaultRules()
	// A (Beginner, 150) leaves in pulka 2 with −600, placed 4th.
	s, g := jokerTable([4]int32{150, 420, 480, 455}, [4]int8{4, 1, 2, 3}, [4]int32{-600, 200, 100, 0}, 0, 2)
	ch := mustApply(t, &r, s, g)
	wantRating := [4]int32{145, 420, 480, 455} // A: 150−5; the others unchanged (pulka 2)
	wantPersonal := [4]int32{0, 14, 13, 12}    // B 2+2+10, C 1+2+10, D 0+2+10
	for i, c := range ch {
		if c.PlayerRating != wantRating[i] || c.PersonalRating != wantPersonal[i] {
			t.Errorf("seat %d: rating %d personal %d, want %d %d", i+1, c.PlayerRating, c.PersonalRating, wantRating[i], wantPersonal[i])
		}
	}
}
