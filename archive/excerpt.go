package archive

import (
	"strings"
	"unicode/utf8"
)

// ExcerptBytes is about how much of a cell a message or a reject shows.
const ExcerptBytes = 200

// Excerpt returns s as a message may show it: valid UTF-8 (each invalid byte
// becomes U+FFFD) and cut to at most ExcerptBytes bytes of text, on a
// character boundary, followed by "…" when it was cut. A cell of any size
// therefore makes a message of bounded size.
func Excerpt(s string) string {
	if len(s) <= ExcerptBytes && utf8.ValidString(s) {
		return s
	}
	var sb strings.Builder
	for _, r := range s { // an invalid byte comes as utf8.RuneError, written as U+FFFD
		if sb.Len()+utf8.RuneLen(r) > ExcerptBytes {
			sb.WriteString("…")
			return sb.String()
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
