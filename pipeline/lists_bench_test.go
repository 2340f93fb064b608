package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/school"
)

const benchListPlayers = 200000

// benchListRater is a rater with 200k rated players (school rules) at the
// close of a period, whose sink's jobs go to jobs.
func benchListRater(b *testing.B, jobs chan func() error) *rater {
	n := benchListPlayers
	st := rating.NewState(n)
	ps := archive.Players{ID: make([]int64, n), Name: make([]string, n)}
	rnd := rand.New(rand.NewPCG(1, 2))
	for p := range n {
		ps.ID[p], ps.Name[p] = int64(10001+p), fmt.Sprintf("Ivanov%d, Ivan", rnd.IntN(5000))
		st.Rated[p], st.Rating[p] = rnd.IntN(10) < 9, int32(1000+rnd.IntN(1500))
		st.GamesTotal[p], st.Tournaments[p], st.GamesPeriod[p] = int32(rnd.IntN(300)), int32(rnd.IntN(40)), int32(rnd.IntN(9))
	}
	s, err := newStaging(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	return &rater{
		players: &ps, st: st, rules: school.NewRater(school.Defaults(), st),
		periods: periods{kind: day.Month, cur: 2025 * 12},
		lists:   listTrack{prevOn: make([]bool, n), everOn: make([]bool, n), prevRating: make([]int32, n)},
		sum:     &Summary{},
		out:     &writeSink{stage: s, players: &ps, opt: &Options{Period: day.Month}, pool: workPool{jobs: jobs}},
	}
}

// benchEmit runs closePeriod b.N times; run tells whether its jobs (list and
// state files) are run, on the same goroutine, or dropped.
func benchEmit(b *testing.B, run bool) {
	jobs := make(chan func() error, 4)
	r := benchListRater(b, jobs)
	for b.Loop() {
		if err := r.closePeriod(context.Background()); err != nil {
			b.Fatal(err)
		}
		for len(jobs) > 0 {
			if job := <-jobs; run {
				if err := job(); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(b.N)*benchListPlayers/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkEmitList: the producer's share of a 200k-player list (its jobs dropped).
func BenchmarkEmitList(b *testing.B) { benchEmit(b, false) }

// BenchmarkEmitListJobs: a 200k-player list with its jobs, all on one goroutine.
func BenchmarkEmitListJobs(b *testing.B) { benchEmit(b, true) }

// BenchmarkEncodeState: one 200k-player state file.
func BenchmarkEncodeState(b *testing.B) {
	r := benchListRater(b, nil)
	s, err := r.snapshot(0)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := encodeState(&buf, s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "file-bytes")
}
