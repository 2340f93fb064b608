package pipeline

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/day"
)

// TestMistypedYear: one tournament dated 0024 instead of 2024 is refused at
// once (usage, exit 2), naming the file, the row and the tournament, and
// nothing is written (but the lock, as by any failed run); confirmed (AllowGap), a gap that long runs; an archive
// of the 19th century whose tournaments follow each other needs no
// confirmation.
func TestMistypedYear(t *testing.T) {
	dir := t.TempDir()
	monthsArchive(t, dir, []string{"2024-01-20", "0024-02-10", "2024-03-09"}, "")
	out := filepath.Join(t.TempDir(), "out")
	start := time.Now()
	_, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, Now: asOf("2025-01-01")})
	var ge *GapError
	if !errors.As(err, &ge) || !errors.Is(err, ErrUsage) {
		t.Fatalf("err = %v, want a GapError (usage)", err)
	}
	for _, want := range []string{"tournaments.csv row 2", "tournament 102", `"Event 102"`, "0024-02-10", "--allow-gap"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refused after %s", d)
	}
	if files := readTree(t, out); len(files) > 0 { // the lock aside, as after any failed run
		t.Errorf("refused run left %d files in --out", len(files))
	}
	if _, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Now: asOf("2025-01-01")}); !errors.As(err, &ge) {
		t.Errorf("validate: err = %v, want a GapError", err)
	}

	// Confirmed: a century without games gets its lists.
	monthsArchive(t, dir, []string{"2024-01-20", "1924-02-10", "2024-03-09"}, "")
	sum := runOpt(t, Options{Archive: os.DirFS(dir), Out: out, Period: day.Year, AllowGap: true, Now: asOf("2025-01-01")})
	if sum.FirstList != "1924" || sum.Lists != 101 {
		t.Errorf("confirmed gap: lists %d from %s, want 101 from 1924", sum.Lists, sum.FirstList)
	}

	// The 19th century, month after month: no confirmation needed.
	monthsArchive(t, dir, []string{"1885-05-02", "1885-06-13", "1885-08-01", "1886-01-09"}, "")
	sum = runOpt(t, Options{Archive: os.DirFS(dir), Out: out, Now: asOf("2025-01-01")})
	if sum.FirstList != "1885-05" || sum.LastList != "1886-01" {
		t.Errorf("1885 archive: lists %s to %s, want 1885-05 to 1886-01", sum.FirstList, sum.LastList)
	}
}

// TestQuietGapLogged: three years without a rated tournament write their lists
// (they are official) and log one line for the whole gap, not one per list.
func TestQuietGapLogged(t *testing.T) {
	dir := t.TempDir()
	monthsArchive(t, dir, []string{"2020-01-11", "2020-02-08", "2023-03-04", "2023-04-01"}, "")
	var log bytes.Buffer
	sum := runOpt(t, Options{Archive: os.DirFS(dir), Out: t.TempDir(), Now: asOf("2025-01-01"),
		Log: slog.New(slog.NewTextHandler(&log, nil))})
	if sum.Lists != 40 {
		t.Errorf("%d lists, want 40 (2020-01 to 2023-04)", sum.Lists)
	}
	if n := strings.Count(log.String(), "no rated tournament for a year or more"); n != 1 {
		t.Errorf("%d gap lines, want 1:\n%s", n, log.String())
	}
	if !strings.Contains(log.String(), "first=2020-03 last=2023-02") {
		t.Errorf("the gap line does not name its lists 2020-03 to 2023-02:\n%s", log.String())
	}
}

// TestJokerGap: a Joker game dated a century before the others is refused
// like a tournament, naming the tables file, its row and the game.
func TestJokerGap(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"players.csv", "tournaments.csv", "games.csv", "tables.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "demo", name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "tables.csv" {
			b = bytes.ReplaceAll(b, []byte("1,,2025-03-01T00:38:00Z"), []byte("1,,1925-03-01T00:38:00Z"))
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: filepath.Join(t.TempDir(), "out"), Now: asOf("2026-01-01")})
	var ge *GapError
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v, want a GapError", err)
	}
	for _, want := range []string{"tables.csv row 1", "Joker game 1 played 1925-03-01", "--allow-gap"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
}
