package pipeline

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
)

// parsePeriodLabel reads a period label of the kind: 2025-03, 2025-Q1 or 2025.
func parsePeriodLabel(kind, s string) (int, error) {
	var y, n int
	var err error
	switch kind {
	case PeriodQuarter:
		_, err = fmt.Sscanf(s, "%4d-Q%1d", &y, &n)
		if err == nil && (n < 1 || n > 4) {
			err = errors.New("quarter must be 1–4")
		}
		if err == nil && periodLabel(kind, y*4+n-1) == s {
			return y*4 + n - 1, nil
		}
	case PeriodYear:
		_, err = fmt.Sscanf(s, "%4d", &y)
		if err == nil && periodLabel(kind, y) == s {
			return y, nil
		}
	default:
		_, err = fmt.Sscanf(s, "%4d-%2d", &y, &n)
		if err == nil && (n < 1 || n > 12) {
			err = errors.New("month must be 01–12")
		}
		if err == nil && periodLabel(kind, y*12+n-1) == s {
			return y*12 + n - 1, nil
		}
	}
	if err == nil {
		err = errors.New("malformed")
	}
	return 0, fmt.Errorf("%w: period %q is not a %s label (%s): %w", ErrUsage, s, kind, map[string]string{
		PeriodMonth: "YYYY-MM", PeriodQuarter: "YYYY-Qn", PeriodYear: "YYYY"}[kind], err)
}

// planResume applies --until, --resume and --from: which periods this run rates
// and writes, and the saved state it starts from.
func (r *runner) planResume() error {
	r.startKey, r.untilKey = r.firstPeriod, r.lastPeriod
	if r.opt.Until != "" {
		k, err := parsePeriodLabel(r.opt.Period, r.opt.Until)
		if err != nil {
			return fmt.Errorf("parsing --until: %w", err)
		}
		r.untilKey, r.hasUntil = k, true
		r.lastPeriod = min(r.lastPeriod, k)
	}
	if r.opt.Out == "" || r.opt.onTournament != nil || (!r.opt.Resume && r.opt.From == "") {
		return nil
	}
	var s *savedState
	var path string
	var err error
	if r.opt.Resume {
		if s, path, err = r.loadStateFor(-1); err != nil {
			return err
		}
		if s == nil {
			r.opt.Log.Info("no saved state in --out: a full run")
			return nil
		}
	} else {
		f, err := parsePeriodLabel(r.opt.Period, r.opt.From)
		if err != nil {
			return fmt.Errorf("parsing --from: %w", err)
		}
		if !r.hasPeriods || f <= r.firstPeriod {
			return nil // from the start: a full run
		}
		if s, path, err = r.loadStateFor(f - 1); err != nil {
			return err
		}
		if s == nil {
			return fmt.Errorf("--from %s: no state saved after %s in %s: run once without --from",
				r.opt.From, periodLabel(r.opt.Period, f-1), filepath.Join(r.opt.Out, "state"))
		}
	}
	if err := r.restore(s); err != nil {
		return fmt.Errorf("%s: %w (run a full reprocess without --resume or --from)", path, err)
	}
	r.startKey, r.resumed = s.Key+1, true
	r.curPeriod = r.startKey
	r.sum.ResumedFrom = periodLabel(r.opt.Period, s.Key)
	r.opt.Log.Info("continuing from saved state", "state", path, "first_period", periodLabel(r.opt.Period, r.startKey))
	return nil
}

// inRun tells whether a tournament whose list is period key belongs to this run:
// not taken in by the state it resumed from, and not after --until.
func (r *runner) inRun(key int) bool {
	return (!r.resumed || key >= r.startKey) && (!r.hasUntil || key <= r.untilKey)
}

// carryCards copies the cards of periods before label from the previous
// cards.parquet, so that a resumed run's cards equal a full run's.
func (r *runner) carryCards(label string) error {
	p := filepath.Join(r.opt.Out, "cards.parquet")
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		r.opt.Log.Warn("no cards.parquet to carry over: cards before this run's periods are missing", "path", p)
		return nil
	}
	if err != nil {
		return fmt.Errorf("carry cards: %w", err)
	}
	defer f.Close()
	rd := parquet.NewGenericReader[cardRow](f)
	defer rd.Close()
	buf := make([]cardRow, 4096)
	for {
		n, err := rd.Read(buf)
		for _, c := range buf[:n] {
			if c.Period < label {
				if werr := r.pushCard(c); werr != nil {
					return fmt.Errorf("carry cards: %w", werr)
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("carry cards from %s: %w", p, err)
		}
	}
}

// writeState is a pool job: state/LABEL.state after that period's list.
func (r *runner) writeState(label string, s *savedState) error {
	o, err := r.stage.create("state/" + label + ".state")
	if err != nil {
		return err
	}
	defer o.abort()
	if err := encodeState(o, s); err != nil {
		return fmt.Errorf("state %s: %w", label, err)
	}
	return o.finish()
}
