package report

import (
	"encoding/csv"
	"reflect"
	"strings"
	"testing"
)

// FuzzSplitPlainCSV: whatever text splitPlainCSV takes on, it splits into the
// records encoding/csv reads from it.
func FuzzSplitPlainCSV(f *testing.F) {
	for _, s := range []string{"a,b,c\n1,2,3\n", "a,b\r\n\"x, y\",\r\n\r\n", "a\n\nx\n", "r,n\n1,\"Doe, Jane\"\n", "a,b\n\"x\"\"y\",z\n", "a\r\nb\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, ok := splitPlainCSV(text)
		if !ok {
			return
		}
		want, err := csv.NewReader(strings.NewReader(text)).ReadAll()
		if err != nil {
			t.Fatalf("%q: split into %q, encoding/csv fails: %v", text, got, err)
		}
		if len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: split into %q, encoding/csv reads %q", text, got, want)
		}
	})
}
