// Package day is ratelist's one vocabulary for dates and list periods: a
// Day is a calendar day as the archive stores it (days since 1970-01-01,
// UTC), and a Period is a rating list's month, quarter or year with its
// label (2025-03, 2025-Q1, 2025), its first and last day.
package day

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Day is a calendar day: days since 1970-01-01 (negative before).
type Day int32

// None is a day before every real one: "no day".
const None Day = math.MinInt32

// Of returns the day of t in UTC.
func Of(t time.Time) Day {
	return Day(floorDiv(t.Unix(), 86400))
}

// Date returns the day of year, month and day of month (normalised as
// time.Date does).
func Date(year int, month time.Month, d int) Day {
	return Of(time.Date(year, month, d, 0, 0, 0, 0, time.UTC))
}

// Parse reads YYYY-MM-DD.
func Parse(s string) (Day, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, err
	}
	return Of(t), nil
}

// FromMicros returns the day of a timestamp in microseconds since the epoch.
func FromMicros(us int64) Day { return Day(floorDiv(us, 86400e6)) }

// Time is the day's midnight, UTC.
func (d Day) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String is YYYY-MM-DD.
func (d Day) String() string { return d.Time().Format(time.DateOnly) }

// Year is the day's year.
func (d Day) Year() int { return d.Time().Year() }

// AddDate adds years, months and days as time.Time.AddDate does.
func (d Day) AddDate(years, months, days int) Day {
	return Of(d.Time().AddDate(years, months, days))
}

// Kind is the length of a list period.
type Kind string

// The period kinds of the rating lists (--period).
const (
	Month   Kind = "month"
	Quarter Kind = "quarter"
	Year    Kind = "year"
)

// CheckKind reports a kind that is not month, quarter or year.
func CheckKind(k string) error {
	switch Kind(k) {
	case Month, Quarter, Year:
		return nil
	}
	return fmt.Errorf("%q: want month, quarter or year", k)
}

// Period is one list period: consecutive periods of a kind have consecutive
// keys (year×12+month−1, year×4+quarter−1, or the year).
type Period struct {
	Kind Kind
	Key  int
}

// PeriodOf returns the period of the kind that holds day d.
func PeriodOf(k Kind, d Day) Period {
	t := d.Time()
	y, m := t.Year(), int(t.Month())-1
	switch k {
	case Quarter:
		return Period{k, y*4 + m/3}
	case Year:
		return Period{k, y}
	}
	return Period{k, y*12 + m}
}

// Next is the period after p (n periods later for n > 1, earlier for n < 0).
func (p Period) Next(n int) Period { return Period{p.Kind, p.Key + n} }

// Label is the period's name in file names and pages: 2025-03, 2025-Q1 or 2025.
func (p Period) Label() string {
	switch p.Kind {
	case Quarter:
		return fmt.Sprintf("%04d-Q%d", floorDiv(p.Key, 4), p.Key-4*floorDiv(p.Key, 4)+1)
	case Year:
		return fmt.Sprintf("%04d", p.Key)
	}
	return fmt.Sprintf("%04d-%02d", floorDiv(p.Key, 12), p.Key-12*floorDiv(p.Key, 12)+1)
}

// Bounds returns the period's first and last day.
func (p Period) Bounds() (first, last Day) {
	var y, m, months int
	switch p.Kind {
	case Quarter:
		y, m, months = floorDiv(p.Key, 4), 3*(p.Key-4*floorDiv(p.Key, 4)), 3
	case Year:
		y, m, months = p.Key, 0, 12
	default:
		y, m, months = floorDiv(p.Key, 12), p.Key-12*floorDiv(p.Key, 12), 1
	}
	start := time.Date(y, time.Month(m+1), 1, 0, 0, 0, 0, time.UTC)
	return Of(start), Of(start.AddDate(0, months, -1))
}

// ParsePeriod reads a label of the kind, exactly as Label writes it.
func ParsePeriod(k Kind, s string) (Period, error) {
	var y, n int
	var err error
	p := Period{Kind: k}
	switch k {
	case Quarter:
		_, err = fmt.Sscanf(s, "%4d-Q%1d", &y, &n)
		if err == nil && (n < 1 || n > 4) {
			err = errors.New("quarter must be 1–4")
		}
		p.Key = y*4 + n - 1
	case Year:
		_, err = fmt.Sscanf(s, "%4d", &y)
		p.Key = y
	default:
		_, err = fmt.Sscanf(s, "%4d-%2d", &y, &n)
		if err == nil && (n < 1 || n > 12) {
			err = errors.New("month must be 01–12")
		}
		p.Kind, p.Key = Month, y*12+n-1
	}
	if err == nil && p.Label() != s {
		err = errors.New("malformed")
	}
	if err != nil {
		return Period{}, err
	}
	return p, nil
}

// ParseLabel reads a label of any kind, telling the kind by its form:
// YYYY-MM, YYYY-Qn or YYYY.
func ParseLabel(s string) (Period, error) {
	k := Month
	switch {
	case len(s) == 4:
		k = Year
	case len(s) == 7 && s[5] == 'Q':
		k = Quarter
	}
	p, err := ParsePeriod(k, s)
	if err != nil {
		return Period{}, fmt.Errorf("period %q: not YYYY-MM, YYYY-Qn or YYYY: %w", s, err)
	}
	return p, nil
}

// Form is how a label of the kind is written: YYYY-MM, YYYY-Qn or YYYY.
func (k Kind) Form() string {
	switch k {
	case Quarter:
		return "YYYY-Qn"
	case Year:
		return "YYYY"
	}
	return "YYYY-MM"
}

// floorDiv divides rounding toward −∞ (days before 1970, period keys).
func floorDiv[T int | int64](a, b T) T {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}
