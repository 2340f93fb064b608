package rating

import (
	"bytes"
	"encoding/gob"
	"fmt"
)

// fideStateRevision names the rules a saved FIDE state was made under: what
// Seen, the pools and the starting list mean depends on the first-tournament
// rule, the pool span and the starting floor, so a state of another revision
// (0: saved without the field) would resume a different rating.
const fideStateRevision = 1

// fideSaved is the FIDE rater's state between periods, for --resume and --from.
// Player indexes are dense indexes: the pipeline restores it only onto the same
// player registry.
type fideSaved struct {
	Revision              int
	Reached, Seen, InPool []bool
	LastPlayed, Pooling   []int32
	Pool                  [][]fideGameSaved
	Started               bool
	Cur                   int
}

type fideGameSaved struct {
	Tour                    int64
	End, Period, P, Opp, OR int32
	W2                      int32
}

// MarshalState encodes what the rater keeps beyond State (after a period's close).
func (r *FideRater) MarshalState() ([]byte, error) {
	s := fideSaved{Revision: fideStateRevision, Reached: r.reached, Seen: r.seen, InPool: r.inPool, LastPlayed: r.lastPlayed,
		Pooling: r.pooling, Started: r.started, Cur: r.cur, Pool: make([][]fideGameSaved, len(r.pool))}
	n := 0
	for _, gs := range r.pool {
		n += len(gs)
	}
	saved := make([]fideGameSaved, 0, n) // one backing array for every pool
	for p, gs := range r.pool {
		if len(gs) == 0 {
			continue
		}
		from := len(saved)
		for _, g := range gs {
			saved = append(saved, fideGameSaved{g.tour, g.end, g.period, g.p, g.opp, g.oppRating, g.w2})
		}
		s.Pool[p] = saved[from:len(saved):len(saved)]
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(&s); err != nil {
		return nil, fmt.Errorf("fide state: %w", err)
	}
	return b.Bytes(), nil
}

// UnmarshalState restores what MarshalState saved, onto a rater made for the
// same players.
func (r *FideRater) UnmarshalState(data []byte) error {
	var s fideSaved
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&s); err != nil {
		return fmt.Errorf("fide state: %w", err)
	}
	if s.Revision != fideStateRevision {
		return fmt.Errorf("fide state: made by a ratelist with other FIDE rules (revision %d, this one reads %d)",
			s.Revision, fideStateRevision)
	}
	n := len(r.reached)
	if len(s.Reached) != n || len(s.Seen) != n || len(s.InPool) != n || len(s.LastPlayed) != n || len(s.Pool) != n {
		return fmt.Errorf("fide state: made for %d players, not %d", len(s.Reached), n)
	}
	for _, p := range s.Pooling {
		if p < 0 || int(p) >= n {
			return fmt.Errorf("fide state: player index %d out of range", p)
		}
	}
	r.reached, r.seen, r.inPool, r.lastPlayed, r.pooling = s.Reached, s.Seen, s.InPool, s.LastPlayed, s.Pooling
	r.started, r.cur = s.Started, s.Cur
	for p := range r.pool {
		r.pool[p] = r.pool[p][:0]
		for _, g := range s.Pool[p] {
			if g.P < 0 || int(g.P) >= n || g.Opp < 0 || int(g.Opp) >= n {
				return fmt.Errorf("fide state: player index out of range in a pool")
			}
			r.pool[p] = append(r.pool[p], fideGame{tour: g.Tour, end: g.End, period: g.Period, p: g.P, opp: g.Opp, oppRating: g.OR, w2: g.W2})
		}
	}
	return nil
}

// fideDefinition registers FIDE's regulations as "fide".
var fideDefinition = Definition{
	Name:         "fide",
	Defaults:     func() Settings { f := DefaultFide(); return &f },
	New:          func(s Settings, st *State) RuleSet { return NewFideRater(*s.(*Fide), st) },
	MonthlyLists: true,
	// FIDE has one stage; its summary.json carries "stage": 1 like the school system's.
	Summary: func(RuleSet, *State) []SummaryField { return []SummaryField{{Key: "stage", Value: 1}} },
}
