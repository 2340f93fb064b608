package archive

import (
	"testing"
	"time"
)

// TestParseCell: CSV cells as a rating officer writes them, decoded to what a
// Batch holds; dates and timestamps take any four-digit year, as ISO dates do.
func TestParseCell(t *testing.T) {
	day := func(y int, m time.Month, d int) int64 { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400 }
	micro := func(y int, m time.Month, d, h, min int) int64 {
		return time.Date(y, m, d, h, min, 0, 0, time.UTC).UnixMicro()
	}
	for _, tc := range []struct {
		t    Type
		cell string
		want int64
	}{
		{Int, "-17", -17},
		{Int32, "2010", 2010},
		{Date, "2025-03-04", day(2025, 3, 4)},
		{Date, "0999-05-01", day(999, 5, 1)},
		{Date, "0000-01-01", day(0, 1, 1)},
		{Date, "9999-12-31", day(9999, 12, 31)},
		{Time, "2025-03-04T18:30:00Z", micro(2025, 3, 4, 18, 30)},
		{Time, "2025-03-04T20:30:00+02:00", micro(2025, 3, 4, 18, 30)},
		{Time, "2025-03-04 18:30:00", micro(2025, 3, 4, 18, 30)},
		{Time, "2025-03-04T18:30:00", micro(2025, 3, 4, 18, 30)},
		{Time, "2025-03-04", micro(2025, 3, 4, 0, 0)},
		{Time, "0500-01-01T00:00:00Z", micro(500, 1, 1, 0, 0)},
		{Bool, "Yes", 1},
		{Bool, "f", 0},
		{Code, "½", '='},
		{Code, "h", 'H'},
	} {
		got, err := ParseCell(tc.t, tc.cell)
		if err != nil || got != tc.want {
			t.Errorf("ParseCell(%d, %q) = %d, %v; want %d", tc.t, tc.cell, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		t    Type
		cell string
	}{
		{Int, "1.5"}, {Int32, "x"}, {Date, "10000-01-01"}, {Date, "999-01-01"}, {Date, "2025-02-30"},
		{Date, "04.03.2025"}, {Time, "10000-01-01T00:00:00Z"}, {Time, "2025-03-04T25:00:00Z"},
		{Bool, "maybe"}, {Code, "X"}, {Code, "10"}, {String, "text"},
	} {
		if got, err := ParseCell(tc.t, tc.cell); err == nil {
			t.Errorf("ParseCell(%d, %q) = %d, want an error", tc.t, tc.cell, got)
		}
	}
}
