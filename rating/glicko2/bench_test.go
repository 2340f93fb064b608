package glicko2

import (
	"math/rand/v2"
	"testing"

	"github.com/ratelist/ratelist/rating"
)

// BenchmarkClose closes a month of the bench archives' size: 375k games of
// 200k players in round-robin tournaments of 8, their cards emitted.
func BenchmarkClose(b *testing.B) {
	const players, games = 200_000, 375_000
	set := Defaults()
	s := NewState(players)
	rng := rand.New(rand.NewPCG(9, 9))
	var pd Period
	add := func() { fillMonth(&pd, rng, players, games) }
	add()
	if err := pd.Close(s, &set, 0, func(*CardRow) error { return nil }); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		add()
		b.StartTimer()
		if err := pd.Close(s, &set, 0, func(*CardRow) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClosePeriod closes BenchmarkClose's month as the pipeline does:
// through the Rater, its per-game cards handed on as rows.
func BenchmarkClosePeriod(b *testing.B) {
	const players, games = 200_000, 375_000
	st := rating.NewState(players)
	r := NewRater(Defaults(), st)
	r.EmitGames(func(*rating.GameRows) error { return nil })
	rng := rand.New(rand.NewPCG(9, 9))
	add := func() { fillMonth(&r.period, rng, players, games) }
	close := func() {
		if err := r.ClosePeriod(st, 0, 30, func([]rating.Card) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	add()
	close()
	for b.Loop() {
		b.StopTimer()
		add()
		b.StartTimer()
		close()
	}
}

// fillMonth adds to pd round robins of 8 players drawn at random from
// players, with random results, until it holds games games.
func fillMonth(pd *Period, rng *rand.Rand, players, games int) {
	var seats [8]int32
	for t := int64(0); pd.Len() < games; t++ {
		for i := range seats {
			seats[i] = int32(rng.IntN(players))
		}
		for i := range seats {
			for j := i + 1; j < len(seats); j++ {
				if seats[i] != seats[j] {
					ws := float64(rng.IntN(3)) / 2
					pd.AddFrom(Tournament{ID: t, End: 20000}, seats[i], seats[j], ws, 1-ws)
				}
			}
		}
	}
}
