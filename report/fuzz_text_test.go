package report

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzPageText: whatever bytes a player's name and the site's title hold, a
// player page keeps its structure (as many tags as with a plain name: every
// <, >, quote and & of the name is escaped) and shows the name as it is; the
// data files' JSON strings decode to the text (invalid bytes as U+FFFD) and
// hold no raw control character, <, or line separator.
func FuzzPageText(f *testing.F) {
	for _, s := range []string{"Doe, Jane", "<script>alert(1)</script>", "a\"b'c&d", "x\ny\r\n\tz\x00", "M\xfcller", "\u2028\u2029", "]]></h1><h1>", "&amp;"} {
		f.Add(s, "Club ratings")
	}
	plain := func(title string) *site {
		return &site{title: title, cardIndex: cardIndex{cs: &cardSet{}}, playerIndex: playerIndex{names: map[int64]string{7: "Plain"}}}
	}
	f.Fuzz(func(t *testing.T, name, title string) {
		want := plain("Site").renderPlayer(nil, 7)
		s := plain(title)
		s.names[7] = name
		got := s.renderPlayer(nil, 7)
		for _, c := range []string{"<", ">", "\""} {
			if n, m := bytes.Count(got, []byte(c)), bytes.Count(want, []byte(c)); n != m {
				t.Fatalf("name %q, title %q: %d %s in the page, %d with a plain name:\n%s", name, title, n, c, m, got)
			}
		}
		h1 := string(got[bytes.Index(got, []byte("<h1>"))+4 : bytes.Index(got, []byte("</h1>"))])
		if html.UnescapeString(h1) != name {
			t.Fatalf("name %q shown as %q", name, h1)
		}

		js := appendJSONString(nil, name)
		var back string
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatalf("name %q: JSON %s does not decode: %v", name, js, err)
		}
		if want := strings.ToValidUTF8(name, "\uFFFD"); back != want && utf8.ValidString(name) {
			t.Fatalf("name %q: JSON %s decodes to %q", name, js, back)
		}
		if i := bytes.IndexFunc(js, func(r rune) bool { return r < 0x20 || r == '<' || r == '\u2028' || r == '\u2029' }); i >= 0 {
			t.Fatalf("name %q: JSON %s holds %q raw", name, js, js[i:])
		}
	})
}
