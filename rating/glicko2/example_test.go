package glicko2_test

import (
	"fmt"

	"github.com/ratelist/ratelist/rating/glicko2"
)

// The worked example of Glickman's paper: a player rated 1500 (RD 200,
// volatility 0.06) beats a 1400 and loses to a 1550 and a 1700 in one
// rating period.
func ExampleUpdate() {
	player := glicko2.FromGlicko(1500, 200, 0.06)
	var games []glicko2.Result
	for _, g := range []struct{ r, rd, score float64 }{{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}} {
		opp := glicko2.FromGlicko(g.r, g.rd, 0) // an opponent's volatility plays no part
		games = append(games, glicko2.Result{Mu: opp.Mu, Phi: opp.Phi, Score: g.score})
	}
	s := glicko2.Defaults()
	after, v, delta := glicko2.Update(player, games, s.Tau, s.Epsilon)
	r, rd := after.Glicko()
	fmt.Printf("r′ = %.4f, RD′ = %.4f, σ′ = %.7f\n", r, rd, after.Sigma)
	fmt.Printf("v = %.4f, Δ = %.4f, E against the 1400 = %.3f\n", v, delta, games[0].E)
	// Output:
	// r′ = 1464.0507, RD′ = 151.5165, σ′ = 0.0599960
	// v = 1.7790, Δ = -0.4839, E against the 1400 = 0.639
}
