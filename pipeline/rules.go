package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/tiebreak"
)

// Rules is everything configurable about a run: the rule set and its settings,
// the Joker rules and the standings options. A rules file (TOML) names a base
// rule set and overrides any setting:
//
//	base = "school"
//	[school]
//	stage = 2
//	[tiebreaks.ljv]
//	base_rating = 2000
type Rules struct {
	Base      string            `toml:"base"`
	School    rating.School     `toml:"school"`
	Fide      rating.Fide       `toml:"fide"`
	Joker     rating.JokerRules `toml:"joker"`
	Tiebreaks tiebreak.Options  `toml:"tiebreaks"`
}

// DefaultRules returns the named built-in rule set.
func DefaultRules(name string) (Rules, error) {
	switch name {
	case "", "school":
		return Rules{Base: "school", School: rating.DefaultSchool(), Fide: rating.DefaultFide(), Joker: rating.DefaultJokerRules()}, nil
	case "fide":
		return Rules{Base: "fide", School: rating.DefaultSchool(), Fide: rating.DefaultFide(), Joker: rating.DefaultJokerRules()}, nil
	}
	return Rules{}, fmt.Errorf("%w: unknown rule set %q (want school, fide or a TOML file)", ErrUsage, name)
}

// LoadRules resolves --rules: a built-in name, or a TOML file overriding one.
func LoadRules(arg string) (Rules, error) {
	if arg == "" || arg == "school" || arg == "fide" {
		return DefaultRules(arg)
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		return Rules{}, fmt.Errorf("%w: read rules file: %w", ErrUsage, err)
	}
	return ParseRules(arg, data)
}

// ParseRules reads a rules file's text. Unknown keys are errors: a misspelt
// setting must not be silently ignored.
func ParseRules(name string, data []byte) (Rules, error) {
	var head struct {
		Base string `toml:"base"`
	}
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&head); err != nil {
		return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
	}
	r, err := DefaultRules(head.Base)
	if err != nil {
		return Rules{}, fmt.Errorf("rules file %s: %w", name, err)
	}
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&r)
	if err != nil {
		return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		var keys []string
		for _, k := range und {
			keys = append(keys, k.String())
		}
		return Rules{}, fmt.Errorf("%w: rules file %s: unknown settings: %s", ErrUsage, name, strings.Join(keys, ", "))
	}
	if r.Base == "" {
		r.Base = "school"
	}
	if err := r.School.Check(); err != nil {
		return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
	}
	if err := r.Fide.Check(); err != nil {
		return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
	}
	if err := r.Joker.Check(); err != nil {
		return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
	}
	return r, nil
}
