// Joker rule set (seed 004; officer's guide docs/joker.md).
//
// Joker is a Georgian card game for four players at a table, played in four
// sections called pulkas. Each player carries two numbers:
//
//   - the player rating, which moves up or down by the player's level and final
//     place (or by a leave penalty), and whose hundreds give the player's level;
//   - the personal rating, which only grows: by the final score, by transfers
//     from players who ended below zero, and by a bonus when someone left.
//
// The rule set is a pure library, shaped for a streaming pipeline:
//
//  1. The pipeline maps player ids to dense int32 indexes and grows a
//     JokerState to cover them (JokerState.Grow).
//  2. It assembles the four rows of one game into a JokerGame and checks it
//     with JokerRules.Validate; a failing game is rejected with the sentinel
//     error as the reason.
//  3. It calls JokerRules.Apply once per game, in played_at then game_id
//     order. Apply returns one JokerChange per seat: everything an audit row
//     needs (level, table average, multiplier, changes, new values, reason).
//
// Nothing here does I/O, starts goroutines or uses maps; Apply does not
// allocate unless it returns an error.

package rating

import (
	"errors"
	"fmt"
	"math"
)

// Errors returned by JokerRules.Validate, JokerRules.Apply and JokerRules.Check.
// The pipeline uses the Validate errors as reject reasons; compare them with
// errors.Is, as the returned error may wrap them with the seat number.
var (
	// ErrJokerSeatCount means a game does not have exactly four rows (seats).
	// Validate returns it for a nil game; the pipeline returns it when it
	// groups a game_id with fewer or more than four rows.
	ErrJokerSeatCount = errors.New("joker game must have exactly 4 seats")
	// ErrJokerPulkaMismatch means the rows of one game disagree on
	// stopped_pulka. JokerGame holds one value, so only the pipeline, which
	// assembles games from rows, can detect it.
	ErrJokerPulkaMismatch = errors.New("joker seats disagree on stopped pulka")
	// ErrJokerStoppedPulka means stopped_pulka is not 0 (played to the end,
	// null in the table) or 1–4.
	ErrJokerStoppedPulka = errors.New("joker stopped pulka not in 1-4")
	// ErrJokerPlayerIndex means a seat's player index is negative or, in
	// Apply, not covered by the state (call JokerState.Grow first).
	ErrJokerPlayerIndex = errors.New("joker player index out of range")
	// ErrJokerDuplicatePlayer means the four seats are not four distinct players.
	ErrJokerDuplicatePlayer = errors.New("joker game must have 4 distinct players")
	// ErrJokerPlace means a place is outside 1–4.
	ErrJokerPlace = errors.New("joker place not in 1-4")
	// ErrJokerTiedPlaces means two seats share a place and the rules do not
	// allow ties (JokerRules.AllowTiedPlaces).
	ErrJokerTiedPlaces = errors.New("joker places tied")
	// ErrJokerPlaceRanking means ties are allowed but the places are not a
	// standard competition ranking ("1224"): each place must be 1 + the number
	// of seats placed strictly better (1,1,3,4 is valid; 1,1,2,3 is not).
	ErrJokerPlaceRanking = errors.New("joker places are not a ranking")
	// ErrJokerLeavers means more than one seat left the table.
	ErrJokerLeavers = errors.New("joker game has more than one leaver")
	// ErrJokerLeaverNotStopped means a seat left the table but the game is
	// marked as played to the end (stopped_pulka null).
	ErrJokerLeaverNotStopped = errors.New("joker leaver in a game played to the end")
	// ErrJokerNilState means Apply was given a nil state.
	ErrJokerNilState = errors.New("joker state is nil")
	// ErrJokerRules means the settings are unusable (see JokerRules.Check).
	ErrJokerRules = errors.New("invalid joker rules")
)

// JokerPulkas is the number of pulkas (sections) in a Joker game.
const JokerPulkas = 4

// JokerRules holds every Joker setting. The zero value is not usable: start
// from DefaultJokerRules and override fields (a rules file overrides them by
// their TOML names). Check reports unusable settings.
type JokerRules struct {
	// LevelWidth is the number of player-rating points per level:
	// level = min(floor(rating / LevelWidth), levels − 1), where the number
	// of levels is len(Gains). Ratings below 0 are level 0.
	LevelWidth int32 `toml:"level_width"`
	// LevelNames are the English level names, lowest first; the Joker list's
	// level_name column uses them. One per level.
	LevelNames []string `toml:"level_names"`
	// LevelNamesKa are the Georgian level names, lowest first (for display;
	// empty or one per level).
	LevelNamesKa []string `toml:"level_names_ka"`
	// Gains is the player-rating change by level (row) and place (column,
	// place 1–4), signed: positive values are gains, negative are losses.
	Gains [][4]int32 `toml:"gains"`
	// LeavePenalties is the player-rating change of a player who left the
	// table, by level (row) and the pulka in which the game stopped (column,
	// pulka 1–4), signed (the defaults are negative). One row per level.
	LeavePenalties [][4]int32 `toml:"leave_penalties"`
	// MultiplierThreshold: a positive Gains value is multiplied by
	// m = max(1, floor(sum of the four levels / 4) − own level) when
	// m ≥ MultiplierThreshold, otherwise by 1. Losses and leave penalties are
	// never multiplied.
	MultiplierThreshold int32 `toml:"multiplier_threshold"`
	// RatingFloor is the lowest player rating: a loss or penalty that would
	// take the rating below it stops at it.
	RatingFloor int32 `toml:"rating_floor"`
	// AllowTiedPlaces allows two or more seats to share a place (places must
	// then form a competition ranking, e.g. 1,1,3,4).
	AllowTiedPlaces bool `toml:"allow_tied_places"`
	// RatedFromPulka: the place table applies when the game is played to the
	// end or stopped in pulka ≥ RatedFromPulka (1–5; 5 means only finished
	// games). The leaver's penalty applies whatever the pulka.
	RatedFromPulka int8 `toml:"rated_from_pulka"`
	// LeaverAlsoPlaced gives a leaver the place table change in addition to
	// the leave penalty when the place table applies. Default false: the
	// penalty replaces the place change.
	LeaverAlsoPlaced bool `toml:"leaver_also_placed"`
	// PersonalDivisor: a seat's personal gain from its score is
	// floor(max(score, 0) / PersonalDivisor).
	PersonalDivisor int32 `toml:"personal_divisor"`
	// TransferDivisor: a seat that ends with score −s < 0 hands over
	// T = floor(s / TransferDivisor) personal-rating points: each of the
	// other three seats gets floor(T / 3), and the best placed of them also
	// gets the remainder T mod 3. The negative seat's own score gain is 0.
	TransferDivisor int32 `toml:"transfer_divisor"`
	// LeaveBonus is the extra personal rating of each seat still at the
	// table when someone left, by the pulka in which the game stopped (1–4).
	LeaveBonus [JokerPulkas]int32 `toml:"leave_bonus"`
}

// DefaultJokerRules returns the settings of docs/joker.md.
func DefaultJokerRules() JokerRules {
	return JokerRules{
		LevelWidth:   100,
		LevelNames:   []string{"Teapot", "Beginner", "Amateur", "Professional", "Master", "Joker's Father"},
		LevelNamesKa: []string{"ჩაინიკი", "დამწყები", "მოყვარული", "პროფესიონალი", "მასტერი", "ჯოკერის მამა"},
		Gains: [][4]int32{
			{15, 5, 0, -1},
			{12, 4, -1, -3},
			{9, 3, -2, -6},
			{6, 2, -3, -9},
			{3, 1, -4, -12},
			{0, 0, -5, -15},
		},
		LeavePenalties: [][4]int32{
			{-1, -2, -3, -4},
			{-4, -5, -6, -7},
			{-8, -9, -10, -11},
			{-12, -13, -14, -15},
			{-16, -17, -18, -19},
			{-20, -22, -24, -26},
		},
		MultiplierThreshold: 2,
		RatingFloor:         0,
		AllowTiedPlaces:     false,
		RatedFromPulka:      4,
		LeaverAlsoPlaced:    false,
		PersonalDivisor:     100,
		TransferDivisor:     100,
		LeaveBonus:          [JokerPulkas]int32{5, 10, 15, 20},
	}
}

// Check reports settings that Apply cannot use, wrapping ErrJokerRules.
func (r *JokerRules) Check() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrJokerRules}, a...)...)
	}
	switch {
	case r == nil:
		return bad("nil rules")
	case r.LevelWidth <= 0:
		return bad("level_width %d must be positive", r.LevelWidth)
	case len(r.Gains) == 0:
		return bad("gains must have at least one level")
	case len(r.Gains) > math.MaxInt16:
		return bad("gains has %d levels, at most %d", len(r.Gains), math.MaxInt16)
	case len(r.LeavePenalties) != len(r.Gains):
		return bad("leave_penalties has %d levels, gains %d", len(r.LeavePenalties), len(r.Gains))
	case len(r.LevelNames) != len(r.Gains):
		return bad("level_names has %d names, gains %d levels", len(r.LevelNames), len(r.Gains))
	case len(r.LevelNamesKa) != 0 && len(r.LevelNamesKa) != len(r.Gains):
		return bad("level_names_ka has %d names, gains %d levels", len(r.LevelNamesKa), len(r.Gains))
	case r.RatedFromPulka < 1 || r.RatedFromPulka > JokerPulkas+1:
		return bad("rated_from_pulka %d not in 1-%d", r.RatedFromPulka, JokerPulkas+1)
	case r.PersonalDivisor <= 0:
		return bad("personal_divisor %d must be positive", r.PersonalDivisor)
	case r.TransferDivisor <= 0:
		return bad("transfer_divisor %d must be positive", r.TransferDivisor)
	}
	return nil
}

// usable is the part of Check that Apply needs to index safely; it runs once
// per game, so it does not allocate.
func (r *JokerRules) usable() bool {
	return r != nil && r.LevelWidth > 0 && len(r.Gains) > 0 &&
		len(r.Gains) <= math.MaxInt16 && len(r.LeavePenalties) == len(r.Gains) &&
		r.PersonalDivisor > 0 && r.TransferDivisor > 0
}

// Levels returns the number of levels (len(Gains)).
func (r *JokerRules) Levels() int { return len(r.Gains) }

// Level returns the level of a player rating:
// min(floor(rating / LevelWidth), Levels() − 1), and 0 for ratings below 0 or
// unusable settings.
func (r *JokerRules) Level(rating int32) int {
	if r == nil || r.LevelWidth <= 0 || len(r.Gains) == 0 || rating < 0 {
		return 0
	}
	return min(int(rating/r.LevelWidth), len(r.Gains)-1)
}

// LevelName returns the English name of a level (the list's level_name
// column), or "" for a level with no name.
func (r *JokerRules) LevelName(level int) string {
	if r == nil || level < 0 || level >= len(r.LevelNames) {
		return ""
	}
	return r.LevelNames[level]
}

// LevelNameKa returns the Georgian name of a level, or "" for a level with no
// name.
func (r *JokerRules) LevelNameKa(level int) string {
	if r == nil || level < 0 || level >= len(r.LevelNamesKa) {
		return ""
	}
	return r.LevelNamesKa[level]
}

// JokerSeat is one player's row of a game.
type JokerSeat struct {
	Player int32 // dense player index into JokerState
	Place  int8  // final place, 1–4
	Score  int32 // final game score, may be negative
	Left   bool  // this player left the table before the end
}

// JokerGame is one game at a table of four. The order of the seats matters
// only to break ties for "best placed" (see JokerRules.Apply); the pipeline
// should fill them in a canonical order, such as by player_id.
type JokerGame struct {
	Seats        [4]JokerSeat
	StoppedPulka int8 // 0 = played to the end, else the pulka (1–4) in which it stopped
}

// JokerState holds both ratings and the game count of every player, indexed
// by the dense player index. The three slices have the same length.
type JokerState struct {
	PlayerRating   []int32
	PersonalRating []int32
	Games          []int32 // games applied, whatever their outcome
}

// Grow makes the state cover player indexes 0..n−1; new players start with
// player rating 0 (level 0), personal rating 0 and no games.
func (s *JokerState) Grow(n int) {
	for _, p := range []*[]int32{&s.PlayerRating, &s.PersonalRating, &s.Games} {
		if len(*p) < n {
			*p = append(*p, make([]int32, n-len(*p))...)
		}
	}
}

// Len returns the number of players the state covers.
func (s *JokerState) Len() int {
	return min(len(s.PlayerRating), len(s.PersonalRating), len(s.Games))
}

// JokerReason says why a seat's player rating changed (or did not).
type JokerReason uint8

const (
	// JokerPlace: the place table applied (played to the end, or stopped in
	// pulka ≥ RatedFromPulka, for a seat that did not leave).
	JokerPlace JokerReason = iota + 1
	// JokerLeave: the seat left the table and got the leave penalty.
	JokerLeave
	// JokerStoppedEarly: the game stopped before RatedFromPulka and the seat
	// did not leave; its player rating is unchanged.
	JokerStoppedEarly
)

// String returns the audit-trail spelling: "place", "leave" or
// "stopped-early".
func (x JokerReason) String() string {
	switch x {
	case JokerPlace:
		return "place"
	case JokerLeave:
		return "leave"
	case JokerStoppedEarly:
		return "stopped-early"
	}
	return fmt.Sprintf("JokerReason(%d)", uint8(x))
}

// JokerChange is one seat's outcome of a game: one audit row.
type JokerChange struct {
	Player int32       // dense player index
	Reason JokerReason // why the player rating changed
	Level  int32       // level before the game
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
//  1. a nil game: ErrJokerSeatCount;
//  2. StoppedPulka in 0–4: ErrJokerStoppedPulka;
//  3. each seat's player index ≥ 0: ErrJokerPlayerIndex;
//  4. each seat's place in 1–4: ErrJokerPlace;
//  5. four distinct players: ErrJokerDuplicatePlayer;
//  6. at most one leaver: ErrJokerLeavers;
//  7. a leaver only in a stopped game: ErrJokerLeaverNotStopped;
//  8. no shared place unless AllowTiedPlaces: ErrJokerTiedPlaces; with ties
//     allowed, a competition ranking: ErrJokerPlaceRanking.
//
// Validate does not allocate when the game is valid.
func (r *JokerRules) Validate(g *JokerGame) error {
	if g == nil {
		return ErrJokerSeatCount
	}
	if g.StoppedPulka < 0 || g.StoppedPulka > JokerPulkas {
		return fmt.Errorf("stopped pulka %d: %w", g.StoppedPulka, ErrJokerStoppedPulka)
	}
	for i := range g.Seats {
		if g.Seats[i].Player < 0 {
			return fmt.Errorf("seat %d: player %d: %w", i+1, g.Seats[i].Player, ErrJokerPlayerIndex)
		}
	}
	for i := range g.Seats {
		if p := g.Seats[i].Place; p < 1 || p > 4 {
			return fmt.Errorf("seat %d: place %d: %w", i+1, p, ErrJokerPlace)
		}
	}
	leavers := 0
	for i := range g.Seats {
		for j := i + 1; j < len(g.Seats); j++ {
			if g.Seats[i].Player == g.Seats[j].Player {
				return fmt.Errorf("seats %d and %d: %w", i+1, j+1, ErrJokerDuplicatePlayer)
			}
		}
		if g.Seats[i].Left {
			leavers++
		}
	}
	if leavers > 1 {
		return ErrJokerLeavers
	}
	if leavers == 1 && g.StoppedPulka == 0 {
		return ErrJokerLeaverNotStopped
	}
	allowTies := r != nil && r.AllowTiedPlaces
	for i := range g.Seats {
		better := 0
		for j := range g.Seats {
			if j == i {
				continue
			}
			if g.Seats[j].Place == g.Seats[i].Place && !allowTies {
				return fmt.Errorf("seat %d: place %d: %w", i+1, g.Seats[i].Place, ErrJokerTiedPlaces)
			}
			if g.Seats[j].Place < g.Seats[i].Place {
				better++
			}
		}
		if int(g.Seats[i].Place) != better+1 {
			return fmt.Errorf("seat %d: place %d: %w", i+1, g.Seats[i].Place, ErrJokerPlaceRanking)
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
//  1. Validate the game (see Validate); check the settings (ErrJokerRules)
//     and that every player index is covered by the state
//     (ErrJokerPlayerIndex).
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
func (r *JokerRules) Apply(s *JokerState, g *JokerGame) ([4]JokerChange, error) {
	var ch [4]JokerChange
	if err := r.Validate(g); err != nil {
		return ch, err
	}
	if !r.usable() {
		return ch, r.Check()
	}
	if s == nil {
		return ch, ErrJokerNilState
	}
	n := s.Len()
	for i := range g.Seats {
		if int(g.Seats[i].Player) >= n {
			return ch, fmt.Errorf("seat %d: player %d of %d: %w", i+1, g.Seats[i].Player, n, ErrJokerPlayerIndex)
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
			c.Reason = JokerLeave
			c.Penalty = r.LeavePenalties[c.Level][g.StoppedPulka-1]
		case placed:
			c.Reason = JokerPlace
		default:
			c.Reason = JokerStoppedEarly
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
func betterPlaced(a, b JokerSeat) bool {
	if a.Place != b.Place {
		return a.Place < b.Place
	}
	return a.Score > b.Score
}

// sat32 converts to int32, saturating at the int32 range.
func sat32(v int64) int32 {
	return int32(max(math.MinInt32, min(math.MaxInt32, v)))
}
