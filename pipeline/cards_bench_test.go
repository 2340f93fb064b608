package pipeline

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/school"
)

// benchCardRows is how many card rows one BenchmarkCards iteration writes:
// sixteen full row groups and a partial one (a 4M-game run makes about as many).
const benchCardRows = 16*cardsPerRowGroup + 1000

// benchCards returns rows cards in tournaments of ten cards each, a mix of the kinds the
// rule sets make: school cards, FIDE per-game rows, period totals, newcomers
// and players below the minimum of games.
func benchCards(players, rows int) [][]rating.Card {
	ts := make([][]rating.Card, rows/10)
	for t := range ts {
		cs := make([]rating.Card, 10)
		for i := range cs {
			p := int32(uint64(t*10+i) * 2654435761 % uint64(players)) // scattered, as in a big registry
			c := rating.Card{Player: p, Games: 7, Score2: 9, OppAverage: 1650, Stage: 1,
				Before: 1600, RatedBefore: true, After: 1612, RatedAfter: true, Used: 1600, RatedUsed: true,
				D: -50, Expected: 431, K: 20, ChangeExact: 1180, Change: 12, Reason: school.ReasonRated}
			switch i % 5 {
			case 1: // a FIDE game row
				c.PerGame, c.Opponent, c.OppRating, c.Score2, c.Games = true, (p+1)%int32(players), 1700, 2, 1
			case 2: // a FIDE period total at a tournament's row
				c.PeriodTotal, c.Tournament, c.End = true, int64(t+1), 19000
			case 3: // a newcomer without a rating yet
				c.RatedBefore, c.RatedAfter, c.RatedUsed, c.K, c.Reason = false, false, false, 0, school.ReasonNoInitial
			case 4: // too few games
				c.K, c.Games, c.Reason = 0, 0, school.ReasonMinGames
			}
			cs[i] = c
		}
		ts[t] = cs
	}
	return ts
}

// BenchmarkCards fills and writes cards.parquet as a run does: cardWriter.add on the
// producer, row groups written by the cards goroutine. cpu-ns/row is the
// process's CPU time (both goroutines and the GC), which holds better than
// wall time when the machine is busy.
func BenchmarkCards(b *testing.B) {
	ts := benchCards(benchPlayers, benchCardRows)
	rows := 0
	for _, cs := range ts {
		rows += len(cs)
	}
	benchWriteCards(b, ts, func(t int) (int64, int32) { return int64(t + 1), int32(19000 + t%60) }, rows, "row")
}

// benchPlayers is the registry's size in the cards benchmarks, as bench/run.sh
// generates.
const benchPlayers = 200000

// benchWriteCards writes chunks through a cardWriter once per iteration, as a
// run does: chunk i with the tournament and end date at(i) gives (tournament
// 0 for a period's close). It reports the rate and the process's CPU time per
// unit, of which one iteration writes units.
func benchWriteCards(b *testing.B, chunks [][]rating.Card, at func(i int) (int64, int32), units int, unit string) {
	arch := &runArchive{Archive: &archive.Archive{Players: archive.Players{ID: make([]int64, benchPlayers), Name: make([]string, benchPlayers)}}}
	for i := range benchPlayers {
		arch.Players.ID[i] = int64(100000 + i)
		arch.Players.Name[i] = fmt.Sprintf("Player %d, Firstname", i)
	}
	var done int64
	b.ReportAllocs()
	cpu0 := testutil.CPUTime()
	for b.Loop() {
		stage, err := newStaging(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		cw, err := newCardWriter(stage, &arch.Players, day.Month, plainCards)
		if err != nil {
			b.Fatal(err)
		}
		var g errgroup.Group
		g.Go(cw.run)
		ctx := context.Background()
		for i, cs := range chunks {
			tournament, end := at(i)
			if err := cw.add(ctx, day.PeriodOf(day.Month, day.Day(end)).Key, tournament, end, cs); err != nil {
				b.Fatal(err)
			}
		}
		done += int64(units)
		err = cw.flushAll(ctx)
		cw.close()
		if err := errors.Join(err, g.Wait()); err != nil {
			b.Fatal(err)
		}
		if err := cw.finish(); err != nil {
			b.Fatal(err)
		}
		stage.abort()
	}
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), unit+"s/s")
	b.ReportMetric(float64(testutil.CPUTime()-cpu0)/float64(done), "cpu-ns/"+unit)
}
