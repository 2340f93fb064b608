package tiebreak_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/ratelist/ratelist/tiebreak"
)

// Benchmarks of one `run` standings job per tournament, over tournaments shaped
// like the generated archives' (internal/generate): three in four Swiss, 12–61
// players, 5–9 rounds, a half-point bye now and then, the pairing-allocated bye,
// rare forfeits; the rest round robins of 6–12 players.
//
//	go test -run '^$' -bench . -benchmem -count 6 ./tiebreak > new.txt; benchstat old.txt new.txt

// benchTournaments returns n tournaments drawn from a fixed seed.
func benchTournaments(n int) []*tiebreak.Tournament {
	rng := rand.New(rand.NewPCG(1, 2))
	ts := make([]*tiebreak.Tournament, n)
	for k := range ts {
		ts[k] = benchTournament(rng, int64(k+1))
	}
	return ts
}

func benchTournament(rng *rand.Rand, id int64) *tiebreak.Tournament {
	t := &tiebreak.Tournament{ID: id, System: "swiss", Discipline: "chess",
		Start: time.Date(2022+rng.IntN(5), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)}
	rr := rng.IntN(4) == 0
	np := 12 + rng.IntN(50)
	if rr {
		t.System = "round-robin"
		np = 6 + rng.IntN(7)
	}
	for i := 0; i < np; i++ {
		p := tiebreak.Player{ID: 1000000 + rng.Int64N(9000000), StartNo: i + 1, Name: fmt.Sprintf("Player %d", i+1), Rating: 1000 + rng.IntN(1700)}
		if rng.IntN(10) == 0 {
			p.Rating = 0
		}
		if rng.IntN(5) == 0 {
			p.Name = fmt.Sprintf("Surname%d, Given", i+1)
		}
		t.Players = append(t.Players, p)
	}
	score := make([]int, np)
	game := func(rd, w, b int) {
		g := tiebreak.Game{Round: rd, White: w, Black: b}
		switch x := rng.IntN(1000); {
		case x < 2:
			g.WhiteResult, g.BlackResult = '+', '-'
		case x < 4:
			g.WhiteResult, g.BlackResult = '-', '+'
		case x < 380:
			g.WhiteResult, g.BlackResult = '1', '0'
		case x < 680:
			g.WhiteResult, g.BlackResult = '=', '='
		default:
			g.WhiteResult, g.BlackResult = '0', '1'
		}
		t.Games = append(t.Games, g)
		score[w] += hp(g.WhiteResult)
		score[b] += hp(g.BlackResult)
	}
	bye := func(rd, p int, code byte) {
		t.Games = append(t.Games, tiebreak.Game{Round: rd, White: p, Black: -1, WhiteResult: code})
		score[p] += hp(code)
	}
	if rr {
		k := np + np%2
		t.Rounds = k - 1
		slots := make([]int, k)
		for i := range slots {
			slots[i] = i
		}
		for rd := 1; rd <= t.Rounds; rd++ {
			for i := 0; i < k/2; i++ {
				a, b := slots[i], slots[k-1-i]
				if (rd+i)%2 == 1 {
					a, b = b, a
				}
				switch {
				case a >= np:
					bye(rd, b, 'Z')
				case b >= np:
					bye(rd, a, 'Z')
				default:
					game(rd, a, b)
				}
			}
			last := slots[k-1]
			copy(slots[2:], slots[1:k-1])
			slots[1] = last
		}
		return t
	}
	t.Rounds = 5 + rng.IntN(5)
	order := make([]int, np)
	for rd := 1; rd <= t.Rounds; rd++ {
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return score[order[i]] > score[order[j]] })
		var pool []int
		for _, p := range order {
			if rd < t.Rounds && rng.IntN(100) == 0 {
				bye(rd, p, 'H')
				continue
			}
			pool = append(pool, p)
		}
		if len(pool)%2 == 1 {
			bye(rd, pool[len(pool)-1], 'U')
			pool = pool[:len(pool)-1]
		}
		for i := 0; i+1 < len(pool); i += 2 {
			game(rd, pool[i], pool[i+1])
		}
	}
	return t
}

// BenchmarkStandings: tiebreak.Standings with the default chess codes, per tournament.
func BenchmarkStandings(b *testing.B) {
	ts := benchTournaments(200)
	codes := tiebreak.DefaultCodes("chess")
	k := 0
	for b.Loop() {
		if _, err := tiebreak.Standings(ts[k%len(ts)], codes, tiebreak.Options{}); err != nil {
			b.Fatal(err)
		}
		k++
	}
}

// BenchmarkWriteCSV: the CSV of one tournament's standings.
func BenchmarkWriteCSV(b *testing.B) {
	ts := benchTournaments(200)
	codes := tiebreak.DefaultCodes("chess")
	rows := make([][]tiebreak.Row, len(ts))
	for k, t := range ts {
		var err error
		if rows[k], err = tiebreak.Standings(t, codes, tiebreak.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	k := 0
	for b.Loop() {
		var buf bytes.Buffer
		if err := tiebreak.WriteCSV(&buf, codes, rows[k%len(rows)]); err != nil {
			b.Fatal(err)
		}
		k++
	}
}

// BenchmarkJob: what the pipeline does per tournament, with one Engine per worker:
// standings, then the CSV bytes.
func BenchmarkJob(b *testing.B) {
	ts := benchTournaments(200)
	codes := tiebreak.DefaultCodes("chess")
	var e tiebreak.Engine
	k := 0
	for b.Loop() {
		rows, err := e.Standings(ts[k%len(ts)], codes, tiebreak.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(e.CSV(codes, rows)) == 0 {
			b.Fatal("no CSV")
		}
		k++
	}
}

// BenchmarkEngine: a reused Engine's standings alone, as the pipeline takes
// them for its Parquet files (no CSV).
func BenchmarkEngine(b *testing.B) {
	ts := benchTournaments(200)
	codes := tiebreak.DefaultCodes("chess")
	var e tiebreak.Engine
	k := 0
	for b.Loop() {
		if _, err := e.Standings(ts[k%len(ts)], codes, tiebreak.Options{}); err != nil {
			b.Fatal(err)
		}
		k++
	}
}
