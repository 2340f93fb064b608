// Package cp1252 decodes Windows-1252 text, the encoding older pairing
// programs and PGN and list files write when they do not write UTF-8.
package cp1252

import "strings"

// high maps the bytes 0x80–0x9F of Windows-1252 to Unicode; the other bytes
// are the code points of the same value (Latin-1). The five bytes
// Windows-1252 leaves undefined map to the C1 controls of their value, as web
// browsers do.
var high = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8D, 'Ž', 0x8F,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9D, 'ž', 'Ÿ',
}

// Decode turns Windows-1252 text into UTF-8, one character per byte (so that
// fixed columns, counted in characters, stay where they were).
func Decode(b []byte) string {
	var s strings.Builder
	s.Grow(len(b) + len(b)/8)
	for _, c := range b {
		switch {
		case c < 0x80:
			s.WriteByte(c)
		case c < 0xA0:
			s.WriteRune(high[c-0x80])
		default:
			s.WriteRune(rune(c))
		}
	}
	return s.String()
}
