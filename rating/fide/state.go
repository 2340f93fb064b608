package fide

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/ratelist/ratelist/internal/varbin"
	"github.com/ratelist/ratelist/rating"
)

// fideStateRevision names the rules and the layout a saved FIDE state was
// made under: what Seen, the pools and the starting list mean depends on the
// first-tournament rule, the pool span and the starting floor, so a state of
// another revision would resume a different rating (1: the gob layout).
const fideStateRevision = 2

// MarshalState encodes what the rater keeps beyond rating.State after a period's
// close, for --resume and --from; with a period open (games rated since the
// close) it fails. Player indexes are dense indexes of the registry it was
// made with; UnmarshalState maps them onto today's.
//
// Layout: the revision and the player count n as uvarints; reached, seen and
// inPool as n bits each; lastPlayed as n varints, each the difference from
// the one before; started (a byte) and cur; the pooling players (count, then
// differences); then the count of non-empty pools and, for each, the player
// (difference from the one before) and its games: the games' fields as
// varints, tournament, end and period as differences from the game before
// and the player as its difference from the pool's.
func (r *Rater) MarshalState() ([]byte, error) { return r.AppendState(nil) }

// AppendState appends what MarshalState returns to b (rating.StateAppender):
// the pipeline reuses b from one period's state to the next.
func (r *Rater) AppendState(b []byte) ([]byte, error) {
	if r.openSides() > 0 || len(r.added) > 0 {
		return nil, errors.New("fide state: a period is open (its games are kept only until its close)")
	}
	n := len(r.reached)
	games, pools := 0, 0
	for _, gs := range r.pool {
		if len(gs) > 0 {
			games += len(gs)
			pools++
		}
	}
	if need := 16 + 3*(n+7)/8 + 2*n + 3*len(r.pooling) + 4*pools + 12*games; cap(b)-len(b) < need { // usually enough
		b = append(make([]byte, 0, len(b)+need), b...) // slices.Grow would copy b's stale bytes too
	}
	b = binary.AppendUvarint(b, fideStateRevision)
	b = binary.AppendUvarint(b, uint64(n))
	for _, col := range [][]bool{r.reached, r.seen, r.inPool} {
		b = varbin.AppendBools(b, col)
	}
	b = varbin.AppendVarints(b, r.lastPlayed, true)
	started := byte(0)
	if r.started {
		started = 1
	}
	b = append(b, started)
	b = binary.AppendVarint(b, int64(r.cur))
	b = binary.AppendUvarint(b, uint64(len(r.pooling)))
	b = varbin.AppendVarints(b, r.pooling, true)
	b = binary.AppendUvarint(b, uint64(pools))
	var last fideGame
	prevP := 0
	for p, gs := range r.pool {
		if len(gs) == 0 {
			continue
		}
		b = binary.AppendUvarint(b, uint64(p-prevP))
		b = binary.AppendUvarint(b, uint64(len(gs)))
		prevP = p
		for _, g := range gs {
			b = binary.AppendVarint(b, g.tour-last.tour)
			b = binary.AppendVarint(b, int64(g.end-last.end))
			b = binary.AppendVarint(b, int64(g.period-last.period))
			b = binary.AppendVarint(b, int64(g.p)-int64(p))
			b = binary.AppendVarint(b, int64(g.opp))
			b = binary.AppendVarint(b, int64(g.oppRating))
			b = binary.AppendVarint(b, int64(g.w2))
			last = g
		}
	}
	return b, nil
}

// UnmarshalState restores what MarshalState saved onto a rater made for
// today's registry: remap maps the saved dense indexes to today's (-1 for a
// player no longer there, whose pool games are dropped: the games that made
// them changed too, so the periods are named stale); nil means the same
// registry. On an error the rater is left as it was.
func (r *Rater) UnmarshalState(data []byte, remap []int32) error {
	d := stateReader{varbin.NewDecoder(data)}
	if rev := d.Uvarint(); d.Err() != nil || rev != fideStateRevision {
		return fmt.Errorf("fide state: made by a ratelist with other FIDE rules or layout (revision %d, this one reads %d)",
			rev, fideStateRevision)
	}
	n := len(r.reached)
	saved := n
	if remap != nil {
		saved = len(remap)
	}
	if got := d.Uvarint(); d.Err() == nil && got != uint64(saved) {
		return fmt.Errorf("fide state: made for %d players, not %d", got, saved)
	}
	to := func(p int32) int32 {
		if remap == nil {
			return p
		}
		return remap[p]
	}
	sReached, sSeen, sInPool := make([]bool, saved), make([]bool, saved), make([]bool, saved)
	for _, col := range [][]bool{sReached, sSeen, sInPool} {
		d.Bools(col)
	}
	sLast := make([]int32, saved)
	varbin.Varints(d.Decoder, sLast, true)
	started := d.Byte() == 1
	cur := int(d.Varint())
	sPooling := make([]int32, d.Count())
	varbin.Varints(d.Decoder, sPooling, true)
	// A player added to the registry since keeps what NewRater gave him.
	reached, seen, inPool := slices.Clone(r.reached), slices.Clone(r.seen), make([]bool, n)
	lastPlayed := slices.Clone(r.lastPlayed)
	for i := range saved {
		if j := to(int32(i)); j >= 0 {
			reached[j], seen[j], inPool[j], lastPlayed[j] = sReached[i], sSeen[i], sInPool[i], sLast[i]
		}
	}
	var pooling []int32
	for _, p := range sPooling {
		if j := to(d.player(p, saved)); j >= 0 {
			pooling = append(pooling, j)
		}
	}
	pool, poolFrom := make([][]fideGame, n), make([]int32, n)
	var last fideGame
	p := 0
	for range d.Count() {
		p = int(d.player(int32(p)+d.int32Unsigned(), saved))
		gs := make([]fideGame, d.Count())
		for i := range gs {
			g := fideGame{tour: last.tour + d.Varint(), end: last.end + d.int32(), period: last.period + d.int32()}
			g.p = d.player(int32(p)+d.int32(), saved)
			g.opp = d.player(d.int32(), saved)
			g.oppRating, g.w2 = d.int32(), d.int32()
			gs[i], last = g, g
		}
		if d.Err() != nil {
			break
		}
		np := to(int32(p))
		if np < 0 {
			continue
		}
		kept := gs[:0]
		for _, g := range gs {
			if g.p, g.opp = np, to(g.opp); g.opp >= 0 {
				kept = append(kept, g)
			}
		}
		if len(pool[np]) > 0 {
			d.Fail(errors.New("a player's pool twice"))
		}
		pool[np] = kept
		for i, g := range kept {
			if i == 0 || g.period < poolFrom[np] {
				poolFrom[np] = g.period
			}
		}
	}
	d.End()
	if d.Err() != nil {
		return fmt.Errorf("fide state: %w", d.Err())
	}
	if remap != nil {
		// The pools' order is the players' order: today's may differ from the saved one.
		slices.Sort(pooling)
	}
	r.reached, r.seen, r.inPool, r.lastPlayed, r.pooling = reached, seen, inPool, lastPlayed, pooling
	r.started, r.cur = started, cur
	r.pool, r.poolFrom, r.sorted, r.added = pool, poolFrom, 0, r.added[:0]
	return nil
}

// stateReader reads what MarshalState wrote; the first error sticks.
type stateReader struct{ *varbin.Decoder }

func (d stateReader) int32() int32 { return int32(d.Varint()) }

func (d stateReader) int32Unsigned() int32 {
	v := d.Uvarint()
	if v > 1<<31-1 {
		d.Fail(errors.New("player index out of range"))
		return 0
	}
	return int32(v)
}

// player checks that p is a player index below n.
func (d stateReader) player(p int32, n int) int32 {
	if p < 0 || int(p) >= n {
		d.Fail(fmt.Errorf("player index %d out of range", p))
		return 0
	}
	return p
}

// Definition registers FIDE's regulations as "fide".
var Definition = rating.Definition{
	Name:         "fide",
	Defaults:     func() rating.Settings { f := Defaults(); return &f },
	New:          func(s rating.Settings, st *rating.State) rating.RuleSet { return NewRater(*s.(*Settings), st) },
	MonthlyLists: true,
	Flags:        map[string]string{"i": "inactive: no rated game in the last 12 periods (FIDE rules)"},
	// FIDE has one stage; its summary.json carries "stage": 1 like the school system's.
	Summary: func(rating.RuleSet, *rating.State) []rating.SummaryField {
		return []rating.SummaryField{{Key: "stage", Value: 1}}
	},
}

// Rates: rated chess tournaments of the time classes of its settings.
func (r *Rater) Rates(discipline, timeClass string) bool {
	return r.F.TimeClasses.RatesChess(discipline, timeClass)
}

// The FIDE rule set's card reasons.
var (
	ReasonGame       = rating.NewReason("fide-game")         // one rated game of a period
	ReasonPeriod     = rating.NewReason("fide-period")       // a rated player's change for a period
	ReasonBelowFloor = rating.NewRemoval("fide-below-floor") // the period's change left the rating below the floor: removed
	ReasonPoolGame   = rating.NewReason("fide-pool-game")    // one pooled game of an unrated player
	ReasonInitial    = rating.NewReason("fide-initial")      // initial rating from the pool
	ReasonInitialLow = rating.NewReason("fide-initial-low")  // the pool's rating is below the floor: still unrated
	ReasonZeroFirst  = rating.NewReason("fide-zero-first")   // zero score in the first tournament: its games disregarded
)
