package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/ratelist/ratelist/pipeline"
)

// isTerminal tells whether w is a terminal (progress bars and the summary for
// people go only there; cron mail gets slog lines).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// barProgress draws pipeline progress as mpb bars on a terminal.
type barProgress struct {
	p   *mpb.Progress
	bar *mpb.Bar
}

func newBarProgress(w io.Writer) *barProgress {
	return &barProgress{p: mpb.New(mpb.WithOutput(w), mpb.WithWidth(40), mpb.WithRefreshRate(150*time.Millisecond))}
}

func (b *barProgress) Phase(name string, total int64) {
	b.bar = b.p.AddBar(total,
		mpb.PrependDecorators(decor.Name(fmt.Sprintf("%-8s", name)), decor.CountersNoUnit(" %d / %d rows")),
		mpb.AppendDecorators(decor.Percentage(), decor.Name(" "), decor.AverageSpeed(0, "%.0f rows/s")),
	)
}

func (b *barProgress) Add(n int64) {
	if b.bar != nil {
		b.bar.IncrInt64(n)
	}
}

func (b *barProgress) Done() {
	if b.bar != nil {
		b.bar.SetTotal(-1, true)
		b.bar = nil
	}
}

func (b *barProgress) wait() { b.p.Wait() }

var _ pipeline.Progress = (*barProgress)(nil)

// printSummary is the one-screen summary for people at the end of a run.
func printSummary(w io.Writer, out string, s *pipeline.Summary, took time.Duration) {
	fmt.Fprintf(w, "\nratelist run: %s → %s in %s\n", s.Archive, out, took.Round(time.Millisecond))
	fmt.Fprintf(w, "  rules %s, lists per %s", s.Rules, s.Period)
	for _, f := range s.RuleSet {
		if !f.OmitZero || f.Value != 0 {
			fmt.Fprintf(w, ", %s %d", strings.ReplaceAll(f.Key, "_", " "), f.Value)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  rows: %d read, %d used, %d rejected\n", s.RowsRead, s.RowsUsed, s.RowsRejected)
	fmt.Fprintf(w, "  tournaments: %d, rated %d; standings written %d\n", s.Tournaments, s.TournamentsRated, s.StandingsWritten)
	if s.Lists > 0 {
		fmt.Fprintf(w, "  lists: %d (%s … %s), %d players on the last\n", s.Lists, s.FirstList, s.LastList, s.PlayersListed)
	} else {
		fmt.Fprintf(w, "  lists: none written\n")
	}
	if s.ResumedFrom != "" {
		fmt.Fprintf(w, "  continued after the %s list\n", s.ResumedFrom)
	}
	if len(s.StalePeriods) > 0 {
		fmt.Fprintf(w, "  WARNING: inputs of listed periods changed since their outputs were written: %v\n", s.StalePeriods)
		fmt.Fprintf(w, "           rerun with --from %s, or --resume --rerate\n", s.StalePeriods[0])
	}
	if s.RerateFrom != "" {
		fmt.Fprintf(w, "  Re-rated from %s (--rerate)\n", s.RerateFrom)
	}
	for _, c := range s.ChangedLists {
		fmt.Fprintf(w, "  WARNING: published list %s changed: %d rows\n", c.List, c.ChangedRows)
	}
	for _, t := range s.TableRuleSets {
		b, _ := json.Marshal(t)
		fmt.Fprintf(w, "  %s: %s\n", t.Name, b)
	}
	for i, k := range s.RejectKinds {
		if i == 5 {
			fmt.Fprintf(w, "  … %d more kinds in rejects.csv\n", len(s.RejectKinds)-5)
			break
		}
		fmt.Fprintf(w, "  rejected %6d × %s\n", k.Count, k.Kind)
	}
}
