package day

import (
	"testing"
	"time"
)

func TestDayTime(t *testing.T) {
	for _, c := range []struct {
		s string
		d Day
	}{{"1970-01-01", 0}, {"1969-12-31", -1}, {"2024-02-29", 19782}, {"2000-03-01", 11017}} {
		got, err := Parse(c.s)
		if err != nil || got != c.d || c.d.String() != c.s {
			t.Errorf("Parse(%q) = %d, %v; String(%d) = %q", c.s, got, err, c.d, c.d.String())
		}
	}
	if got := FromMicros(-1); got != -1 {
		t.Errorf("FromMicros(-1) = %d, want -1 (the day before the epoch)", got)
	}
	if got := Date(2025, 1, 31).AddDate(0, 1, 0); got.String() != "2025-03-03" {
		t.Errorf("AddDate = %s", got)
	}
	if _, err := Parse("2025-02-30"); err == nil {
		t.Error("Parse took 2025-02-30")
	}
}

func TestPeriods(t *testing.T) {
	for _, c := range []struct {
		k            Kind
		day          string
		label        string
		first, last  string
		next, before string
	}{
		{Month, "2025-03-17", "2025-03", "2025-03-01", "2025-03-31", "2025-04", "2025-02"},
		{Month, "2024-12-31", "2024-12", "2024-12-01", "2024-12-31", "2025-01", "2024-11"},
		{Quarter, "2025-06-30", "2025-Q2", "2025-04-01", "2025-06-30", "2025-Q3", "2025-Q1"},
		{Quarter, "2025-01-01", "2025-Q1", "2025-01-01", "2025-03-31", "2025-Q2", "2024-Q4"},
		{Year, "2024-02-29", "2024", "2024-01-01", "2024-12-31", "2025", "2023"},
		{Month, "0999-01-05", "0999-01", "0999-01-01", "0999-01-31", "0999-02", "0998-12"},
	} {
		d, _ := Parse(c.day)
		p := PeriodOf(c.k, d)
		first, last := p.Bounds()
		if p.Label() != c.label || first.String() != c.first || last.String() != c.last ||
			p.Next(1).Label() != c.next || p.Next(-1).Label() != c.before {
			t.Errorf("%s %s: %s %s…%s next %s before %s; want %s %s…%s %s %s", c.k, c.day,
				p.Label(), first, last, p.Next(1).Label(), p.Next(-1).Label(), c.label, c.first, c.last, c.next, c.before)
		}
		if q, err := ParsePeriod(c.k, c.label); err != nil || q != p {
			t.Errorf("ParsePeriod(%s, %q) = %v, %v; want %v", c.k, c.label, q, err, p)
		}
		if PeriodOf(c.k, first) != p || PeriodOf(c.k, last) != p || PeriodOf(c.k, last+1) != p.Next(1) {
			t.Errorf("%s: bounds %s…%s not in the period", c.label, first, last)
		}
	}
}

func TestParsePeriodRefuses(t *testing.T) {
	for _, c := range []struct {
		k Kind
		s string
	}{{Month, "2025-13"}, {Month, "2025-3"}, {Month, "2025-03x"}, {Month, "2025"}, {Quarter, "2025-Q5"},
		{Quarter, "2025-03"}, {Year, "25"}, {Year, "2025-01"}, {Month, ""}} {
		if p, err := ParsePeriod(c.k, c.s); err == nil {
			t.Errorf("ParsePeriod(%s, %q) = %v, want an error", c.k, c.s, p)
		}
	}
	if CheckKind("week") == nil || CheckKind("quarter") != nil {
		t.Error("CheckKind")
	}
}

func TestOf(t *testing.T) {
	tm := time.Date(2025, 3, 1, 23, 59, 0, 0, time.UTC)
	if Of(tm).String() != "2025-03-01" || Of(tm.Add(time.Minute)).String() != "2025-03-02" {
		t.Error("Of cuts at midnight UTC")
	}
}

func TestParseLabel(t *testing.T) {
	for s, want := range map[string]Period{"2025-03": {Month, 2025*12 + 2}, "2025-Q4": {Quarter, 2025*4 + 3}, "2025": {Year, 2025}} {
		if p, err := ParseLabel(s); err != nil || p != want {
			t.Errorf("ParseLabel(%q) = %v, %v; want %v", s, p, err, want)
		}
	}
	for _, s := range []string{"", "2025-Q0", "25-03", "2025-00", "2025-03-01"} {
		if _, err := ParseLabel(s); err == nil {
			t.Errorf("ParseLabel(%q) took it", s)
		}
	}
}
