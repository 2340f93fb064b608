package glicko2

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/ratelist/ratelist/internal/varbin"
)

// State is every player's Glicko-2 values between periods, by dense player
// index, in full float64 precision so that a resumed run rates exactly as a
// full one. R, RD, Sigma and First are valid when Listed.
type State struct {
	R, RD, Sigma []float64 // on the Glicko scale: r, RD, σ
	// First is the first day (days since 1970-01-01) of the period of the
	// player's first rated game.
	First []int32
	// Listed: the player has had a rated game, so is on every later list.
	Listed []bool
}

// NewState returns a state for n players, none listed.
func NewState(n int) *State {
	return &State{R: make([]float64, n), RD: make([]float64, n), Sigma: make([]float64, n), First: make([]int32, n), Listed: make([]bool, n)}
}

// Player returns listed player p's values on the Glicko-2 scale.
func (s *State) Player(p int32) Player { return FromGlicko(s.R[p], s.RD[p], s.Sigma[p]) }

// set stores player p's values from the Glicko-2 scale.
func (s *State) set(p int32, v Player) {
	s.R[p], s.RD[p] = v.Glicko()
	s.Sigma[p] = v.Sigma
}

// ListExtra is what a Glicko-2 list shows of a player after the ten standard
// columns: the columns glicko_rating (2 decimals), rd (2 decimals) and
// volatility (6 decimals). The values are already rounded half away from zero
// from the unrounded ones, so that a writer prints exactly them and the
// ranking (by GlickoRating, then player_id) is by the printed value.
type ListExtra struct {
	GlickoRating float64
	RD           float64
	Volatility   float64
}

// List returns listed player p's list values.
func (s *State) List(p int32) ListExtra {
	return ListExtra{GlickoRating: roundTo(s.R[p], 100), RD: roundTo(s.RD[p], 100), Volatility: roundTo(s.Sigma[p], 1e6)}
}

// Rating is the list's rating column: GlickoRating rounded half away from zero
// to a whole number, so that it agrees with the printed glicko_rating.
func (e ListExtra) Rating() int32 { return int32(math.Round(e.GlickoRating)) }

// Provisional tells whether the list flags the player "p": the printed RD is
// above provisionalRD.
func (e ListExtra) Provisional(provisionalRD float64) bool { return e.RD > provisionalRD }

// roundTo rounds x half away from zero to a multiple of 1/per.
func roundTo(x, per float64) float64 { return math.Round(x*per) / per }

// CardRow is one player's rating period on the cards, for every player with
// a rated game in it: the columns mu_before, phi_before, sigma_before (the
// values the period was rated from: a new player's initial values),
// mu_after, phi_after, sigma_after, v, delta and games, all on the Glicko-2
// scale and unrounded, so that a card recomputes the change exactly.
type CardRow struct {
	Player int32
	// New: the period of the player's first rated game (Before holds the
	// initial values).
	New      bool
	Before   Player
	After    Player
	V, Delta float64
	Games    []CardGame
}

// CardGame is one game of a CardRow, in the order the games came: the
// opponent (a player), the tournament, and the opponent's μ and φ at the
// period's start, g, E and the score (1, 0.5 or 0).
type CardGame struct {
	Opponent   int32
	Tournament Tournament
	Result
}

// Period is an open rating period: Add gathers its rated games, Close rates
// them all together from the values at the period's start. Its buffers are
// reused from one period to the next.
type Period struct {
	games []pairing
	tours []Tournament // the games' tournaments, each once while its games come together

	// Close's scratch.
	start   []int32 // per player: where their sides begin in player order
	pos     []int32
	initial []Player    // per player: the values the period starts from
	opp     []oppValues // per player: the same as their opponents see them
	after   []Player
	sides   []side // the games' sides in player order (byPlayer)
	row     ratedRow
}

// oppValues is a player's values at the period's start as a game's opponent:
// together, so that each game side costs one cache miss, not one per value.
type oppValues struct {
	mu, phi, g float64
	rating     int32 // the whole rating the cards print (whole)
}

// ratedRow is one player's rated period as close hands it on: the card row
// without its games, which are sides with their results and the
// opponents' whole ratings.
type ratedRow struct {
	CardRow
	sides   []side
	results []Result
	ratings []int32
}

// side is a game as one of its players played it: the opponent, the
// tournament (in tours) and the score. Small, as byPlayer writes them at
// random; Close looks the opponent's values up player by player.
type side struct {
	opp, tour int32
	score     float64
}

// pairing is one rated game of the open period.
type pairing struct {
	white, black int32
	tour         int32   // in tours
	ws, bs       float64 // scores: 1, 0.5 or 0
}

// Tournament is the tournament a game was played in, for its card: its id
// and end date (days since 1970-01-01); zero for none.
type Tournament struct {
	ID  int64
	End int32
}

// Add gathers a rated game between players white and black with their
// scores (1, 0.5 or 0).
func (pd *Period) Add(white, black int32, whiteScore, blackScore float64) {
	pd.AddFrom(Tournament{}, white, black, whiteScore, blackScore)
}

// AddFrom is Add for a game of tournament t, which its cards name.
func (pd *Period) AddFrom(t Tournament, white, black int32, whiteScore, blackScore float64) {
	if n := len(pd.tours); n == 0 || pd.tours[n-1] != t {
		pd.tours = append(pd.tours, t)
	}
	if len(pd.games) == cap(pd.games) { // doubling: append's growth by a quarter copies the period over and over
		pd.games = slices.Grow(pd.games, len(pd.games)+1024)
	}
	pd.games = append(pd.games, pairing{white: white, black: black, tour: int32(len(pd.tours) - 1), ws: whiteScore, bs: blackScore})
}

// Len is the number of games gathered since the last Close.
func (pd *Period) Len() int { return len(pd.games) }

// ErrPlayer is the error of a game whose player index is outside the state.
var ErrPlayer = errors.New("player index out of range")

// Close rates the period whose first day is first and starts the next one.
//
//  1. Every player with games starts from their values in s, or from the
//     initial values in set for a player not listed yet.
//  2. Each is rated (Update) against all their games of the period, with
//     their opponents' values at the period's start; emit gets their card
//     row, in player order (emit must not keep the row: it is reused).
//  3. Then s takes the new values; every listed player without a game gets
//     Idle's φ; the new players are listed, with first as their First.
//
// On an error (emit's first, or ErrPlayer) s is left as it was.
func (pd *Period) Close(s *State, set *Settings, first int32, emit func(*CardRow) error) error {
	var games []CardGame
	return pd.close(s, set, first, func(r *ratedRow) error {
		games = room(games, len(r.sides))
		for i, sd := range r.sides {
			games[i] = CardGame{Opponent: sd.opp, Tournament: pd.tours[sd.tour], Result: r.results[i]}
		}
		r.Games = games
		return emit(&r.CardRow)
	})
}

// close is Close handing each player's period on as a ratedRow (emit must
// not keep it: it is reused).
func (pd *Period) close(s *State, set *Settings, first int32, emit func(*ratedRow) error) error {
	n := len(s.Listed)
	for _, g := range pd.games {
		if g.white < 0 || int(g.white) >= n || g.black < 0 || int(g.black) >= n {
			return fmt.Errorf("glicko2: game %d–%d of %d players: %w", g.white, g.black, n, ErrPlayer)
		}
	}
	start := pd.byPlayer(n)
	startOf := pd.startValues(s, set, start)
	after := pd.after[:0]
	row := &pd.row
	for p := range int32(n) {
		lo, hi := start[p], start[p+1]
		if lo == hi {
			continue
		}
		before, sides := startOf[p], pd.sides[lo:hi]
		results, ratings := room(row.results, len(sides)), room(row.ratings, len(sides))
		for i, sd := range sides { // the opponents' values at the period's start
			o := &pd.opp[sd.opp]
			results[i] = Result{Mu: o.mu, Phi: o.phi, Score: sd.score, G: o.g}
			ratings[i] = o.rating
		}
		a, v, delta := update(before, results, set.Tau, set.Epsilon)
		*row = ratedRow{CardRow: CardRow{Player: p, New: !s.Listed[p], Before: before, After: a, V: v, Delta: delta},
			sides: sides, results: results, ratings: ratings}
		after = append(after, a)
		if err := emit(row); err != nil {
			pd.after = after
			return err
		}
	}
	pd.after = after
	i := 0
	for p := range int32(n) {
		switch {
		case start[p] < start[p+1]:
			if !s.Listed[p] {
				s.Listed[p], s.First[p] = true, first
			}
			s.set(p, after[i])
			i++
		case s.Listed[p]:
			s.set(p, Idle(startOf[p]))
		}
	}
	pd.games, pd.tours = pd.games[:0], pd.tours[:0]
	return nil
}

// startValues returns every player's values at the period's start: from s,
// or the initial values for a player not listed yet; pd.opp gets those of
// every player with games (start, byPlayer's) as an opponent's, with g(φ)
// and the whole rating. Taken once per player rather than once per game
// side.
func (pd *Period) startValues(s *State, set *Settings, start []int32) []Player {
	initial := set.initial()
	first := oppValues{mu: initial.Mu, phi: initial.Phi, g: gOf(initial.Phi), rating: whole(initial)}
	from, opp := room(pd.initial, len(s.Listed)), room(pd.opp, len(s.Listed))
	for p, on := range s.Listed {
		switch {
		case !on:
			from[p], opp[p] = initial, first
		case start[p] < start[p+1]:
			from[p] = s.Player(int32(p))
			opp[p] = oppValues{mu: from[p].Mu, phi: from[p].Phi, g: gOf(from[p].Phi), rating: whole(Player{Mu: from[p].Mu})}
		default: // idle: Idle's φ alone
			from[p] = s.Player(int32(p))
		}
	}
	pd.initial, pd.opp = from, opp
	return from
}

// byPlayer sorts the sides of the period's games by player, each player's
// in the order the games came (a stable counting sort over the n players):
// player p's sides are pd.sides[start[p]:start[p+1]]. The sides are
// written in one pass over the games, so that Close reads them in order
// rather than the games at random.
func (pd *Period) byPlayer(n int) (start []int32) {
	start = growZero(pd.start, n+1)
	for _, g := range pd.games {
		start[g.white+1]++
		start[g.black+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	pos := append(pd.pos[:0], start[:n]...) // each player's next free place
	sd := room(pd.sides, 2*len(pd.games))
	for i := range pd.games {
		g := &pd.games[i]
		w, b := pos[g.white], pos[g.black]
		pos[g.white]++
		pos[g.black]++
		sd[w] = side{g.black, g.tour, g.ws}
		sd[b] = side{g.white, g.tour, g.bs}
	}
	pd.start, pd.pos, pd.sides = start, pos, sd
	return start
}

// room returns n values in buf's room, or new ones (with room to spare)
// when it has too little: nothing of buf is kept, so nothing is copied.
func room[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n, n+n/8)
	}
	return buf[:n]
}

// growZero returns n zeroed values in buf's room.
func growZero(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// stateRevision names the layout of MarshalBinary.
const stateRevision = 1

// MarshalBinary encodes s for --resume: the revision and the player count
// as uvarints, Listed as bits, then for each listed player in order First
// (a varint, the difference from the listed player before) and R, RD, Sigma
// as float64 bits, little-endian: the full values, not the printed ones.
func (s *State) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// AppendBinary appends what MarshalBinary returns to b.
func (s *State) AppendBinary(b []byte) ([]byte, error) {
	// Room for every player as if listed: the listed grow from period to
	// period, and a b reused from the last one then fits.
	const most = 5 + 3*8 // a listed player's bytes at most: First's varint, the three values
	b = slices.Grow(b, 2*binary.MaxVarintLen64+(len(s.Listed)+7)/8+most*len(s.Listed))
	b = binary.AppendUvarint(b, stateRevision)
	b = binary.AppendUvarint(b, uint64(len(s.Listed)))
	b = varbin.AppendBools(b, s.Listed)
	out, n := b[:cap(b)], len(b) // written in place: room for every listed player was made above
	var prev int32
	for p, on := range s.Listed {
		if !on {
			continue
		}
		n += binary.PutVarint(out[n:], int64(s.First[p])-int64(prev))
		prev = s.First[p]
		v := out[n : n+24]
		binary.LittleEndian.PutUint64(v, math.Float64bits(s.R[p]))
		binary.LittleEndian.PutUint64(v[8:], math.Float64bits(s.RD[p]))
		binary.LittleEndian.PutUint64(v[16:], math.Float64bits(s.Sigma[p]))
		n += 24
	}
	return out[:n], nil
}

// UnmarshalBinary replaces s with the state MarshalBinary encoded. On an
// error s is left as it was.
func (s *State) UnmarshalBinary(data []byte) error {
	d := varbin.NewDecoder(data)
	if rev := d.Uvarint(); d.Err() == nil && rev != stateRevision {
		return fmt.Errorf("glicko2 state: layout %d, this ratelist reads %d", rev, stateRevision)
	}
	n := d.Uvarint()
	if d.Err() == nil && n > 8*uint64(d.Len()) {
		d.Fail(varbin.ErrShort)
	}
	if d.Err() != nil {
		return fmt.Errorf("glicko2 state: %w", d.Err())
	}
	t := NewState(int(n))
	d.Bools(t.Listed)
	var prev int32
	for p, on := range t.Listed {
		if !on {
			continue
		}
		t.First[p] = prev + int32(d.Varint())
		prev = t.First[p]
		t.R[p], t.RD[p], t.Sigma[p] = math.Float64frombits(d.Uint64()), math.Float64frombits(d.Uint64()), math.Float64frombits(d.Uint64())
		if d.Err() != nil {
			break
		}
		if !finite(t.R[p]) || !(t.RD[p] > 0) || !(t.Sigma[p] > 0) || math.IsInf(t.RD[p], 0) || math.IsInf(t.Sigma[p], 0) {
			d.Fail(fmt.Errorf("player %d: values %v/%v/%v", p, t.R[p], t.RD[p], t.Sigma[p]))
		}
	}
	d.End()
	if d.Err() != nil {
		return fmt.Errorf("glicko2 state: %w", d.Err())
	}
	*s = *t
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
