package pipeline

import (
	"fmt"
	"time"
)

// Period kinds of the rating lists.
const (
	PeriodMonth   = "month"
	PeriodQuarter = "quarter"
	PeriodYear    = "year"
)

// periodKey numbers the period holding a day (days since 1970-01-01) so that
// consecutive periods have consecutive keys.
func periodKey(kind string, days int32) int {
	t := time.Unix(int64(days)*86400, 0).UTC()
	y, m := t.Year(), int(t.Month())-1
	switch kind {
	case PeriodQuarter:
		return y*4 + m/3
	case PeriodYear:
		return y
	}
	return y*12 + m
}

// periodLabel is the list name of a period: 2025-03, 2025-Q1 or 2025.
func periodLabel(kind string, key int) string {
	switch kind {
	case PeriodQuarter:
		return fmt.Sprintf("%04d-Q%d", floorDiv(key, 4), key-4*floorDiv(key, 4)+1)
	case PeriodYear:
		return fmt.Sprintf("%04d", key)
	}
	return fmt.Sprintf("%04d-%02d", floorDiv(key, 12), key-12*floorDiv(key, 12)+1)
}

// CheckPeriod validates --period.
func CheckPeriod(kind string) error {
	switch kind {
	case PeriodMonth, PeriodQuarter, PeriodYear:
		return nil
	}
	return &OptionError{"Period", fmt.Errorf("%w: %q: want month, quarter or year", ErrUsage, kind)}
}

func dayTime(days int32) time.Time { return time.Unix(int64(days)*86400, 0).UTC() }

// periodBounds returns the first and last day (days since 1970-01-01) of a period.
func periodBounds(kind string, key int) (first, last int32) {
	var y, m, months int
	switch kind {
	case PeriodQuarter:
		y, m, months = floorDiv(key, 4), 3*(key-4*floorDiv(key, 4)), 3
	case PeriodYear:
		y, m, months = key, 0, 12
	default:
		y, m, months = floorDiv(key, 12), key-12*floorDiv(key, 12), 1
	}
	start := time.Date(y, time.Month(m+1), 1, 0, 0, 0, 0, time.UTC)
	end := start.AddDate(0, months, -1)
	return int32(start.Unix() / 86400), int32(end.Unix() / 86400)
}

// floorDiv divides rounding toward −∞ (days before 1970, period keys).
func floorDiv[T int | int64](a, b T) T {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
