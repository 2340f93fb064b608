package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ratelist/ratelist/importer"
)

const importUsage = `usage: ratelist import trf|pgn|csv SRC... --archive DIR [flags]

  trf  each TRF16 file becomes a tournament
  pgn  PGN game collections, grouped into tournaments by Event, time class and dates
  csv  re-encode CSV tables (players.csv, tournaments.csv, games.csv, tables.csv,
       or folders holding them) as Parquet

Exit codes: 0 imported; 1 failed (the archive is unchanged); 2 bad usage;
3 imported, but some games, rows or files were skipped (listed on stderr).

flags:
`

// cmdImport converts TRF, PGN or CSV files into an archive (docs/import.md).
func cmdImport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ratelist import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, importUsage)
		fs.PrintDefaults()
	}
	archive := fs.String("archive", "", "archive `dir` to create or merge into (required)")
	firstID := fs.Int64("first-id", 0, "tournament_id of the first new tournament (trf, pgn; default: one more than the archive's largest)")
	unrated := fs.Bool("unrated", false, "mark the new tournaments as not rated (trf, pgn)")
	quiet := fs.Bool("quiet", false, "print skipped games and notes only as counts")
	moveless := fs.String("moveless", "auto", "how a PGN game without moves is read (pgn): `mode` is played, forfeit (decisive games) or auto (a forfeit when decisive and its Termination tag says so or most of its event's games have moves)")
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fs.Usage()
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	kind := args[0]
	// Flags may come before or after the sources.
	var srcs []string
	rest := args[1:]
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		srcs = append(srcs, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	switch {
	case kind != "trf" && kind != "pgn" && kind != "csv":
		fmt.Fprintf(stderr, "ratelist import: unknown format %q: want trf, pgn or csv\n", kind)
		return exitUsage
	case *archive == "":
		fmt.Fprintln(stderr, "ratelist import: --archive DIR is required")
		return exitUsage
	case len(srcs) == 0:
		fmt.Fprintf(stderr, "ratelist import %s: no source files\n", kind)
		return exitUsage
	case *firstID < 0:
		fmt.Fprintln(stderr, "ratelist import: parsing --first-id: must be > 0")
		return exitUsage
	}
	mode, err := importer.ParseMoveless(*moveless)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist import: parsing --moveless:", err)
		return exitUsage
	}
	opt := importer.Options{FirstID: *firstID, Unrated: *unrated, Moveless: mode}
	// Listed as found (trf, pgn): a large file's problems and notes are not kept.
	opt.Report = func(p *importer.Problem, note bool) {
		switch {
		case *quiet:
		case note:
			fmt.Fprintln(stderr, "note:", p)
		default:
			fmt.Fprintln(stderr, p)
		}
	}
	var st *importer.Stats
	var written []string
	if kind == "csv" {
		st, err = importer.ImportCSV(ctx, *archive, srcs)
		if st != nil {
			written = st.Tables
		}
	} else {
		var a *importer.Archive
		if a, err = importer.Open(*archive, opt); err == nil {
			defer a.Abort()
			if kind == "trf" {
				st, err = importer.ImportTRF(ctx, a, srcs, opt)
			} else {
				st, err = importer.ImportPGN(ctx, a, srcs, opt)
			}
			if err == nil {
				written, err = a.Commit()
			}
		}
	}
	if st != nil {
		printImportSummary(stdout, stderr, kind, st, written, *quiet)
	}
	switch {
	case err != nil:
		fmt.Fprintln(stderr, "ratelist import:", message(err))
		return exitCode(err)
	case st.Skipped > 0 || st.FilesSkipped > 0:
		return exitCode(errRejected)
	}
	return exitOK
}

func printImportSummary(stdout, stderr io.Writer, kind string, st *importer.Stats, written []string, quiet bool) {
	if !quiet {
		for _, p := range st.Problems {
			fmt.Fprintln(stderr, p)
		}
		for _, n := range st.Notes {
			fmt.Fprintln(stderr, "note:", n)
		}
	}
	unit := "games"
	if kind == "csv" {
		unit = "rows"
	}
	fmt.Fprintf(stdout, "import %s: %d files (%d skipped whole); %d %s read = %d imported + %d skipped", kind,
		st.Files, st.FilesSkipped, st.Read, unit, st.Imported, st.Skipped)
	if st.Unfinished > 0 {
		fmt.Fprintf(stdout, " (%d unfinished)", st.Unfinished)
	}
	fmt.Fprintln(stdout)
	for _, f := range st.ByFile {
		fmt.Fprintf(stdout, "import %s: %s: %d %s read, %d kept, %d skipped%s; %d events\n", kind, f.Name, f.Read, unit, f.Kept,
			f.Read-f.Kept, skipReasons(f.Skipped), f.Events)
	}
	if st.Forfeits > 0 {
		fmt.Fprintf(stdout, "import %s: %d games without moves read as forfeits (listed as notes; --moveless played reads them as played)\n", kind, st.Forfeits)
	}
	if kind != "csv" {
		fmt.Fprintf(stdout, "import %s: %d new tournaments, %d new players, %d archive players matched\n", kind, st.Tournaments, st.NewPlayers, st.Matched)
	}
	for _, w := range written {
		fmt.Fprintf(stdout, "wrote %s\n", w)
	}
}

// skipReasons lists a file's skipped games by reason, in the order of the
// reasons' names: " (2 malformed, 1 unfinished)", or "" when none.
func skipReasons(by map[string]int64) string {
	reasons := make([]string, 0, len(by))
	for r, n := range by {
		if n > 0 {
			reasons = append(reasons, fmt.Sprintf("%d %s", n, r))
		}
	}
	if len(reasons) == 0 {
		return ""
	}
	slices.SortFunc(reasons, func(a, b string) int {
		_, ra, _ := strings.Cut(a, " ")
		_, rb, _ := strings.Cut(b, " ")
		return strings.Compare(ra, rb)
	})
	return " (" + strings.Join(reasons, ", ") + ")"
}
