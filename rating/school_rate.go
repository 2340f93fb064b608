package rating

import (
	"cmp"
	"slices"
)

// SchoolRater applies the school system tournament by tournament. It keeps
// scratch buffers between calls, so one SchoolRater serves one goroutine.
type SchoolRater struct {
	S School

	local  []int32 // dense player → participant slot + 1 (0 = not in this event)
	parts  []participant
	opps   []int32
	cards  []Card
	counts int32 // players with GamesTotal ≥ Stage2Games
}

type participant struct {
	player     int32
	ratedStart bool
	start      int32
	newcomer1  bool // stage-one initial rating assigned at this event's start
	n, w2      int32
	oppFrom    int // participant's opponents' ratings in opps[oppFrom:oppTo]
	oppTo      int
}

// NewSchoolRater returns a rater for st's players.
func NewSchoolRater(s School, st *State) *SchoolRater {
	r := &SchoolRater{S: s, local: make([]int32, len(st.Rated))}
	if s.Stage != 0 {
		st.Stage = s.Stage
	}
	for _, g := range st.GamesTotal {
		if g >= s.Stage2Games {
			r.counts++
		}
	}
	return r
}

// otbScore returns a played-over-the-board rated game's score in half points.
func otbScore(code byte) (int32, bool) {
	switch code {
	case '1':
		return 2, true
	case '=':
		return 1, true
	case '0':
		return 0, true
	}
	return 0, false
}

// Rate rates one tournament (school-elo.md §1 Method 3–6, §3) and returns one
// card per participant, in player index order. The returned slice is reused by
// the next call.
func (r *SchoolRater) Rate(st *State, ev *Event) []Card {
	s := &r.S
	stage := st.Stage
	r.parts = r.parts[:0]
	r.opps = r.opps[:0]
	r.cards = r.cards[:0]

	// 1. Participants and their ratings at the start.
	add := func(p int32) {
		if r.local[p] != 0 {
			return
		}
		pt := participant{player: p}
		if st.Rated[p] {
			pt.ratedStart, pt.start = true, st.Rating[p]
		} else if stage == 1 {
			if init, ok := s.InitialStage1(st.Category[p], st.Elo[p]); ok {
				pt.ratedStart, pt.start, pt.newcomer1 = true, init, true
			}
		}
		r.parts = append(r.parts, pt)
		r.local[p] = int32(len(r.parts))
	}
	for _, g := range ev.Games {
		add(g.White)
		if g.Black >= 0 {
			add(g.Black)
		}
	}
	slices.SortFunc(r.parts, func(a, b participant) int { return cmp.Compare(a.player, b.player) })
	for i := range r.parts {
		r.local[r.parts[i].player] = int32(i + 1)
	}

	// 2. Rated games: over the board, against an opponent rated at the start.
	// Each participant's opponents' ratings end up contiguous in opps, in game
	// order: count, then place.
	rated := func(g *Game) (wOK, bOK bool) {
		if g.Black < 0 {
			return false, false
		}
		_, w := otbScore(g.WhiteResult)
		_, b := otbScore(g.BlackResult)
		if !w || !b {
			return false, false
		}
		return r.parts[r.local[g.Black]-1].ratedStart, r.parts[r.local[g.White]-1].ratedStart
	}
	for i := range ev.Games {
		if w, b := rated(&ev.Games[i]); w || b {
			if w {
				r.parts[r.local[ev.Games[i].White]-1].n++
			}
			if b {
				r.parts[r.local[ev.Games[i].Black]-1].n++
			}
		}
	}
	off := 0
	for i := range r.parts {
		r.parts[i].oppFrom, r.parts[i].oppTo = off, off
		off += int(r.parts[i].n)
	}
	r.opps = append(r.opps[:0], make([]int32, off)...)
	for i := range ev.Games {
		g := &ev.Games[i]
		w, b := rated(g)
		if w {
			pt, o := &r.parts[r.local[g.White]-1], &r.parts[r.local[g.Black]-1]
			ws, _ := otbScore(g.WhiteResult)
			pt.w2 += ws
			r.opps[pt.oppTo] = o.start
			pt.oppTo++
		}
		if b {
			pt, o := &r.parts[r.local[g.Black]-1], &r.parts[r.local[g.White]-1]
			bs, _ := otbScore(g.BlackResult)
			pt.w2 += bs
			r.opps[pt.oppTo] = o.start
			pt.oppTo++
		}
	}

	// 3. Outcomes, all from the ratings at the start.
	for i := range r.parts {
		pt := &r.parts[i]
		p := pt.player
		c := Card{Player: p, RatedBefore: st.Rated[p], Before: st.Rating[p], Games: pt.n, Score2: pt.w2, Stage: int8(stage),
			Used: pt.start, RatedUsed: pt.ratedStart}
		opp := r.opps[pt.oppFrom:pt.oppTo]
		if pt.n > 0 {
			c.OppAverage = AverageRating(opp)
		}
		switch {
		case pt.ratedStart && pt.n >= s.MinGames:
			c.K = s.K(st.Tournaments[p], st.GamesTotal[p], pt.start)
			c.Expected, c.D = s.Expected(pt.start, opp, c.OppAverage)
			c.ChangeExact, c.Change = Change(c.K, pt.w2, c.Expected)
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
	}

	// 4. Apply.
	for i := range r.cards {
		c := &r.cards[i]
		p := c.Player
		r.local[p] = 0
		if !c.RatedAfter {
			continue
		}
		computed := c.Reason == ReasonRated || c.Reason == ReasonInitialStage2 ||
			(c.Reason == ReasonInitialStage1 && c.Games >= s.MinGames)
		if computed {
			st.Tournaments[p]++
		}
		old := st.GamesTotal[p]
		st.GamesTotal[p] += c.Games
		st.GamesPeriod[p] += c.Games
		if old < s.Stage2Games && st.GamesTotal[p] >= s.Stage2Games {
			r.counts++
		}
		st.Rated[p], st.Rating[p] = true, c.After
	}

	// 5. The stage switch, evaluated after each tournament (§3.7).
	if s.Stage == 0 && st.Stage == 1 && r.counts > s.Stage2Players {
		st.Stage = 2
	}
	return r.cards
}

// Recount recomputes the stage-switch count from the state (after a state was
// restored from disk).
func (r *SchoolRater) Recount(st *State) {
	r.counts = 0
	for _, g := range st.GamesTotal {
		if g >= r.S.Stage2Games {
			r.counts++
		}
	}
}
