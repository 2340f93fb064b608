package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestControlCharacterRefused: a control character in a text field is
// refused at import, naming the field and the line: in a PGN tag the game is
// skipped (the file's other games are imported), in a TRF name the file is
// skipped; a tab or a line break is not quietly turned into a space.
func TestControlCharacterRefused(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "tab.pgn")
	game := "[Event \"Club\"]\n[Date \"2025.03.01\"]\n[Round \"%d\"]\n[White \"%s\"]\n[Black \"Bea\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n"
	body := strings.Replace(game, "%d", "1", 1)
	body = strings.Replace(body, "%s", "Anna\tSmith", 1)
	body += strings.Replace(strings.Replace(game, "%d", "2", 1), "%s", "Cy", 1)
	if err := os.WriteFile(pgn, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	trf, err := os.ReadFile("testdata/spring.trf")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "nul.trf")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(trf), "Popov, Bob", "Popov,\x00Bob", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind, file string
		read, kept int64
		problem    string
	}{
		{"pgn", pgn, 2, 1, "tab.pgn:1: White tag: control character U+0009 (a tab) at byte 5"},
		{"trf", bad, 8, 0, "nul.trf:7: 001 name: control character U+0000 (NUL) at byte 7"},
	} {
		a, err := Open(t.TempDir(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var st *Stats
		if tc.kind == "trf" {
			st, err = ImportTRF(t.Context(), a, []string{tc.file}, Options{})
		} else {
			st, err = ImportPGN(t.Context(), a, []string{tc.file}, Options{})
		}
		checkStats(t, st, err)
		a.Abort()
		if st.Read != tc.read || st.Imported != tc.kept || len(st.Problems) != 1 {
			t.Fatalf("%s: read %d, imported %d, problems %v; want %d, %d and one", tc.kind, st.Read, st.Imported, st.Problems, tc.read, tc.kept)
		}
		if got := st.Problems[0].Error(); !strings.HasPrefix(got, filepath.Join(dir, tc.problem)) {
			t.Errorf("%s: problem %q, want %q", tc.kind, got, tc.problem)
		}
	}
}

// TestCSVControlCharacterRefused: import csv skips a row whose text cell holds
// a control character, naming the row and the column.
func TestCSVControlCharacterRefused(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "players.csv"), []byte("player_id,name\n1,Anna\n2,\"Bea\n001 forged\"\n3,Cy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := ImportCSV(t.Context(), t.TempDir(), []string{src})
	checkStats(t, st, err)
	if st.Imported != 2 || len(st.Problems) != 1 || !strings.Contains(st.Problems[0].Error(), "name: control character U+000A (a line break) at byte 4") {
		t.Errorf("imported %d, problems %v; want 2 and the line break in row 2's name", st.Imported, st.Problems)
	}
}
