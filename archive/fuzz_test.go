package archive

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/internal/testutil"
)

// The fuzz targets feed hostile bytes to the table readers the way a rating
// officer's archive reaches them: Load, then every games and tables row read
// through. Nothing may panic or allocate without bound; a file that cannot be
// read must be named in the error; the loaded tables' counts must add up.
//
//	go test -run '^$' -fuzz FuzzCSVTables -fuzztime 60s ./archive
//	go test -run '^$' -fuzz FuzzParquetTable -fuzztime 60s ./archive

const fuzzPlayers = `player_id,name,birth_year,category,fide_rating,club
1,Ann,2010,1,,A
2,Bob,2011,2,,A
3,Cid,2012,3,,B
4,Dan,2012,4,,B
`

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

// allocLimit bounds what reading a small hostile archive may allocate.
const allocLimit = 512 << 20

// fuzzRead reads an archive held in files and checks the outcome.
func fuzzRead(t *testing.T, files map[string][]byte, blamed ...string) {
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
	err := readArchive(t, dir)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("reading took %v on a small archive", d)
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > allocLimit {
		t.Errorf("reading allocated %d MB on a %d-file archive", d>>20, len(files))
	}
	if err == nil {
		return
	}
	for _, name := range blamed {
		if strings.Contains(err.Error(), name) {
			return
		}
	}
	t.Errorf("error names none of %v: %v", blamed, err)
}

// readArchive loads the archive in dir and reads its games and tables through,
// checking the counts of the loaded tables and the row numbers of the batches.
func readArchive(t *testing.T, dir string) error {
	fsys := os.DirFS(dir)
	var rejects int64
	a, err := Load(context.Background(), fsys, func(RowError) { rejects++ })
	if err != nil {
		return err
	}
	for table, c := range a.Counts {
		if c.Read != c.Used+c.Rejected {
			t.Errorf("%s: read %d = used %d + rejected %d?", table, c.Read, c.Used, c.Rejected)
		}
		rejects -= c.Rejected
	}
	if rejects != 0 {
		t.Errorf("%d rejects handed on that no count holds", rejects)
	}
	for _, tc := range []struct {
		files []string
		cols  []Column
	}{{a.GameFiles, GameColumns}, {a.TableFiles, TableColumns}} {
		r := NewReader(fsys, tc.files, tc.cols)
		next := map[string]int64{}
		for r.Next() {
			b := r.Batch()
			if want := next[b.File] + 1; b.First != want {
				t.Errorf("%s: batch from row %d, want %d", b.File, b.First, want)
			}
			next[b.File] = b.First + int64(b.N) - 1
			for i := 0; i < b.N; i++ {
				b.Values(i)
			}
		}
		r.Close()
		if err := r.Err(); err != nil {
			return err
		}
	}
	return nil
}

// FuzzCSVTables: arbitrary players.csv and games.csv next to a fixed tournaments.csv.
func FuzzCSVTables(f *testing.F) {
	f.Add([]byte(fuzzPlayers), []byte(fuzzGames))
	f.Add([]byte(fuzzPlayers+"1,Dup,,,,\nx,Bad,,,,\n"), []byte(fuzzGames+"10,9,1,2,1,0,,\n\"unterminated\n"))
	f.Add([]byte("\ufeffplayer_id,name\n1,A\n2,B\n"), []byte("tournament_id,round,white_id,white_result\n10,1,1,F\n"))
	f.Add([]byte("player_id\n"), []byte(""))
	f.Add([]byte("player_id,name,club\r\n1,\"Doe, \"\"Ann\"\"\",\"A\r\nB\"\r\n\r\n2,Bob,\r\n"),
		[]byte("tournament_id,round,white_id,black_id,white_result\n10,1,1,2,1\n10,1,\"3\"x,4,=\n10,2,1\"\n,3,0\n\"10\",2,2,,H"))
	f.Fuzz(func(t *testing.T, players, games []byte) {
		fuzzRead(t, map[string][]byte{
			"players.csv": players, "games.csv": games, "tournaments.csv": []byte(fuzzTournaments),
		}, "players.csv", "games.csv")
	})
}

var fuzzParquetTables = []string{"games", "players", "tournaments"}

// FuzzParquetTable: arbitrary bytes as games.parquet, players.parquet or
// tournaments.parquet (table = which), the other tables being fine CSV.
func FuzzParquetTable(f *testing.F) {
	one, two := int64(2), int64(4)
	zero, win := "0", "1"
	games := []GameRow{
		{TournamentID: 10, Round: 1, WhiteID: 1, BlackID: &one, WhiteResult: "1", BlackResult: &zero},
		{TournamentID: 10, Round: 1, WhiteID: 3, BlackID: &two, WhiteResult: "0", BlackResult: &win},
		{TournamentID: 10, Round: 2, WhiteID: 1, WhiteResult: "U"},
	}
	by := int32(2010)
	players := []PlayerRow{{PlayerID: 1, Name: "Ann", BirthYear: &by}, {PlayerID: 2, Name: "Bob"}, {PlayerID: 3, Name: "Cid"}, {PlayerID: 4, Name: "Dan"}}
	swiss, chess, rated, rounds := "swiss", "chess", true, int32(3)
	tours := []TournamentRow{{TournamentID: 10, Name: "Open", StartDate: 20100, EndDate: 20102, System: &swiss, Rounds: &rounds, Discipline: &chess, Rated: &rated}}
	f.Add(testutil.ParquetBytes(f, games, parquet.Compression(&parquet.Zstd)), uint8(0))
	f.Add(testutil.ParquetBytes(f, games, parquet.Compression(&parquet.Snappy), parquet.PageBufferSize(64)), uint8(0))
	f.Add(testutil.ParquetBytes(f, players), uint8(1))
	f.Add(testutil.ParquetBytes(f, tours, parquet.Compression(&parquet.Zstd)), uint8(2))
	f.Add([]byte("PAR1PAR1"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, table uint8) {
		name := fuzzParquetTables[int(table)%len(fuzzParquetTables)]
		files := map[string][]byte{
			"players.csv": []byte(fuzzPlayers), "games.csv": []byte(fuzzGames), "tournaments.csv": []byte(fuzzTournaments),
		}
		delete(files, name+".csv")
		files[name+".parquet"] = data
		fuzzRead(t, files, name+".parquet")
	})
}
