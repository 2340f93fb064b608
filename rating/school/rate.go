package school

import (
	"encoding/binary"
	"errors"
	"slices"

	"github.com/ratelist/ratelist/internal/smallsort"
	"github.com/ratelist/ratelist/rating"
)

// Rater applies the school system tournament by tournament. It keeps
// scratch buffers between calls, so one Rater serves one goroutine.
type Rater struct {
	S Settings

	local   []int32 // dense player → participant slot + 1 (0 = not in this event)
	players []int32
	parts   []participant
	opps    []int32
	cards   []rating.Card
	counts  int32 // players with GamesTotal ≥ Stage2Games

	// stage is the stage in force (1 or 2), and stageFrom the event whose
	// rating switched stage two on (0 = none). They are the rater's saved state.
	stage     int
	stageFrom int64
}

// participant is one player of the event being rated: their state at the
// start, gathered from rating.State in one pass so that the later loops stay in the
// cache, and their tally of rated games.
type participant struct {
	player      int32
	start       int32 // Ro (valid when ratedStart)
	rating      int32 // rating.State.Rating at the start
	gamesTotal  int32
	gamesPeriod int32
	tournaments int32
	n, w2       int32
	oppSum      int64 // Σ opponents' start ratings over the n rated games
	oppFrom     int32 // with PerGame: the opponents' ratings in opps[oppFrom:oppTo]
	oppTo       int32
	rated       bool // rating.State.Rated at the start
	ratedStart  bool
	newcomer1   bool // stage-one initial rating assigned at this event's start
}

// NewRater returns a rater for st's players.
func NewRater(s Settings, st *rating.State) *Rater {
	r := &Rater{S: s, local: make([]int32, len(st.Rated)), stage: 1}
	if s.Stage != 0 {
		r.stage = s.Stage
	}
	for _, g := range st.GamesTotal {
		if g >= s.Stage2Games {
			r.counts++
		}
	}
	return r
}

// Rate rates one tournament (the by-law's Methods 3–6; docs/school-elo.md) and
// returns one card per participant, in player index order. The returned slice
// is reused by the next call.
func (r *Rater) Rate(st *rating.State, ev *rating.Event) []rating.Card {
	s := &r.S
	stage := r.stage

	// 1. Participants, in player index order, and their state at the start.
	ps := r.players[:0]
	for i := range ev.Games {
		g := &ev.Games[i]
		if r.local[g.White] == 0 {
			r.local[g.White] = 1
			ps = append(ps, g.White)
		}
		if g.Black >= 0 && r.local[g.Black] == 0 {
			r.local[g.Black] = 1
			ps = append(ps, g.Black)
		}
	}
	smallsort.Sort(ps)
	r.players = ps
	r.parts = slices.Grow(r.parts[:0], len(ps))[:len(ps)]
	for i, p := range ps {
		r.local[p] = int32(i + 1)
		pt := &r.parts[i]
		*pt = participant{player: p, rated: st.Rated[p], rating: st.Rating[p], gamesTotal: st.GamesTotal[p],
			gamesPeriod: st.GamesPeriod[p], tournaments: st.Tournaments[p]}
		if pt.rated {
			pt.ratedStart, pt.start = true, pt.rating
		} else if stage == 1 {
			if init, ok := s.InitialStage1(st.Category[p], st.Elo[p]); ok {
				pt.ratedStart, pt.start, pt.newcomer1 = true, init, true
			}
		}
	}

	// 2. Rated games: over the board, against an opponent rated at the start.
	for i := range ev.Games {
		g := &ev.Games[i]
		ws, bs, ok := g.Scores()
		if !ok {
			continue
		}
		w, b := &r.parts[r.local[g.White]-1], &r.parts[r.local[g.Black]-1]
		if b.ratedStart {
			w.n++
			w.w2 += ws
			w.oppSum += int64(b.start)
		}
		if w.ratedStart {
			b.n++
			b.w2 += bs
			b.oppSum += int64(w.start)
		}
	}
	if s.PerGame {
		r.placeOpponents(ev)
	}

	// 3. Outcomes, all from the ratings at the start, and 4. their application.
	r.cards = slices.Grow(r.cards[:0], len(r.parts))
	for i := range r.parts {
		pt := &r.parts[i]
		p := pt.player
		r.local[p] = 0
		c := rating.Card{Player: p, RatedBefore: pt.rated, Before: pt.rating, Games: pt.n, Score2: pt.w2, Stage: int8(stage),
			Used: pt.start, RatedUsed: pt.ratedStart}
		if pt.n > 0 {
			c.OppAverage = int32(rating.RoundHalfUp(pt.oppSum, int64(pt.n)))
		}
		switch {
		case pt.ratedStart && pt.n >= s.MinGames:
			c.K = s.K(pt.tournaments, pt.gamesTotal, pt.start)
			c.Expected, c.D = s.expected(pt.start, pt.n, r.opps[pt.oppFrom:pt.oppTo], c.OppAverage)
			c.ChangeExact, c.Change = rating.Change(c.K, pt.w2, c.Expected)
			c.After, c.RatedAfter = pt.start+c.Change, true
			c.Reason = ReasonRated
			if pt.newcomer1 {
				c.Reason = ReasonInitialStage1
			}
		case pt.ratedStart:
			c.After, c.RatedAfter = pt.start, true
			c.Reason = ReasonMinGames
			if pt.newcomer1 {
				c.Reason = ReasonInitialStage1
			}
		case stage == 2 && pt.n >= s.MinGames:
			if init, ok := s.InitialStage2(c.OppAverage, pt.n, pt.w2); ok {
				c.After, c.RatedAfter = init, true
				c.Reason = ReasonInitialStage2
			} else {
				c.Reason = ReasonNoInitial
			}
		default:
			c.Reason = ReasonNoInitial
		}
		r.cards = append(r.cards, c)

		if !c.RatedAfter {
			continue
		}
		computed := c.Reason == ReasonRated || c.Reason == ReasonInitialStage2 ||
			(c.Reason == ReasonInitialStage1 && c.Games >= s.MinGames)
		if computed {
			st.Tournaments[p] = pt.tournaments + 1
		}
		old := pt.gamesTotal
		st.GamesTotal[p] = old + c.Games
		st.GamesPeriod[p] = pt.gamesPeriod + c.Games
		if old < s.Stage2Games && old+c.Games >= s.Stage2Games {
			r.counts++
		}
		st.Rated[p], st.Rating[p] = true, c.After
	}

	// 5. The stage switch, evaluated after each tournament (docs/school-elo.md §5).
	if s.Stage == 0 && r.stage == 1 && r.counts > s.Stage2Players {
		r.stage = 2
		if r.stageFrom == 0 {
			r.stageFrom = ev.ID
		}
	}
	return r.cards
}

// placeOpponents puts each participant's opponents' start ratings in their
// rated games contiguous in opps, in game order (the per-game expected score
// needs them). Step 2 has counted them.
func (r *Rater) placeOpponents(ev *rating.Event) {
	off := int32(0)
	for i := range r.parts {
		r.parts[i].oppFrom, r.parts[i].oppTo = off, off
		off += r.parts[i].n
	}
	r.opps = slices.Grow(r.opps[:0], int(off))[:off]
	for i := range ev.Games {
		g := &ev.Games[i]
		if _, _, ok := g.Scores(); !ok {
			continue
		}
		w, b := &r.parts[r.local[g.White]-1], &r.parts[r.local[g.Black]-1]
		if b.ratedStart {
			r.opps[w.oppTo] = b.start
			w.oppTo++
		}
		if w.ratedStart {
			r.opps[b.oppTo] = w.start
			b.oppTo++
		}
	}
}

// Restored recomputes the stage-switch count from a state restored from disk.
func (r *Rater) Restored(st *rating.State) {
	r.counts = 0
	for _, g := range st.GamesTotal {
		if g >= r.S.Stage2Games {
			r.counts++
		}
	}
}

// MarshalState saves the stage in force and the event that switched it on.
func (r *Rater) MarshalState() ([]byte, error) {
	b := binary.AppendUvarint(nil, uint64(r.stage))
	return binary.AppendVarint(b, r.stageFrom), nil
}

// UnmarshalState restores what MarshalState saved.
func (r *Rater) UnmarshalState(data []byte, _ []int32) error {
	stage, n := binary.Uvarint(data)
	if n <= 0 || (stage != 1 && stage != 2) {
		return errors.New("school state: no stage 1 or 2")
	}
	from, m := binary.Varint(data[n:])
	if m <= 0 || n+m != len(data) {
		return errors.New("school state: damaged")
	}
	r.stage, r.stageFrom = int(stage), from
	return nil
}
