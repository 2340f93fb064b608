package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
)

// cmdCalibrate implements
//
//	ratelist calibrate turcas --archive DIR [--from DATE] [--to DATE] [--format csv|text]
//
// It derives TurČAS coefficients from the Scrabble tournaments of the archive that
// start within [from, to] (DATE is YYYY-MM-DD or YYYY-MM). csv prints the header
// A,B,C,D and one row; text also prints the statistics used.
func cmdCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "ratelist calibrate: "+format+"\n", a...)
		return exitUsage
	}
	if len(args) > 0 && isHelp(args[0]) {
		args = []string{"turcas", "-h"} // turcas is the only thing calibrate derives
	}
	if len(args) == 0 || args[0] != "turcas" {
		return usage("want: calibrate turcas --archive DIR [--from DATE] [--to DATE] [--format csv|text]")
	}
	fs := newFlags("calibrate turcas", stderr)
	archive := fs.String("archive", "", "the archive `dir`")
	from := fs.String("from", "", "first start `date` (YYYY-MM-DD or YYYY-MM)")
	to := fs.String("to", "", "last start `date` (YYYY-MM-DD or YYYY-MM)")
	format := fs.String("format", "text", "output `format`: csv or text")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usage("unexpected argument %q", fs.Arg(0))
	}
	if *archive == "" {
		return usage("--archive DIR is required")
	}
	if *format != "csv" && *format != "text" {
		return usage("parsing --format: %q is neither csv nor text", *format)
	}
	lo, err := parseDay(*from, false)
	if err != nil {
		return usage("parsing --from: %v", err)
	}
	hi, err := parseDay(*to, true)
	if err != nil {
		return usage("parsing --to: %v", err)
	}
	cal := tiebreak.NewCalibrator(tiebreak.Options{})
	err = pipeline.ForEachTournament(ctx, *archive, func(t *tiebreak.Tournament) error {
		if !strings.EqualFold(t.Discipline, "scrabble") {
			return nil
		}
		if (!lo.IsZero() && t.Start.Before(lo)) || (!hi.IsZero() && t.Start.After(hi)) {
			return nil
		}
		return cal.Add(t)
	})
	if err != nil {
		fmt.Fprintf(stderr, "ratelist calibrate: %v\n", message(err))
		return exitCode(err)
	}
	res, err := cal.Result()
	if err != nil {
		fmt.Fprintf(stderr, "ratelist calibrate: %v\n", message(err))
		return exitCode(err)
	}
	if err := writeCalibration(stdout, *format, res); err != nil {
		fmt.Fprintf(stderr, "ratelist calibrate: %v\n", message(err))
		return exitCode(err)
	}
	return exitOK
}

func writeCalibration(w io.Writer, format string, c tiebreak.Calibration) error {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }
	if format == "csv" {
		cw := csv.NewWriter(w)
		_ = cw.Write([]string{"A", "B", "C", "D"})
		_ = cw.Write([]string{f(c.A), f(c.B), f(c.C), f(c.D)})
		cw.Flush()
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "tournaments\t%d\n", c.Tournaments)
	fmt.Fprintf(tw, "games with points\t%d\n", c.Games)
	fmt.Fprintf(tw, "player samples\t%d\n", c.Players)
	fmt.Fprintf(tw, "b  mean Buchholz / rounds\t%s\n", f(c.MeanBH))
	fmt.Fprintf(tw, "a  mean AbsSkore\t%s\n", f(c.MeanAbs))
	fmt.Fprintf(tw, "r  mean |RelSkore|\t%s\n", f(c.MeanRel))
	fmt.Fprintf(tw, "δ  mean starter's margin\t%s\n", f(c.Delta))
	fmt.Fprintf(tw, "A\t%s\n", f(c.A))
	fmt.Fprintf(tw, "B = b/(2a)\t%s\n", f(c.B))
	fmt.Fprintf(tw, "C = b/(2r)\t%s\n", f(c.C))
	fmt.Fprintf(tw, "D = C·δ + B·δ/2\t%s\n", f(c.D))
	return tw.Flush()
}

// parseDay reads YYYY-MM-DD or YYYY-MM; for a month, end picks its last day.
func parseDay(s string, end bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.Parse("2006-01-02", s); err == nil {
		return d, nil
	}
	d, err := time.Parse("2006-01", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not YYYY-MM-DD or YYYY-MM", s)
	}
	if end {
		d = d.AddDate(0, 1, -1)
	}
	return d, nil
}
