package joker

import "errors"

// Errors returned by Rules.CheckGame, Rules.Validate, Rules.Apply and
// Rules.Check. A game's rows are rejected with the error of CheckGame as the
// reason, which starts with the sentinel's text; compare with errors.Is, as
// the returned error wraps them with the game and the values at fault.
var (
	// ErrSeatCount means a game does not have exactly four rows (seats), or
	// another of its rows was rejected on its own. Validate returns it for a
	// nil game.
	ErrSeatCount = errors.New("joker game must have exactly 4 seats")
	// ErrPlayedAtMismatch means the rows of one game disagree on played_at.
	ErrPlayedAtMismatch = errors.New("joker seats disagree on played_at")
	// ErrTournamentMismatch means the rows of one game disagree on
	// tournament_id.
	ErrTournamentMismatch = errors.New("joker seats disagree on tournament_id")
	// ErrPulkaMismatch means the rows of one game disagree on
	// stopped_pulka. Game holds one value, so only CheckGame, which looks at
	// the rows, can detect it.
	ErrPulkaMismatch = errors.New("joker seats disagree on stopped pulka")
	// ErrStoppedPulka means stopped_pulka is not 0 (played to the end,
	// null in the table) or 1–4.
	ErrStoppedPulka = errors.New("joker stopped pulka not in 1-4")
	// ErrPlayerIndex means a seat's player index is negative or, in
	// Apply, not covered by the state (call State.Grow first).
	ErrPlayerIndex = errors.New("joker player index out of range")
	// ErrDuplicatePlayer means the four seats are not four distinct players.
	ErrDuplicatePlayer = errors.New("joker game must have 4 distinct players")
	// ErrPlace means a place is outside 1–4.
	ErrPlace = errors.New("joker place not in 1-4")
	// ErrTiedPlaces means two seats share a place and the rules do not
	// allow ties (Rules.AllowTiedPlaces).
	ErrTiedPlaces = errors.New("joker places tied")
	// ErrPlaceRanking means ties are allowed but the places are not a
	// standard competition ranking ("1224"): each place must be 1 + the number
	// of seats placed strictly better (1,1,3,4 is valid; 1,1,2,3 is not).
	ErrPlaceRanking = errors.New("joker places are not a ranking")
	// ErrLeavers means more than one seat left the table.
	ErrLeavers = errors.New("joker game has more than one leaver")
	// ErrLeaverNotStopped means a seat left the table but the game is
	// marked as played to the end (stopped_pulka null).
	ErrLeaverNotStopped = errors.New("joker leaver in a game played to the end")
	// ErrNilState means Apply was given a nil state.
	ErrNilState = errors.New("joker state is nil")
	// ErrRules means the settings are unusable (see Rules.Check).
	ErrRules = errors.New("invalid joker rules")
)

// GameError is why every row of one game is rejected: the reason names the
// game and the values at fault, and starts with the sentinel's text.
type GameError struct {
	Game   int64  // game_id
	Err    error  // one of the sentinels above
	Reason string // the whole reason, as rejects.csv shows it
}

func (e *GameError) Error() string { return e.Reason }
func (e *GameError) Unwrap() error { return e.Err }
