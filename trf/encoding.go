package trf

import (
	"unicode/utf8"
)

// firstInvalid is the line and column (1-based, columns in characters) of the first
// byte of b that is not UTF-8; lines end as scanLines ends them.
func firstInvalid(b []byte) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			return line, col
		case r == '\r' && i+1 < len(b) && b[i+1] == '\n':
			n = 2
			fallthrough
		case r == '\r' || r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
		i += n
	}
	return line, col
}
