package importer

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"
)

// writeBigPGN writes a PGN file of games moveless games, as broadcasts export
// them: one event of players players paired by the circle method, round after
// round (round robins of players, one after another, under one Event name, so
// that the event holds every game), or events of 500 games each (many).
func writeBigPGN(tb testing.TB, games, players int, many bool) string {
	name := filepath.Join(tb.TempDir(), "big.pgn")
	f, err := os.Create(name)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	results := []string{"1-0", "0-1", "1/2-1/2"}
	n := players
	perRound := n / 2
	for g := 0; g < games; g++ {
		r, i := g/perRound, g%perRound
		event, round := "Big Open", r%1000+1
		if many {
			event, round = fmt.Sprintf("Open %d", g/500), (g%500)/perRound+1
		}
		c := r % (n - 1)
		a, b := (c+i)%(n-1), (c+n-1-i)%(n-1)
		if i == 0 {
			b = n - 1
		}
		fmt.Fprintf(w, "[Event \"%s\"]\n[Site \"Hall %d\"]\n[Date \"2025.%02d.%02d\"]\n[Round \"%d.%d\"]\n[White \"Player %d\"]\n[Black \"Player %d\"]\n[Result \"%s\"]\n[WhiteElo \"%d\"]\n[BlackElo \"%d\"]\n[TimeControl \"5400+30\"]\n\n",
			event, i%2, 1+r/100%12, 1+r%28, round, i+1, a, b, results[(r+i)%3], 1500+a%1000, 1500+b%1000)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return name
}

// peakHeap samples the heap every 20 ms while fn runs and returns the largest
// sample. The garbage collector runs at GOGC=10 meanwhile, so that a sample is
// close to the live heap rather than to what GOGC=100 lets pile up.
func peakHeap(fn func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.HeapAlloc)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	return peak
}

// BenchmarkPGNImportLarge imports generated moveless PGN files of 100,000 and
// 1,000,000 games, as one event (2,000 players, 1,000 rounds of 1,000 boards:
// the shape whose games a reader would hold until the event ends) and as 2,000
// events of 500 games. It reports games/s and the peak live heap: memory must
// not grow with the games.
//
//	go test -run '^$' -bench PGNImportLarge -benchtime 1x ./importer
func BenchmarkPGNImportLarge(b *testing.B) {
	for _, size := range []int{100_000, 1_000_000} {
		for _, many := range []bool{false, true} {
			shape := map[bool]string{false: "one-event", true: "events"}[many]
			b.Run(fmt.Sprintf("%s/%d", shape, size), func(b *testing.B) {
				name := writeBigPGN(b, size, 2000, many)
				st, _ := os.Stat(name)
				b.SetBytes(st.Size())
				var peak uint64
				b.ResetTimer()
				for b.Loop() {
					a, err := Open(filepath.Join(b.TempDir(), "archive"), Options{})
					if err != nil {
						b.Fatal(err)
					}
					peak = max(peak, peakHeap(func() {
						s, err := ImportPGN(context.Background(), a, []string{name}, Options{})
						if err != nil || s.Imported != int64(size) {
							b.Fatalf("%v: %d of %d imported: %v", err, s.Imported, size, s.Problems[:min(3, len(s.Problems))])
						}
						if _, err := a.Commit(); err != nil {
							b.Fatal(err)
						}
					}))
				}
				b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
				b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			})
		}
	}
}
