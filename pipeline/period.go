package pipeline

import (
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/ratelist/ratelist/day"

	"github.com/ratelist/ratelist/archive"
)

// CheckPeriod validates --period.
func CheckPeriod(kind day.Kind) error {
	if err := day.CheckKind(string(kind)); err != nil {
		return &OptionError{"Period", fmt.Errorf("%w: %w", ErrUsage, err)}
	}
	return nil
}

// maxGapYears is the longest stretch between two rated tournaments that a run
// takes without being told (Options.AllowGap): a longer one is most likely a
// mistyped year (0024 for 2024), which would make a list for every period in
// between.
const maxGapYears = 10

// GapError is a stretch of more than maxGapYears without a rated tournament
// (or a game of a table rule set): the row before it, and what comes next.
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
// tournaments, or games of a table rule set) whose lists a run writes.
type gapCheck struct {
	kind  day.Kind
	win   *window
	allow bool
	log   *slog.Logger
	what  string // "rated tournament", or a table rule set's title and " game", for the log
}

// tooLong says whether the stretch from day a (list period k1) to day b
// (period k2) is longer than maxGapYears and not confirmed; a stretch of a
// year or more that is not is logged, once.
func (g *gapCheck) tooLong(a, b int32, k1, k2 int) (empty int, refuse bool) {
	empty = k2 - k1 - 1
	written := (!g.win.resumed || k2 > g.win.start) && (!g.win.hasUntil || k1 < g.win.until)
	if empty <= 0 || !written || day.Day(b).Time().Before(day.Day(a).Time().AddDate(1, 0, 0)) {
		return empty, false
	}
	if !g.allow && day.Day(b).Time().After(day.Day(a).Time().AddDate(maxGapYears, 0, 0)) {
		return empty, true
	}
	g.log.Info("no "+g.what+" for a year or more: the lists in between repeat the ratings",
		"after", day.Day(a).String(), "before", day.Day(b).String(),
		"lists", empty, "first", day.Period{Kind: g.kind, Key: k1 + 1}.Label(), "last", day.Period{Kind: g.kind, Key: k2 - 1}.Label())
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
			k1 := day.PeriodOf(r.periods.kind, day.Day(r.rules.ListDay(p.End))).Key
			k2 := day.PeriodOf(r.periods.kind, day.Day(r.rules.ListDay(t.End))).Key
			if empty, refuse := g.tooLong(p.End, t.End, k1, k2); refuse {
				file, row := tournamentRow(a.FS, p.ID)
				return &GapError{File: file, Row: row, EmptyLists: empty,
					What: fmt.Sprintf("tournament %d %q ends %s", p.ID, p.Name, day.Day(p.End).String()),
					Next: fmt.Sprintf("rated tournament %d, ending %s", t.ID, day.Day(t.End).String())}
			}
		}
		prev = i
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
