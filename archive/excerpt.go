package archive

import (
	"strings"
	"unicode/utf8"
)

// ExcerptBytes is about how much of a cell a message or a reject shows.
const ExcerptBytes = 200

// Excerpt returns s as a message may show it: Cut to ExcerptBytes. A cell of
// any size therefore makes a message of bounded size.
func Excerpt(s string) string { return Cut(s, ExcerptBytes) }

// Cut returns s as valid UTF-8 (each invalid byte becomes U+FFFD), cut on a
// character boundary to at most limit bytes of text, followed by "…" when it
// was longer.
func Cut(s string, limit int) string {
	if len(s) <= limit && utf8.ValidString(s) {
		return s
	}
	var sb strings.Builder
	for _, r := range s { // an invalid byte comes as utf8.RuneError, written as U+FFFD
		if sb.Len()+utf8.RuneLen(r) > limit {
			sb.WriteString("…")
			return sb.String()
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
