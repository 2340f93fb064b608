package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/ratelist/ratelist/officer"
)

// cmdDiff implements
//
//	ratelist diff --out DIR [P1] [P2] [--top N] [--format text|csv]
//
// It compares two lists (default: the two latest). Exit 0 ok, 1 failure, 2 bad usage.
func cmdDiff(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", stderr)
	out := fs.String("out", "", "a run's output `dir`")
	top := fs.Int("top", 10, "how many (`n`) biggest movers up and down the text shows")
	format := fs.String("format", "text", "output `format`: text or csv (csv: every entry, exit and move)")
	periods, code, ok := parseWithArgs(fs, args, 2)
	if !ok {
		return code
	}
	usage := usageFunc(stderr, "diff")
	f, err := officer.ParseFormat(*format)
	if err != nil {
		return usage("parsing --format: %v", err)
	}
	if *out == "" {
		return usage("give --out DIR")
	}
	if *top < 0 {
		return usage("--top %d: give 0 or more", *top)
	}
	fail := failFunc(stderr, "diff")
	from, to, err := officer.LatestTwo(*out, periods)
	if err != nil {
		return fail(err)
	}
	d, err := officer.DiffLists(*out, from, to)
	if err != nil {
		return fail(err)
	}
	tables := d.Tables(*top)
	if f == officer.CSV {
		tables = []officer.Table{d.Table()}
	}
	if err := officer.WriteTables(stdout, f, tables...); err != nil {
		return fail(err)
	}
	return exitOK
}

// cmdPlayer implements
//
//	ratelist player --out DIR ID [--format text|csv]
func cmdPlayer(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("player", stderr)
	out := fs.String("out", "", "a run's output `dir`")
	format := fs.String("format", "text", "output `format`: text or csv (csv: the lists table, a blank line, the cards table)")
	rest, code, ok := parseWithArgs(fs, args, 1)
	if !ok {
		return code
	}
	usage := usageFunc(stderr, "player")
	f, err := officer.ParseFormat(*format)
	if err != nil {
		return usage("parsing --format: %v", err)
	}
	if *out == "" || len(rest) != 1 {
		return usage("give --out DIR and one player_id")
	}
	id, err := strconv.ParseInt(rest[0], 10, 64)
	if err != nil || id <= 0 {
		return usage("player id %q: not a player_id", rest[0])
	}
	fail := failFunc(stderr, "player")
	lists, cards, err := officer.PlayerHistory(*out, id)
	if err != nil {
		return fail(err)
	}
	if f == officer.Text {
		cards = cards.DropEmptyColumns()
	}
	if err := officer.WriteTables(stdout, f, lists, cards); err != nil {
		return fail(err)
	}
	return exitOK
}

// cmdCards implements
//
//	ratelist cards --out DIR --tournament ID [--format text|csv]
func cmdCards(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("cards", stderr)
	out := fs.String("out", "", "a run's output `dir`")
	id := fs.Int64("tournament", 0, "tournament `id`")
	format := fs.String("format", "text", "output `format`: text or csv")
	code, ok := parseFlags(fs, args, stderr)
	if !ok {
		return code
	}
	usage := usageFunc(stderr, "cards")
	f, err := officer.ParseFormat(*format)
	if err != nil {
		return usage("parsing --format: %v", err)
	}
	if *out == "" || *id == 0 {
		return usage("give --out DIR and --tournament ID")
	}
	fail := failFunc(stderr, "cards")
	t, err := officer.TournamentCards(*out, *id)
	if err != nil {
		return fail(err)
	}
	if f == officer.Text {
		t = t.DropEmptyColumns()
	}
	if err := officer.WriteTables(stdout, f, t); err != nil {
		return fail(err)
	}
	return exitOK
}

// parseWithArgs parses flags given before or after at most max positional
// arguments, and returns the arguments.
func parseWithArgs(fs *flag.FlagSet, args []string, max int) ([]string, int, bool) {
	var pos []string
	for {
		if code, ok := parseFlagsOnly(fs, args); !ok {
			return nil, code, false
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) > max {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), pos[max])
		return nil, exitUsage, false
	}
	return pos, 0, true
}

func parseFlagsOnly(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}

// failFunc prints a failure of verb and returns its exit code (1).
func failFunc(stderr io.Writer, verb string) func(error) int {
	return func(err error) int {
		fmt.Fprintf(stderr, "ratelist %s: %s\n", verb, message(err))
		return exitCode(err)
	}
}
