package pqwrite

import (
	"io"
	"math/rand/v2"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/output"
)

// benchGames are a row group's columns of card_games.parquet rows.
type benchGames struct {
	player, tour, opponent []int64
	end, oppR, d           []int32
	w, pd, change          []float64
	set                    []byte
	labels                 []string
	period, reason         []int32
}

func newBenchGames(n int) *benchGames {
	r := rand.New(rand.NewPCG(3, 4))
	g := &benchGames{labels: []string{"2025-01", "game"}}
	for i := range n {
		d := int32(r.IntN(800) - 400)
		s := r.IntN(3)
		pd := 50 + int(d)/8
		g.player = append(g.player, int64(100000+r.IntN(200000)))
		g.tour = append(g.tour, int64(1+i/70))
		g.opponent = append(g.opponent, int64(100000+r.IntN(200000)))
		g.end = append(g.end, int32(19000+i/2000))
		g.oppR = append(g.oppR, 1700+d)
		g.w = append(g.w, float64(s)/2)
		g.period, g.reason = append(g.period, 0), append(g.reason, 1)
		if r.IntN(10) == 0 {
			g.set = append(g.set, 0)
			continue
		}
		g.set = append(g.set, 1)
		g.d = append(g.d, d)
		g.pd = append(g.pd, float64(pd)/100)
		g.change = append(g.change, float64(20*(s*50-pd))/100)
	}
	return g
}

// BenchmarkCardGames encodes row groups of card_games.parquet's shape, in
// chunks as the pipeline hands them on, uncompressed: the encodings alone.
func BenchmarkCardGames(b *testing.B) {
	const rows, chunk = 1 << 16, 1 << 13
	g := newBenchGames(rows)
	w, err := New(io.Discard, output.CardGameSchema, parquet.Compression(&parquet.Uncompressed), parquet.DataPageStatistics(false))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := testutil.CPUTime()
	for b.Loop() {
		for lo, v := 0, 0; lo < rows; lo += chunk {
			hi := lo + chunk
			nv := 0
			for _, s := range g.set[lo:hi] {
				nv += int(s)
			}
			def := g.set[lo:hi]
			errs := []error{
				w.Column(0).StringIndexes(g.labels, g.period[lo:hi], nil, nil),
				w.Column(1).Int64(g.player[lo:hi], nil, nil),
				w.Column(2).Int64(g.tour[lo:hi], nil, nil),
				w.Column(3).Int32(g.end[lo:hi], nil, nil),
				w.Column(4).Int64(g.opponent[lo:hi], nil, nil),
				w.Column(5).Int32(g.oppR[lo:hi], nil, nil),
				w.Column(6).Double(g.w[lo:hi], nil, nil),
				w.Column(7).Int32(g.d[v:v+nv], def, nil),
				w.Column(8).Double(g.pd[v:v+nv], def, nil),
				w.Column(9).Double(g.change[v:v+nv], def, nil),
				w.Column(10).StringIndexes(g.labels, g.reason[lo:hi], nil, nil),
			}
			for _, err := range errs {
				if err != nil {
					b.Fatal(err)
				}
			}
			v += nv
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
	b.ReportMetric(float64(testutil.CPUTime()-cpu0)/float64(b.N*rows), "cpu-ns/row")
}

// BenchmarkDoubleDictionary looks up the doubles of card_games.parquet's
// dictionary columns: W (3 values), PD (about 100) and the unrounded change
// (hundreds), and of a column whose values hardly repeat (a rating with a
// decimal), a row group at a time.
func BenchmarkDoubleDictionary(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 1 << 16
	cols := [4][]float64{}
	for range n {
		d := r.IntN(800) - 400
		s := r.IntN(3)
		pd := 50 + d/8
		k := []int{10, 20, 40}[r.IntN(3)]
		cols[0] = append(cols[0], float64(s)/2)
		cols[1] = append(cols[1], float64(pd)/100)
		cols[2] = append(cols[2], float64(k*(s*50-pd))/100)
		cols[3] = append(cols[3], float64(10000+r.IntN(20000))/10)
	}
	for ci, name := range []string{"w", "pd", "change", "spread"} {
		b.Run(name, func(b *testing.B) {
			d := newDictionary(parquet.Double)
			out := make([]int32, 0, 64)
			for b.Loop() {
				d.reset()
				for lo := 0; lo < n; lo += 64 {
					out = addDict(d, out[:0], cols[ci][lo:lo+64])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/value")
		})
	}
}
