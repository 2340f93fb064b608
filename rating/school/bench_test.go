package school

import (
	"math/rand/v2"
	"testing"

	"github.com/ratelist/ratelist/rating"
)

// BenchmarkRate: tournaments of 30 players drawn at random from 200k, eight
// rounds each, as the school run rates them: every participant's state lies
// at its own place in memory (games/s).
func BenchmarkRate(b *testing.B) {
	const players, events, size, rounds = 200000, 4000, 30, 8
	rnd := rand.New(rand.NewPCG(5, 6))
	evs := make([]rating.Event, events)
	for i := range evs {
		ps := make([]int32, size)
		for j := range ps {
			ps[j] = int32(rnd.IntN(players))
		}
		for range rounds {
			rnd.Shuffle(len(ps), func(a, c int) { ps[a], ps[c] = ps[c], ps[a] })
			for j := 0; j+1 < len(ps); j += 2 {
				w := rnd.IntN(3)
				evs[i].Games = append(evs[i].Games, rating.Game{White: ps[j], Black: ps[j+1], WhiteResult: "10="[w], BlackResult: "01="[w]})
			}
		}
		evs[i].ID = int64(i + 1)
	}
	st := rating.NewState(players)
	for p := range st.Category {
		st.Category[p] = int8(1 + p%4)
	}
	r := NewRater(Defaults(), st)
	var games int
	for b.Loop() {
		for i := range evs {
			r.Rate(st, &evs[i])
			games += len(evs[i].Games)
		}
	}
	b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
}
