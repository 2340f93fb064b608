package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// The fuzz targets feed hostile bytes to the archive readers through Run, the way
// a rating officer's archive reaches them. A run must never panic, never allocate
// without bound, and end in success, ErrRejected or an error that names the file.
//
//	go test -run '^$' -fuzz FuzzCSVTables -fuzztime 60s ./pipeline
//	go test -run '^$' -fuzz FuzzParquetTable -fuzztime 60s ./pipeline

const fuzzTournaments = `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Autumn Open,2025-01-10,2025-01-12,swiss,3,chess,true,BH/C1
11,Scrabble Cup,2025-02-10,2025-02-10,swiss,2,scrabble,true,
`

const fuzzGames = `tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points
10,1,1,2,1,0,,
10,1,3,4,=,=,,
10,2,1,3,0,1,,
10,2,2,,H,,,
11,1,1,2,W,L,400,380
`

// allocLimit bounds what one run on a small hostile input may allocate.
const allocLimit = 512 << 20

// fuzzRun runs an archive held in files and checks the outcome.
func fuzzRun(t *testing.T, files map[string][]byte, blamed ...string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := Run(context.Background(), Options{Archive: os.DirFS(dir), ArchiveName: "fuzz", Out: filepath.Join(dir, "out"), Workers: 1})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("run took %v on a small archive", d)
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > allocLimit {
		t.Errorf("run allocated %d MB on a %d-file archive", d>>20, len(files))
	}
	if err == nil || errors.Is(err, ErrRejected) {
		return
	}
	for _, name := range blamed {
		if strings.Contains(err.Error(), name) {
			return
		}
	}
	t.Errorf("error names none of %v: %v", blamed, err)
}

// FuzzCSVTables: arbitrary players.csv and games.csv next to a fixed tournaments.csv.
func FuzzCSVTables(f *testing.F) {
	f.Add([]byte(goodPlayers), []byte(fuzzGames))
	f.Add([]byte(goodPlayers+"1,Dup,,,,\nx,Bad,,,,\n"), []byte(fuzzGames+"10,9,1,2,1,0,,\n\"unterminated\n"))
	f.Add([]byte("\ufeffplayer_id,name\n1,A\n2,B\n"), []byte("tournament_id,round,white_id,white_result\n10,1,1,F\n"))
	f.Add([]byte("player_id\n"), []byte(""))
	f.Fuzz(func(t *testing.T, players, games []byte) {
		fuzzRun(t, map[string][]byte{
			"players.csv": players, "games.csv": games, "tournaments.csv": []byte(fuzzTournaments),
		}, "players.csv", "games.csv")
	})
}

// parquetBytes writes rows as Parquet bytes.
func parquetBytes[T any](tb testing.TB, rows []T, opts ...parquet.WriterOption) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

var fuzzParquetTables = []string{"games", "players", "tournaments"}

// FuzzParquetTable: arbitrary bytes as games.parquet, players.parquet or
// tournaments.parquet (table = which), the other tables being fine CSV.
func FuzzParquetTable(f *testing.F) {
	one, two := int64(2), int64(4)
	zero, win := "0", "1"
	games := []gameRecord{
		{TournamentID: 10, Round: 1, WhiteID: 1, BlackID: &one, WhiteResult: "1", BlackResult: &zero},
		{TournamentID: 10, Round: 1, WhiteID: 3, BlackID: &two, WhiteResult: "0", BlackResult: &win},
		{TournamentID: 10, Round: 2, WhiteID: 1, WhiteResult: "U"},
	}
	by := int32(2010)
	players := []playerRecord{{PlayerID: 1, Name: "Ann", BirthYear: &by}, {PlayerID: 2, Name: "Bob"}, {PlayerID: 3, Name: "Cid"}, {PlayerID: 4, Name: "Dan"}}
	tours := []tournamentRecord{{TournamentID: 10, Name: "Open", StartDate: 20100, EndDate: 20102, System: "swiss", Rounds: 3, Discipline: "chess", Rated: true}}
	f.Add(parquetBytes(f, games, parquet.Compression(&parquet.Zstd)), uint8(0))
	f.Add(parquetBytes(f, games, parquet.Compression(&parquet.Snappy), parquet.PageBufferSize(64)), uint8(0))
	f.Add(parquetBytes(f, players), uint8(1))
	f.Add(parquetBytes(f, tours, parquet.Compression(&parquet.Zstd)), uint8(2))
	f.Add([]byte("PAR1PAR1"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, table uint8) {
		name := fuzzParquetTables[int(table)%len(fuzzParquetTables)]
		files := map[string][]byte{
			"players.csv": []byte(goodPlayers), "games.csv": []byte(fuzzGames), "tournaments.csv": []byte(fuzzTournaments),
		}
		delete(files, name+".csv")
		files[name+".parquet"] = data
		fuzzRun(t, files, name+".parquet")
	})
}
