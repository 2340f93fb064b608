package trf

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// headerDates are the date texts of a file, read once every record is in.
type headerDates struct {
	header     []dateField // 042 and 052
	rounds     []string    // the round dates of 132
	roundsLine int
}

type dateField struct {
	line  int
	start bool // 042, else 052
	text  string
}

// reading is one date a text can mean, with the form it is read in.
type reading struct {
	t    time.Time
	form string
}

// resolveDates sets Start and End from 042 and 052. A text in no known form is a
// warning. A text two forms fit (10.09.13: YY.MM.DD or DD.MM.YY) is settled by the
// file's other dates — the nearest to the round dates of 132 or to the other header
// date; for two ambiguous header dates alone, the form that makes them closest —
// else read year first, as TRF writes its own dates; a note names the choice.
// Without a readable 042, the first round date of 132 is the start (and the last
// the end, without 052), with a note.
func (f *File) resolveDates(d headerDates) {
	var anchors []time.Time // the round dates
	for _, text := range d.rounds {
		if rs := readings(text); len(rs) == 1 {
			anchors = append(anchors, rs[0].t)
		}
	}
	type ambiguous struct {
		field dateField
		rs    []reading
	}
	var amb []ambiguous
	set := func(fd dateField, t time.Time) {
		if fd.start {
			f.Start = t
		} else {
			f.End = t
		}
	}
	for _, fd := range d.header {
		switch rs := readings(fd.text); len(rs) {
		case 0:
			err := ErrEndDate
			if fd.start {
				err = ErrStartDate
			}
			f.Warnings = append(f.Warnings, &SyntaxError{File: f.fileName, Line: fd.line, Column: 5, Err: fmt.Errorf("%q: %w", fd.text, err)})
		case 1:
			set(fd, rs[0].t)
		default:
			amb = append(amb, ambiguous{fd, rs})
		}
	}
	// Two ambiguous header dates are one writer's form: read them alike.
	if len(amb) == 2 && len(anchors) == 0 && f.Start.IsZero() && f.End.IsZero() {
		best, span, tie := -1, time.Duration(0), false
		for k := range amb[0].rs {
			a, b := amb[0].rs[k], formOf(amb[1].rs, amb[0].rs[k].form)
			if b == nil {
				continue
			}
			start, end := a.t, b.t
			if !amb[0].field.start {
				start, end = end, start
			}
			switch s := end.Sub(start); {
			case s < 0:
			case best < 0 || s < span:
				best, span, tie = k, s, false
			case s == span:
				tie = true
			}
		}
		why := "the form that puts the start and end dates closest together"
		if tie {
			why = "nothing in the file settles it: year first, as TRF writes its round dates"
			if best = 0; formOf(amb[1].rs, amb[0].rs[0].form) == nil {
				best = -1
			}
		}
		if best >= 0 {
			for _, a := range amb {
				r := *formOf(a.rs, amb[0].rs[best].form)
				set(a.field, r.t)
				f.noteDate(a.field, a.rs, r, why)
			}
			amb = nil
		}
	}
	for _, a := range amb {
		others := anchors
		why := "nearest the round dates (132)"
		if len(others) == 0 {
			why = "nearest the end date (052)"
			if !a.field.start {
				why = "nearest the start date (042)"
			}
			for _, t := range []time.Time{f.Start, f.End} {
				if !t.IsZero() {
					others = append(others, t)
				}
			}
		}
		r := a.rs[0]
		if len(others) == 0 {
			why = "nothing in the file settles it: year first, as TRF writes its round dates"
		} else {
			best := time.Duration(-1)
			for _, c := range a.rs {
				if d := nearest(c.t, others); best < 0 || d < best {
					r, best = c, d
				}
			}
		}
		set(a.field, r.t)
		f.noteDate(a.field, a.rs, r, why)
	}
	if f.Start.IsZero() && len(anchors) > 0 {
		first, last := anchors[0], anchors[0]
		for _, t := range anchors {
			first, last = minTime(first, t), maxTime(last, t)
		}
		f.Start = first
		note := "no start date (042): the first round date of 132, " + first.Format("2006-01-02")
		if f.End.IsZero() {
			f.End = last
			note += "; end date the last, " + last.Format("2006-01-02")
		}
		f.Warnings = append(f.Warnings, &SyntaxError{File: f.fileName, Line: d.roundsLine, Err: fmt.Errorf("%w: %s", ErrAmbiguousDate, note)})
	}
}

func (f *File) noteDate(fd dateField, rs []reading, r reading, why string) {
	var alts []string
	for _, c := range rs {
		alts = append(alts, fmt.Sprintf("%s (%s)", c.t.Format("2006-01-02"), c.form))
	}
	rec := "052"
	if fd.start {
		rec = "042"
	}
	f.Warnings = append(f.Warnings, &SyntaxError{File: f.fileName, Line: fd.line, Column: 5,
		Err: fmt.Errorf("%w: %s %q can be %s: read as %s, %s", ErrAmbiguousDate, rec, fd.text, strings.Join(alts, " or "), r.t.Format("2006-01-02"), why)})
}

func formOf(rs []reading, form string) *reading {
	for i := range rs {
		if rs[i].form == form {
			return &rs[i]
		}
	}
	return nil
}

// nearest is the distance from t to the closest of ts.
func nearest(t time.Time, ts []time.Time) time.Duration {
	best := time.Duration(-1)
	for _, u := range ts {
		d := t.Sub(u)
		if d < 0 {
			d = -d
		}
		if best < 0 || d < best {
			best = d
		}
	}
	return best
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// readings are the dates a 042/052 text can mean, year first before day first
// before month first: none when it is in no known form. Forms: year first
// (2024/12/01, 2024-12-01, 2024.12.01; YY/MM/DD, TRF's own form for round dates);
// day first (01.08.2024, 28. 07. 2005, 01/08/2024; 08/31/2024 month first when
// only that fits); two-digit years with dots or dashes, which fit YY.MM.DD and
// DD.MM.YY alike (10.09.13); YYYYMMDD; month names (Jun 26, 2020; 26 June 2020;
// 26-Jun-2020).
func readings(s string) []reading {
	if m := numericDate.FindStringSubmatch(s); m != nil && m[2] == m[4] {
		return numericReadings(m[1], m[2], m[3], m[5])
	}
	if compactDate.MatchString(s) { // 20200529
		y, _ := strconv.Atoi(s[:4])
		m, _ := strconv.Atoi(s[4:6])
		dd, _ := strconv.Atoi(s[6:])
		if t, ok := validDate(y, m, dd); ok {
			return []reading{{t, "YYYYMMDD"}}
		}
		return nil
	}
	for _, layout := range []string{"Jan 2, 2006", "January 2, 2006", "Jan 2 2006", "January 2 2006", "2 Jan 2006", "2 January 2006", "2. January 2006", "2 Jan, 2006", "2 January, 2006", "2-Jan-2006", "2-January-2006"} {
		if d, err := time.Parse(layout, s); err == nil {
			if t, ok := validDate(d.Year(), int(d.Month()), d.Day()); ok {
				return []reading{{t, "month name"}}
			}
		}
	}
	return nil
}

var compactDate = regexp.MustCompile(`^\d{8}$`)

// numericDate is three numbers with separators (/ - or ., the same twice), spaces
// allowed around them and a final dot tolerated.
var numericDate = regexp.MustCompile(`^(\d{1,4}) *([./-]) *(\d{1,2}) *([./-]) *(\d{1,4})\.?$`)

// numericReadings orders three date numbers by their widths: a four-digit first
// number is the year (year, month, day), a four-digit last one too (day, month,
// year; month first with slashes when day first is impossible). Two-digit years:
// YY/MM/DD with slashes (day or month first only when that is impossible);
// YY.MM.DD and DD.MM.YY with dots or dashes, a one-digit outer number being no year.
func numericReadings(a, sep, b, c string) []reading {
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	z, _ := strconv.Atoi(c)
	var rs []reading
	add := func(form string, yy, mm, dd int) {
		if t, ok := validDate(yy, mm, dd); ok {
			rs = append(rs, reading{t, form})
		}
	}
	f := func(parts ...string) string { return strings.Join(parts, sep) }
	switch {
	case len(a) == 4 && len(c) <= 2:
		add(f("YYYY", "MM", "DD"), x, y, z)
	case len(c) == 4 && len(a) <= 2:
		add(f("DD", "MM", "YYYY"), z, y, x)
		if len(rs) == 0 && sep == "/" {
			add(f("MM", "DD", "YYYY"), z, x, y)
		}
	case len(a) <= 2 && len(c) <= 2 && sep == "/":
		if len(a) == 2 {
			add(f("YY", "MM", "DD"), century(x), y, z)
		}
		if len(rs) == 0 && len(c) == 2 {
			add(f("DD", "MM", "YY"), century(z), y, x)
			add(f("MM", "DD", "YY"), century(z), x, y)
		}
	case len(a) <= 2 && len(c) <= 2:
		if len(a) == 2 {
			add(f("YY", "MM", "DD"), century(x), y, z)
		}
		if len(c) == 2 {
			add(f("DD", "MM", "YY"), century(z), y, x)
		}
	}
	return rs
}

// century expands a two-digit year as Go's time package does: 69–99 are 19YY,
// 00–68 are 20YY.
func century(yy int) int {
	if yy >= 69 {
		return 1900 + yy
	}
	return 2000 + yy
}

// validDate is the date y-m-d when it exists in the calendar and the year is a
// plausible tournament year (1900–2199; 0024 is a typing error, not a date).
func validDate(y, m, d int) (time.Time, bool) {
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if y < 1900 || y > 2199 || t.Year() != y || int(t.Month()) != m || t.Day() != d {
		return time.Time{}, false
	}
	return t, true
}
