package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/testutil"
)

// trfVariant writes src with its first lines (012, 042, 052) replaced.
func trfVariant(t *testing.T, src, name, start, end string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[0], lines[1], lines[2] = "012 "+name, "042 "+start, "052 "+end
	out := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFirstIDCollisionRefused: a --first-id range that reaches a tournament_id
// already in the archive stops the whole import, and the archive is unchanged;
// a range that fits is used.
func TestFirstIDCollisionRefused(t *testing.T) {
	dir := t.TempDir()
	importFiles(t, dir, "trf", "testdata/spring.trf") // tournament 1
	imp := func(first int64, kind string, files ...string) (*Archive, *Stats, error) {
		a, err := Open(dir, Options{FirstID: first})
		if err != nil {
			t.Fatal(err)
		}
		var st *Stats
		if kind == "trf" {
			st, err = ImportTRF(context.Background(), a, files, Options{FirstID: first})
		} else {
			st, err = ImportPGN(context.Background(), a, files, Options{FirstID: first})
		}
		return a, st, err
	}
	if a, _, err := imp(3, "trf", "testdata/swiss6.trf"); err != nil { // tournament 3
		t.Fatal(err)
	} else if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	// Two events: the first is given id 2 before the second finds 3 taken; its
	// games wait in the spill file, so no games part is left.
	twoEvents := filepath.Join(t.TempDir(), "two.pgn")
	if err := os.WriteFile(twoEvents, []byte(pgnGameText("A", "1", "a", "b", "1-0", "1. e4")+pgnGameText("B", "1", "a", "b", "0-1", "1. d4")), 0o644); err != nil {
		t.Fatal(err)
	}
	before := testutil.Snapshot(t, dir)
	for _, tc := range []struct {
		first int64
		kind  string
		files []string
	}{
		{1, "trf", []string{trfVariant(t, "testdata/spring.trf", "Autumn Swiss", "2025/10/01", "2025/10/02")}},
		{2, "trf", []string{ // 2 is free, 3 is not: the range collides
			trfVariant(t, "testdata/spring.trf", "Autumn Swiss", "2025/10/01", "2025/10/02"),
			trfVariant(t, "testdata/swiss6.trf", "Winter Six", "2025/12/01", "2025/12/04"),
		}},
		{3, "pgn", []string{"testdata/club.pgn"}},
		{2, "pgn", []string{twoEvents}},
	} {
		a, st, err := imp(tc.first, tc.kind, tc.files...)
		if !errors.Is(err, ErrIDTaken) || !errors.Is(err, ErrUsage) {
			t.Errorf("first id %d: import error %v, want ErrIDTaken", tc.first, err)
		}
		if st.Imported != 0 || st.Tournaments != 0 || st.NewPlayers != 0 || st.Matched != 0 || st.Read != st.Skipped {
			t.Errorf("first id %d: stats %+v, want every game read skipped", tc.first, st)
		}
		if parts, _ := filepath.Glob(filepath.Join(dir, ".games-*.tmp")); tc.kind == "pgn" && len(parts) != 0 {
			t.Errorf("first id %d: games written before the collision: %v", tc.first, parts)
		}
		if w, err := a.Commit(); !errors.Is(err, ErrIDTaken) || len(w) > 0 {
			t.Errorf("first id %d: Commit wrote %v, %v", tc.first, w, err)
		}
		after := testutil.Snapshot(t, dir)
		if len(after) != len(before) {
			t.Errorf("first id %d: %d files, were %d", tc.first, len(after), len(before))
		}
		for f, b := range before {
			if after[f] != b {
				t.Errorf("first id %d: %s changed", tc.first, f)
			}
		}
	}
	a, _, err := imp(4, "trf", trfVariant(t, "testdata/spring.trf", "Autumn Swiss", "2025/10/01", "2025/10/02"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := Open(dir, Options{}); len(b.Tournaments) != 3 || b.Tournaments[2].TournamentID != 4 {
		t.Errorf("tournaments after --first-id 4: %+v", b.Tournaments)
	}
}

// TestDuplicateByContent: a re-import of the same event under another name,
// another event with the same name and overlapping dates, and a PGN file
// imported twice are refused, naming the archive's tournament; the same games
// a year later are another event.
func TestDuplicateByContent(t *testing.T) {
	dir := t.TempDir()
	importFiles(t, dir, "trf", "testdata/spring.trf")
	tests := []struct {
		name, file, want string
	}{
		{"renamed", trfVariant(t, "testdata/spring.trf", "Spring Swiss 2025 (corrected header)", "2025/03/08", "2025/03/09"),
			`"Spring Swiss 2025 (corrected header)" (2025-03-08 to 2025-03-09) has the same games as tournament 1; nothing was imported (to correct tournament 1 with it, import it with --replace 1)`},
		{"same name and dates", trfVariant(t, "testdata/swiss6.trf", "Spring Swiss 2025", "2025/03/08", "2025/03/09"),
			"has the name and dates of tournament 1"},
		{"a day longer", trfVariant(t, "testdata/swiss6.trf", " Spring  Swiss 2025", "2025/03/09", "2025/03/10"),
			"has the name and dates of tournament 1"},
	}
	for _, tc := range tests {
		if err := importRefused(t, dir, "trf", tc.file); !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// The same games on other dates (next year's event of the same players) are another event.
	st := importFiles(t, dir, "trf", trfVariant(t, "testdata/spring.trf", "Spring Swiss 2026", "2026/03/07", "2026/03/08"))
	if st.Tournaments != 1 || st.Skipped != 0 {
		t.Errorf("same games a year later: %+v %v", st, st.Problems)
	}
	importFiles(t, dir, "pgn", "testdata/club.pgn")
	if err := importRefused(t, dir, "pgn", "testdata/club.pgn"); !strings.Contains(err.Error(), "testdata/club.pgn:") {
		t.Errorf("pgn re-import: %v", err)
	}
}

// TestReplace: under Options.Replace the file's tournament takes the id, its
// games are handed over, not written; it may have the games, name and dates of
// the tournament it replaces, not those of another; one tournament only.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	importFiles(t, dir, "trf", "testdata/spring.trf", "testdata/swiss6.trf")
	replace := func(id int64, files ...string) (*Archive, error) {
		a, err := Open(dir, Options{Replace: id})
		if err != nil {
			return nil, err
		}
		t.Cleanup(a.Abort)
		_, err = ImportTRF(context.Background(), a, files, Options{Replace: id})
		return a, err
	}
	a, err := replace(1, trfVariant(t, "testdata/spring.trf", "Spring Swiss 2025", "2025/03/08", "2025/03/10"))
	if err != nil {
		t.Fatal(err)
	}
	tr, rows, ok := a.Replacement()
	if !ok || tr.TournamentID != 1 || tr.EndDate != tr.StartDate+2 || len(rows) != 8 || rows[0].TournamentID != 1 || a.games != nil {
		t.Errorf("replacement: %v %+v %d rows", ok, tr, len(rows))
	}
	if _, err := replace(2, "testdata/spring.trf"); !errors.Is(err, ErrInArchive) || !strings.Contains(err.Error(), "tournament 1") {
		t.Errorf("replace 2 by tournament 1's file: %v", err)
	}
	if _, err := replace(1, "testdata/spring.trf", trfVariant(t, "testdata/swiss6.trf", "Other", "2024/01/01", "2024/01/02")); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "second tournament") {
		t.Errorf("two files: %v", err)
	}
	if _, err := replace(7, "testdata/spring.trf"); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "no tournament 7") {
		t.Errorf("unknown id: %v", err)
	}
}

// TestImportCSVInvalidUTF8: import csv skips a row whose text is not UTF-8,
// naming the row and column, instead of copying the bytes into Parquet.
func TestImportCSVInvalidUTF8(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "players.csv"), []byte("player_id,name\n1,Anna\n2,M\xfcller\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := mustStats(t)(ImportCSV(context.Background(), dir, []string{filepath.Join(dir, "players.csv")}))
	if st.Imported != 1 || len(st.Problems) != 1 ||
		!strings.HasSuffix(st.Problems[0].Error(), "players.csv:2: name: not valid UTF-8 text (byte 2); save the file as UTF-8: malformed") {
		t.Errorf("%+v %v", st, st.Problems)
	}
}

// TestImportTRFLatin1: a TRF file in Windows-1252 is decoded (its columns stay
// in place), never stored as bytes that are not UTF-8.
func TestImportTRFLatin1(t *testing.T) {
	b, err := os.ReadFile("testdata/spring.trf")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "latin1.trf")
	if err := os.WriteFile(src, []byte(strings.Replace(string(b), "Orlova, Ann", "M\xfcller, Ann", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st := importFiles(t, dir, "trf", src)
	// The reader's note first, then check trf's (spring.trf has no 022, 032, 102).
	if st.Imported != 8 || len(st.Notes) != 4 || !strings.Contains(st.Notes[0].Error(), "read as Windows-1252") {
		t.Errorf("%+v %v", st, st.Notes)
	}
	a, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := a.Players[0]; p.Name != "Müller, Ann" || p.FideRating == nil || *p.FideRating != 2100 {
		t.Errorf("first player %q, rating %v; want Müller, Ann rated 2100", p.Name, p.FideRating)
	}
}
