package joker

import (
	"fmt"
	"math"
)

// Seat is one player's row of a game.
type Seat struct {
	Player int32 // dense player index into State
	Place  int8  // final place, 1–4
	Score  int32 // final game score, may be negative
	Left   bool  // this player left the table before the end
}

// Game is one game at a table of four. The order of the seats matters
// only to break ties for "best placed" (see Rules.Apply); GameOf fills them
// in seat order (CompareSeats).
type Game struct {
	Seats        [4]Seat
	StoppedPulka int8 // 0 = played to the end, else the pulka (1–4) in which it stopped
}

// State holds both ratings and the game count of every player, indexed
// by the dense player index. The three slices have the same length.
type State struct {
	PlayerRating   []int32
	PersonalRating []int32
	Games          []int32 // games applied, whatever their outcome
}

// Grow makes the state cover player indexes 0..n−1; new players start with
// player rating 0 (level 0), personal rating 0 and no games.
func (s *State) Grow(n int) {
	for _, p := range []*[]int32{&s.PlayerRating, &s.PersonalRating, &s.Games} {
		if len(*p) < n {
			*p = append(*p, make([]int32, n-len(*p))...)
		}
	}
}

// Len returns the number of players the state covers.
func (s *State) Len() int {
	return min(len(s.PlayerRating), len(s.PersonalRating), len(s.Games))
}

// Reason says why a seat's player rating changed (or did not).
type Reason uint8

const (
	// ReasonPlace: the place table applied (played to the end, or stopped in
	// pulka ≥ RatedFromPulka, for a seat that did not leave).
	ReasonPlace Reason = iota + 1
	// ReasonLeave: the seat left the table and got the leave penalty.
	ReasonLeave
	// ReasonStoppedEarly: the game stopped before RatedFromPulka and the seat
	// did not leave; its player rating is unchanged.
	ReasonStoppedEarly
)

// String returns the audit-trail spelling: "place", "leave" or
// "stopped-early".
func (x Reason) String() string {
	switch x {
	case ReasonPlace:
		return "place"
	case ReasonLeave:
		return "leave"
	case ReasonStoppedEarly:
		return "stopped-early"
	}
	return fmt.Sprintf("Reason(%d)", uint8(x))
}

// Change is one seat's outcome of a game: one audit row.
type Change struct {
	Player int32  // dense player index
	Reason Reason // why the player rating changed
	Level  int32  // level before the game
	// LevelSum is the sum of the four levels before the game; the table
	// average level is TableLevel = floor(LevelSum / 4), exact average LevelSum/4.
	LevelSum   int32
	TableLevel int32
	// PlaceBase is the place-table value Gains[Level][Place−1] when the place
	// table applies to the seat (reason "place", or a leaver with
	// LeaverAlsoPlaced), else 0.
	PlaceBase int32
	// Multiplier applied to PlaceBase: m when PlaceBase > 0 and
	// m = max(1, TableLevel − Level) ≥ MultiplierThreshold, else 1.
	Multiplier int32
	// Penalty is LeavePenalties[Level][StoppedPulka−1] for the leaver, else 0.
	Penalty int32
	// PlayerDelta is the change applied: PlaceBase × Multiplier + Penalty,
	// cut at the rating floor, so PlayerRating − PlayerDelta is the rating
	// before.
	PlayerDelta  int32
	PlayerRating int32 // player rating after the game
	Floored      bool  // the rating floor cut the change

	PersonalScore    int32 // floor(max(score, 0) / PersonalDivisor)
	PersonalTransfer int32 // received from seats that ended below zero
	PersonalBonus    int32 // leave bonus (seats still at the table)
	PersonalDelta    int32 // sum of the three (saturating)
	PersonalRating   int32 // personal rating after the game
}

// Validate checks one game against the rules, without looking at any state.
// It checks, in this order, and returns the first failure (wrapped with the
// seat number, 1–4, where one seat is at fault):
//
//  1. a nil game: ErrSeatCount;
//  2. StoppedPulka in 0–4: ErrStoppedPulka;
//  3. each seat's player index ≥ 0: ErrPlayerIndex;
//  4. each seat's place in 1–4: ErrPlace;
//  5. four distinct players: ErrDuplicatePlayer;
//  6. at most one leaver: ErrLeavers;
//  7. a leaver only in a stopped game: ErrLeaverNotStopped;
//  8. no shared place unless AllowTiedPlaces: ErrTiedPlaces; with ties
//     allowed, a competition ranking: ErrPlaceRanking.
//
// Validate does not allocate when the game is valid.
func (r *Rules) Validate(g *Game) error {
	if g == nil {
		return ErrSeatCount
	}
	if g.StoppedPulka < 0 || g.StoppedPulka > Pulkas {
		return fmt.Errorf("stopped pulka %d: %w", g.StoppedPulka, ErrStoppedPulka)
	}
	for i := range g.Seats {
		if g.Seats[i].Player < 0 {
			return fmt.Errorf("seat %d: player %d: %w", i+1, g.Seats[i].Player, ErrPlayerIndex)
		}
	}
	for i := range g.Seats {
		if p := g.Seats[i].Place; p < 1 || p > 4 {
			return fmt.Errorf("seat %d: place %d: %w", i+1, p, ErrPlace)
		}
	}
	leavers := 0
	for i := range g.Seats {
		for j := i + 1; j < len(g.Seats); j++ {
			if g.Seats[i].Player == g.Seats[j].Player {
				return fmt.Errorf("seats %d and %d: %w", i+1, j+1, ErrDuplicatePlayer)
			}
		}
		if g.Seats[i].Left {
			leavers++
		}
	}
	if leavers > 1 {
		return ErrLeavers
	}
	if leavers == 1 && g.StoppedPulka == 0 {
		return ErrLeaverNotStopped
	}
	allowTies := r != nil && r.AllowTiedPlaces
	for i := range g.Seats {
		better := 0
		for j := range g.Seats {
			if j == i {
				continue
			}
			if g.Seats[j].Place == g.Seats[i].Place && !allowTies {
				return fmt.Errorf("seat %d: place %d: %w", i+1, g.Seats[i].Place, ErrTiedPlaces)
			}
			if g.Seats[j].Place < g.Seats[i].Place {
				better++
			}
		}
		if int(g.Seats[i].Place) != better+1 {
			return fmt.Errorf("seat %d: place %d: %w", i+1, g.Seats[i].Place, ErrPlaceRanking)
		}
	}
	return nil
}

// Apply rates one game: it validates the game, updates the state and returns
// one change per seat, in seat order. On error the state is unchanged.
//
// Order of effects. All levels, the table average and the multipliers are
// taken from the ratings before the game, and every seat's changes are
// computed from those values, so the order of the seats does not matter
// except for ties in "best placed" (step 4).
//
//  1. Validate the game (see Validate); check the settings (ErrRules)
//     and that every player index is covered by the state
//     (ErrPlayerIndex).
//  2. Level of each seat = Level(player rating before); LevelSum = sum of the
//     four levels (the leaver included); TableLevel = floor(LevelSum / 4).
//  3. Player rating of each seat:
//     - a seat that left: Penalty = LeavePenalties[level][StoppedPulka−1],
//     reason "leave" (whatever the pulka). The penalty replaces the place
//     change unless LeaverAlsoPlaced (then the leaver also gets the place
//     change below when the place table applies);
//     - otherwise, if the game was played to the end or stopped in pulka
//     ≥ RatedFromPulka (default 4): PlaceBase = Gains[level][place−1],
//     reason "place"; if PlaceBase > 0 and m = max(1, TableLevel − level) ≥
//     MultiplierThreshold, the change is PlaceBase × m, else PlaceBase
//     (losses are never multiplied);
//     - otherwise: no change, reason "stopped-early".
//     The new rating is rating + change, but a negative change stops at
//     RatingFloor (a rating already below the floor is not lowered further
//     and not raised to it).
//  4. Personal rating of each seat, which never goes down, is the sum of:
//     - score gain: floor(max(score, 0) / PersonalDivisor), for every seat,
//     the leaver included (personal rating counts every game);
//     - transfers: every seat with score −s < 0 hands T = floor(s /
//     TransferDivisor) to the other three seats: floor(T/3) each, and the
//     remainder T mod 3 all to the best placed of those three (lowest place;
//     on a tie, highest score; then the first in seat order). This holds
//     for a negative leaver as for anyone, and a seat with a negative score
//     (the leaver too) receives transfers from another negative seat like
//     any other seat. The giver's own rating does not go down: its score gain
//     is simply 0;
//     - leave bonus: if a seat left, each of the three seats still at the
//     table gets LeaveBonus[StoppedPulka−1]; the leaver gets none.
//     Sums saturate at the int32 maximum instead of wrapping.
//  5. Games of each seat += 1.
func (r *Rules) Apply(s *State, g *Game) ([4]Change, error) {
	var ch [4]Change
	if err := r.Validate(g); err != nil {
		return ch, err
	}
	if !r.usable() {
		return ch, r.Check()
	}
	if s == nil {
		return ch, ErrNilState
	}
	n := s.Len()
	for i := range g.Seats {
		if int(g.Seats[i].Player) >= n {
			return ch, fmt.Errorf("seat %d: player %d of %d: %w", i+1, g.Seats[i].Player, n, ErrPlayerIndex)
		}
	}

	// Step 2: levels before the game.
	var levelSum int32
	for i, seat := range g.Seats {
		ch[i].Player = seat.Player
		ch[i].Level = int32(r.Level(s.PlayerRating[seat.Player]))
		levelSum += ch[i].Level
	}
	tableLevel := levelSum / 4 // levels are ≥ 0, so this rounds down

	// Step 3: player rating.
	placed := g.StoppedPulka == 0 || g.StoppedPulka >= r.RatedFromPulka
	for i, seat := range g.Seats {
		c := &ch[i]
		c.LevelSum, c.TableLevel, c.Multiplier = levelSum, tableLevel, 1
		switch {
		case seat.Left:
			c.Reason = ReasonLeave
			c.Penalty = r.LeavePenalties[c.Level][g.StoppedPulka-1]
		case placed:
			c.Reason = ReasonPlace
		default:
			c.Reason = ReasonStoppedEarly
		}
		if placed && (!seat.Left || r.LeaverAlsoPlaced) {
			c.PlaceBase = r.Gains[c.Level][seat.Place-1]
			if m := max(1, tableLevel-c.Level); c.PlaceBase > 0 && m >= r.MultiplierThreshold {
				c.Multiplier = m
			}
		}
		change := int64(c.PlaceBase)*int64(c.Multiplier) + int64(c.Penalty)
		old := s.PlayerRating[seat.Player]
		next := int64(old) + change
		if change < 0 && next < int64(r.RatingFloor) {
			next = int64(min(old, r.RatingFloor))
			c.Floored = true
		}
		c.PlayerRating = sat32(next)
		c.PlayerDelta = sat32(int64(c.PlayerRating) - int64(old))
	}

	// Step 4: personal rating.
	leaver := false
	for _, seat := range g.Seats {
		leaver = leaver || seat.Left
	}
	for i, seat := range g.Seats {
		if seat.Score > 0 {
			ch[i].PersonalScore = seat.Score / r.PersonalDivisor
		}
		if leaver && !seat.Left {
			ch[i].PersonalBonus = r.LeaveBonus[g.StoppedPulka-1]
		}
		if seat.Score >= 0 {
			continue
		}
		t := -int64(seat.Score) / int64(r.TransferDivisor)
		share, rest := sat32(t/3), sat32(t%3)
		best := -1
		for j, other := range g.Seats {
			if j == i {
				continue
			}
			ch[j].PersonalTransfer = sat32(int64(ch[j].PersonalTransfer) + int64(share))
			if best < 0 || betterPlaced(other, g.Seats[best]) {
				best = j
			}
		}
		ch[best].PersonalTransfer = sat32(int64(ch[best].PersonalTransfer) + int64(rest))
	}
	for i, seat := range g.Seats {
		c := &ch[i]
		c.PersonalDelta = sat32(int64(c.PersonalScore) + int64(c.PersonalTransfer) + int64(c.PersonalBonus))
		c.PersonalRating = sat32(int64(s.PersonalRating[seat.Player]) + int64(c.PersonalDelta))
	}

	// Commit: players are distinct, so the order of writes does not matter.
	for i, seat := range g.Seats {
		s.PlayerRating[seat.Player] = ch[i].PlayerRating
		s.PersonalRating[seat.Player] = ch[i].PersonalRating
		s.Games[seat.Player] = sat32(int64(s.Games[seat.Player]) + 1)
	}
	return ch, nil
}

// betterPlaced reports whether a is placed strictly better than b for the
// remainder of a negative-score transfer: lower place, then higher score.
// Equal seats keep seat order (the caller keeps the first).
func betterPlaced(a, b Seat) bool {
	if a.Place != b.Place {
		return a.Place < b.Place
	}
	return a.Score > b.Score
}

// sat32 converts to int32, saturating at the int32 range.
func sat32(v int64) int32 {
	return int32(max(math.MinInt32, min(math.MaxInt32, v)))
}
