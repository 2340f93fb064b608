package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/ratelist/ratelist/correct"
	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/trf"
)

// cmdImport converts TRF, PGN or CSV files into an archive (docs/import.md).
func cmdImport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("import", stderr)
	archive := fs.String("archive", "", "archive `dir` to create or merge into (required)")
	firstID := fs.Int64("first-id", 0, "`id` (tournament_id) of the first new tournament (trf, pgn; default: one more than the archive's largest)")
	unrated := fs.Bool("unrated", false, "mark the new tournaments as not rated (trf, pgn)")
	quiet := fs.Bool("quiet", false, "print skipped games and notes only as counts")
	name := fs.String("name", "", "tournament `name` for a TRF file without one (record 012) (trf)")
	date := fs.String("date", "", "start `date` YYYY-MM-DD for a TRF file without one (records 042, 132) (trf)")
	replace := fs.Int64("replace", 0, "a corrected report over tournament `id` (trf, pgn; one tournament): same id, its games replaced, logged")
	add := fs.Bool("add", false, "add the list's players who are not in the archive (fide-list)")
	moveless := fs.String("moveless", "auto", "how a PGN game without moves is read (pgn): `mode` is played, forfeit (decisive games) or auto (a forfeit when decisive and its Termination tag says so or most of its event's games have moves)")
	if len(args) == 0 || isHelp(args[0]) {
		fs.Usage()
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	kind := args[0]
	srcs, code, ok := parseMixed(fs, args[1:])
	if !ok {
		return code
	}
	switch {
	case kind != "trf" && kind != "pgn" && kind != "csv" && kind != "players" && kind != "fide-list":
		fmt.Fprintf(stderr, "ratelist import: unknown format %q: want trf, pgn, csv, players or fide-list\n", kind)
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
	case *replace < 0 || (*replace > 0 && kind != "trf" && kind != "pgn"):
		fmt.Fprintln(stderr, "ratelist import: --replace ID takes a tournament id > 0, with trf or pgn")
		return exitUsage
	case *replace > 0 && *firstID > 0:
		fmt.Fprintln(stderr, "ratelist import: --replace contradicts --first-id: the tournament keeps its id")
		return exitUsage
	case kind == "players" && len(srcs) != 1:
		fmt.Fprintln(stderr, "ratelist import players: give one CSV file")
		return exitUsage
	}
	if kind == "players" {
		return importPlayers(ctx, *archive, srcs[0], stdout, stderr)
	}
	if kind == "fide-list" {
		return importFideList(ctx, *archive, srcs, *add, *quiet, stdout, stderr)
	}
	mode, err := importer.ParseMoveless(*moveless)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist import: parsing --moveless:", err)
		return exitUsage
	}
	opt := importer.Options{FirstID: *firstID, Unrated: *unrated, Moveless: mode, Name: strings.TrimSpace(*name)}
	if *date != "" {
		if opt.Date, err = time.Parse("2006-01-02", *date); err != nil {
			fmt.Fprintf(stderr, "ratelist import: parsing --date: %q is not YYYY-MM-DD\n", *date)
			return exitUsage
		}
	}
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
	var logged *correct.Entry
	switch {
	case *replace > 0:
		opt.Replace = *replace
		var e correct.Entry
		e, st, err = correct.Replace(ctx, *archive, kind, srcs, opt, time.Now())
		if err == nil {
			logged = &e
		}
	case kind == "csv":
		st, err = importer.ImportCSV(ctx, *archive, srcs)
		if st != nil {
			written = st.Tables
		}
	default:
		var unlock func()
		if unlock, err = correct.Lock(*archive); err != nil {
			break
		}
		var a *importer.Archive
		a, err = importer.Open(*archive, opt)
		if errors.Is(err, importer.ErrTableForm) {
			// CSV tables: written in their form, whole (CSV archives are small).
			unlock()
			st, written, err = correct.Import(ctx, *archive, kind, srcs, opt)
			break
		}
		defer unlock()
		if err == nil {
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
		printImportSummary(stdout, stderr, kind, st, written, *quiet, *replace)
	}
	if logged != nil {
		fmt.Fprintln(stdout, "logged:", logged)
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

// importPlayers updates the registry from a CSV file (correct.ImportPlayers).
func importPlayers(ctx context.Context, dir, file string, stdout, stderr io.Writer) int {
	res, err := correct.ImportPlayers(ctx, dir, file, time.Now())
	if err != nil {
		return failFunc(stderr, "import players")(err)
	}
	fmt.Fprintf(stdout, "import players: %d rows; %d players changed, %d new players added\n", res.Rows, len(res.Changed), len(res.Added))
	for _, e := range res.Changed {
		fmt.Fprintln(stdout, "logged:", e)
	}
	for _, e := range res.Added {
		fmt.Fprintln(stdout, "logged:", e)
	}
	return exitOK
}

func printImportSummary(stdout, stderr io.Writer, kind string, st *importer.Stats, written []string, quiet bool, replace int64) {
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
		if kind == "trf" {
			// A TRF file is one tournament: what check trf finds in it instead of events.
			fmt.Fprintf(stdout, "import trf: %s: %d games read, %d kept, %d skipped%s; check trf: %d errors, %d warnings, %d notes\n", f.Name, f.Read, f.Kept,
				f.Read-f.Kept, skipReasons(f.Skipped), f.Findings[trf.Error], f.Findings[trf.Warning], f.Findings[trf.Note])
			continue
		}
		fmt.Fprintf(stdout, "import %s: %s: %d %s read, %d kept, %d skipped%s; %d events\n", kind, f.Name, f.Read, unit, f.Kept,
			f.Read-f.Kept, skipReasons(f.Skipped), f.Events)
	}
	if st.Forfeits > 0 {
		fmt.Fprintf(stdout, "import %s: %d games without moves read as forfeits (listed as notes; --moveless played reads them as played)\n", kind, st.Forfeits)
	}
	if replace > 0 && st.Tournaments > 0 {
		fmt.Fprintf(stdout, "import %s: tournament %d replaced, %d new players, %d archive players matched\n", kind, replace, st.NewPlayers, st.Matched)
	} else if kind != "csv" {
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
