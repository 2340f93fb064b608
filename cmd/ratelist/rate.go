package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/ratelist/ratelist/officer"
	"github.com/ratelist/ratelist/pipeline"
)

// cmdRate implements
//
//	ratelist rate --trf FILE [--rules fide|school|FILE] [--list FIDE-LIST] [--date YYYY-MM-DD] [--format csv|text|json]
//
// It prints the rating changes the tournament of a TRF file would bring, as a
// run holding only that tournament rates it (docs/arbiter.md).
func cmdRate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("rate", stderr)
	file := fs.String("trf", "", "the tournament's TRF `file` (required)")
	rules := fs.String("rules", "fide", "rule set: "+pipeline.RuleSetNames()+" or a TOML `file`")
	list := fs.String("list", "", "FIDE's players `file` (TXT or XML): its standard ratings replace the file's")
	format := fs.String("format", "csv", "output `format`: csv, text or json")
	date := fs.String("date", "", "start `date` YYYY-MM-DD for a file without one (records 042, 132)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	usage := usageFunc(stderr, "rate")
	switch {
	case *file == "":
		return usage("give --trf FILE")
	case *format != "csv" && *format != "text" && *format != "json":
		return usage("parsing --format: %q is not csv, text or json", *format)
	}
	r, err := pipeline.LoadRules(*rules)
	if err != nil {
		return usage("parsing --rules: %v", err)
	}
	opt := officer.RateOptions{Rules: r, RulesName: *rules, List: *list}
	if *date != "" {
		if opt.Date, err = time.Parse(time.DateOnly, *date); err != nil {
			return usage("parsing --date: %q is not YYYY-MM-DD", *date)
		}
	}
	fail := failFunc(stderr, "rate")
	rep, err := officer.RateTRF(ctx, *file, opt)
	if err != nil {
		return fail(err)
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(stderr, "note:", n)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fail(err)
		}
		return exitOK
	}
	players, notRated := rep.Tables()
	if err := officer.WriteTables(stdout, officer.Format(*format), players, notRated); err != nil {
		return fail(err)
	}
	return exitOK
}
