package tiebreak

import (
	"sort"

	"github.com/ratelist/ratelist/rating/tables"
)

// dp returns FIDE B.02 table 8.1.1's rating difference for a fractional score
// given in hundredths; p = 0 and p = 1 are −800 and +800 (C.07 10.2).
func dp(p100 int) int {
	switch {
	case p100 <= 0:
		return -800
	case p100 >= 100:
		return 800
	}
	v, _ := tables.DP(p100)
	return v
}

// pd returns the expected score, in hundredths, of a player rated d points above the
// opponent (d may be negative): FIDE B.02 table 8.1.2, with no 400-point cap.
func pd(d int) int { return tables.PD(d) }

// rcalc computes the rating-based tiebreaks over the games played over the board.
type rcalc struct {
	m      *model
	otb    bool // forfeits count as games played
	rating []int
	// defined: every player has a rating (his own or the configured one); else the
	// rating-based codes are undefined for the whole tournament (C.07 art. 10).
	defined bool
	tpr     []Value // cache for APRO
	ptp     []Value // cache for APPO
}

func newRCalc(m *model, otb bool, unrated int) *rcalc {
	rc := &rcalc{m: m, otb: otb, rating: make([]int, len(m.t.Players)), defined: true}
	for i, p := range m.t.Players {
		rc.rating[i] = p.Rating
		if rc.rating[i] <= 0 {
			rc.rating[i] = unrated
		}
		if rc.rating[i] <= 0 {
			rc.defined = false
		}
	}
	return rc
}

// opponents returns the ratings of player i's opponents met over the board and the
// half-points i scored against them as game results (1, ½, 0), whatever the point
// system.
func (rc *rcalc) opponents(i int) (ratings []int, score int) {
	for _, s := range rc.m.slots[i] {
		if s.played(rc.otb) {
			ratings = append(ratings, rc.rating[s.opp])
			score += halfPoints(s.code)
		}
	}
	return ratings, score
}

// aro is the average rating of opponents, cut lowest first, median both ends, rounded
// half up.
func (rc *rcalc) aro(i, cut, median int) Value {
	if !rc.defined {
		return Value{}
	}
	rs, _ := rc.opponents(i)
	sort.Ints(rs)
	lo, hi := cut+median, len(rs)-median
	if lo >= hi {
		return Value{}
	}
	sum := 0
	for _, r := range rs[lo:hi] {
		sum += r
	}
	return intValue(roundDiv(sum, hi-lo))
}

// performance returns TPR = ARO + dp(p), p the fractional score rounded to hundredths.
func performance(ratings []int, score int) (int, bool) {
	k := len(ratings)
	if k == 0 {
		return 0, false
	}
	sum := 0
	for _, r := range ratings {
		sum += r
	}
	aro := roundDiv(sum, k)
	// p = score/(2k) points per game; in hundredths 100·score/(2k), half up.
	return aro + dp(roundDiv(100*score, 2*k)), true
}

func (rc *rcalc) tprOf(i int) Value {
	if !rc.defined {
		return Value{}
	}
	rs, score := rc.opponents(i)
	v, ok := performance(rs, score)
	if !ok {
		return Value{}
	}
	return intValue(v)
}

// perfect returns PTP: the lowest integer rating whose expected score against the
// opponents reaches the player's score. Only a zero score is special (lowest − 800);
// a full score follows the rule (highest + 736, where every PD reaches 1).
func perfect(ratings []int, score int) (int, bool) {
	k := len(ratings)
	if k == 0 {
		return 0, false
	}
	lo, hi := ratings[0], ratings[0]
	for _, r := range ratings {
		lo, hi = min(lo, r), max(hi, r)
	}
	if score == 0 {
		return lo - 800, true
	}
	need := 50 * score // hundredths of a point
	// The expected score grows with R, so search for the first R that reaches it.
	n := 1601 + hi - lo
	j := sort.Search(n, func(j int) bool {
		exp := 0
		for _, r := range ratings {
			exp += pd(lo - 800 + j - r)
		}
		return exp >= need
	})
	return lo - 800 + min(j, n-1), true
}

func (rc *rcalc) ptpOf(i int) Value {
	if !rc.defined {
		return Value{}
	}
	rs, score := rc.opponents(i)
	v, ok := perfect(rs, score)
	if !ok {
		return Value{}
	}
	return intValue(v)
}

// average of the opponents' values (TPR or PTP), rounded half up; opponents with an
// undefined value are left out.
func (rc *rcalc) average(i int, vals []Value) Value {
	if !rc.defined {
		return Value{}
	}
	sum, k := 0, 0
	for _, s := range rc.m.slots[i] {
		if s.played(rc.otb) && vals[s.opp].OK {
			sum += int(vals[s.opp].V)
			k++
		}
	}
	if k == 0 {
		return Value{}
	}
	return intValue(roundDiv(sum, k))
}

func (rc *rcalc) apro(i int) Value {
	if rc.tpr == nil {
		rc.tpr = make([]Value, len(rc.rating))
		for j := range rc.tpr {
			rc.tpr[j] = rc.tprOf(j)
		}
	}
	return rc.average(i, rc.tpr)
}

func (rc *rcalc) appo(i int) Value {
	if rc.ptp == nil {
		rc.ptp = make([]Value, len(rc.rating))
		for j := range rc.ptp {
			rc.ptp[j] = rc.ptpOf(j)
		}
	}
	return rc.average(i, rc.ptp)
}
