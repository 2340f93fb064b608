package archive

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/internal/testutil"
)

// TestParquetPagesReadAlike reads one games file with many small pages (nulls,
// byes, dictionary pages with invalid result codes, all-null point columns,
// pages that end inside batches) straight from page data and value by value,
// and wants the same batches.
func TestParquetPagesReadAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	codes := []string{"1", "0", "=", "½", "+", "-", "X", "", "w", "10"}
	var rows []GameRow
	for i := range 30000 {
		g := GameRow{TournamentID: int64(rng.IntN(500)) - 3, Round: int32(rng.IntN(12)) - 1, WhiteID: rng.Int64N(1 << 40),
			WhiteResult: codes[rng.IntN(len(codes))]}
		if rng.IntN(10) > 0 {
			b, r := rng.Int64N(1<<40), codes[rng.IntN(len(codes))]
			g.BlackID, g.BlackResult = &b, &r
		}
		if i > 20000 && rng.IntN(3) == 0 { // points only in the last pages
			w, b := int32(rng.IntN(600)), int32(rng.IntN(600))
			g.WhitePoints, g.BlackPoints = &w, &b
		}
		rows = append(rows, g)
	}
	dir := t.TempDir()
	writeParquetFile(t, dir, "games.parquet", rows, parquet.PageBufferSize(700), parquet.MaxRowsPerRowGroup(9000))
	read := func(fast bool) []string {
		tr := NewReader(os.DirFS(dir), []string{"games.parquet"}, GameColumns)
		tr.valueByValue = !fast
		defer tr.Close()
		var out []string
		for tr.Next() {
			b := tr.Batch()
			for i := 0; i < b.N; i++ {
				row := fmt.Sprint(b.First+int64(i), b.Bad[i].Reason)
				for c := range GameColumns {
					row += fmt.Sprint(" ", b.Nulls[c][i], b.Ints[c][i])
				}
				out = append(out, row)
			}
		}
		if err := tr.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	fast, slow := read(true), read(false)
	if len(slow) != len(rows) {
		t.Fatalf("read %d rows of %d", len(slow), len(rows))
	}
	if len(fast) != len(slow) {
		t.Fatalf("%d rows straight from pages against %d value by value", len(fast), len(slow))
	}
	for i := range slow {
		if fast[i] != slow[i] {
			t.Fatalf("row %d: straight from pages %q, value by value %q", i, fast[i], slow[i])
		}
	}
	bad := 0
	for _, r := range slow {
		if strings.Contains(r, "invalid code") {
			bad++
		}
	}
	if bad == 0 {
		t.Fatal("no invalid result code was read: the test does not cover them")
	}
}

// writeParquetFile writes rows as dir/name, by default with small pages and
// row groups (opts come after the defaults and override them).
func writeParquetFile[T any](t *testing.T, dir, name string, rows []T, opts ...parquet.WriterOption) {
	t.Helper()
	opts = append([]parquet.WriterOption{parquet.PageBufferSize(1000), parquet.MaxRowsPerRowGroup(7000)}, opts...)
	if err := os.WriteFile(filepath.Join(dir, name), testutil.ParquetBytes(t, rows, opts...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestParquetTextAcrossPages: text values read value by value survive the
// release of their page when a Batch spans many pages (they once pointed into
// page buffers that parquet-go reuses: names came back as other bytes, and
// plain-encoded result codes as invalid).
func TestParquetTextAcrossPages(t *testing.T) {
	dir := t.TempDir()
	var players []PlayerRow
	for i := range 30000 {
		club := fmt.Sprintf("Club %d", i%97)
		players = append(players, PlayerRow{PlayerID: int64(i + 1), Name: fmt.Sprintf("Player Number %06d", i), Club: &club})
	}
	writeParquetFile(t, dir, "players.parquet", players)
	type plainGame struct { // result codes without a dictionary
		TournamentID int64   `parquet:"tournament_id"`
		Round        int32   `parquet:"round"`
		WhiteID      int64   `parquet:"white_id"`
		BlackID      *int64  `parquet:"black_id,optional"`
		WhiteResult  string  `parquet:"white_result"`
		BlackResult  *string `parquet:"black_result,optional"`
	}
	codes := []string{"1", "0", "=", "+", "-", "W", "L", "D"}
	var games []plainGame
	for i := range 30000 {
		b, r := int64(i+2), codes[(i+1)%len(codes)]
		games = append(games, plainGame{TournamentID: 1, Round: 1, WhiteID: int64(i + 1), BlackID: &b, WhiteResult: codes[i%len(codes)], BlackResult: &r})
	}
	writeParquetFile(t, dir, "games.parquet", games)

	tr := NewReader(os.DirFS(dir), []string{"players.parquet"}, PlayerColumns)
	i := 0
	for tr.Next() {
		b := tr.Batch()
		for j := 0; j < b.N; j, i = j+1, i+1 {
			if got, want := b.Strs[1][j], players[i].Name; got != want || b.Strs[5][j] != *players[i].Club {
				t.Fatalf("player row %d: name %q club %q, want %q %q", i+1, got, b.Strs[5][j], want, *players[i].Club)
			}
		}
	}
	if err := tr.Err(); err != nil || i != len(players) {
		t.Fatalf("read %d players: %v", i, err)
	}
	tr.Close()

	tr = NewReader(os.DirFS(dir), []string{"games.parquet"}, GameColumns)
	defer tr.Close()
	i = 0
	for tr.Next() {
		b := tr.Batch()
		for j := 0; j < b.N; j, i = j+1, i+1 {
			if b.Bad[j].Kind != KindNone || b.Ints[5][j] != int64(games[i].WhiteResult[0]) || b.Ints[6][j] != int64((*games[i].BlackResult)[0]) {
				t.Fatalf("games row %d: %q, results %c %c, want %s %s", i+1, b.Bad[j].Reason, b.Ints[5][j], b.Ints[6][j], games[i].WhiteResult, *games[i].BlackResult)
			}
		}
	}
	if err := tr.Err(); err != nil || i != len(games) {
		t.Fatalf("read %d games: %v", i, err)
	}
}
