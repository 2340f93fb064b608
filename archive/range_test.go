package archive

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// wideGame is a games row written with wider and unsigned physical types than
// the contract's: round and points as INT64, ids as UINT64, black_id as UINT32.
type wideGame struct {
	TournamentID uint64  `parquet:"tournament_id"`
	Round        int64   `parquet:"round"`
	WhiteID      uint64  `parquet:"white_id"`
	BlackID      *uint32 `parquet:"black_id,optional"`
	WhiteResult  string  `parquet:"white_result"`
	BlackResult  *string `parquet:"black_result,optional"`
	WhitePoints  *int64  `parquet:"white_points,optional"`
	BlackPoints  *uint32 `parquet:"black_points,optional"`
}

// readGames reads dir's games.parquet straight from page data (fast) or
// value by value, and returns per row "ROW: col=value …" or "ROW: REASON".
func readGames(t *testing.T, dir string, fast bool) []string {
	t.Helper()
	r := NewReader(os.DirFS(dir), []string{"games.parquet"}, GameColumns)
	r.valueByValue = !fast
	defer r.Close()
	var out []string
	for r.Next() {
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			row := fmt.Sprintf("%d:", b.First+int64(i))
			if b.Bad[i].Kind != KindNone {
				out = append(out, fmt.Sprintf("%s %s [%s]", row, b.Bad[i].Reason, b.Bad[i].KindName()))
				continue
			}
			for _, c := range []int{GameTournamentID, GameRound, GameWhiteID, GameBlackID, GameWhitePoints, GameBlackPoints} {
				v := "null"
				if !b.Nulls[c][i] {
					v = fmt.Sprint(b.Ints[c][i])
				}
				row += " " + v
			}
			out = append(out, row)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestParquetWideAndUnsigned: INT64 and unsigned columns are read as their
// values when these fit the contract's type (int32 for round and points,
// int64 for ids), and a value that does not is the row's problem, naming the
// column, the value as written and the row group, never a wrapped number; the
// same straight from page data and value by value, in either row group.
func TestParquetWideAndUnsigned(t *testing.T) {
	u32 := func(v uint32) *uint32 { return &v }
	i64 := func(v int64) *int64 { return &v }
	res := func(s string) *string { return &s }
	ok := wideGame{TournamentID: 7, Round: 3, WhiteID: 1 << 40, BlackID: u32(math.MaxUint32), WhiteResult: "1", BlackResult: res("0"),
		WhitePoints: i64(-250), BlackPoints: u32(math.MaxInt32)}
	rows := []wideGame{
		ok,
		{TournamentID: 7, Round: 1 << 32, WhiteID: 1, WhiteResult: "F"},                             // 4294967296 wraps to round 0
		{TournamentID: 7, Round: math.MinInt32 - 1, WhiteID: 1, WhiteResult: "F"},                   // below int32
		{TournamentID: 7, Round: 2, WhiteID: math.MaxUint64, WhiteResult: "F"},                      // reads as -1 signed
		{TournamentID: 7, Round: 2, WhiteID: 1, WhiteResult: "F", BlackPoints: u32(math.MaxUint32)}, // reads as -1 signed
		{TournamentID: 1 << 63, Round: 2, WhiteID: 1, WhiteResult: "F"},
		{TournamentID: 7, Round: 2, WhiteID: 1, WhiteResult: "F", WhitePoints: i64(math.MaxInt32 + 1)},
	}
	want := []string{
		"1: 7 3 1099511627776 4294967295 -250 2147483647",
		"2: round: 4294967296 does not fit int32 (row group 0) [round]",
		"3: round: -2147483649 does not fit int32 (row group 0) [round]",
		"4: white_id: 18446744073709551615 does not fit int64 (row group 0) [white_id]",
		"5: black_points: 4294967295 does not fit int32 (row group 0) [black_points]",
		"6: tournament_id: 9223372036854775808 does not fit int64 (row group 0) [tournament_id]",
		"7: white_points: 2147483648 does not fit int32 (row group 0) [white_points]",
	}
	// The same rows again in a second row group, read on.
	all := append(slices.Clone(rows), rows...)
	for i, w := range slices.Clone(want) {
		row := fmt.Sprint(len(rows) + i + 1)
		w = row + strings.TrimPrefix(w, fmt.Sprint(i+1))
		want = append(want, strings.Replace(w, "row group 0", "row group 1", 1))
	}
	dir := t.TempDir()
	writeParquetFile(t, dir, "games.parquet", all, parquet.MaxRowsPerRowGroup(int64(len(rows))))
	for _, fast := range []bool{true, false} {
		if got := readGames(t, dir, fast); !slices.Equal(got, want) {
			t.Errorf("fast %v:\n%s\nwant\n%s", fast, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// widePlayer is a players row with its integers wider or unsigned.
type widePlayer struct {
	PlayerID   uint64  `parquet:"player_id"`
	Name       string  `parquet:"name"`
	BirthYear  *int64  `parquet:"birth_year,optional"`
	FideRating *uint32 `parquet:"fide_rating,optional"`
	FideID     *uint64 `parquet:"fide_id,optional"`
}

// TestPlayersOutOfRange: the players table, loaded whole, rejects a row whose
// value does not fit the column's type as the games table does (naming the
// file, the row, the column and the row group), and takes the values that fit.
func TestPlayersOutOfRange(t *testing.T) {
	i64 := func(v int64) *int64 { return &v }
	u32 := func(v uint32) *uint32 { return &v }
	u64 := func(v uint64) *uint64 { return &v }
	dir := t.TempDir()
	writeParquetFile(t, dir, "players.parquet", []widePlayer{
		{PlayerID: 1, Name: "Anna", BirthYear: i64(2001), FideRating: u32(2100), FideID: u64(4100018)},
		{PlayerID: 2, Name: "Bea", BirthYear: i64(1<<32 + 2001)}, // wraps to 2001
		{PlayerID: 3, Name: "Cy", FideRating: u32(1<<32 - 1)},
		{PlayerID: 1 << 63, Name: "Dan"},
		{PlayerID: 5, Name: "Eve", FideID: u64(1<<64 - 5)},
	})
	var got []string
	a, err := Load(context.Background(), os.DirFS(dir), func(r RowError) { got = append(got, r.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"players.parquet row 2: birth_year: 4294969297 does not fit int32 (row group 0)",
		"players.parquet row 3: fide_rating: 4294967295 does not fit int32 (row group 0)",
		"players.parquet row 4: player_id: 9223372036854775808 does not fit int64 (row group 0)",
		"players.parquet row 5: fide_id: 18446744073709551611 does not fit int64 (row group 0)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rejects\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p := &a.Players
	if len(p.ID) != 1 || p.ID[0] != 1 || p.BirthYear[0] != 2001 || p.Elo[0] != 2100 || p.Info[0].FideID != 4100018 {
		t.Errorf("players %v, birth years %v, ratings %v, info %v; want Anna only, as written", p.ID, p.BirthYear, p.Elo, p.Info)
	}
}

// TestCSVOutOfRange: in CSV, an integer beyond int32 in an int32 column and
// one beyond int64 are rejected as out of range, never wrapped.
func TestCSVOutOfRange(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "players.csv"), "player_id,name,birth_year\n1,Anna,2001\n2,Bea,4294969297\n3,Cy,-4294965295\n99999999999999999999,Dan,\n")
	want := []string{
		"players.csv row 2: birth_year: 4294969297 does not fit int32",
		"players.csv row 3: birth_year: -4294965295 does not fit int32",
		"players.csv row 4: player_id: 99999999999999999999 does not fit int64",
	}
	var got []string
	for _, r := range loadRejects(t, dir) {
		got = append(got, r.Error())
	}
	if !slices.Equal(got, want) {
		t.Errorf("rejects\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
