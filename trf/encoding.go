package trf

import (
	"strings"
	"unicode/utf8"
)

// windows1252 maps the bytes 0x80–0x9F of Windows-1252 to Unicode; the other bytes
// are the code points of the same value (Latin-1). The five bytes Windows-1252 leaves
// undefined map to the C1 controls of their value, as web browsers do.
var windows1252 = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8D, 'Ž', 0x8F,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9D, 'ž', 'Ÿ',
}

// decodeWindows1252 turns Windows-1252 text into UTF-8: one character per byte, so
// the TRF columns, counted in characters, stay where they were.
func decodeWindows1252(b []byte) []byte {
	var s strings.Builder
	s.Grow(len(b) + len(b)/8)
	for _, c := range b {
		switch {
		case c < 0x80:
			s.WriteByte(c)
		case c < 0xA0:
			s.WriteRune(windows1252[c-0x80])
		default:
			s.WriteRune(rune(c))
		}
	}
	return []byte(s.String())
}

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
