package pipeline

import (
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	"github.com/ratelist/ratelist/archive"
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

// day formats days since 1970-01-01 (a date cell of any size) as YYYY-MM-DD.
func day(d int64) string { return time.Unix(d*86400, 0).UTC().Format(time.DateOnly) }

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

// maxGapYears is the longest stretch between two rated tournaments that a run
// takes without being told (Options.AllowGap): a longer one is most likely a
// mistyped year (0024 for 2024), which would make a list for every period in
// between.
const maxGapYears = 10

// GapError is a stretch of more than maxGapYears without a rated tournament
// (or a Joker game): the row before it, and what comes next.
type GapError struct {
	File       string
	Row        int64
	What       string // the tournament or game before the gap, and its date
	Next       string // the next one, and its date
	EmptyLists int
}

func (e *GapError) Error() string {
	return fmt.Sprintf("%s row %d: %s, more than %d years before the next (%s): the %d periods between them would each get a list. "+
		"Correct the date if it is mistyped; if the gap is real, confirm it with --allow-gap",
		e.File, e.Row, e.What, maxGapYears, e.Next, e.EmptyLists)
}

func (e *GapError) Unwrap() error { return ErrUsage }

// gapCheck looks at the stretches between consecutive dated events (rated
// tournaments, or Joker games) whose lists a run writes.
type gapCheck struct {
	kind  string
	win   *window
	allow bool
	log   *slog.Logger
	what  string // "rated tournament" or "Joker game", for the log
}

// tooLong says whether the stretch from day a (list period k1) to day b
// (period k2) is longer than maxGapYears and not confirmed; a stretch of a
// year or more that is not is logged, once.
func (g *gapCheck) tooLong(a, b int32, k1, k2 int) (empty int, refuse bool) {
	empty = k2 - k1 - 1
	written := (!g.win.resumed || k2 > g.win.start) && (!g.win.hasUntil || k1 < g.win.until)
	if empty <= 0 || !written || dayTime(b).Before(dayTime(a).AddDate(1, 0, 0)) {
		return empty, false
	}
	if !g.allow && dayTime(b).After(dayTime(a).AddDate(maxGapYears, 0, 0)) {
		return empty, true
	}
	g.log.Info("no "+g.what+" for a year or more: the lists in between repeat the ratings",
		"after", day(int64(a)), "before", day(int64(b)),
		"lists", empty, "first", periodLabel(g.kind, k1+1), "last", periodLabel(g.kind, k2-1))
	return empty, false
}

// checkGaps checks the stretches between the rated tournaments, one after the
// other in rating order (gapCheck): one too long is a GapError naming the
// tournament before it.
func (r *rater) checkGaps(opt *Options, a *runArchive, order []int) error {
	g := gapCheck{kind: r.periods.kind, win: &r.win, allow: opt.AllowGap, log: opt.Log, what: "rated tournament"}
	ts := a.Tournaments
	prev := -1
	for _, i := range order {
		t := &ts[i]
		if !r.rates(t) {
			continue
		}
		if prev >= 0 {
			p := &ts[prev]
			k1 := periodKey(r.periods.kind, r.rules.ListDay(p.End))
			k2 := periodKey(r.periods.kind, r.rules.ListDay(t.End))
			if empty, refuse := g.tooLong(p.End, t.End, k1, k2); refuse {
				file, row := tournamentRow(a.FS, p.ID)
				return &GapError{File: file, Row: row, EmptyLists: empty,
					What: fmt.Sprintf("tournament %d %q ends %s", p.ID, p.Name, day(int64(p.End))),
					Next: fmt.Sprintf("rated tournament %d, ending %s", t.ID, day(int64(t.End)))}
			}
		}
		prev = i
	}
	return nil
}

// checkGaps checks the stretches between the Joker games, in rating order
// (gapCheck): one too long is a GapError naming the game before it.
func (j *jokerPass) checkGaps(rows []jokerRow, games []jokerGameRef) error {
	g := gapCheck{kind: j.kind, win: j.win, allow: j.allowGap, log: j.log, what: "Joker game"}
	for i := 1; i < len(games); i++ {
		a, b := games[i-1].Day(), games[i].Day()
		if empty, refuse := g.tooLong(a, b, periodKey(j.kind, a), periodKey(j.kind, b)); refuse {
			r := &rows[games[i-1].first]
			return &GapError{File: j.arch.TableFiles[r.file], Row: r.row, EmptyLists: empty,
				What: fmt.Sprintf("Joker game %d played %s", games[i-1].Game, day(int64(a))),
				Next: fmt.Sprintf("Joker game %d, played %s", games[i].Game, day(int64(b)))}
		}
	}
	return nil
}

// tournamentRow finds where tournament id's row is in the tournaments table
// (its first row with that id): for a message, so it reads the table again.
func tournamentRow(fsys fs.FS, id int64) (string, int64) {
	files, err := archive.Files(fsys, "tournaments")
	if err != nil {
		return "tournaments", 0
	}
	rd := archive.NewReader(fsys, files, archive.TournamentColumns[:1])
	defer rd.Close()
	for rd.Next() {
		b := rd.Batch()
		for i := range b.N {
			if !b.Nulls[0][i] && b.Ints[0][i] == id {
				return b.File, b.First + int64(i)
			}
		}
	}
	return "tournaments", 0
}
