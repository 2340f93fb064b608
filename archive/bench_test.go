package archive_test

import (
	"context"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/generate"
)

// benchArchives holds one generated 200k-game archive per format (Parquet, CSV).
var benchArchives [2]struct {
	once sync.Once
	dir  string
	err  error
}

// benchArchive generates one 200k-game archive, as CSV or Parquet, for all
// benchmarks of a run.
func benchArchive(b *testing.B, csv bool) string {
	a := &benchArchives[0]
	if csv {
		a = &benchArchives[1]
	}
	a.once.Do(func() {
		a.dir, a.err = os.MkdirTemp("", "ratelist-bench-")
		if a.err == nil {
			a.err = generate.Archive(context.Background(), generate.Options{Players: 20000, Games: 200000, Months: 12, Seed: 1, Dir: a.dir, CSV: csv})
		}
	})
	if a.err != nil {
		b.Fatal(a.err)
	}
	return a.dir
}

// BenchmarkDecode: the games table of a generated 200k-game archive, column by
// column, into batches (no validation), in games (rows) per second:
//
//	go test -run '^$' -bench Decode -count 6 ./archive > new.txt; benchstat old.txt new.txt
func BenchmarkDecode(b *testing.B) { benchDecode(b, "games.parquet") }

// BenchmarkDecodeCSV: the same games as games.csv, into the same batches.
func BenchmarkDecodeCSV(b *testing.B) { benchDecode(b, "games.csv") }

func benchDecode(b *testing.B, file string) {
	dir := benchArchive(b, file == "games.csv")
	var rows int64
	cpu0 := cpuTime()
	for b.Loop() {
		tr := archive.NewReader(os.DirFS(dir), []string{file}, archive.GameColumns)
		for tr.Next() {
			rows += int64(tr.Batch().N)
		}
		if err := tr.Err(); err != nil {
			b.Fatal(err)
		}
		tr.Close()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "games/s")
	// CPU time tells the work apart from the wait on a shared machine.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time the process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
