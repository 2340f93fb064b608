package pipeline

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/fide"
	"github.com/ratelist/ratelist/rating/joker"
	"github.com/ratelist/ratelist/rating/school"
	"github.com/ratelist/ratelist/tiebreak"
)

func schoolOf(r Rules) *school.Settings { return r.Settings("school").(*school.Settings) }
func fideOf(r Rules) *fide.Settings     { return r.Settings("fide").(*fide.Settings) }

// TestRulesDocument: a rules document encodes as a struct with the built-in
// rule sets as fields would, so that state fingerprints stay what they were.
func TestRulesDocument(t *testing.T) {
	type fixed struct {
		Base      string           `toml:"base"`
		School    school.Settings  `toml:"school"`
		Fide      fide.Settings    `toml:"fide"`
		Joker     joker.Rules      `toml:"joker"`
		Tiebreaks tiebreak.Options `toml:"tiebreaks"`
	}
	r, err := ParseRules("r.toml", []byte("base = \"fide\"\n[school]\ncap = 400\n[fide]\ncap = 350\n[tiebreaks.ljv]\nbase_rating = 2000\n"))
	if err != nil {
		t.Fatal(err)
	}
	var want, got bytes.Buffer
	toml.NewEncoder(&want).Encode(fixed{r.Base, *schoolOf(r), *fideOf(r), r.Joker, r.Tiebreaks})
	toml.NewEncoder(&got).Encode(r.documentOf(rating.Definitions()[:2]).Interface()) // school, fide
	if got.String() != want.String() {
		t.Errorf("document encodes as\n%s\nwant\n%s", got.String(), want.String())
	}
	if schoolOf(r).Cap != 400 || fideOf(r).Cap != 350 || r.Tiebreaks.LJV.BaseRating != 2000 {
		t.Errorf("settings not taken: school cap %d, fide cap %d", schoolOf(r).Cap, fideOf(r).Cap)
	}
}

func TestParseRules(t *testing.T) {
	tests := []struct {
		name, toml string
		wantErr    string // "" = no error
		check      func(r Rules) bool
	}{
		{"school defaults", `base = "school"`, "", func(r Rules) bool {
			return schoolOf(r).Cap == 350 && schoolOf(r).KNew == 40 && schoolOf(r).ListGames == 8
		}},
		{"no base means school", `[school]
cap = 400`, "", func(r Rules) bool { return r.Base == "school" && schoolOf(r).Cap == 400 && schoolOf(r).MinGames == 4 }},
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
			return schoolOf(r).CategoryRating[0] == 2100 && !schoolOf(r).UseEloFloor && schoolOf(r).PerGame && schoolOf(r).Stage == 2 &&
				len(schoolOf(r).Bands) == 2 && schoolOf(r).Category(1500) == "B" && r.Joker.AllowTiedPlaces && r.Tiebreaks.LJV.BaseRating == 2000
		}},
		{"misspelt setting", "[school]\ncapp = 300", "unknown settings: school.capp", nil},
		{"bad stage", "[school]\nstage = 3", "school.stage", nil},
		{"bands out of order", "[school]\nbands = [{name = \"A\", min = 1000}, {name = \"B\", min = 2000}]", "school.bands", nil},
		{"unknown base", `base = "glicko"`, "unknown rule set", nil},
		{"time classes", "base = \"fide\"\n[fide]\ntime_classes = [\"rapid\", \"blitz\"]\n[school]\ntime_classes = [\"blitz\"]", "", func(r Rules) bool {
			return fideOf(r).TimeClasses.Rates("rapid") && !fideOf(r).TimeClasses.Rates("standard") && schoolOf(r).TimeClasses.Rates("blitz")
		}},
		{"time classes default", "base = \"fide\"", "", func(r Rules) bool {
			return fideOf(r).TimeClasses.Rates("standard") && !fideOf(r).TimeClasses.Rates("rapid") && schoolOf(r).TimeClasses.Rates("standard")
		}},
		{"unknown time class", "[school]\ntime_classes = [\"bullet\"]", "school.time_classes", nil},
		{"no time class", "[fide]\ntime_classes = []", "fide.time_classes", nil},
		{"time class twice", "[fide]\ntime_classes = [\"rapid\", \"rapid\"]", "given twice", nil},
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
				t.Errorf("settings not applied: %+v", schoolOf(r))
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
