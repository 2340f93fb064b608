package glicko2

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ratelist/ratelist/internal/colbuf"
	"github.com/ratelist/ratelist/rating"
)

// Rater is the Glicko-2 rule set as the pipeline drives it (rating.RuleSet):
// Rate gathers each tournament's rated games into the open period,
// ClosePeriod rates the period and writes the whole ratings back into the
// pipeline's rating.State. One Rater serves one goroutine.
type Rater struct {
	S      Settings
	state  *State
	period Period
	cards  []rating.Card
	vals   [][cardValues]float64 // card i's values of the declared card columns
	// list is every listed player's list values as of the last close (or
	// the restored state): ListInfo and ListValues read them, rounded once.
	list []ListExtra
	// games are the per-game cards being gathered for emitGames (EmitGames);
	// with emitGames nil they are Cards.
	games     rating.GameRows
	emitGames func(*rating.GameRows) error
}

// cardValues is the most values a card has of the declared card columns.
const cardValues = 8

// NewRater returns a rater for st's players, none of them listed: FIDE
// ratings and categories are not used.
func NewRater(s Settings, st *rating.State) *Rater {
	return &Rater{S: s, state: NewState(len(st.Rated)), list: make([]ListExtra, len(st.Rated))}
}

// State is the players' Glicko-2 values, for the list and card columns.
func (r *Rater) State() *State { return r.state }

// Rates: rated chess tournaments of the standard time class.
func (r *Rater) Rates(discipline, timeClass string) bool {
	return discipline == "chess" && (timeClass == "" || timeClass == rating.TimeStandard)
}

// ListDay: a game belongs to the period of its tournament's end date.
func (r *Rater) ListDay(end int32) int32 { return end }

// Rate gathers the tournament's games played over the board (1, =, 0);
// nothing is rated before ClosePeriod, so it returns no cards.
func (r *Rater) Rate(st *rating.State, ev *rating.Event) []rating.Card {
	for i := range ev.Games {
		g := &ev.Games[i]
		if ws, bs, ok := g.Scores(); ok {
			r.period.AddFrom(Tournament{ev.ID, ev.End}, g.White, g.Black, float64(ws)/2, float64(bs)/2)
		}
	}
	return nil
}

// closeChunk is about how many cards ClosePeriod hands on at a time.
const closeChunk = 4096

// EmitGames: ClosePeriod hands its per-game cards to emit as rows
// (rating.GameEmitter).
func (r *Rater) EmitGames(emit func(*rating.GameRows) error) {
	r.emitGames = emit
	r.games.Reason = ReasonGame
	if r.games.Values == nil {
		r.games.Values = make([][]float64, len(columns.Games))
	}
}

// ClosePeriod rates the period (Period.Close) and hands emit a card per game
// (or emitGames a row, EmitGames) and one per player's period, in player
// order; then every listed player is rated in st with their whole rating.
func (r *Rater) ClosePeriod(st *rating.State, first, last int32, emit func([]rating.Card) error) error {
	r.cards, r.vals = r.cards[:0], r.vals[:0]
	r.games.Reset()
	games := &r.games
	if r.emitGames == nil {
		games = nil
	}
	err := r.period.close(r.state, &r.S, first, func(row *ratedRow) error {
		n := int32(len(row.sides))
		st.GamesTotal[row.Player] += n
		st.GamesPeriod[row.Player] = n
		r.cards, r.vals = appendCards(r.cards, r.vals, games, row, r.period.tours)
		if games != nil && games.Len() >= closeChunk {
			err := r.emitGames(games)
			games.Reset()
			if err != nil {
				return err
			}
		}
		if len(r.cards) < closeChunk {
			return nil
		}
		err := emit(r.cards)
		r.cards, r.vals = r.cards[:0], r.vals[:0]
		return err
	})
	if err == nil && games != nil && games.Len() > 0 {
		err = r.emitGames(games)
	}
	if err != nil {
		return err
	}
	r.takeList()
	for p, on := range r.state.Listed {
		if on {
			st.Rated[p], st.Rating[p] = true, r.list[p].Rating()
		}
	}
	if len(r.cards) > 0 {
		return emit(r.cards)
	}
	return nil
}

// appendCards adds a player's period as cards: one per game (the
// opponent's whole rating, E in hundredths; its values the opponent's μ, φ,
// g(φ) and E), or a row of games when it is not nil, then the period's total
// (the opponents' average whole rating, ΣE in hundredths; its values μ, φ, σ
// before and after, v, Δ). tours are the sides' tournaments.
func appendCards(cards []rating.Card, vals [][cardValues]float64, games *rating.GameRows, row *ratedRow, tours []Tournament) ([]rating.Card, [][cardValues]float64) {
	before, after := whole(row.Before), whole(row.After)
	var score2 int32
	var expected float64
	var oppSum int64
	for i, sd := range row.sides {
		score2 += int32(sd.score * 2)
		expected += row.results[i].E
		oppSum += int64(row.ratings[i])
	}
	if games != nil {
		addGames(games, row, tours)
	} else {
		for i, sd := range row.sides {
			g, t := &row.results[i], tours[sd.tour]
			cards = append(cards, rating.Card{
				Player: row.Player, RatedBefore: true, Before: before, Games: 1, Score2: int32(sd.score * 2),
				Expected: int64(math.Round(g.E * 100)), Reason: ReasonGame,
				PerGame: true, Opponent: sd.opp, OppRating: row.ratings[i], Tournament: t.ID, End: t.End,
			})
			vals = append(vals, [cardValues]float64{g.Mu, g.Phi, g.G, g.E})
		}
	}
	reason := ReasonPeriod
	if row.New {
		reason = ReasonFirst
	}
	n := len(row.sides)
	cards = append(cards, rating.Card{
		Player: row.Player, RatedBefore: true, Before: before, RatedAfter: true, After: after,
		RatedUsed: true, Used: before, Games: int32(n), Score2: score2,
		OppAverage: int32(rating.RoundHalfUp(oppSum, int64(n))), Expected: int64(math.Round(expected * 100)), Change: after - before, Reason: reason, PeriodTotal: true,
	})
	b, a := row.Before, row.After
	return cards, append(vals, [cardValues]float64{b.Mu, b.Phi, b.Sigma, a.Mu, a.Phi, a.Sigma, row.V, row.Delta})
}

// addGames adds a row to g per game of row, column by column.
func addGames(g *rating.GameRows, row *ratedRow, tours []Tournament) {
	n := len(row.sides)
	colbuf.Fill(extend(&g.Player, n), row.Player)
	copy(extend(&g.OppRating, n), row.ratings)
	opponent, tour, end, score2 := extend(&g.Opponent, n), extend(&g.Tournament, n), extend(&g.End, n), extend(&g.Score2, n)
	for i, sd := range row.sides {
		t := tours[sd.tour]
		opponent[i], tour[i], end[i], score2[i] = sd.opp, t.ID, t.End, int32(sd.score*2)
	}
	expected, mu, phi, gs, e := extend(&g.Expected, n), extend(&g.Values[0], n), extend(&g.Values[1], n), extend(&g.Values[2], n), extend(&g.Values[3], n)
	for i := range row.results {
		r := &row.results[i]
		expected[i], mu[i], phi[i], gs[i], e[i] = int64(math.Round(r.E*100)), r.Mu, r.Phi, r.G, r.E
	}
}

// extend lengthens *s by n and returns the n new elements.
func extend[T any](s *[]T, n int) []T {
	l := len(*s)
	*s = slices.Grow(*s, n)[:l+n]
	return (*s)[l : l+n]
}

// takeList rounds every listed player's values for the list (list).
func (r *Rater) takeList() {
	r.list = slices.Grow(r.list[:0], len(r.state.Listed))[:len(r.state.Listed)]
	for p, on := range r.state.Listed {
		if on {
			r.list[p] = r.state.List(int32(p))
		}
	}
}

// ListValues: the list's glicko_rating, rd and volatility (Columns.List).
func (r *Rater) ListValues(st *rating.State, p int32, row []rating.Value) {
	e := &r.list[p]
	row[0].Float, row[1].Float, row[2].Float = e.GlickoRating, e.RD, e.Volatility
}

// CardValues: a game's opponent μ, φ, g(φ) and E (Columns.Games); a
// period's μ, φ, σ before and after, v and Δ (Columns.Cards).
func (r *Rater) CardValues(i int, row []rating.Value) {
	for j := range row {
		row[j].Float = r.vals[i][j]
	}
}

// The Glicko-2 rule set's card reasons.
var (
	ReasonGame   = rating.NewReason("glicko2-game")   // one game of a period
	ReasonPeriod = rating.NewReason("glicko2-period") // a player's period
	ReasonFirst  = rating.NewReason("glicko2-first")  // a player's first period, from the initial values
)

// columns are what Glicko-2 adds to lists and cards: on the Glicko scale on
// a list, rounded as printed; on the Glicko-2 scale and unrounded on the
// cards, so that a card recomputes the period exactly. The cards' are
// Incompressible: once players have left their initial values, Snappy
// finds nothing to shrink in them.
var columns = rating.Columns{
	List: []rating.Column{
		{Name: "glicko_rating", Type: rating.Float64, Decimals: 2, Title: "Glicko rating"},
		{Name: "rd", Type: rating.Float64, Decimals: 2, Title: "RD"},
		{Name: "volatility", Type: rating.Float64, Decimals: 6, Title: "Volatility"},
	},
	RankBy: "glicko_rating",
	NoK:    true,
	Cards: []rating.Column{
		{Name: "mu_before", Type: rating.Float64, Incompressible: true, Title: "μ before"}, {Name: "phi_before", Type: rating.Float64, Incompressible: true, Title: "φ before"},
		{Name: "sigma_before", Type: rating.Float64, Incompressible: true, Title: "σ before"}, {Name: "mu_after", Type: rating.Float64, Incompressible: true, Title: "μ after"},
		{Name: "phi_after", Type: rating.Float64, Incompressible: true, Title: "φ after"}, {Name: "sigma_after", Type: rating.Float64, Incompressible: true, Title: "σ after"},
		{Name: "v", Type: rating.Float64, Incompressible: true, Title: "v"}, {Name: "delta", Type: rating.Float64, Incompressible: true, Title: "Δ"},
	},
	Games: []rating.Column{
		{Name: "opponent_mu", Type: rating.Float64, Incompressible: true, Title: "opponent μ"}, {Name: "opponent_phi", Type: rating.Float64, Incompressible: true, Title: "opponent φ"},
		{Name: "g", Type: rating.Float64, Incompressible: true, Title: "g(φ)"}, {Name: "e", Type: rating.Float64, Incompressible: true, Title: "E"},
	},
}

// whole is p's rating as the rating column prints it.
func whole(p Player) int32 {
	r, _ := p.Glicko()
	return ListExtra{GlickoRating: roundTo(r, 100)}.Rating()
}

// ListInfo: every player with a rated game is listed, flagged "p" while
// provisional; k and category are empty.
func (r *Rater) ListInfo(st *rating.State, p int32) (bool, int32, string, string) {
	if !r.state.Listed[p] {
		return false, 0, "", ""
	}
	if r.list[p].Provisional(r.S.ProvisionalRD) {
		return true, 0, "", "p"
	}
	return true, 0, "", ""
}

// MarshalState saves the players' full values after a period's close (State.MarshalBinary).
func (r *Rater) MarshalState() ([]byte, error) { return r.AppendState(nil) }

// AppendState appends what MarshalState returns to b (rating.StateAppender).
func (r *Rater) AppendState(b []byte) ([]byte, error) {
	if r.period.Len() > 0 {
		return nil, errors.New("glicko2 state: a period is open (its games are kept only until its close)")
	}
	return r.state.AppendBinary(b)
}

// UnmarshalState restores what MarshalState saved; remap maps the saved
// player indexes to today's (-1 for a player no longer there), nil for the
// same registry. On an error the rater is left as it was.
func (r *Rater) UnmarshalState(data []byte, remap []int32) error {
	var saved State
	if err := saved.UnmarshalBinary(data); err != nil {
		return err
	}
	n := len(r.state.Listed)
	if remap == nil {
		if len(saved.Listed) != n {
			return fmt.Errorf("glicko2 state: made for %d players, not %d", len(saved.Listed), n)
		}
		r.state = &saved
		r.takeList()
		return nil
	}
	if len(saved.Listed) != len(remap) {
		return fmt.Errorf("glicko2 state: made for %d players, not %d", len(saved.Listed), len(remap))
	}
	s := NewState(n)
	for i, on := range saved.Listed {
		if j := remap[i]; on && j >= 0 {
			s.R[j], s.RD[j], s.Sigma[j], s.First[j], s.Listed[j] = saved.R[i], saved.RD[i], saved.Sigma[i], saved.First[i], true
		}
	}
	r.state = s
	r.takeList()
	return nil
}

// Definition is the Glicko-2 rule set's registry entry, "glicko2". Its lists
// follow --period.
var Definition = rating.Definition{
	Name:     "glicko2",
	Defaults: func() rating.Settings { s := Defaults(); return &s },
	New:      func(s rating.Settings, st *rating.State) rating.RuleSet { return NewRater(*s.(*Settings), st) },
	Columns:  columns,
	Flags:    map[string]string{"p": "provisional rating: the rating deviation is still high (Glicko-2)"},
}
