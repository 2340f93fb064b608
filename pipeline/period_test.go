package pipeline

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestPeriodLabels(t *testing.T) {
	tests := []struct {
		kind, day, label, first, last string
	}{
		{PeriodMonth, "2025-02-14", "2025-02", "2025-02-01", "2025-02-28"},
		{PeriodMonth, "2024-02-29", "2024-02", "2024-02-01", "2024-02-29"},
		{PeriodQuarter, "2025-05-31", "2025-Q2", "2025-04-01", "2025-06-30"},
		{PeriodQuarter, "2025-12-31", "2025-Q4", "2025-10-01", "2025-12-31"},
		{PeriodYear, "2025-07-04", "2025", "2025-01-01", "2025-12-31"},
	}
	for _, tt := range tests {
		d, _ := parsePeriodDay(tt.day)
		k := periodKey(tt.kind, d)
		f, l := periodBounds(tt.kind, k)
		if got := periodLabel(tt.kind, k); got != tt.label || dayTime(f).Format("2006-01-02") != tt.first || dayTime(l).Format("2006-01-02") != tt.last {
			t.Errorf("%s %s: label %s, %s…%s; want %s, %s…%s", tt.kind, tt.day, got, dayTime(f).Format("2006-01-02"),
				dayTime(l).Format("2006-01-02"), tt.label, tt.first, tt.last)
		}
	}
}

func parsePeriodDay(s string) (int32, error) {
	t, err := timeParse(s)
	return int32(t.Unix() / 86400), err
}

// TestQuarterAndYearLists: --period quarter and year give one list per period,
// and the last quarterly list equals the monthly list of the same last day.
func TestQuarterAndYearLists(t *testing.T) {
	dir := genArchive(t, 21, true) // 2024-09 … 2025-04
	lists := map[string]map[string][]byte{}
	for _, kind := range []string{PeriodMonth, PeriodQuarter, PeriodYear} {
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
	if got := names(lists[PeriodQuarter]); got != "2024-Q3 2024-Q4 2025-Q1 2025-Q2" {
		t.Errorf("quarterly lists: %s", got)
	}
	if got := names(lists[PeriodYear]); got != "2024 2025" {
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
	m, q, y := lists[PeriodMonth]["2024-12"], lists[PeriodQuarter]["2024-Q4"], lists[PeriodYear]["2024"]
	if len(m) < 100 || ratings(m) != ratings(q) || ratings(m) != ratings(y) {
		t.Errorf("the lists of 2024-12-31 differ by period kind")
	}
}

func timeParse(s string) (t time.Time, err error) { return time.Parse("2006-01-02", s) }
