package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/officer"
	"github.com/ratelist/ratelist/trf"
)

// cmdExport implements
//
//	ratelist export trf [--archive DIR] --tournament ID [--format trf16|trf26] [--rating run|fide]
//	ratelist export list --out DIR --period P [--format fide-txt|fide-xml|csv] [--archive DIR] [--id player|fide]
//
// It writes to stdout. Exit 0 ok, 1 failure, 2 bad usage.
func cmdExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && isHelp(args[0]) {
		exportTRF(ctx, args[:1], stdout, stderr)
		fmt.Fprintln(stderr)
		return exportList(args[:1], stdout, stderr)
	}
	if len(args) == 0 || (args[0] != "trf" && args[0] != "list") {
		fmt.Fprintln(stderr, "ratelist export: give trf or list (ratelist export trf|list -h for the flags)")
		return exitUsage
	}
	if args[0] == "trf" {
		return exportTRF(ctx, args[1:], stdout, stderr)
	}
	return exportList(args[1:], stdout, stderr)
}

func exportTRF(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export trf", stderr)
	dir := fs.String("archive", "", "archive `dir` (default: the embedded demo archive)")
	id := fs.Int64("tournament", 0, "tournament `id`")
	format := fs.String("format", "trf16", "TRF `version`: trf16 or trf26")
	rating := fs.String("rating", "run", "the `rating` in each 001 record: run (at the start, as the run rates; the players table's fide_rating for a player unrated then) or fide (the players table's fide_rating)")
	code, ok := parseFlags(fs, args, stderr)
	if !ok {
		return code
	}
	usage := usageFunc(stderr, "export trf")
	if *id == 0 {
		return usage("give --tournament ID")
	}
	v, err := trf.ParseVersion(*format)
	if err != nil {
		return usage("parsing --format: %v", err)
	}
	if *rating != "run" && *rating != "fide" {
		return usage("parsing --rating: %q is neither run nor fide", *rating)
	}
	fsys, err := archiveFS(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "ratelist export trf: %v\n", err)
		return exitFailed
	}
	blank, err := officer.ExportTRF(ctx, stdout, fsys, *id, v, *rating == "fide")
	if err != nil {
		return failFunc(stderr, "export trf")(err)
	}
	if blank > 0 {
		why := "unrated at the tournament's start and no fide_rating in the players table"
		if *rating == "fide" {
			why = "no fide_rating in the players table"
		}
		fmt.Fprintf(stderr, "note: %d players written without a rating: %s\n", blank, why)
	}
	return exitOK
}

func exportList(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export list", stderr)
	out := fs.String("out", "", "a run's output `dir`")
	period := fs.String("period", "", "the list's `label`, e.g. 2025-06 (default: the latest)")
	format := fs.String("format", "fide-txt", "`shape`: fide-txt, fide-xml or csv")
	dir := fs.String("archive", "", "archive `dir` whose players table gives the birth year (birth_year) and fills the player fields a list lacks (lists of older runs) (default: none; the list's own player columns)")
	ids := fs.String("id", "player", "`which` id goes in the ID column: player (player_id) or fide (fide_id)")
	code, ok := parseFlags(fs, args, stderr)
	if !ok {
		return code
	}
	usage := usageFunc(stderr, "export list")
	if *out == "" {
		return usage("give --out DIR")
	}
	f, err := officer.ParseListFormat(*format)
	if err != nil {
		return usage("parsing --format: %v", err)
	}
	if *ids != "player" && *ids != "fide" {
		return usage("parsing --id: %q is neither player nor fide", *ids)
	}
	fail := failFunc(stderr, "export list")
	if *period == "" {
		labels, err := officer.Periods(*out)
		if err != nil {
			return fail(err)
		}
		if len(labels) == 0 {
			return fail(fmt.Errorf("%s holds no lists", *out))
		}
		*period = labels[len(labels)-1]
	}
	list, err := officer.ReadList(*out, *period)
	if err != nil {
		return fail(err)
	}
	noK, err := officer.ListWithoutK(*out, *period)
	if err != nil {
		return fail(err)
	}
	var players map[int64]officer.Player
	if *dir != "" {
		fsys, _, err := openArchive(*dir)
		if err != nil {
			return fail(err)
		}
		if players, err = officer.ReadPlayers(fsys); err != nil {
			return fail(fmt.Errorf("archive %s: %w", *dir, err))
		}
	}
	rows := officer.ListRows(list, players, *ids == "fide")
	for i := range rows {
		rows[i].NoK = noK
	}
	if err := officer.WriteList(stdout, rows, *period, f); err != nil {
		return fail(err)
	}
	return exitOK
}

// archiveFS is the archive folder dir, or the embedded demo archive when dir
// is empty.
func archiveFS(dir string) (fs.FS, error) {
	if dir == "" {
		return ratelist.Demo(), nil
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	return os.DirFS(dir), nil
}

// usageFunc prints a usage error of verb and returns exit code 2.
func usageFunc(stderr io.Writer, verb string) func(string, ...any) int {
	return func(format string, a ...any) int {
		fmt.Fprintf(stderr, "ratelist "+verb+": "+format+"\n", a...)
		return exitUsage
	}
}
