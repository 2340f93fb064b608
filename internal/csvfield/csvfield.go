// Package csvfield appends CSV fields to byte slices, quoted exactly as
// encoding/csv's Writer quotes them, for output written row by row without a
// csv.Writer (rating lists and standings, hundreds of thousands of rows).
package csvfield

import "strings"

// Append appends s as one CSV field.
func Append(b []byte, s string) []byte {
	if s == "" || (!strings.ContainsAny(s, ",\"\r\n") && s[0] != ' ' && s[0] != '\t') {
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
