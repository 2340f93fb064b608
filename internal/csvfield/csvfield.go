// Package csvfield appends CSV fields to byte slices, quoted exactly as
// encoding/csv's Writer quotes them, for output written row by row without a
// csv.Writer (rating lists and standings, hundreds of thousands of rows), and
// makes text cells safe for spreadsheets (Text).
package csvfield

import (
	"strings"
	"unicode/utf8"
)

// Text returns s as a CSV text cell of ratelist holds it: valid UTF-8 (each
// byte that is not becomes U+FFFD), and with a single quote ' in front when it
// starts with =, +, - or @, so that a spreadsheet shows it as text instead of
// running it as a formula. Number cells are written without it.
func Text(s string) string {
	if safe(s) {
		return s
	}
	var sb strings.Builder
	if formula(s) {
		sb.WriteByte('\'')
	}
	for _, r := range s { // an invalid byte comes as utf8.RuneError, written as U+FFFD
		sb.WriteRune(r)
	}
	return sb.String()
}

// safe tells whether Text leaves s as it is.
func safe(s string) bool { return !formula(s) && utf8.ValidString(s) }

// formula tells whether a spreadsheet would take s for a formula.
func formula(s string) bool {
	return s != "" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@')
}

// Shape is how Append writes a text: as it is, between quotes, or otherwise
// (escaped or changed by Text). A caller that writes the same text many times
// asks once and writes it with AppendShaped.
type Shape uint8

const (
	Other  Shape = iota // Append's general path
	Bare                // as it is
	Quoted              // between two quotes, nothing else changed
)

// ShapeOf is the Shape of s.
func ShapeOf(s string) Shape {
	quote, ascii := scan(s)
	switch {
	case formula(s) || !ascii && !utf8.ValidString(s):
		return Other
	case !quote:
		return Bare
	case strings.IndexByte(s, '"') < 0:
		return Quoted
	}
	return Other
}

// AppendShaped is Append(b, s) for s of Shape sh.
func AppendShaped(b []byte, s string, sh Shape) []byte {
	switch sh {
	case Bare:
		return append(b, s...)
	case Quoted:
		return append(append(append(b, '"'), s...), '"')
	}
	return Append(b, s)
}

// Append appends the text cell s (made safe by Text) as one CSV field.
func Append(b []byte, s string) []byte {
	quote, ascii := scan(s)
	if formula(s) || !ascii && !utf8.ValidString(s) {
		s = Text(s)
		quote, _ = scan(s)
	}
	if !quote {
		return append(b, s...)
	}
	b = append(b, '"')
	for { // up to each quote at a time: text rarely holds one
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		b = append(append(b, s[:i+1]...), '"')
		s = s[i+1:]
	}
	return append(append(b, s...), '"')
}

// scan tells whether s needs quotes by encoding/csv's rule (a separator,
// quote or line break anywhere, or a leading space or tab) and whether it is
// all ASCII (then valid UTF-8), in one pass over it.
func scan(s string) (quote, ascii bool) {
	if s == "" {
		return false, true
	}
	quote = s[0] == ' ' || s[0] == '\t'
	// Eight bytes at a time: a word has one of the special bytes when one of
	// its bytes XOR that byte is zero, and a byte beyond ASCII when a high bit
	// is set.
	var special, high uint64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		special |= hasZero(w^(ones*',')) | hasZero(w^(ones*'"')) | hasZero(w^(ones*'\r')) | hasZero(w^(ones*'\n'))
		high |= w
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case ',', '"', '\r', '\n':
			quote = true
		}
		high |= uint64(s[i])
	}
	return quote || special != 0, high&(ones*0x80) == 0
}

const ones = 0x0101010101010101

// hasZero is non-zero exactly when one of w's bytes is zero.
func hasZero(w uint64) uint64 { return (w - ones) &^ w & (ones * 0x80) }
