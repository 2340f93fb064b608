package csvfield

import (
	"bytes"
	"encoding/csv"
	"testing"
)

func TestAppendQuotesLikeEncodingCSV(t *testing.T) {
	for _, s := range []string{"", "plain", "Last, First", `say "hi"`, " lead", "\ttab", "two\nlines", "cr\r", "Ünï, ß", `"`} {
		var want bytes.Buffer
		w := csv.NewWriter(&want)
		w.Write([]string{s})
		w.Flush()
		if got := string(Append(nil, s)) + "\n"; got != want.String() {
			t.Errorf("Append(%q) = %q, want %q", s, got, want.String())
		}
	}
}

// TestNeedsQuotesEveryPosition puts each special byte at every position of
// strings of every length up to 24 (the word-at-a-time loop and its tail).
func TestNeedsQuotesEveryPosition(t *testing.T) {
	for n := 1; n <= 24; n++ {
		plain := bytes.Repeat([]byte{'a'}, n)
		if needsQuotes(string(plain)) {
			t.Fatalf("%q needs no quotes", plain)
		}
		for i := 0; i < n; i++ {
			for _, c := range []byte{',', '"', '\r', '\n', 0x80, 0xff, '+', '-', '!'} {
				s := bytes.Clone(plain)
				s[i] = c
				want := c == ',' || c == '"' || c == '\r' || c == '\n'
				if got := needsQuotes(string(s)); got != want {
					t.Errorf("needsQuotes(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}

func BenchmarkAppendName(b *testing.B) {
	names := []string{"Karimi, Reza", "Ali Mohammadi-Rad", "Sara Hosseinzadeh", "Jan Novák", "O'Neil Smith Jr."}
	var buf []byte
	for b.Loop() {
		for _, s := range names {
			buf = Append(buf[:0], s)
		}
	}
}
