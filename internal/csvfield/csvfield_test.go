package csvfield

import (
	"bytes"
	"encoding/csv"
	"testing"
	"unicode/utf8"
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
// strings of every length up to 24 (the word-at-a-time loop and its tail),
// and each byte beyond ASCII, which scan must see.
func TestNeedsQuotesEveryPosition(t *testing.T) {
	for n := 1; n <= 24; n++ {
		plain := bytes.Repeat([]byte{'a'}, n)
		if quote, _ := scan(string(plain)); quote {
			t.Fatalf("%q needs no quotes", plain)
		}
		for i := 0; i < n; i++ {
			for _, c := range []byte{',', '"', '\r', '\n', 0x80, 0xff, '+', '-', '!'} {
				s := bytes.Clone(plain)
				s[i] = c
				want := c == ',' || c == '"' || c == '\r' || c == '\n'
				quote, ascii := scan(string(s))
				if quote != want {
					t.Errorf("scan(%q) says quotes %v, want %v", s, quote, want)
				}
				if ascii != (c < 0x80) {
					t.Errorf("scan(%q) says ASCII %v", s, ascii)
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

// TestText: text cells that a spreadsheet would run as a formula get a
// leading single quote, invalid UTF-8 becomes U+FFFD, and other text is kept.
func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Ann", "Ann"},
		{"", ""},
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"+1", "'+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"Anne-Marie", "Anne-Marie"},
		{"M\xfcller", "M\uFFFDller"},
		{"=\xff\xfe", "'=\uFFFD\uFFFD"},
		{"Jan Novák", "Jan Novák"},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
		if got, want := string(Append(nil, c.in)), string(Append(nil, c.want)); got != want {
			t.Errorf("Append(%q) = %q, want Append(Text) = %q", c.in, got, want)
		}
		if got := Text(c.in); !utf8.ValidString(got) {
			t.Errorf("Text(%q) = %q is not UTF-8", c.in, got)
		}
	}
	var want bytes.Buffer
	w := csv.NewWriter(&want)
	w.Write([]string{"'=1,2"})
	w.Flush()
	if got := string(Append(nil, "=1,2")) + "\n"; got != want.String() {
		t.Errorf("Append(%q) = %q, want %q", "=1,2", got, want.String())
	}
}

// TestShape: a text written by AppendShaped with its ShapeOf is what Append
// writes, and the shape says how.
func TestShape(t *testing.T) {
	for _, c := range []struct {
		s    string
		want Shape
	}{
		{"", Bare}, {"plain", Bare}, {"Jan Novák", Bare}, {"Last, First", Quoted}, {" lead", Quoted}, {"\ttab", Quoted},
		{"two\nlines", Quoted}, {`say "hi"`, Other}, {"=1+1", Other}, {"-x", Other}, {"@a", Other}, {"bad\xff", Other},
	} {
		if got := ShapeOf(c.s); got != c.want {
			t.Errorf("ShapeOf(%q) = %d, want %d", c.s, got, c.want)
		}
		for _, sh := range []Shape{ShapeOf(c.s), Other} {
			if got, want := string(AppendShaped([]byte("x,"), c.s, sh)), "x,"+string(Append(nil, c.s)); got != want {
				t.Errorf("AppendShaped(%q, %d) = %q, want %q", c.s, sh, got, want)
			}
		}
	}
}
