package archive_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/testutil"
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
	cpu0 := testutil.CPUTime()
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
	b.ReportMetric(float64(testutil.CPUTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// wideGame is a games row as pandas and pyarrow write it by default: every
// integer INT64, so that the int32 columns are range-checked as they are read.
type wideGame struct {
	TournamentID int64   `parquet:"tournament_id"`
	Round        int64   `parquet:"round"`
	WhiteID      int64   `parquet:"white_id"`
	BlackID      *int64  `parquet:"black_id,optional"`
	WhiteResult  string  `parquet:"white_result,dict"`
	BlackResult  *string `parquet:"black_result,optional,dict"`
	WhitePoints  *int64  `parquet:"white_points,optional"`
	BlackPoints  *int64  `parquet:"black_points,optional"`
}

// BenchmarkDecodeWide: BenchmarkDecode's games written with INT64 rounds and
// points (the int32 columns' range check runs on every value).
func BenchmarkDecodeWide(b *testing.B) {
	dir := benchArchive(b, false)
	wide := filepath.Join(dir, "games-wide.parquet")
	if _, err := os.Stat(wide); err != nil {
		rows, err := parquet.ReadFile[archive.GameRow](filepath.Join(dir, "games.parquet"))
		if err != nil {
			b.Fatal(err)
		}
		out := make([]wideGame, len(rows))
		for i, g := range rows {
			out[i] = wideGame{TournamentID: g.TournamentID, Round: int64(g.Round), WhiteID: g.WhiteID, BlackID: g.BlackID,
				WhiteResult: g.WhiteResult, BlackResult: g.BlackResult}
			if g.WhitePoints != nil {
				w, k := int64(*g.WhitePoints), int64(*g.BlackPoints)
				out[i].WhitePoints, out[i].BlackPoints = &w, &k
			}
		}
		if err := parquet.WriteFile(wide, out, parquet.Compression(&parquet.Zstd)); err != nil {
			b.Fatal(err)
		}
	}
	benchDecode(b, "games-wide.parquet")
}
