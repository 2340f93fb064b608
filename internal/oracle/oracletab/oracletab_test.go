package oracletab

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestRounding(t *testing.T) {
	for _, c := range []struct{ num, den, up, away int }{
		{250, 100, 3, 3}, {-250, 100, -2, -3}, {-249, 100, -2, -2}, {-251, 100, -3, -3}, {5, 2, 3, 3}, {-5, 2, -2, -3},
	} {
		if got := RoundHalfUp(c.num, c.den); got != c.up {
			t.Errorf("RoundHalfUp(%d/%d) = %d, want %d", c.num, c.den, got, c.up)
		}
		if got := RoundHalfAway(c.num, c.den); got != c.away {
			t.Errorf("RoundHalfAway(%d/%d) = %d, want %d", c.num, c.den, got, c.away)
		}
	}
}

// TestTables: a few entries of FIDE's tables 8.1.1 and 8.1.2.
func TestTables(t *testing.T) {
	for _, c := range []struct{ d, want int }{{0, 50}, {-100, 36}, {400, 92}, {-400, 8}, {3, 50}, {4, 51}} {
		if got := PD(c.d); got != c.want {
			t.Errorf("PD(%d) = %d, want %d", c.d, got, c.want)
		}
	}
	if dp, ok := DP(33); !ok || dp != -125 {
		t.Errorf("DP(33) = %d %v, want -125", dp, ok)
	}
	if _, ok := DP(0); ok {
		t.Error("DP(0) defined")
	}
}

func TestReadCSV(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(p, []byte("\xef\xbb\xbfa, b\n1, x \n2,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadCSV(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]string{{"a": "1", "b": "x"}, {"a": "2", "b": ""}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %v, want %v", rows, want)
	}
}
