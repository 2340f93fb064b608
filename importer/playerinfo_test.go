package importer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
)

// TestPGNTitles: WhiteTitle and BlackTitle fill the title column, one-letter
// codes spelt out and "-" read as no title.
func TestPGNTitles(t *testing.T) {
	a, _ := importPGN(t, Options{}, pgnGameText("Open", "1", "Alpha, Ann", "Beta, Bob", "1-0", "", "WhiteTitle", "wg", "BlackTitle", "-")+
		pgnGameText("Open", "2", "Gamma, Gil", "Alpha, Ann", "0-1", "", "WhiteTitle", "IM"))
	titles := map[string]string{}
	for _, p := range a.Players {
		titles[p.Name] = deref(p.Title)
	}
	want := map[string]string{"Alpha, Ann": "WGM", "Beta, Bob": "", "Gamma, Gil": "IM"}
	for n, w := range want {
		if titles[n] != w {
			t.Errorf("%s: title %q, want %q", n, titles[n], w)
		}
	}
}

// TestCSVPlayerInfo: import csv keeps the players' federation, sex, title and
// birth_date columns.
func TestCSVPlayerInfo(t *testing.T) {
	src := t.TempDir()
	csv := "player_id,name,federation,sex,title,birth_date,fide_id\n1,\"Alpha, Ann\",ISL,w,WGM,2000-01-31,900001\n2,\"Beta, Bob\",,,,,\n"
	if err := os.WriteFile(filepath.Join(src, "players.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mustStats(t)(ImportCSV(context.Background(), dir, []string{filepath.Join(src, "players.csv")}))
	rows, err := parquet.ReadFile[archive.PlayerRow](filepath.Join(dir, "players.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	p := rows[0]
	if deref(p.Federation) != "ISL" || deref(p.Sex) != "w" || deref(p.Title) != "WGM" || p.BirthDate == nil || *p.BirthDate != 10987 || p.FideID == nil || *p.FideID != 900001 {
		t.Errorf("row 1: %+v", p)
	}
	if q := rows[1]; q.Federation != nil || q.Sex != nil || q.Title != nil || q.BirthDate != nil {
		t.Errorf("row 2: empty cells read as %+v", q)
	}
}

func TestNormTRFFields(t *testing.T) {
	for in, want := range map[string]string{"m": "m", "W": "w", "f": "w", "x": "", "": ""} {
		if got := normSex(in); got != want {
			t.Errorf("normSex(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]int32{"2000/01/31": 10987, "2000-01-31": 10987, "2000/00/00": 0, "2000": 0, "2000/02/30": 0} {
		if got := birthDate(in); got != want {
			t.Errorf("birthDate(%q) = %d, want %d", in, got, want)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
