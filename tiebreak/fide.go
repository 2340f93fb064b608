package tiebreak

import (
	"math"
	"slices"
)

// calc holds what the score-based tiebreaks share for one model: the scores that
// opponents see (adjusted by the policy) and, per player, one item per round.
type calc struct {
	key    calcKey // what Engine.calc made it for
	m      *model
	policy Policy
	rr     bool  // forfeits as played
	score  []int // face-value final scores, half-points
	adj    []int // scores as used in opponents' tiebreaks, half-points
	buf    []item
	// every player's items, player i's at all[off[i]:off[i+1]]; valid when haveAll
	all     []item
	off     []int
	totals  []total // per player
	haveAll bool
	// own, when set, holds the results that multiply the opponents' scores in SB
	// (the team codes that weigh match points by game points or the reverse).
	own *model
}

// item is one round's addend. val is the opponent's (or dummy's) score in
// half-points; contrib is the SB addend in quarter-points; vur marks a voluntarily
// unplayed round of the player.
type item struct {
	val, contrib int
	vur          bool
}

func newCalc(m *model, policy Policy, rr bool, score []int) *calc {
	c := &calc{}
	c.reset(m, policy, rr, score)
	return c
}

// reset makes c the calc of m, reusing c's storage.
func (c *calc) reset(m *model, policy Policy, rr bool, score []int) {
	c.m, c.policy, c.rr, c.score, c.own = m, policy, rr, score, nil
	c.adj = resize(c.adj, len(score))
	c.haveAll = false
	for i, row := range m.slots {
		a := m.extra(i) // summed in a local: a sum in c.adj[i] is stored at every step
		if policy == Fide2009 {
			// Opponents' unplayed rounds count as draws.
			for _, s := range row {
				if s.played(rr) {
					a += s.pts
				} else {
					a += m.draw
				}
			}
			c.adj[i] = a
			continue
		}
		// Face value, except requested byes and absences (rounds without an
		// opponent) after the last round the player was available for, which count
		// as draws (C.07 16.2.5, 16.3). A forfeit loss keeps its 0 wherever it
		// stands; a round robin counts every round at face value.
		last := len(row) - 1
		for last >= 0 && row[last].vur(rr) {
			last--
		}
		for r := range row {
			s := &row[r]
			if r > last && s.opp < 0 && !m.roundRobin {
				a += m.draw
			} else {
				a += s.pts
			}
		}
		c.adj[i] = a
	}
}

// appendItems appends player i's rounds to dst as tiebreak addends under the policy.
// Under the 2023+ rules a round robin's rest round (no opponent) is no round at all.
func (c *calc) appendItems(dst []item, i int) []item {
	spr := 0 // score before the round, half-points
	slots := c.m.slots[i]
	n := len(slots)
	rest := c.m.roundRobin && c.policy != Fide2009
	// Locals: after a store through dst the compiler would reload c's fields.
	adj, rr, own := c.adj, c.rr, c.own
	for r := range slots {
		s := &slots[r]
		var it item
		if rest && s.opp < 0 {
			spr += s.pts
			continue
		}
		if s.played(rr) {
			it.val = adj[s.opp]
		} else {
			switch c.policy {
			case Fide2009:
				// Virtual opponent: Svon = SPR + (1 − SfPR) + ½(n − R), with the
				// points of a win and a draw.
				it.val = spr + (c.m.win - s.pts) + c.m.draw*(n-(r+1))
			case Fide2023:
				it.val = c.score[i]
			default: // Fide2026: capped dummy.
				limit := n * c.m.draw // n draws
				if s.opp >= 0 {
					limit = c.adj[s.opp]
				}
				it.val = min(c.score[i], limit)
			}
			it.vur = c.policy != Fide2009 && s.vur(c.rr)
		}
		it.contrib = it.val * s.pts
		if own != nil {
			it.contrib = it.val * own.slots[i][r].pts
		}
		dst = append(dst, it)
		spr += s.pts
	}
	return dst
}

// total is what BH and SB need of one player's items: the sums of val and contrib,
// and the val that BH/C1 drops: the least, or under the 2023+ rules the least of the
// voluntarily unplayed rounds when there are any (leastIndex without sbRule). It
// is found in the same walk as the sums: BH/C1 is a default code, so a second
// walk per player would run in almost every tournament.
type total struct {
	val, contrib int
	cutVal       int
}

// playerItems returns player i's items, computed for every player on first use
// together with their totals. The result must not be modified.
func (c *calc) playerItems(i int) []item {
	c.fillItems()
	return c.all[c.off[i]:c.off[i+1]:c.off[i+1]]
}

// fillItems computes every player's items and totals, once per calc.
func (c *calc) fillItems() {
	if !c.haveAll {
		np := len(c.m.slots)
		c.all = slices.Grow(c.all[:0], np*c.m.n)
		c.totals = resize(c.totals, np)
		c.off = resize(c.off, np+1)
		c.off[0] = 0
		for j := range c.m.slots {
			c.all = c.appendItems(c.all, j)
			c.off[j+1] = len(c.all)
			c.totals[j] = c.total(c.all[c.off[j]:])
		}
		c.haveAll = true
	}
}

func (c *calc) total(its []item) total {
	var t total
	least, leastVUR := math.MaxInt, math.MaxInt
	for k := range its {
		it := &its[k]
		t.val += it.val
		t.contrib += it.contrib
		least = min(least, it.val)
		if it.vur {
			leastVUR = min(leastVUR, it.val)
		}
	}
	t.cutVal = least
	if leastVUR != math.MaxInt { // it.vur is only ever set under the 2023+ rules
		t.cutVal = leastVUR
	}
	return t
}

// trimmed returns player i's items after Cut-n and Median-n (trim), in a buffer
// reused by the next call.
func (c *calc) trimmed(i, cut, median int, sbRule bool) []item {
	c.buf = append(c.buf[:0], c.playerItems(i)...)
	return trim(c.buf, cut, median, c.policy != Fide2009, sbRule)
}

// buchholz returns BH with modifiers, in half-points.
func (c *calc) buchholz(i int, cut, median int) int {
	c.fillItems()
	switch {
	case cut == 0 && median == 0:
		return c.totals[i].val
	case cut == 1 && median == 0 && c.off[i+1] > c.off[i]:
		return c.totals[i].val - c.totals[i].cutVal
	}
	sum := 0
	for _, it := range c.trimmed(i, cut, median, false) {
		sum += it.val
	}
	return sum
}

// sonneborn returns SB with modifiers, in quarter-points.
func (c *calc) sonneborn(i int, cut, median int) int {
	c.fillItems()
	switch {
	case cut == 0 && median == 0:
		return c.totals[i].contrib
	case cut == 1 && median == 0 && c.off[i+1] > c.off[i]:
		its := c.playerItems(i)
		return c.totals[i].contrib - its[leastIndex(its, c.policy != Fide2009, true)].contrib
	}
	sum := 0
	for _, it := range c.trimmed(i, cut, median, true) {
		sum += it.contrib
	}
	return sum
}

// trim applies Cut-n and Median-n: removes the least significant item (leastIndex)
// cut+median times, then the most significant one median times.
//
// It works in place: items is reordered and the result shares its storage.
func trim(items []item, cut, median int, vurFirst, sbRule bool) []item {
	remove := func(k int) { items = append(items[:k], items[k+1:]...) }
	for k := 0; k < cut+median && len(items) > 0; k++ {
		remove(leastIndex(items, vurFirst, sbRule))
	}
	for k := 0; k < median && len(items) > 0; k++ {
		most := 0
		for j, it := range items {
			if it.val > items[most].val || (it.val == items[most].val && it.contrib > items[most].contrib) {
				most = j
			}
		}
		remove(most)
	}
	return items
}

// leastIndex returns the index of the least significant of the items (not empty).
// Under the 2023+ rules (vurFirst) voluntarily unplayed rounds go first; for SB
// (sbRule) the TEC rule picks, of the smallest VUR contribution and the least
// significant opponent's contribution, the larger one.
func leastIndex(items []item, vurFirst, sbRule bool) int {
	least := 0
	for j, it := range items {
		if it.val < items[least].val || (it.val == items[least].val && it.contrib < items[least].contrib) {
			least = j
		}
	}
	if !vurFirst {
		return least
	}
	v := -1
	for j, it := range items {
		if !it.vur {
			continue
		}
		if v < 0 {
			v = j
			continue
		}
		if sbRule {
			if it.contrib < items[v].contrib || (it.contrib == items[v].contrib && it.val < items[v].val) {
				v = j
			}
		} else if it.val < items[v].val || (it.val == items[v].val && it.contrib < items[v].contrib) {
			v = j
		}
	}
	if v < 0 || (sbRule && items[least].contrib > items[v].contrib) {
		return least
	}
	return v
}

// aob is the average BH of the opponents met over the board, in hundredths rounded
// half up; ok is false when the player met nobody. otb says whether forfeits count
// as meetings (not by the round robin alone: the opponents are those met over the
// board, each with his BH as c computes it).
func (c *calc) aob(i int, otb bool) (hundredths int, ok bool) {
	c.playerItems(i) // fills c.totals: every player's plain BH
	sum, k := 0, 0
	for _, s := range c.m.slots[i] {
		if s.played(otb) {
			sum += c.totals[s.opp].val
			k++
		}
	}
	if k == 0 {
		return 0, false
	}
	// sum is in half-points: average = sum / (2k) points = 50·sum / k hundredths.
	return roundDiv(100*sum, 2*k), true
}

// koya is the points scored (half-points) against opponents whose adjusted score is at
// least half the maximum (n wins), the threshold moved by limit half-points (KS/L-2
// lowers it by one point).
func (c *calc) koya(i int, limit int) int {
	threshold := c.m.n*c.m.win + 2*limit // twice the threshold: n wins may be odd
	sum := 0
	for _, s := range c.m.slots[i] {
		if s.played(c.rr) && 2*c.adj[s.opp] >= threshold {
			sum += s.pts
		}
	}
	return sum
}

// progressive is the sum of cumulative scores after each round, the first cut rounds
// dropped, in half-points.
func progressive(slots []slot, cut int) int {
	cum, sum := 0, 0
	for r, s := range slots {
		cum += s.pts
		if r >= cut {
			sum += cum
		}
	}
	return sum
}

// foreSlots returns the slots and final scores as if every last-round pairing with
// an opponent, forfeits included, had been a drawn game against that opponent.
func foreSlots(m *model) ([][]slot, []int) {
	slots := make([][]slot, len(m.slots))
	score := make([]int, len(m.slots))
	for i, row := range m.slots {
		slots[i] = append([]slot(nil), row...)
		if n := len(row); n > 0 && row[n-1].opp >= 0 {
			s := &slots[i][n-1]
			s.pts, s.code, s.otb, s.forf = m.draw, '=', true, false
		}
		score[i] = m.extra(i)
		for _, s := range slots[i] {
			score[i] += s.pts
		}
	}
	return slots, score
}

// counts returns WIN, WON, BPG, BWG and REP for player i; otb says whether forfeits
// count as games played, winPts is the points of a win.
func counts(slots []slot, otb bool, winPts int) (win, won, bpg, bwg, rep int) {
	for _, s := range slots {
		p := s.played(otb)
		if s.pts == winPts {
			win++
		}
		if p && s.pts == winPts {
			won++
		}
		if p && s.color == 'b' {
			bpg++
			if s.pts == winPts {
				bwg++
			}
		}
		if p || !s.vur(otb) {
			rep++
		}
	}
	return
}

// roundDiv divides rounding half up (away from zero for negatives); d > 0.
func roundDiv(a, d int) int {
	if a >= 0 {
		return (2*a + d) / (2 * d)
	}
	return -((-2*a + d) / (2 * d))
}
