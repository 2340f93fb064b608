package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		rel  string
		want *File
		key  string
	}{
		{"summary.json", Summary, ""},
		{"rejects.csv", Rejects, ""},
		{"cards.parquet", Cards, ""},
		{"card_games.parquet", CardGames, ""},
		{"joker_cards.parquet", TableCards, ""},
		{"lists/2025-03.csv", ListCSV, "2025-03"},
		{"lists/2025-Q1.parquet", ListParquet, "2025-Q1"},
		{"lists/2025.arrow", ListArrow, "2025"},
		{"lists/joker/2025-03.csv", TableListCSV, "2025-03"},
		{"lists/joker/2025-03.parquet", TableListParquet, "2025-03"},
		{"go_cards.parquet", TableCards, ""},
		{"standings/2025-03.parquet", StandingsPeriod, "2025-03"},
		{"standings/17.csv", StandingsCSV, "17"},
		{"state/2025-03.state", State, "2025-03"},
		{"site/index.html", Site, ""},
		{"site/players/7.html", Site, ""},
		{"lists/notes.txt", nil, ""},
		{"lists/.csv", nil, ""},
		{"lists/2025-03.csv.tmp", nil, ""},
		{"lists/2025-03.old.csv", nil, ""},
		{"lists/joker/x/2025-03.csv", nil, ""},
		{"_cards.parquet", nil, ""},
		{"lists//2025-03.csv", nil, ""},
		{"state/2025-03.state/x", nil, ""},
		{"site", nil, ""},
		{"summary.json.bak", nil, ""},
	}
	for _, tt := range tests {
		f, key, ok := Match(tt.rel)
		if f != tt.want || key != tt.key || ok != (tt.want != nil) {
			t.Errorf("Match(%q) = %v, %q, %v; want %v, %q", tt.rel, f, key, ok, tt.want, tt.key)
		}
	}
}

// Every kind's path for a key is matched back to that kind and key, by that
// kind only.
func TestRelMatchesBack(t *testing.T) {
	for _, f := range Files {
		key := ""
		switch {
		case strings.Contains(f.Pattern, "{period}"):
			key = "2025-03"
		case strings.Contains(f.Pattern, "{id}"):
			key = "17"
		}
		rel := f.For("joker").Rel(key)
		if strings.HasSuffix(f.Pattern, "/") {
			rel += "/a.html"
		}
		got, k, ok := Match(rel)
		if !ok || got != f || k != key {
			t.Errorf("%s: Rel(%q) = %s, matched as %v %q", f.Pattern, key, rel, got, k)
		}
		for _, g := range Files {
			if _, ok := g.match(rel); ok && g != f {
				t.Errorf("%s is also of kind %s", rel, g.Pattern)
			}
		}
	}
}

func TestKeys(t *testing.T) {
	out := t.TempDir()
	if _, err := ListCSV.Keys(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("no lists/: error %v, want fs.ErrNotExist", err)
	}
	for _, rel := range []string{"lists/2025-02.csv", "lists/2024-12.csv", "lists/2025-01.parquet", "lists/notes.txt", "lists/joker/2025-01.csv"} {
		p := filepath.Join(out, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(out, "lists", "2025-03.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[*File][]string{
		ListCSV: {"2024-12", "2025-02"}, ListParquet: {"2025-01"}, TableListCSV.For("joker"): {"2025-01"},
	} {
		got, err := f.Keys(out)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: Keys = %v, %v; want %v", f.Pattern, got, err, want)
		}
	}
}

// docs/architecture.md shows the table: a row per kind, as in Files.
func TestArchitectureShowsFiles(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	kept := map[Kept]string{Rewritten: "no", KeptByPeriod: "its period's", KeptByTournament: "its tournament's", KeptAlways: "always"}
	for _, f := range Files {
		report := "no"
		if f.Report {
			report = "yes"
		}
		row := "| `" + f.Pattern + "` | " + f.Writer + " | " + kept[f.Kept] + " | " + report + " |"
		if !strings.Contains(string(b), row+"\n") {
			t.Errorf("docs/architecture.md lacks the row\n%s", row)
		}
	}
}
