package pipeline

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRankPlaces: the counting sort and its wide-span fallback give the order
// rating high to low, then entry order.
func TestRankPlaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, span := range []int32{1, 3, 400, 3000, 1 << 30} {
		for _, n := range []int{0, 1, 2, 17, 5000} {
			entries := make([]listEntry, n)
			for i := range entries {
				entries[i].rating = int32(rng.Int64N(int64(span))) - span/2
			}
			order := make([]int, n)
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int { return int(entries[b].rating) - int(entries[a].rating) })
			place := rankPlaces(entries)
			for rank, i := range order {
				if place[i] != int32(rank) {
					t.Fatalf("span %d, n %d: entry %d (rating %d) placed %d, want %d", span, n, i, entries[i].rating, place[i], rank)
				}
			}
		}
	}
}
