package importer

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/ratelist/ratelist/archive"
)

// timeClassOf is a game's time class: from its TimeControl tag (FIDE's limits
// on the time for all moves plus 60 increments: standard 60 minutes or more,
// rapid more than 10, blitz 10 or less), else from a word of its Event (Rapid;
// Blitz or Bullet), else "" (not known: pgnEvents.finish decides).
func timeClassOf(timeControl, event string) string {
	secs, ok := pgnTimeControl(timeControl)
	if !ok {
		secs, ok = wordyTimeControl(timeControl)
	}
	if ok {
		switch {
		case secs >= 3600:
			return archive.TimeStandard
		case secs > 600:
			return archive.TimeRapid
		}
		return archive.TimeBlitz
	}
	ev := lowerWords(event)
	switch {
	case slices.Contains(ev, "rapid") || slices.Contains(ev, "rapidplay") || slices.Contains(ev, "schnellschach"):
		return archive.TimeRapid
	case slices.Contains(ev, "blitz") || slices.Contains(ev, "bullet") || slices.Contains(ev, "superblitz") || slices.Contains(ev, "hyperbullet"):
		return archive.TimeBlitz
	}
	return ""
}

// wordyTimeControl reads a TimeControl written in words, as broadcasts do:
// "15 min. + 10 s. per move", "90 minutes + 30 seconds increment", "3h".
func wordyTimeControl(s string) (int, bool) {
	base, inc, _ := strings.Cut(strings.ToLower(s), "+")
	n, unit := leadingNumber(base)
	switch {
	case n < 0:
		return 0, false
	case strings.HasPrefix(unit, "min") || unit == "m" || unit == "'":
		n *= 60
	case strings.HasPrefix(unit, "h"):
		n *= 3600
	case !strings.HasPrefix(unit, "s"):
		return 0, false
	}
	i, iunit := leadingNumber(inc)
	switch {
	case i < 0:
		i = 0
	case strings.HasPrefix(iunit, "min"):
		i *= 60
	}
	return n + 60*i, true
}

// leadingNumber reads the number s starts with (after spaces) and the word after
// it; -1 when s does not start with a number.
func leadingNumber(s string) (int, string) {
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(s)
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		return -1, ""
	}
	rest := strings.TrimSpace(s[end:])
	word := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if word < 0 {
		word = len(rest)
	}
	if word == 0 && strings.HasPrefix(rest, "'") {
		word = 1
	}
	return n, rest[:word]
}

// pgnTimeControl reads a TimeControl tag (PGN standard, 9.6.1) as the seconds
// of its first period plus 60 increments: "5400+30", "40/7200:3600", "*180"
// (sandclock), "300". False for "-" (no limit), "?" or anything else.
func pgnTimeControl(s string) (int, bool) {
	first, _, _ := strings.Cut(s, ":")
	first = strings.TrimPrefix(first, "*")
	if _, after, ok := strings.Cut(first, "/"); ok {
		first = after
	}
	base, inc, hasInc := strings.Cut(first, "+")
	b, err := strconv.Atoi(base)
	if err != nil || b < 0 {
		return 0, false
	}
	i := 0
	if hasInc {
		if i, err = strconv.Atoi(inc); err != nil || i < 0 {
			return 0, false
		}
	}
	return b + 60*i, true
}

// lowerWords splits s into its words (letters only), lower-cased.
func lowerWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}
