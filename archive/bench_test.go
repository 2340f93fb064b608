package archive_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/generate"
)

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchArchive generates one 200k-game archive for all benchmarks of a run.
func benchArchive(b *testing.B) string {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "ratelist-bench-")
		if benchErr == nil {
			benchErr = generate.Archive(context.Background(), generate.Options{Players: 20000, Games: 200000, Months: 12, Seed: 1, Dir: benchDir})
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

// BenchmarkDecode: the games table of a generated 200k-game archive, column by
// column, into batches (no validation), in games (rows) per second:
//
//	go test -run '^$' -bench Decode -count 6 ./archive > new.txt; benchstat old.txt new.txt
func BenchmarkDecode(b *testing.B) {
	dir := benchArchive(b)
	var rows int64
	for b.Loop() {
		tr := archive.NewReader(os.DirFS(dir), []string{"games.parquet"}, archive.GameColumns)
		for tr.Next() {
			rows += int64(tr.Batch().N)
		}
		if err := tr.Err(); err != nil {
			b.Fatal(err)
		}
		tr.Close()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "games/s")
}
