package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/pipeline"
	sitereport "github.com/ratelist/ratelist/report"
)

// parseFlags parses args; ok is false with the exit code when it failed.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return exitUsage, false
	}
	return 0, true
}

// newLogger returns the slog logger for --log-format and --quiet.
func newLogger(w io.Writer, format string, quiet, verbose bool) (*slog.Logger, error) {
	level := slog.LevelInfo
	if quiet {
		level = slog.LevelError
	} else if verbose {
		level = slog.LevelDebug
	}
	opts := &slog.HandlerOptions{Level: level}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("parsing --log-format: %q is neither text nor json", format)
}

// openArchive resolves --archive: a folder, or the embedded demo when empty.
func openArchive(dir string) (fs.FS, string, error) {
	if dir == "" {
		return ratelist.Demo(), demoName, nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, "", fmt.Errorf("archive: %w", err)
	}
	if !st.IsDir() {
		return nil, "", fmt.Errorf("archive %s: not a folder", dir)
	}
	return os.DirFS(dir), dir, nil
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	archive := fs.String("archive", "", "archive `dir` (default: the embedded demo archive)")
	out := fs.String("out", "", "output `dir` (required)")
	rules := fs.String("rules", "", "rule set: "+pipeline.RuleSetNames()+" or a TOML `file` (default "+pipeline.DefaultRuleSet()+"; the demo's own rules for the demo)")
	period := fs.String("period", string(day.Month), "list `period`: month, quarter or year")
	workers := fs.Int("workers", 0, "worker goroutines `n` (default: the number of CPUs)")
	until := fs.String("until", "", "rate only tournaments whose list is `period` (YYYY-MM) or earlier")
	resume := fs.Bool("resume", false, "continue from the state kept in --out: rate only what its last list did not take in")
	from := fs.String("from", "", "re-rate from `period` (YYYY-MM) on, after corrections, from the state saved before it")
	rerate := fs.Bool("rerate", false, "with --resume: re-rate from the first stale period by itself (exit 4 names the lists that changed)")
	standingsCSV := fs.String("standings-csv", pipeline.StandingsCSVLast, "which tournaments also get standings/ID.csv: `which` = all, last (the last list period's) or none")
	arrow := fs.Bool("arrow", false, "also write each list as an Arrow IPC file (lists/LABEL.arrow) for analysts' tools")
	logFormat := fs.String("log-format", "text", "log `format`: text or json")
	quiet := fs.Bool("quiet", false, "log errors only")
	verbose := fs.Bool("v", false, "log debug details")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile (pprof) to `file`")
	memLimit := memoryLimitFlag(fs, runMemory, "; the default rises with a larger working set, a value given stays; --report writes the site under a value given, else under report's default")
	withReport := fs.Bool("report", false, "also write the HTML site of the outputs into OUT/site (see ratelist report)")
	asOfFlag := fs.String("as-of", "", "the run's `date` YYYY-MM-DD (default today, UTC): only periods ended before it are listed")
	provisional := fs.Bool("provisional", false, "also list the period still open on the run's date, marked provisional")
	allowGap := fs.Bool("allow-gap", false, "confirm that a gap of more than ten years between tournaments is real")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	asOf, err := parseAsOf(*asOfFlag)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist run:", err)
		return exitUsage
	}
	// The limit keeps peak RSS near it at any archive size, for some more CPU
	// (docs/performance.md).
	limited, ok := setMemoryLimit("run", *memLimit, stderr)
	if !ok {
		return exitUsage
	}
	follow := func() {}
	defer func() { follow() }()
	if limited {
		if os.Getenv("GOGC") == "" {
			// With the limit in place the GC need not also run at every doubling
			// of the live heap: less CPU, the same peak RSS.
			debug.SetGCPercent(400)
		}
		// Under the limit, with room for the runtime's other memory; no
		// larger than the default's, which a 10M-game run's heap about fills.
		hugeHeap(min(*memLimit, runMemory) * 7 / 8)
		if !flagGiven(fs, "memory-limit") {
			// The default follows a working set larger than it (a large registry).
			follow = followLiveHeap(int64(*memLimit) << 20)
		}
	}
	stop, code, ok := startCPUProfile("run", *cpuProfile, stderr)
	if !ok {
		return code
	}
	defer stop()
	log, err := newLogger(stderr, *logFormat, *quiet, *verbose)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist run:", err)
		return exitUsage
	}
	if *out == "" {
		fmt.Fprintln(stderr, "ratelist run: --out DIR is required")
		return exitUsage
	}
	if *workers < 0 {
		fmt.Fprintln(stderr, "ratelist run: parsing --workers: must be ≥ 0")
		return exitUsage
	}
	if err := apart(*out, *archive); err != nil {
		fmt.Fprintln(stderr, "ratelist run:", err)
		return exitUsage
	}
	if err := pipeline.CheckPeriod(day.Kind(*period)); err != nil {
		fmt.Fprintln(stderr, "ratelist run:", message(err))
		return exitCode(err)
	}
	fsys, name, err := openArchive(*archive)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist run:", err)
		return exitFailed
	}
	var r pipeline.Rules
	rulesName := *rules
	if *archive == "" && *rules == "" {
		r, err = pipeline.ParseRules("demo rules.toml", ratelist.DemoRules())
		rulesName = "demo rules.toml"
	} else {
		r, err = pipeline.LoadRules(*rules)
		if rulesName == "" {
			rulesName = r.Base
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "ratelist run:", err)
		return exitUsage
	}
	start := time.Now()
	opts := pipeline.Options{
		Archive: fsys, ArchiveName: absArchive(*archive, name), Out: *out, Rules: r, RulesName: rulesName,
		Period: day.Kind(*period), Workers: *workers, Log: log, Arrow: *arrow, StandingsCSV: *standingsCSV,
		Until: *until, Resume: *resume, From: *from, Rerate: *rerate, Version: currentVersion(),
		Now: asOf, Provisional: *provisional, AllowGap: *allowGap,
		// A site that `ratelist report` wrote is ratelist's: it stays for the
		// next report to update in place.
		KeepSite: sitereport.IsSite(output.Site.Path(*out, "")),
	}
	// On a terminal: a progress bar and a summary for people; in cron: slog lines.
	tty := !*quiet && *logFormat == "text" && isTerminal(stderr)
	var bars *barProgress
	if tty {
		bars = newBarProgress(stderr)
		opts.Progress = bars
	}
	sum, err := pipeline.Run(ctx, opts)
	if bars != nil {
		bars.wait()
	}
	switch {
	case errors.Is(err, pipeline.ErrUsage):
		fmt.Fprintln(stderr, "ratelist run:", message(err))
		return exitCode(err)
	case errors.Is(err, context.Canceled):
		log.Error("interrupted; nothing was written")
		return exitCode(err)
	case err != nil:
		log.Error("run failed; nothing was written", "err", message(err))
		return exitCode(err)
	case sum.RowsRejected > 0:
		log.Warn("rows rejected: see rejects.csv", "rejected", sum.RowsRejected, "read", sum.RowsRead)
	}
	if tty {
		printSummary(stderr, *out, sum, time.Since(start))
	} else {
		attrs := []any{"out", *out, "tournaments_rated", sum.TournamentsRated, "player_games_rated", sum.GamesRated,
			"lists", sum.Lists, "last_list", sum.LastList, "players_listed", sum.PlayersListed,
			"rows_read", sum.RowsRead, "rows_rejected", sum.RowsRejected}
		for _, f := range sum.RuleSet {
			if !f.OmitZero || f.Value != 0 {
				attrs = append(attrs, f.Key, f.Value)
			}
		}
		log.Info("run finished", append(attrs, "seconds", time.Since(start).Round(time.Millisecond).Seconds())...)
	}
	if len(sum.StalePeriods) > 0 {
		log.Warn("listed periods are stale: their inputs changed since their outputs were written (late or corrected reports, registry corrections); rerun with --from "+sum.RerunFrom+" or --resume --rerate",
			"periods", sum.StalePeriods)
	}
	for _, c := range sum.ChangedLists {
		log.Warn("a published list changed", "list", c.List, "changed_rows", c.ChangedRows, "rerated_from", sum.RerateFrom)
	}
	if *withReport {
		if limited && !flagGiven(fs, "memory-limit") {
			// The run's working set is garbage now: the site is written under
			// the report's own default, as `ratelist report` writes it.
			follow()
			follow = func() {}
			debug.SetMemoryLimit(reportMemory << 20)
			debug.FreeOSMemory()
		}
		if err := runReport(ctx, *out, fsys, log); err != nil {
			log.Error("report failed; the run's outputs are written", "err", message(err))
			return exitCode(err)
		}
	}
	return exitCode(runOutcome(sum))
}

// runMemory is the default soft memory limit of a run, in MiB.
const runMemory = 320

// parseAsOf reads --as-of: a day YYYY-MM-DD, or today (UTC) when empty.
func parseAsOf(s string) (time.Time, error) {
	if s == "" {
		y, m, d := time.Now().UTC().Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("parsing --as-of: %q is not a date YYYY-MM-DD", s)
	}
	return t, nil
}

// absArchive is the archive's name for summary.json: the absolute path of
// the folder dir (so that a report run from elsewhere finds it), or name for
// the embedded demo.
func absArchive(dir, name string) string {
	if dir == "" {
		return name
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return name
}

// apart refuses an --out that is --archive, inside it or around it: a run
// removes from --out every file it did not write.
func apart(out, archive string) error {
	if archive == "" {
		return nil
	}
	o, a := realPath(out), realPath(archive)
	switch {
	case within(o, a):
		return fmt.Errorf("--out %s is inside --archive %s: give an output folder of its own", out, archive)
	case within(a, o):
		return fmt.Errorf("--archive %s is inside --out %s, whose files a run replaces: give an output folder of its own", archive, out)
	}
	return nil
}

// realPath is p absolute with the symlinks of its longest existing part resolved.
func realPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return filepath.Join(abs, rest)
		}
		rest, abs = filepath.Join(filepath.Base(abs), rest), parent
	}
}

// within tells whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func cmdValidate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", stderr)
	archive := fs.String("archive", "", "archive `dir` (required)")
	asOfFlag := fs.String("as-of", "", "the check's `date` YYYY-MM-DD (default today, UTC): a tournament starting more than a year later is in the future")
	allowGap := fs.Bool("allow-gap", false, "confirm that a gap of more than ten years between tournaments is real")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *archive == "" {
		fmt.Fprintln(stderr, "ratelist validate: --archive DIR is required")
		return exitUsage
	}
	asOf, err := parseAsOf(*asOfFlag)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist validate:", err)
		return exitUsage
	}
	fsys, name, err := openArchive(*archive)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist validate:", err)
		return exitFailed
	}
	sum, err := pipeline.Run(ctx, pipeline.Options{Archive: fsys, ArchiveName: name, Workers: 1, Now: asOf, AllowGap: *allowGap})
	if err != nil {
		fmt.Fprintln(stderr, "ratelist validate:", message(err))
		return exitCode(err)
	}
	if err := addTeamRejects(ctx, fsys, asOf, sum); err != nil {
		fmt.Fprintln(stderr, "ratelist validate:", message(err))
		return exitCode(err)
	}
	fmt.Fprintf(stdout, "%s: %d rows read, %d used, %d rejected\n", name, sum.RowsRead, sum.RowsUsed, sum.RowsRejected)
	for _, k := range sum.RejectKinds {
		fmt.Fprintf(stdout, "%6d  %s\n", k.Count, k.Kind)
		for _, e := range k.Examples {
			fmt.Fprintf(stdout, "        e.g. %s\n", e)
		}
	}
	if line := correctionsLine(*archive); *archive != "" && line != "" {
		fmt.Fprintln(stdout, line)
	}
	return exitCode(runOutcome(sum))
}

func cmdGenerate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("generate", stderr)
	players := fs.Int("players", 2000, "number of `players`")
	games := fs.Int64("games", 100000, "number of games `rows` (pairings and byes)")
	months := fs.Int("months", 12, "`months` the tournaments span")
	seed := fs.Uint64("seed", 1, "random `seed`: the same seed gives the same archive")
	dir := fs.String("archive", "", "archive `dir` to write (required)")
	start := fs.String("start", "2024-09", "first month `YYYY-MM` (default 2024-09, or later so that the archive ends with last month)")
	format := fs.String("format", "parquet", "table `format`: parquet or csv")
	scrabble := fs.Float64("scrabble", 0, "share of Scrabble tournaments (`0..1`)")
	unrated := fs.Float64("unrated", 0.05, "share of chess tournaments not on the approved list (`0..1`)")
	jokerGames := fs.Int("joker-games", 0, "Joker `games` (tables of four) to add to the tables table")
	force := fs.Bool("force", false, "write into an archive folder that already holds files")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *dir == "" {
		fmt.Fprintln(stderr, "ratelist generate: --archive DIR is required")
		return exitUsage
	}
	if *format != "parquet" && *format != "csv" {
		fmt.Fprintf(stderr, "ratelist generate: parsing --format: %q is neither parquet nor csv\n", *format)
		return exitUsage
	}
	st, err := time.Parse("2006-01", *start)
	if err != nil {
		fmt.Fprintf(stderr, "ratelist generate: parsing --start: %v\n", err)
		return exitUsage
	}
	// An archive running past this month would be rejected as in the future by
	// the runs it is made for, a game at a time: without --start, a long
	// archive ends last month instead; a --start given is refused.
	now := time.Now().UTC()
	thisMonth := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	if last := st.AddDate(0, *months-1, 0); !last.Before(thisMonth) {
		fitting := thisMonth.AddDate(0, -*months, 0)
		if flagGiven(fs, "start") {
			fmt.Fprintf(stderr, "ratelist generate: parsing --start: --months %d from %s runs to %s, past the last month that has ended: give an earlier --start (--start %s ends last month)\n",
				*months, *start, last.Format("2006-01"), fitting.Format("2006-01"))
			return exitUsage
		}
		st = fitting
		fmt.Fprintf(stderr, "ratelist generate: --months %d from the default start would run past last month: the archive starts %s\n", *months, st.Format("2006-01"))
	}
	err = generate.Archive(ctx, generate.Options{
		Players: *players, Games: *games, Months: *months, Seed: *seed, Start: st, Dir: *dir,
		CSV: *format == "csv", Scrabble: *scrabble, Unrated: *unrated, JokerGames: *jokerGames, Force: *force,
	})
	if errors.Is(err, generate.ErrNotEmpty) {
		err = fmt.Errorf("%w (--force writes into it anyway)", err)
	}
	if err != nil {
		fmt.Fprintln(stderr, "ratelist generate:", message(err))
		return exitCode(err)
	}
	return exitOK
}

// flagGiven tells whether the flag name was on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// startCPUProfile starts --cpuprofile's profile of verb into path (none when
// path is empty); stop ends it and closes the file. Not ok: the exit code.
func startCPUProfile(verb, path string, stderr io.Writer) (stop func(), code int, ok bool) {
	if path == "" {
		return func() {}, exitOK, true
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "ratelist %s: parsing --cpuprofile: %v\n", verb, err)
		return nil, exitUsage, false
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		fmt.Fprintf(stderr, "ratelist %s: --cpuprofile: %v\n", verb, err)
		return nil, exitFailed, false
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, exitOK, true
}
