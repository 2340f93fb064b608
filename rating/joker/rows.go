package joker

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/rating"
)

// Row is one row of the tables table (one player in one game) that passed
// the checks needing no other row: the table rule sets' row.
type Row = rating.TableRow

// The values of Row.Pulka that are not a pulka.
const (
	PulkaNull     = rating.PulkaNull
	PulkaNegative = rating.PulkaNegative
)

// PlaceOf is a place as given, clamped so that it stays out of range when it
// is.
func PlaceOf(v int64) int32 { return rating.TablePlace(v) }

// PulkaOf is stopped_pulka as given (null when null is set) for Row.Pulka.
func PulkaOf(v int64, null bool) int32 { return rating.TablePulka(v, null) }

// CompareSeats orders rows into games and each game's rows into seats: by
// game_id, then dense player index (player_id order). CheckGame and Rate
// take a game's rows in this order; the seat order breaks ties for "best
// placed" (Rules.Apply).
func CompareSeats(a, b *Row) int { return rating.CompareTableSeats(a, b) }

// Key is a game's place in rating order: played_at, then game_id.
type Key = rating.TableKey

// validateSentinels are the errors GameOf and Validate wrap.
var validateSentinels = []error{
	ErrSeatCount, ErrStoppedPulka, ErrPlayerIndex, ErrDuplicatePlayer, ErrPlace,
	ErrTiedPlaces, ErrPlaceRanking, ErrLeavers, ErrLeaverNotStopped,
}

// CheckGame checks the rows of one game together and returns nil or a
// *GameError. rows are every row of the game that passed the row checks, in
// seat order (CompareSeats); partial says another row of the game was
// rejected on its own. ids[p] is the player_id of dense index p, for the
// reason. In this order: four rows, one played_at, one tournament, one
// stopped_pulka, then the game's rules (GameOf, Validate).
func (r *Rules) CheckGame(rows []Row, partial bool, ids []int64) error {
	if len(rows) == 0 {
		return ErrSeatCount
	}
	id := rows[0].Game
	bad := func(err error, format string, a ...any) error {
		return &GameError{Game: id, Err: err, Reason: fmt.Sprintf(format, a...)}
	}
	if partial {
		return bad(ErrSeatCount, "%v: another row of game %d was rejected", ErrSeatCount, id)
	}
	if len(rows) != 4 {
		return bad(ErrSeatCount, "%v: game %d has %d rows", ErrSeatCount, id, len(rows))
	}
	for _, s := range rows[1:] {
		switch {
		case s.At != rows[0].At:
			return bad(ErrPlayedAtMismatch, "%v: game %d has %s and %s", ErrPlayedAtMismatch, id, FormatTime(rows[0].At), FormatTime(s.At))
		case s.Tour != rows[0].Tour:
			return bad(ErrTournamentMismatch, "%v: game %d", ErrTournamentMismatch, id)
		case s.Pulka != rows[0].Pulka:
			return bad(ErrPulkaMismatch, "%v: game %d has %s and %s", ErrPulkaMismatch, id, pulkaText(rows[0].Pulka), pulkaText(s.Pulka))
		}
	}
	g, err := GameOf(rows)
	if err == nil {
		err = r.Validate(&g)
	}
	if err == nil {
		return nil
	}
	for _, s := range validateSentinels {
		if !errors.Is(err, s) {
			continue
		}
		detail := strings.TrimSuffix(err.Error(), ": "+s.Error())
		if detail == s.Error() {
			return bad(s, "%v: game %d", s, id)
		}
		// Name the players rather than the seat numbers: seats are in player_id order.
		return bad(s, "%v: game %d: %s%s", s, id, detail, seatNames(rows, ids))
	}
	return bad(err, "game %d: %v", id, err)
}

// seatNames lists the seats' player ids, for a reason.
func seatNames(rows []Row, ids []int64) string {
	s := " (seats: "
	for k, r := range rows {
		if k > 0 {
			s += ", "
		}
		s += strconv.FormatInt(ids[r.Player], 10)
	}
	return s + ")"
}

func pulkaText(p int32) string {
	switch p {
	case PulkaNull:
		return "null"
	case PulkaNegative:
		return "a negative value"
	}
	return strconv.Itoa(int(p))
}

// FormatTime spells a played_at (microseconds since 1970-01-01 UTC) as
// reasons show it: RFC 3339, UTC.
func FormatTime(us int64) string { return rating.FormatPlayedAt(us) }

// GameOf builds the game of four rows in seat order. It checks only what
// Game cannot hold: four rows, stopped_pulka null or 1–4, places 1–4.
func GameOf(rows []Row) (Game, error) {
	var g Game
	if len(rows) != len(g.Seats) {
		return g, fmt.Errorf("%d rows: %w", len(rows), ErrSeatCount)
	}
	switch p := rows[0].Pulka; {
	case p == PulkaNull:
		g.StoppedPulka = 0
	case p < 1 || p > Pulkas:
		return g, fmt.Errorf("stopped pulka %d: %w", p, ErrStoppedPulka)
	default:
		g.StoppedPulka = int8(p)
	}
	for k, r := range rows {
		if r.Place < 1 || r.Place > 4 {
			return g, fmt.Errorf("seat %d: place %d: %w", k+1, r.Place, ErrPlace)
		}
		g.Seats[k] = Seat{Player: r.Player, Place: int8(r.Place), Score: r.Score, Left: r.Left}
	}
	return g, nil
}

// Card is one seat's audit row of a rated game: the row as read, the game's
// stopped pulka and the seat's change.
type Card struct {
	Row          Row
	StoppedPulka int8 // 0: played to the end
	Change       Change
}

// Rate rates one game that passed CheckGame, its four rows in seat order:
// it updates the state (Apply) and returns the game's audit rows, one per
// seat. On error the state is unchanged.
func (r *Rules) Rate(s *State, rows []Row) ([4]Card, error) {
	var cards [4]Card
	g, err := GameOf(rows)
	if err != nil {
		return cards, err
	}
	ch, err := r.Apply(s, &g)
	if err != nil {
		return cards, err
	}
	for i := range cards {
		cards[i] = Card{Row: rows[i], StoppedPulka: g.StoppedPulka, Change: ch[i]}
	}
	return cards, nil
}
