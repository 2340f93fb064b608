package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/ratelist/ratelist/correct"
)

const archiveUsage = `usage: ratelist archive remove|set-player|merge-players|log --archive DIR [flags]

Corrections to an archive (CSV or Parquet tables alike). Each is atomic (an
error changes nothing) and is recorded in the archive log, DIR/corrections.log:
when, what, old value → new value.

  remove --archive DIR --tournament ID
        remove a tournament, its games and its Joker table rows
  set-player --archive DIR --player ID FIELD=VALUE...
        correct a player's fields: name, birth_year, category, fide_rating, club,
        fide_id, federation, sex, title, birth_date (or another column of the
        players table); an empty VALUE clears the field
  merge-players --archive DIR --keep ID --drop ID
        one person entered under two ids: DROP's games and Joker table rows
        become KEEP's, KEEP's empty fields are filled from DROP's, DROP leaves
        the registry (refused if the two ever meet or play in one round)
  log --archive DIR
        every correction, oldest first

Corrected reports and registry files are imported:
  ratelist import trf|pgn FILE --archive DIR --replace ID
  ratelist import players FILE --archive DIR

Exit codes: 0 done; 1 failed (the archive is unchanged); 2 bad usage or
refused (an unknown id, a bad field or value; nothing changed).
`

// cmdArchive dispatches the archive corrections (docs/operations.md).
func cmdArchive(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && isHelp(args[0]) {
		// Each verb's usage and flags, as its own -h prints them.
		fmt.Fprint(stderr, archiveUsage)
		for _, sub := range []func(context.Context, []string, io.Writer, io.Writer) int{cmdArchiveRemove, cmdArchiveSetPlayer, cmdArchiveMerge,
			func(_ context.Context, a []string, o, e io.Writer) int { return cmdArchiveLog(a, o, e) }} {
			fmt.Fprintln(stderr)
			sub(ctx, args[:1], stdout, stderr)
		}
		return exitOK
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, archiveUsage)
		return exitUsage
	}
	verb, rest := args[0], args[1:]
	switch verb {
	case "remove":
		return cmdArchiveRemove(ctx, rest, stdout, stderr)
	case "set-player":
		return cmdArchiveSetPlayer(ctx, rest, stdout, stderr)
	case "merge-players":
		return cmdArchiveMerge(ctx, rest, stdout, stderr)
	case "log":
		return cmdArchiveLog(rest, stdout, stderr)
	}
	fmt.Fprintf(stderr, "ratelist archive: unknown verb %q\n\n%s", verb, archiveUsage)
	return exitUsage
}

// archiveFlags is the flag set of one archive verb, whose -h prints usage
// and the flags.
func archiveFlags(verb, usage string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := newFlags("archive "+verb, stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: ratelist archive %s %s\n\n", verb, usage)
		fs.PrintDefaults()
	}
	return fs, fs.String("archive", "", "archive `dir` to correct (required)")
}

func cmdArchiveRemove(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, dir := archiveFlags("remove", "--archive DIR --tournament ID\n\nRemoves a tournament, its games and its Joker table rows, and logs it.", stderr)
	id := fs.Int64("tournament", 0, "tournament `id` to remove (required)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	usage := usageFunc(stderr, "archive remove")
	if *dir == "" || *id == 0 {
		return usage("give --archive DIR and --tournament ID")
	}
	e, err := correct.RemoveTournament(ctx, *dir, *id, time.Now())
	return logged(stdout, stderr, "archive remove", e, err)
}

func cmdArchiveSetPlayer(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, dir := archiveFlags("set-player", "--archive DIR --player ID FIELD=VALUE...\n\n"+
		"Sets a player's fields and logs the old and new values. FIELD is name, birth_year,\n"+
		"category, fide_rating, club, fide_id, federation, sex, title, birth_date, or\n"+
		"another column of the players table; an empty VALUE (FIELD=) clears the field.", stderr)
	id := fs.Int64("player", 0, "player `id` to correct (required)")
	pos, code, ok := parseWithArgs(fs, args, 1<<20)
	if !ok {
		return code
	}
	usage := usageFunc(stderr, "archive set-player")
	if *dir == "" || *id == 0 || len(pos) == 0 {
		return usage("give --archive DIR, --player ID and FIELD=VALUE...")
	}
	var as []correct.Assignment
	for _, p := range pos {
		a, err := correct.ParseAssignment(p)
		if err != nil {
			return usage("%v", err)
		}
		as = append(as, a)
	}
	e, err := correct.SetPlayer(ctx, *dir, *id, as, time.Now())
	if err == nil && len(e.Changes) == 0 {
		fmt.Fprintf(stdout, "player %d already has these values: nothing changed\n", *id)
		return exitOK
	}
	return logged(stdout, stderr, "archive set-player", e, err)
}

func cmdArchiveMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, dir := archiveFlags("merge-players", "--archive DIR --keep ID --drop ID\n\n"+
		"One person entered under two ids: DROP's games and Joker table rows become KEEP's,\n"+
		"KEEP's empty fields are filled from DROP's, and DROP leaves the registry. Refused\n"+
		"when the two play each other, both play in one round or sit at one Joker table.", stderr)
	keep := fs.Int64("keep", 0, "player `id` that stays (required)")
	drop := fs.Int64("drop", 0, "player `id` that goes (required)")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *dir == "" || *keep == 0 || *drop == 0 {
		return usageFunc(stderr, "archive merge-players")("give --archive DIR, --keep ID and --drop ID")
	}
	e, err := correct.MergePlayers(ctx, *dir, *keep, *drop, time.Now())
	return logged(stdout, stderr, "archive merge-players", e, err)
}

func cmdArchiveLog(args []string, stdout, stderr io.Writer) int {
	fs, dir := archiveFlags("log", "--archive DIR\n\nPrints every correction of the archive log ("+correct.LogFile+"), oldest first:\nwhen (UTC), what, old value → new value.", stderr)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if *dir == "" {
		return usageFunc(stderr, "archive log")("give --archive DIR")
	}
	if _, _, err := openArchive(*dir); err != nil {
		return usageFunc(stderr, "archive log")("%v", err)
	}
	entries, err := correct.ReadLog(*dir)
	for _, e := range entries {
		fmt.Fprintln(stdout, e)
	}
	if err != nil {
		return failFunc(stderr, "archive log")(err)
	}
	if len(entries) == 0 {
		fmt.Fprintf(stderr, "ratelist archive log: no corrections logged in %s\n", *dir)
	}
	return exitOK
}

// logged prints a correction's log line, or its error.
func logged(stdout, stderr io.Writer, verb string, e correct.Entry, err error) int {
	if err != nil {
		return failFunc(stderr, verb)(err)
	}
	fmt.Fprintln(stdout, e)
	return exitOK
}

// correctionsLine is validate's line on the archive log; "" when the
// archive has none.
func correctionsLine(dir string) string {
	entries, err := correct.ReadLog(dir)
	switch {
	case err != nil:
		return fmt.Sprintf("%s: %v", correct.LogFile, err)
	case len(entries) == 0:
		return ""
	}
	noun := "corrections"
	if len(entries) == 1 {
		noun = "correction"
	}
	return fmt.Sprintf("%s: %d %s, the latest: %s", correct.LogFile, len(entries), noun, entries[len(entries)-1])
}
