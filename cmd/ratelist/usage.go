package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// synopses are what a verb's -h prints above its flags, by the name given to
// newFlags: the usage line with its positional arguments, then what it does.
// A verb not listed shows "ratelist NAME [flags]".
var synopses = map[string]string{
	"run": `ratelist run [--archive DIR] --out DIR [flags]

Rates every rated tournament of the archive (default: the embedded demo
archive, with its own rules) in order, and writes lists, cards, standings,
rejects.csv and summary.json into --out.

Exit codes: 0 success; 1 failed (nothing half-written is left in --out);
2 bad usage; 3 success, but some rows were rejected (see rejects.csv);
4 success, but periods already listed are stale (rerun with --from the
first one; 4 wins over 3); 130 interrupted.`,

	"validate": `ratelist validate --archive DIR

Reads and checks the whole archive, prints every problem grouped by kind,
and writes nothing. Exit 0 clean, 1 failed, 2 bad usage, 3 rows rejected.`,

	"standings": `ratelist standings (--trf FILE | --archive DIR --tournament ID) [flags]
       ratelist standings (--trf FILE | --archive DIR --tournament ID) --team [--match-points W,D,L] [--primary mp|gp] [flags]

Prints the final standings of one tournament with tiebreak columns to stdout.
--format csv prints the standings columns (rank,start_no,player_id,name,
points, the codes); text and html print the table the site's tournament page
shows (rank, start no., title, name, federation or club, rating, each round's
opponent, colour and result or a round robin's grid, points, the codes,
performance, change), and csv --full its columns for programs
(docs/tiebreaks.md). With --archive, --out DIR takes the rating, performance
and change from a run's cards, and its standings unless --tiebreaks,
--unplayed or --turcas ask for others. With --team, the team standings of a team competition (the TRF's team
records, or the archive's teams and team_players tables): match points, game
points and FIDE's team tie-breaks (docs/teams.md).`,

	"check trf": `ratelist check trf FILE... [--format text|json|csv] [--list FIDE-LIST] [--fix OUT.trf]

Checks TRF files before they go to FIDE: records and field widths, mirrored
pairings, points and ranks, byes and forfeits, duplicate players, FIDE ids,
dates, the number of rounds and players, team records; with --list, the
players against FIDE's players list. Each finding has its file:line:column,
a code, a severity (error: FIDE would refuse the file or rate it wrongly;
warning: ambiguous; note) and a fix. --fix writes a corrected copy of one file
(points columns, missing mirrored records), prints what it changed and checks
the copy.

Exit codes: 0 clean (notes allowed); 3 warnings only; 1 errors, or a file
that cannot be read; 2 bad usage. Flags may come before or after the files.`,

	"rate": `ratelist rate --trf FILE [--rules fide|school|FILE] [--list FIDE-LIST] [--date YYYY-MM-DD] [--format csv|text|json]

Prints the rating changes the tournament of a TRF file brings, per player,
as a run of an archive holding only that tournament computes them: Ro, K,
rated games, opponents rated and unrated, score, We, the change and the new
rating; for a player unrated when it started, the games toward an initial
rating. Then every round that rated nothing, and why (bye, forfeit, W/D/L,
unrated opponent). The rules default to fide. Ro is the file's rating, or
with --list FIDE's list's standard rating.

Exit codes: 0 success; 1 failed (a file that cannot be read or rated); 2 bad
usage.`,

	"norms": `ratelist norms --trf FILE [--list FIDE-LIST] [--format csv|text|json] [flags]

Decides title norms (GM, IM, WGM, WIM) by FIDE's title regulations (B.01,
2024) for every player and every norm he can still earn: a GM none, an IM the
GM norm, WGM and WIM norms for women only. csv prints one row per player and
title: start_no,name,norm_title,achieved,games,ra,rp,score,fails,rounds_used
(fails: the articles not met, e.g. 1.4.1a;1.4.5b); text adds each
requirement's number and the games counted; json adds the IT1 certificate's
figures. --list fills titles, federations, sex and ratings the TRF leaves
blank; the TRF's own values win.

Exit codes: 0 ok; 1 the file or the list cannot be read; 2 bad usage.`,

	"calibrate turcas": `ratelist calibrate turcas --archive DIR [--from DATE] [--to DATE] [--format csv|text]

Derives the TurČAS coefficients A–D from the archive's Scrabble tournaments
that start within [--from, --to]. csv prints the header A,B,C,D and one
row; text also prints the statistics used.`,

	"generate": `ratelist generate --archive DIR [flags]

Writes a synthetic archive; the same --seed gives the same archive. A folder
that already holds files is refused unless --force is given.`,

	"import": `ratelist import trf|pgn|csv SRC... --archive DIR [flags]
       ratelist import trf|pgn FILE --archive DIR --replace ID [flags]
       ratelist import players FILE --archive DIR
       ratelist import fide-list FILE... --archive DIR [--add]

  trf      each TRF16 file becomes a tournament
  pgn      PGN game collections, grouped into tournaments by Event, time class and dates
  csv      re-encode CSV tables (players.csv, tournaments.csv, games.csv, tables.csv,
           teams.csv, team_players.csv, team_byes.csv, or folders holding them)
           as Parquet
  players  update the player registry from a CSV file: player_id and the columns
           to change (a non-empty cell sets the field, an empty one leaves it);
           an id not in the archive is a new player (name required)
  fide-list  FIDE's players list (TXT or XML): federation, sex, title, birth
           year and standard rating of the archive's players, matched on fide_id
           (--add: the list's other players too)

A tournament that looks like one already in the archive (the same games, or
the same name and overlapping dates) is refused, naming it: --replace ID
imports a corrected report over tournament ID instead (same id; its games
replaced; its name, dates, system and rounds from the file). --replace and
import players work on CSV and Parquet archives alike, atomically, and are
recorded in the archive log (ratelist archive log).

Exit codes: 0 imported; 1 failed (the archive is unchanged); 2 bad usage, or
refused (a tournament already in the archive, a bad row of a players file:
nothing changed); 3 imported, but some games, rows or files were skipped
(listed on stderr).

Flags may come before or after the sources.`,

	"report": `ratelist report --out DIR [flags]

Writes the static HTML site of a finished run's outputs (default OUT/site).`,

	"export trf": `ratelist export trf [--archive DIR] --tournament ID [flags]

Prints a tournament of the archive (default: the embedded demo archive) as a
TRF file to stdout.`,

	"export list": `ratelist export list --out DIR [--period P] [flags]

Prints a run's list (default: the latest) in FIDE's shapes to stdout.`,

	"diff": `ratelist diff --out DIR [P1] [P2] [flags]

Entries, exits and movers between two lists of a run: P1 and P2 are list
labels (e.g. 2025-05 2025-06). No label: the two latest lists; one label:
that list and the one before it.`,

	"player": `ratelist player --out DIR ID [flags]

One player's row of every list and every card of his, from a run's outputs;
ID is the player_id.`,

	"cards": `ratelist cards --out DIR --tournament ID [flags]

Every player's card of one tournament, from a run's outputs.`,

	"top": `ratelist top --out DIR [--period P] [--list L] [--federation F] [--club C] [--n N] [flags]

The first N active players of a list of a run (default: the latest list):
open, women, juniors, girls, seniors50, seniors65, an age category u8 … u18
or its girls alone, girls-u8 … girls-u18 (ages on 1 January of the list's
year), of one federation or club. The sizes and ages are the rules file's
[toplists]. Active: not flagged i, and a rated game in the last
toplists.active_months (12) months.`,
}

// printUsage prints the usage of the verb whose flag set fs newFlags made
// under name: its synopsis, then its flags.
func printUsage(fs *flag.FlagSet, name string) {
	w := fs.Output()
	synopsis, ok := synopses[name]
	if !ok {
		synopsis = "ratelist " + name + " [flags]"
	}
	fmt.Fprintf(w, "usage: %s\n\nflags:\n", strings.TrimSpace(synopsis))
	fs.PrintDefaults()
}

// parseMixed parses args whose flags may come before or after the files
// they name, and returns the files. Not ok: the exit code (0 for -h).
func parseMixed(fs *flag.FlagSet, args []string) (files []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitUsage, false
		}
		if fs.NArg() == 0 {
			return files, exitOK, true
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// isHelp tells whether arg asks for help, as flag's -h and --help do.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// flagSetMade, when set (by tests), sees every flag set newFlags makes.
var flagSetMade func(*flag.FlagSet)

// newFlags returns a flag set for verb name that reports to stderr, does
// not exit, and prints the verb's usage on -h.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ratelist "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printUsage(fs, name) }
	if flagSetMade != nil {
		flagSetMade(fs)
	}
	return fs
}
