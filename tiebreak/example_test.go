package tiebreak_test

import (
	"fmt"
	"os"
	"time"

	"github.com/ratelist/ratelist/tiebreak"
)

// A four-player round robin in which B and C finish level on 1½: their
// direct game was drawn, so DE leaves them level and Sonneborn-Berger
// splits them (C drew with the winner, B lost to him).
func ExampleStandings() {
	players := []tiebreak.Player{{ID: 1, StartNo: 1, Name: "A"}, {ID: 2, StartNo: 2, Name: "B"},
		{ID: 3, StartNo: 3, Name: "C"}, {ID: 4, StartNo: 4, Name: "D"}}
	game := func(round, white, black int, w, b byte) tiebreak.Game {
		return tiebreak.Game{Round: round, White: white, Black: black, WhiteResult: w, BlackResult: b}
	}
	t := &tiebreak.Tournament{
		ID: 1, Name: "Club round robin", Rounds: 3, System: "round-robin",
		Start: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC),
		Players: players,
		Games: []tiebreak.Game{
			game(1, 0, 1, '1', '0'), game(1, 2, 3, '=', '='),
			game(2, 2, 0, '=', '='), game(2, 1, 3, '1', '0'),
			game(3, 0, 3, '1', '0'), game(3, 1, 2, '=', '='),
		},
	}
	codes := []string{"DE", "SB"}
	rows, err := tiebreak.Standings(t, codes, tiebreak.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := tiebreak.WriteText(os.Stdout, codes, rows); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Rk  SNo  ID  Name  Pts   DE    SB
	//    1    1   1  A     2.5       2.75
	//    2    3   3  C     1.5  0.5  2.25
	//    3    2   2  B     1.5  0.5  1.25
	//    4    4   4  D     0.5       0.75
}
