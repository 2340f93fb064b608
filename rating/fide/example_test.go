package fide_test

import (
	"fmt"
	"time"

	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/fide"
)

func day(s string) int32 {
	t, _ := time.Parse(time.DateOnly, s)
	return int32(t.Unix() / 86400)
}

// A rated game in January goes on the list of 1 February: Rate gathers it,
// ClosePeriod rates it with the ratings at the period's start: D = 100, PD = 0.64,
// 20 × (1 − 0.64) = 7.2, so ±7.
func ExampleRater_ClosePeriod() {
	st := rating.NewState(2)
	for p, r := range []int32{2000, 1900} {
		st.Rated[p], st.Rating[p], st.GamesTotal[p] = true, r, 50
	}
	r := fide.NewRater(fide.Defaults(), st)
	end := day("2025-01-20")
	fmt.Println("list of", time.Unix(int64(r.ListDay(end))*86400, 0).UTC().Format(time.DateOnly))
	r.Rate(st, &rating.Event{ID: 1, Start: end, End: end, Games: []rating.Game{{White: 0, Black: 1, WhiteResult: '1', BlackResult: '0'}}})
	r.ClosePeriod(st, day("2025-02-01"), day("2025-02-28"), func(cards []rating.Card) error {
		for _, c := range cards {
			if c.PeriodTotal {
				fmt.Printf("player %d: %d → %d (K %d, %s)\n", c.Player, c.Before, c.After, c.K, c.Reason)
			}
		}
		return nil
	})
	// Output:
	// list of 2025-02-01
	// player 0: 2000 → 2007 (K 20, fide-period)
	// player 1: 1900 → 1893 (K 20, fide-period)
}
