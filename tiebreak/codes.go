package tiebreak

import (
	"fmt"
	"strconv"
	"strings"
)

// Code is one parsed tiebreak code such as "BH/C1".
type Code struct {
	Name   string // as requested (trimmed), used as the column header
	Base   string // canonical acronym: "BH", "SB", "REP" (for GE), ...
	Cut    int    // /Cn: drop the n least significant values
	Median int    // /Mn: drop the n least and the n most significant values
	Limit  int    // /L+n, /L-n (KS only): move the 50% threshold by n half-points
	// Played is the /P modifier: forfeits count as played games.
	Played bool
}

// ParseCode parses one code with its modifiers, FIDE C.07 syntax: TB[/Cn|/Mn|/L±n][/P].
// Letters are case-insensitive; GE is accepted as an alias of REP, TURČAS of TURCAS.
func ParseCode(s string) (Code, error) {
	name := strings.TrimSpace(s)
	parts := strings.Split(strings.ToUpper(name), "/")
	c := Code{Name: name, Base: strings.TrimSpace(parts[0])}
	switch c.Base {
	case "GE":
		c.Base = "REP"
	case "TURČAS":
		c.Base = "TURCAS"
	}
	def, ok := codeTable[c.Base]
	if !ok {
		return Code{}, fmt.Errorf("%q: %w", name, ErrUnknownCode)
	}
	if err := c.parseModifiers(parts[1:], def.mods); err != nil {
		return Code{}, err
	}
	return c, nil
}

// parseModifiers reads the modifiers after a code's base into c; allowed are the
// ones its base takes (c = /Cn, m = /Mn, l = /L±n; /P goes everywhere).
func (c *Code) parseModifiers(mods []string, allowed string) error {
	name := c.Name
	for _, m := range mods {
		m = strings.TrimSpace(m)
		if m == "P" {
			c.Played = true
			continue
		}
		if len(m) < 2 {
			return fmt.Errorf("%q: modifier %q: %w", name, m, ErrBadModifier)
		}
		k, err := strconv.Atoi(m[1:])
		if m[0] == 'L' && err == nil && k >= -99 && k <= 99 {
			c.Limit = k
			if !strings.ContainsRune(allowed, 'l') {
				return fmt.Errorf("%q: %s takes no /L modifier: %w", name, c.Base, ErrBadModifier)
			}
			continue
		}
		if err != nil || k < 1 || k > 99 {
			return fmt.Errorf("%q: modifier %q: %w", name, m, ErrBadModifier)
		}
		var letter byte
		switch m[0] {
		case 'C':
			letter, c.Cut = 'c', c.Cut+k
		case 'M':
			letter, c.Median = 'm', c.Median+k
		default:
			return fmt.Errorf("%q: modifier %q: %w", name, m, ErrBadModifier)
		}
		if !strings.ContainsRune(allowed, rune(letter)) {
			return fmt.Errorf("%q: %s takes no /%c modifier: %w", name, c.Base, m[0], ErrBadModifier)
		}
	}
	if c.Cut > 0 && c.Median > 0 {
		return fmt.Errorf("%q: cut and median together: %w", name, ErrBadModifier)
	}
	return nil
}

// ParseCodes parses a comma-separated list such as "BH/C1,BH,SB". Empty items are
// skipped.
func ParseCodes(list string) ([]Code, error) {
	var out []Code
	for _, s := range strings.Split(list, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		c, err := ParseCode(s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// SplitCodes splits a comma-separated list into trimmed, non-empty codes, unparsed.
func SplitCodes(list string) []string {
	var out []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// CodesFor returns a tournament's tiebreak codes: its Tiebreaks column, or its
// discipline's default when the column is empty. A column that is not
// understood also gives the default, with the parse error for a warning.
// The run and the standings verb both use it.
func CodesFor(t *Tournament) ([]string, error) {
	if _, err := ParseCodes(t.Tiebreaks); err != nil {
		return DefaultCodes(t.Discipline), err
	}
	if codes := SplitCodes(t.Tiebreaks); len(codes) > 0 {
		return codes, nil
	}
	return DefaultCodes(t.Discipline), nil
}

// DefaultCodes returns the tiebreaks used when a tournament names none:
// chess "BH/C1,BH,SB,DE"; scrabble "TURCAS,SPREAD,SCORE".
func DefaultCodes(discipline string) []string {
	if strings.EqualFold(discipline, "scrabble") {
		return []string{"TURCAS", "SPREAD", "SCORE"}
	}
	return []string{"BH/C1", "BH", "SB", "DE"}
}
