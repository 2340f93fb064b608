package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/output"
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

// BenchmarkListCSV: a chunk of list rows as CSV lines, the names looked at
// per row (csvfield.Append) or by their shapes worked out once (rows/s).
func BenchmarkListCSV(b *testing.B) {
	names := []string{"Karimi, Reza", "Novák, Jan", "Hosseinzadeh, Sara", "O'Neil, Smith Jr.", "Ivanov, Ivan"}
	rows, shapes := make([]output.ListRow, listChunk), make([]csvfield.Shape, listChunk)
	for i := range rows {
		rows[i] = output.ListRow{Rank: int32(i + 1), PlayerID: int64(10001 + i), Name: names[i%len(names)], Rating: int32(2400 - i/10),
			GamesPeriod: int32(i % 9), GamesTotal: int32(30 + i%200), K: 20, Category: "2"}
		shapes[i] = csvfield.ShapeOf(rows[i].Name)
	}
	for _, sh := range []struct {
		name   string
		shapes []csvfield.Shape
	}{{"each", nil}, {"shaped", shapes}} {
		b.Run(sh.name, func(b *testing.B) {
			var c listCols
			c.fromRows(rows, nil, nil)
			if sh.shapes != nil {
				copy(c.shape, sh.shapes)
			}
			var buf []byte
			for b.Loop() {
				buf = c.appendCSV(buf[:0], nil)
			}
			b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// BenchmarkListCSVAdded: a chunk of list rows with Glicko-2's columns
// (two values at 2 decimals, one at 6) as CSV lines (rows/s).
func BenchmarkListCSVAdded(b *testing.B) {
	add := benchGlickoAdded()
	rows, shapes := make([]output.ListRow, listChunk), make([]csvfield.Shape, listChunk)
	vals := make([]rating.Value, 3*listChunk)
	for i := range rows {
		rows[i] = output.ListRow{Rank: int32(i + 1), PlayerID: int64(10001 + i), Name: "Karimi, Reza", Rating: int32(2400 - i/10),
			GamesPeriod: int32(i % 9), GamesTotal: int32(30 + i%200), Flags: "p"}
		shapes[i] = csvfield.ShapeOf(rows[i].Name)
		vals[3*i].Float = math.Round((2400-float64(i)*0.37)*100) / 100
		vals[3*i+1].Float = math.Round((50+float64(i%300)*0.77)*100) / 100
		vals[3*i+2].Float = math.Round((0.06+float64(i%97)*1e-5)*1e6) / 1e6
	}
	var c listCols
	c.fromRows(rows, vals, add)
	copy(c.shape, shapes)
	var buf []byte
	for b.Loop() {
		buf = c.appendCSV(buf[:0], add)
	}
	b.ReportMetric(float64(b.N*len(rows))/b.Elapsed().Seconds(), "rows/s")
}
