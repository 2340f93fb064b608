package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// parsePeriodLabel reads a period label of the kind: 2025-03, 2025-Q1 or 2025.
func parsePeriodLabel(kind day.Kind, s string) (int, error) {
	p, err := day.ParsePeriod(kind, s)
	if err != nil {
		return 0, fmt.Errorf("%w: period %q is not a %s label (%s): %w", ErrUsage, s, kind, kind.Form(), err)
	}
	return p.Key, nil
}

// checkWindow refuses, before anything is read or written, an Until or From
// that is not a label of the period kind, and options that contradict.
func (opt *Options) checkWindow() error {
	var until, from int
	var err error
	if opt.Until != "" {
		if until, err = parsePeriodLabel(opt.Period, opt.Until); err != nil {
			return &OptionError{"Until", err}
		}
	}
	if opt.Rerate && !opt.Resume {
		return &OptionError{"Rerate", fmt.Errorf("%w: it goes with --resume (--from already re-rates from the period given)", ErrUsage)}
	}
	if opt.From == "" {
		return nil
	}
	if from, err = parsePeriodLabel(opt.Period, opt.From); err != nil {
		return &OptionError{"From", err}
	}
	switch {
	case opt.Resume:
		return &ConflictError{"From", "Resume", fmt.Errorf("%w: resuming continues after the last list, re-rating starts at the period given: choose one", ErrUsage)}
	case opt.Until != "" && from > until:
		return &ConflictError{"From", "Until", fmt.Errorf("%w: %s is after %s, the last period to rate", ErrUsage, opt.From, opt.Until)}
	}
	return nil
}

// plan applies --until, --resume and --from: which periods this run rates
// and writes, and the saved state it starts from.
func (r *rater) plan(opt *Options) error {
	if opt.Until != "" {
		k, err := parsePeriodLabel(opt.Period, opt.Until)
		if err != nil {
			return &OptionError{"Until", err}
		}
		r.win.until, r.win.hasUntil = k, true
	}
	if opt.Out != "" {
		r.closeOpen(opt)
	}
	if r.win.hasUntil {
		r.periods.last = min(r.periods.last, r.win.until)
	}
	if opt.Out == "" || (!opt.Resume && opt.From == "") {
		return nil
	}
	var s *savedState
	var path string
	var err error
	if opt.Resume {
		// With --until, the latest state up to it: the outputs after it go.
		key := -1
		if r.win.hasUntil {
			key = r.win.until
		}
		if s, path, err = loadStateFor(opt.Out, opt.Period, key, true); err != nil {
			return err
		}
		if s == nil {
			opt.Log.Info("no saved state in --out: a full run")
			return nil
		}
	} else {
		f, err := parsePeriodLabel(opt.Period, opt.From)
		if err != nil {
			return &OptionError{"From", err}
		}
		if !r.periods.any || f <= r.periods.first {
			return nil // from the start: a full run
		}
		if s, path, err = loadStateFor(opt.Out, opt.Period, f-1, false); err != nil {
			return err
		}
		if s == nil {
			return &OptionError{"From", fmt.Errorf("%s: no state saved after %s in %s: rate from the start once first",
				opt.From, day.Period{Kind: opt.Period, Key: f - 1}.Label(), output.State.Dir(opt.Out))}
		}
	}
	if err := r.restore(s); err != nil {
		return fmt.Errorf("%s: %w (rate from the start instead)", path, err)
	}
	r.win.start, r.win.resumed = s.Key+1, true
	r.win.rerate = opt.Rerate && opt.Resume
	r.periods.cur = r.win.start
	r.sum.ResumedFrom = day.Period{Kind: opt.Period, Key: s.Key}.Label()
	opt.Log.Info("continuing from saved state", "state", path, "first_period", day.Period{Kind: opt.Period, Key: r.win.start}.Label())
	return nil
}

// closeOpen bounds the run by its date (opt.Now): a period still open on it
// (not every tournament its list takes in has ended) is listed only when asked (--provisional, or --until naming it or a later
// period), and no later period ever is. Its tournaments otherwise wait, as
// after --until, for the run that follows its end.
func (r *rater) closeOpen(opt *Options) {
	// The open period is the one whose list would take in a tournament ending
	// on the run's date: for a rule set whose lists take tournaments in later
	// (published on the 1st, taking tournaments ended days before) the list of
	// the 1st of M is complete, and listed, from a few days before M begins.
	open := day.PeriodOf(opt.Period, day.Day(r.rules.ListDay(int32(day.Of(opt.Now))))).Key
	last := open - 1
	if opt.Provisional || (r.win.hasUntil && r.win.until >= open) {
		last = open
	}
	if !r.win.hasUntil || r.win.until > last {
		r.win.until, r.win.hasUntil = last, true
	}
	if r.win.until == open {
		opt.open = day.Period{Kind: opt.Period, Key: open}.Label()
		r.periods.provisional = true
	}
}

// keepBefore is the first period this run writes when it resumes after
// earlier periods, "" otherwise: the earlier run's outputs before it stay.
func (r *rater) keepBefore() string {
	if r.win.start > r.periods.first {
		return day.Period{Kind: r.periods.kind, Key: r.win.start}.Label()
	}
	return ""
}

// carry copies the cards and card games of periods before label from the
// previous cards.parquet and card_games.parquet in out, so that a resumed
// run's files equal a full run's.
func (cw *cardWriter) carry(ctx context.Context, out, label string, log *slog.Logger) error {
	err := carryRows(out, output.Cards.Rel(""), log, cw.shape.rowShape, func(c *output.Card, vals []rating.Value) error {
		if c.Period < label {
			return cw.push(ctx, c, vals)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return carryRows(out, output.CardGames.Rel(""), log, cw.shape.gameShape, func(g *output.CardGame, vals []rating.Value) error {
		if g.Period < label {
			return cw.pushGame(ctx, g, vals)
		}
		return nil
	})
}

// carryRows hands each row of the file name in out to push, in file order,
// with its values of the rule set's columns when the file's shape sh has
// them (sh nil: none).
func carryRows[T any](out, name string, log *slog.Logger, sh *output.Shape, push func(*T, []rating.Value) error) error {
	p := filepath.Join(out, name)
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		log.Warn("no "+name+" to carry over: its rows before this run's periods are missing", "path", p)
		return nil
	}
	if err != nil {
		return fmt.Errorf("carry %s: %w", name, err)
	}
	defer f.Close()
	rd := output.NewReader[T](f)
	defer rd.Close()
	var added *output.AddedReader
	var vals []rating.Value
	if sh != nil && len(sh.Added()) > 0 {
		added, vals = sh.AddedReader(f), make([]rating.Value, len(sh.Added()))
		defer added.Close()
	}
	buf := rd.Block(4096)
	for {
		clear(buf) // a row read has no pointer left from an earlier one
		n, err := rd.Read(buf)
		for i := range buf[:n] {
			if added != nil {
				if aerr := added.Read(vals); aerr != nil {
					return fmt.Errorf("carry %s from %s: %w", name, p, aerr)
				}
			}
			if werr := push(&buf[i], vals); werr != nil {
				return fmt.Errorf("carry %s: %w", name, werr)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("carry %s from %s: %w", name, p, err)
		}
	}
}

// writeState is a pool job: state/LABEL.state after that period's list.
func writeState(stage *staging, label string, s *savedState) error {
	o, err := stage.create(output.State.Rel(label))
	if err != nil {
		return err
	}
	defer o.abort()
	if err := encodeState(o, s); err != nil {
		return fmt.Errorf("state %s: %w", label, err)
	}
	return o.finish()
}

// keptOutputs are the files of an earlier run that a resumed run (--resume,
// --from) leaves in --out: those output.Files keeps by period, of the periods
// before the first one it writes, and those it keeps by tournament, of the
// tournaments of those periods; each only when this run would write it.
// Everything else an earlier run left is replaced or removed.
type keptOutputs struct {
	before      string // the first period label this run writes; "" keeps nothing
	period      day.Kind
	arrow       bool
	allCSV      bool             // a kept tournament keeps its CSV: --standings-csv all
	tournaments map[int64]string // kept tournament → its period
}

// has tells whether the file rel (slash-separated, in --out) stays.
func (k *keptOutputs) has(rel string) bool {
	if k.before == "" {
		return false
	}
	f, key, ok := output.Match(rel)
	if !ok || (f == output.ListArrow && !k.arrow) || (f == output.StandingsCSV && !k.allCSV) {
		return false
	}
	switch f.Kept {
	case output.KeptByTournament:
		id, err := strconv.ParseInt(key, 10, 64)
		_, kept := k.tournaments[id]
		return err == nil && kept
	case output.KeptByPeriod:
		_, err := parsePeriodLabel(k.period, key)
		return err == nil && key < k.before
	}
	return false
}

// keep notes a tournament of a period before the first one this run writes.
func (k *keptOutputs) keep(id int64, period string) {
	if k.tournaments == nil {
		k.tournaments = map[int64]string{}
	}
	k.tournaments[id] = period
}
