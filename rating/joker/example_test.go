package joker_test

import (
	"fmt"
	"time"

	"github.com/ratelist/ratelist/rating/joker"
)

// The worked example of docs/joker.md: a Beginner (150) wins at a table of
// three Masters (420, 480, 455), so the win pays 12 × 2.
func Example() {
	rules := joker.DefaultRules()
	ids := []int64{11, 12, 13, 14} // player_id of each dense index
	var st joker.State
	st.Grow(len(ids))
	copy(st.PlayerRating, []int32{150, 420, 480, 455})

	at := time.Date(2025, 3, 4, 18, 30, 0, 0, time.UTC).UnixMicro()
	rows := make([]joker.Row, 4) // one game, in seat order
	for p := range rows {
		rows[p] = joker.Row{Game: 1, At: at, Tour: -1, Player: int32(p), Place: int32(p + 1), Score: 300 - 100*int32(p), Pulka: joker.PulkaNull}
	}
	if err := rules.CheckGame(rows, false, ids); err != nil {
		fmt.Println("rejected:", err)
		return
	}
	cards, err := rules.Rate(&st, rows)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cards {
		fmt.Printf("player %d: level %d, %d × %d → %d (%s); personal +%d\n", ids[c.Row.Player], c.Change.Level,
			c.Change.PlaceBase, c.Change.Multiplier, c.Change.PlayerRating, c.Change.Reason, c.Change.PersonalDelta)
	}
	for _, lr := range rules.List(&st) {
		fmt.Printf("%d. %d %d %s\n", lr.Rank, ids[lr.Player], lr.PlayerRating, lr.LevelName)
	}
	// Output:
	// player 11: level 1, 12 × 2 → 174 (place); personal +3
	// player 12: level 4, 1 × 1 → 421 (place); personal +2
	// player 13: level 4, -4 × 1 → 476 (place); personal +1
	// player 14: level 4, -12 × 1 → 443 (place); personal +0
	// 1. 13 476 Master
	// 2. 14 443 Master
	// 3. 12 421 Master
	// 4. 11 174 Beginner
}
