package pipeline

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestParseRules(t *testing.T) {
	tests := []struct {
		name, toml string
		wantErr    string // "" = no error
		check      func(r Rules) bool
	}{
		{"school defaults", `base = "school"`, "", func(r Rules) bool {
			return r.School.Cap == 350 && r.School.KNew == 40 && r.School.ListGames == 8
		}},
		{"no base means school", `[school]
cap = 400`, "", func(r Rules) bool { return r.Base == "school" && r.School.Cap == 400 && r.School.MinGames == 4 }},
		{"every kind of setting", `base = "school"
[school]
category_rating = [2100, 1900, 1700, 1500]
use_elo_floor = false
per_game = true
stage = 2
bands = [{name = "A", min = 2000}, {name = "B", min = 1000}]
[joker]
allow_tied_places = true
[tiebreaks.ljv]
base_rating = 2000`, "", func(r Rules) bool {
			return r.School.CategoryRating[0] == 2100 && !r.School.UseEloFloor && r.School.PerGame && r.School.Stage == 2 &&
				len(r.School.Bands) == 2 && r.School.Category(1500) == "B" && r.Joker.AllowTiedPlaces && r.Tiebreaks.LJV.BaseRating == 2000
		}},
		{"misspelt setting", "[school]\ncapp = 300", "unknown settings: school.capp", nil},
		{"bad stage", "[school]\nstage = 3", "school.stage", nil},
		{"bands out of order", "[school]\nbands = [{name = \"A\", min = 1000}, {name = \"B\", min = 2000}]", "school.bands", nil},
		{"unknown base", `base = "glicko"`, "unknown rule set", nil},
		{"not TOML", "base = ", "rules file", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseRules("r.toml", []byte(tt.toml))
			if tt.wantErr != "" {
				if err == nil || !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want a usage error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(r) {
				t.Errorf("settings not applied: %+v", r.School)
			}
		})
	}
}

// TestDocumentedRulesFile: the example in docs/rules.md is a valid rules file.
func TestDocumentedRulesFile(t *testing.T) {
	doc, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```toml\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/rules.md has no ```toml example")
	}
	r, err := ParseRules("docs/rules.md", []byte(example))
	if err != nil {
		t.Fatal(err)
	}
	if r.Tiebreaks.Scrabble.Sets["championship"].B != 0.003 {
		t.Errorf("the example's coefficient set was not read: %+v", r.Tiebreaks.Scrabble.Sets)
	}
}
