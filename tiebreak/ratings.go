package tiebreak

import "sort"

// dpTable is FIDE B.02 table 8.1.1 (spec/dp.tsv): index = p in hundredths, value = dp;
// p = 0 and p = 1 are −800 and +800 (C.07 10.2).
var dpTable = [101]int{-800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296, -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141, -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7, 0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800}

// pdTable is FIDE B.02 table 8.1.2 (spec/pd.tsv): for |D| ≤ max, the higher-rated
// player expects high hundredths of a point, the lower-rated 100 − high.
var pdTable = []struct{ max, high int }{{3, 50}, {10, 51}, {17, 52}, {25, 53}, {32, 54}, {39, 55}, {46, 56}, {53, 57}, {61, 58}, {68, 59}, {76, 60}, {83, 61}, {91, 62}, {98, 63}, {106, 64}, {113, 65}, {121, 66}, {129, 67}, {137, 68}, {145, 69}, {153, 70}, {162, 71}, {170, 72}, {179, 73}, {188, 74}, {197, 75}, {206, 76}, {215, 77}, {225, 78}, {235, 79}, {245, 80}, {256, 81}, {267, 82}, {278, 83}, {290, 84}, {302, 85}, {315, 86}, {328, 87}, {344, 88}, {357, 89}, {374, 90}, {391, 91}, {411, 92}, {432, 93}, {456, 94}, {484, 95}, {517, 96}, {559, 97}, {619, 98}, {735, 99}, {1 << 30, 100}}

// dp returns the rating difference for a fractional score given in hundredths.
func dp(p100 int) int { return dpTable[max(0, min(100, p100))] }

// pd returns the expected score, in hundredths, of a player rated d points above the
// opponent (d may be negative). No 400-point cap.
func pd(d int) int {
	a := d
	if a < 0 {
		a = -a
	}
	k := sort.Search(len(pdTable), func(k int) bool { return pdTable[k].max >= a })
	if d >= 0 {
		return pdTable[k].high
	}
	return 100 - pdTable[k].high
}

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
