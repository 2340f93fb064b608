// Package csvfield appends CSV fields to byte slices, quoted exactly as
// encoding/csv's Writer quotes them, for output written row by row without a
// csv.Writer (rating lists and standings, hundreds of thousands of rows).
package csvfield

// Append appends s as one CSV field.
func Append(b []byte, s string) []byte {
	if !needsQuotes(s) {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

// needsQuotes is encoding/csv's rule: a separator, quote or line break anywhere,
// or a leading space or tab.
func needsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[0] == '\t' {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',', '"', '\r', '\n':
			return true
		}
	}
	return false
}
