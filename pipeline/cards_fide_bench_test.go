package pipeline

import (
	"testing"

	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/fide"
)

// benchFidePeriods is how many player-periods one BenchmarkCardsFide
// iteration writes, each with benchFideGames games: the shape of a FIDE
// run's cards: most rows are games, a period's row comes after its games.
const (
	benchFidePeriods = 150000
	benchFideGames   = 7
)

// benchFideCards returns the cards of periods FIDE player-period closes in
// chunks as ClosePeriod hands them on: each player's games, then the period's total.
func benchFideCards(players, periods int) [][]rating.Card {
	var chunks [][]rating.Card
	var cs []rating.Card
	for i := range periods {
		p := int32(uint64(i) * 2654435761 % uint64(players))
		var w2 int32
		for g := range benchFideGames {
			s := int32((i + g) % 3)
			w2 += s
			d := int32((i*7+g*13)%800 - 400)
			cs = append(cs, rating.Card{Player: p, RatedBefore: true, Before: 1800, Games: 1, Score2: s, D: d,
				Expected: int64(50 + d/8), K: 20, ChangeExact: int64(20 * (int64(s)*50 - int64(50+d/8))),
				Reason: fide.ReasonGame, Tournament: int64(1 + (i+g)%5000), End: int32(19000 + g),
				PerGame: true, Opponent: (p + int32(g) + 1) % int32(players), OppRating: 1700 + d})
		}
		cs = append(cs, rating.Card{Player: p, RatedBefore: true, Before: 1800, After: 1805, RatedAfter: true,
			Games: benchFideGames, Score2: w2, OppAverage: 1790, Expected: 350, K: 20, ChangeExact: 480, Change: 5,
			Reason: fide.ReasonPeriod, PeriodTotal: true})
		if len(cs) >= 4096 {
			chunks, cs = append(chunks, cs), nil
		}
	}
	return append(chunks, cs)
}

// BenchmarkCardsFide writes the cards of FIDE period closes as a run does.
// cpu-ns/game is the process's CPU time per game card.
func BenchmarkCardsFide(b *testing.B) {
	benchWriteCards(b, benchFideCards(benchPlayers, benchFidePeriods), func(i int) (int64, int32) { return 0, int32(19000 + 30*(i/40)) },
		benchFidePeriods*benchFideGames, "game")
}
