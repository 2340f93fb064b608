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
