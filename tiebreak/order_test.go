package tiebreak

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrderByScore: the counting sort gives the order and groups of the sort, and
// starting numbers that do not ascend fall back to the sort.
func TestOrderByScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for k := 0; k < 500; k++ {
		np := rng.IntN(40)
		tour := &Tournament{}
		score := make([]int, np)
		for i := range score {
			score[i] = rng.IntN(1 + rng.IntN(20))
			tour.Players = append(tour.Players, Player{StartNo: i + 1 - rng.IntN(2)}) // ties
		}
		if k%3 == 0 {
			rng.Shuffle(np, func(i, j int) { tour.Players[i], tour.Players[j] = tour.Players[j], tour.Players[i] })
		}
		var e, want Engine
		e.m.t, e.m.score = tour, score
		want.m = e.m
		want.order = make([]int, np)
		want.sortByScore()
		e.orderByScore()
		if !slices.Equal(e.order, want.order) || !slices.Equal(e.ends, want.ends) {
			t.Fatalf("scores %v: order %v ends %v, want %v %v", score, e.order, e.ends, want.order, want.ends)
		}
	}
}
