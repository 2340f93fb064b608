package school_test

import (
	"fmt"

	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/school"
)

// A tournament of two established players: the winner gains what the loser
// loses: D = 100, PD = 0.64, K = 15 (40 games each, ratings 1800 and
// 1700), 15 × (0 − 0.64) = −9.6, so ∓10.
func ExampleRater_Rate() {
	st := rating.NewState(2)
	for p, r := range []int32{1800, 1700} {
		st.Rated[p], st.Rating[p], st.GamesTotal[p], st.Tournaments[p] = true, r, 40, 5
	}
	s := school.Defaults()
	s.MinGames = 1
	r := school.NewRater(s, st)
	ev := &rating.Event{ID: 1, Games: []rating.Game{{White: 0, Black: 1, WhiteResult: '0', BlackResult: '1'}}}
	for _, c := range r.Rate(st, ev) {
		fmt.Printf("player %d: %d → %d (K %d, %s)\n", c.Player, c.Before, c.After, c.K, c.Reason)
	}
	// Output:
	// player 0: 1800 → 1790 (K 15, rated)
	// player 1: 1700 → 1710 (K 15, rated)
}
