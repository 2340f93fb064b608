package main

import (
	"fmt"
	"io"

	"github.com/ratelist/ratelist/officer"
	"github.com/ratelist/ratelist/toplist"
)

// cmdTop implements
//
//	ratelist top --out DIR [--period P] [--list L] [--federation F] [--club C] [--n N] [--archive DIR] [--format text|csv]
//
// It prints a top list of a run's list (active players only). Exit 0 ok, 1
// failure, 2 bad usage.
func cmdTop(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("top", stderr)
	out := fs.String("out", "", "a run's output `dir`")
	period := fs.String("period", "", "the list's `label`, e.g. 2025-06 (default: the latest)")
	name := fs.String("list", "open", "which `list`: open, women, juniors, girls, seniors50, seniors65, u8 … u18, girls-u8 … girls-u18 (as the rules file's [toplists] sets them)")
	fed := fs.String("federation", "", "only the players of federation `F` (a three-letter code)")
	club := fs.String("club", "", "only the players of club `C`, as the players table names it")
	n := fs.Int("n", 0, "the first `n` players (default: the rules file's toplists.size, 100); ties at the last place are all shown")
	dir := fs.String("archive", "", "archive `dir` whose players table gives clubs and birth years (default: the one summary.json names)")
	format := fs.String("format", "text", "output `format`: text or csv")
	code, ok := parseFlags(fs, args, stderr)
	if !ok {
		return code
	}
	usage := usageFunc(stderr, "top")
	f, err := officer.ParseFormat(*format)
	if err != nil {
		return usage("parsing --format: %v", err)
	}
	if *out == "" {
		return usage("give --out DIR")
	}
	if *n < 0 {
		return usage("--n %d: give 1 or more", *n)
	}
	fail := failFunc(stderr, "top")
	settings, err := officer.TopSettings(*out)
	if err != nil {
		return fail(err)
	}
	list, ok := settings.Lookup(*name)
	if !ok {
		return usage("parsing --list: %q is not one of %s", *name, settings.Names())
	}
	if *n == 0 {
		*n = settings.Size
	}
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
	year, _, err := toplist.Period(*period)
	if err != nil {
		return usage("parsing --period: %v", err)
	}
	rows, err := officer.ReadList(*out, *period)
	if err != nil {
		return fail(err)
	}
	fsys, err := reportArchive(*out, *dir)
	if err != nil {
		return usage("%v", err)
	}
	var players map[int64]officer.Player
	if fsys != nil {
		if players, err = officer.ReadPlayers(fsys); err != nil {
			return fail(fmt.Errorf("archive: %w", err))
		}
	}
	last, err := officer.LastGames(*out)
	if err != nil {
		return fail(err)
	}
	ps, err := officer.TopPlayers(rows, players, last, *period, settings)
	if err != nil {
		return fail(err)
	}
	top := toplist.Select(ps, list, year, toplist.Filter{Federation: *fed, Club: *club}, *n)
	title := fmt.Sprintf("Top %d %s, list %s", *n, list.Title, *period)
	switch {
	case *fed != "" && *club != "":
		title += ", federation " + *fed + ", club " + *club
	case *fed != "":
		title += ", federation " + *fed
	case *club != "":
		title += ", club " + *club
	}
	if err := officer.WriteTables(stdout, f, officer.TopTable(title+": active players", top)); err != nil {
		return fail(err)
	}
	return exitOK
}
