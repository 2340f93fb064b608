package pipeline

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/day"
)

// TestQuarterAndYearLists: --period quarter and year give one list per period,
// and the last quarterly list equals the monthly list of the same last day.
func TestQuarterAndYearLists(t *testing.T) {
	dir := genArchive(t, 21, true) // 2024-09 … 2025-04
	lists := map[day.Kind]map[string][]byte{}
	for _, kind := range []day.Kind{day.Month, day.Quarter, day.Year} {
		out := t.TempDir()
		if _, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, Period: kind, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		lists[kind] = map[string][]byte{}
		for n, b := range readTree(t, out) {
			if strings.HasPrefix(n, "lists/") && strings.HasSuffix(n, ".csv") {
				lists[kind][strings.TrimSuffix(strings.TrimPrefix(n, "lists/"), ".csv")] = b
			}
		}
	}
	names := func(m map[string][]byte) string {
		var s []string
		for k := range m {
			s = append(s, k)
		}
		sort.Strings(s)
		return strings.Join(s, " ")
	}
	if got := names(lists[day.Quarter]); got != "2024-Q3 2024-Q4 2025-Q1 2025-Q2" {
		t.Errorf("quarterly lists: %s", got)
	}
	if got := names(lists[day.Year]); got != "2024 2025" {
		t.Errorf("yearly lists: %s", got)
	}
	// Same ratings at 2024-12-31 whatever the period (change and games_period
	// differ: they count from the previous list of that kind).
	ratings := func(b []byte) string {
		recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, r[1]+":"+r[3]) // player_id:rating
		}
		return strings.Join(out, " ")
	}
	m, q, y := lists[day.Month]["2024-12"], lists[day.Quarter]["2024-Q4"], lists[day.Year]["2024"]
	if len(m) < 100 || ratings(m) != ratings(q) || ratings(m) != ratings(y) {
		t.Errorf("the lists of 2024-12-31 differ by period kind")
	}
}
