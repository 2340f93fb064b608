package report

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShownRows(t *testing.T) {
	for _, c := range []struct {
		latest  bool
		n, want int
	}{
		{true, 200_000, 200_000}, {false, 200_000, earlierListRows}, {false, 12, 12}, {false, earlierListRows, earlierListRows},
	} {
		if got := shownRows(c.latest, c.n); got != c.want {
			t.Errorf("shownRows(%v, %d) = %d, want %d", c.latest, c.n, got, c.want)
		}
	}
}

// TestListCSVFiles checks that every rating list has its whole CSV file
// beside its page, compressed, byte for byte the run's, and that its page
// links it.
func TestListCSVFiles(t *testing.T) {
	out := demoRun(t)
	site := demoSite(t)
	lists, _ := filepath.Glob(filepath.Join(out, "lists", "*.csv"))
	if len(lists) == 0 {
		t.Fatal("demo run has no list")
	}
	for i, l := range lists {
		period := strings.TrimSuffix(filepath.Base(l), ".csv")
		want, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		z, err := os.ReadFile(filepath.Join(site, listCSV(period)))
		if err != nil {
			t.Fatalf("list %s: %v", period, err)
		}
		r, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatalf("%s: %v", listCSV(period), err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("%s: %v", listCSV(period), err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s does not unpack to %s", listCSV(period), l)
		}
		page := "list-" + period + ".html"
		if i == len(lists)-1 {
			page = "index.html"
		}
		if html := readString(t, filepath.Join(site, page)); !strings.Contains(html, `href="`+listCSV(period)+`"`) {
			t.Errorf("%s does not link %s", page, listCSV(period))
		}
	}
}
