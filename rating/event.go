package rating

import (
	"fmt"
	"slices"
)

// Game is one two-player game of an Event, by dense player index, with the
// players' TRF result codes. Black is -1 for a bye: the player took part in the
// tournament without a game that round.
type Game struct {
	White, Black             int32
	WhiteResult, BlackResult byte
}

// otbScores is a result code's score in half points when the game was played
// over the board (1, = and 0), else -1: a lookup, as the codes of a
// tournament's games follow no pattern a branch could predict.
var otbScores = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	t['1'], t['='], t['0'] = 2, 1, 0
	return t
}()

// Scores returns the scores of a game played over the board (results 1, =
// and 0), in half points; ok is false for a bye, a forfeit and an unrated
// game (W, D, L).
func (g *Game) Scores() (ws, bs int32, ok bool) {
	w, b := otbScores[g.WhiteResult], otbScores[g.BlackResult]
	if g.Black < 0 || w|b < 0 {
		return 0, 0, false
	}
	return int32(w), int32(b), true
}

// Event is one tournament handed to a rule set, in rating order.
type Event struct {
	ID    int64
	Start int32 // days since 1970-01-01
	End   int32
	// Games holds the paired games and the byes, so that every participant is known.
	Games []Game
}

// State is the rating state of every player, indexed by dense player index. The
// pipeline sizes it once (NewState) and fills the registry fields; rule sets
// update the rest in place.
type State struct {
	// Registry facts (from the players table).
	Category  []int8  // 1–4, 0 = none
	Elo       []int32 // FIDE Elo, 0 = none
	BirthYear []int32 // 0 = unknown

	Rated       []bool
	Rating      []int32
	GamesTotal  []int32 // rated games so far
	Tournaments []int32 // tournaments in which the rating was computed (K = 40 rule)
	GamesPeriod []int32 // rated games in the current period; the pipeline resets it per list
}

// NewState returns a state for n players, all unrated.
func NewState(n int) *State {
	return &State{
		Category:    make([]int8, n),
		Elo:         make([]int32, n),
		BirthYear:   make([]int32, n),
		Rated:       make([]bool, n),
		Rating:      make([]int32, n),
		GamesTotal:  make([]int32, n),
		Tournaments: make([]int32, n),
		GamesPeriod: make([]int32, n),
	}
}

// Card is the audit record of one player in one rated tournament: enough to
// recompute the change by hand.
type Card struct {
	Player     int32
	Before     int32 // rating before (valid when RatedBefore)
	After      int32 // rating after (valid when RatedAfter)
	Games      int32 // n: rated games in the tournament
	Score2     int32 // W in half points
	OppAverage int32 // Ra (rounded half up); 0 when n = 0
	D          int32 // Ro − Ra, capped
	K          int32
	Change     int32 // rounded, as applied
	// Used is Ro, the rating the tournament was rated with (valid when
	// RatedUsed): the rating before, or a newcomer's stage-one initial rating.
	Used        int32
	Expected    int64 // We in hundredths
	ChangeExact int64 // K × (W − We) in hundredths
	RatedBefore bool
	RatedAfter  bool
	RatedUsed   bool
	Stage       int8 // of a rule set with stages (the school system's 1 or 2); 0 for the others
	Reason      Reason

	// Optional detail of per-period rule sets (FIDE); the school system leaves
	// these zero.
	Tournament  int64 // the game's tournament on a card made at a period's close (0 = none)
	End         int32 // that tournament's end date
	Opponent    int32 // dense index of the opponent (valid when PerGame)
	OppRating   int32 // the opponent's rating used (valid when PerGame)
	PerGame     bool  // one game: Opponent, OppRating; W in Score2, PD in Expected, D as used
	PeriodTotal bool  // a player's total for a period: D is per game, so not set
}

// Reason says why a card's rating changed (or did not). It is a number, not
// a string, so that cards hold no pointers and the GC need not scan the card
// buffers (the FIDE rule set makes a card per rated game). Each rule set
// makes its own with NewReason.
type Reason uint8

var (
	reasonNames = []string{""} // by Reason; 0 is no reason
	removals    []string       // the names of the reasons made with NewRemoval
)

// NewReason returns the reason spelled name in the audit trail (the reason
// column of the cards). Rule sets call it when their package is
// initialized; a name taken twice, or too many reasons, is a program error.
func NewReason(name string) Reason {
	if name == "" || slices.Contains(reasonNames, name) || len(reasonNames) > 255 {
		panic(fmt.Sprintf("rating: reason %q: empty, taken or one too many", name))
	}
	reasonNames = append(reasonNames, name)
	return Reason(len(reasonNames) - 1)
}

// NewRemoval is NewReason for a card that takes its player off the list
// (FIDE's rating below the floor): list changes name it as why the player left.
func NewRemoval(name string) Reason {
	r := NewReason(name)
	removals = append(removals, name)
	return r
}

// Removes tells whether a card whose reason column is name took its player
// off the list (a reason made with NewRemoval by a registered rule set).
func Removes(name string) bool { return slices.Contains(removals, name) }

// String returns the audit trail's spelling (the reason column of cards.parquet).
func (x Reason) String() string {
	if x > 0 && int(x) < len(reasonNames) {
		return reasonNames[x]
	}
	return fmt.Sprintf("Reason(%d)", uint8(x))
}

// GameRows are per-game cards column by column, as a rule set that makes one
// per game side at a period's close (Glicko-2, FIDE) hands them on: row i is
// the Card with PerGame of Player[i]'s game against Opponent[i], Score2[i] its
// W and Expected[i] its PD, in hundredths; D, K and the change are not set,
// unless Rated is used. Values[j] is the column of Columns.Games[j], which are
// all Float64.
type GameRows struct {
	Reason                                   Reason // of every row, unless Reasons is used
	Player, Opponent, End, OppRating, Score2 []int32
	Tournament, Expected                     []int64
	Values                                   [][]float64

	// Used by a rule set with a K (FIDE), else empty: Reasons[i] is row i's
	// reason, and Rated[i] tells whether the row was rated with a K (a card
	// with K > 0): only then are D[i] (as used), its PD and ChangeExact[i]
	// (K × (W − PD) in hundredths) set.
	Reasons     []Reason
	Rated       []bool
	D           []int32
	ChangeExact []int64
}

// Len is the number of rows.
func (g *GameRows) Len() int { return len(g.Player) }

// Reset empties g, keeping its room.
func (g *GameRows) Reset() {
	g.Player, g.Opponent, g.End, g.OppRating, g.Score2 = g.Player[:0], g.Opponent[:0], g.End[:0], g.OppRating[:0], g.Score2[:0]
	g.Tournament, g.Expected = g.Tournament[:0], g.Expected[:0]
	g.Reasons, g.Rated, g.D, g.ChangeExact = g.Reasons[:0], g.Rated[:0], g.D[:0], g.ChangeExact[:0]
	for j := range g.Values {
		g.Values[j] = g.Values[j][:0]
	}
}

// GameEmitter is implemented by a rule set that can hand the per-game cards
// of its ClosePeriod as GameRows: after EmitGames, ClosePeriod gives them to
// emit, in order, and its own emit only the other cards. The pipeline asks
// for it: a Card per game costs more to make and to take apart than its row.
type GameEmitter interface {
	EmitGames(emit func(*GameRows) error)
}
