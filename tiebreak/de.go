package tiebreak

import (
	"cmp"
	"slices"
)

// deBlocks orders a tied group by direct encounter (C.07 art. 6). It returns the
// group split into blocks, best first; players in one block stay tied. pts, indexed
// by player, receives each member's half-points against the other members.
//
// A block boundary is drawn only where no outcome of the missing games (pairs of the
// group that never met, each worth up to a win) could change the order: every
// player above scores at least as much as any player below could reach, and strictly
// more. Blocks that are smaller than the group are ordered again among themselves.
func deBlocks(m *model, rr bool, group []int, pts []int) [][]int {
	if len(group) < 2 {
		return [][]int{group}
	}
	in := make(map[int]bool, len(group))
	for _, i := range group {
		in[i] = true
	}
	lo := make(map[int]int, len(group))
	hi := make(map[int]int, len(group))
	for _, i := range group {
		met := map[int]bool{}
		for _, s := range m.slots[i] {
			if s.played(rr) && in[s.opp] {
				lo[i] += s.pts
				met[s.opp] = true
			}
		}
		hi[i] = lo[i] + m.win*(len(group)-1-len(met))
		if pts != nil {
			pts[i] = lo[i]
		}
	}
	sorted := append([]int(nil), group...)
	slices.SortStableFunc(sorted, func(a, b int) int { return cmp.Compare(lo[b], lo[a]) })
	var blocks [][]int
	start := 0
	minTop := lo[sorted[0]]
	for k := 1; k < len(sorted); k++ {
		minTop = min(minTop, lo[sorted[k-1]])
		maxBottom := 0
		for _, j := range sorted[k:] {
			maxBottom = max(maxBottom, hi[j])
		}
		if minTop > maxBottom {
			blocks = append(blocks, sorted[start:k])
			start = k
			minTop = lo[sorted[k]]
		}
	}
	blocks = append(blocks, sorted[start:])
	if len(blocks) == 1 {
		return blocks
	}
	var out [][]int
	for _, b := range blocks {
		out = append(out, deBlocks(m, rr, b, nil)...)
	}
	return out
}
