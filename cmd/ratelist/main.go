// Command ratelist turns chess (and Scrabble and Joker) game archives into
// official rating lists, rating cards and tournament standings with tiebreaks.
//
// Usage:
//
//	ratelist run [--archive DIR] --out DIR [--rules school|fide|glicko2|FILE] [--period month|quarter|year] [--workers N]
//	             [--until YYYY-MM] [--resume] [--from YYYY-MM] [--arrow] [--report] [--memory-limit MiB]
//	             [--as-of YYYY-MM-DD] [--provisional] [--allow-gap]
//	ratelist validate --archive DIR [--as-of YYYY-MM-DD] [--allow-gap]
//	ratelist check trf FILE... [--format text|json|csv] [--list FIDE-LIST] [--fix OUT.trf]
//	ratelist rate --trf FILE [--rules fide|school|FILE] [--list FIDE-LIST] [--date YYYY-MM-DD] [--format csv|text|json]
//	ratelist standings (--trf FILE | --archive DIR --tournament ID) [--tiebreaks CODES] [--format csv|text|html] [--full] [--out DIR]
//	ratelist norms --trf FILE [--list FIDE-LIST] [--format csv|text|json]
//	ratelist calibrate turcas --archive DIR [--from DATE] [--to DATE] [--format csv|text]
//	ratelist import trf|pgn|csv FILE... --archive DIR
//	ratelist import trf|pgn FILE --archive DIR --replace ID
//	ratelist import players FILE --archive DIR
//	ratelist archive remove --archive DIR --tournament ID
//	ratelist archive set-player --archive DIR --player ID FIELD=VALUE...
//	ratelist archive merge-players --archive DIR --keep ID --drop ID
//	ratelist archive log --archive DIR
//	ratelist import fide-list FILE... --archive DIR [--add]
//	ratelist report --out DIR [--archive DIR] [--site DIR]
//	ratelist generate --players N --games N [--months M] --seed S --archive DIR
//	ratelist export trf [--archive DIR] --tournament ID [--format trf16|trf26] [--rating run|fide]
//	ratelist export list --out DIR [--period P] [--format fide-txt|fide-xml|csv] [--archive DIR] [--id player|fide]
//	ratelist diff --out DIR [P1] [P2] [--top N] [--format text|csv]
//	ratelist player --out DIR ID [--format text|csv]
//	ratelist cards --out DIR --tournament ID [--format text|csv]
//	ratelist top --out DIR [--period P] [--list L] [--federation F] [--club C] [--n N]
//	ratelist --version
//
// check trf exits 0 clean (notes allowed), 3 warnings only, 1 errors.
//
// Exit codes: 0 success; 1 the job failed (nothing half-written is left in
// --out); 2 bad usage; 3 success, but some input rows were rejected (see
// rejects.csv); 4 success, but periods already listed are stale (rerun with
// --from the first one; 4 wins over 3); 130 interrupted.
//
// # Example
//
// Rate the embedded demo archive and look at the last list:
//
//	$ ratelist run --out out
//	$ ls out/lists
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/ratelist/ratelist/correct"
	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/pipeline"
	_ "github.com/ratelist/ratelist/rating/all" // the rule sets --rules names
	sitereport "github.com/ratelist/ratelist/report"
)

// Exit codes (README and docs/operations.md say what each means).
const (
	exitOK       = 0
	exitFailed   = 1
	exitUsage    = 2
	exitRejected = 3
	exitStale    = 4
	exitCanceled = 130
)

// Outcomes of a job that succeeded but has an exit code of its own.
var (
	errRejected = errors.New("rows were rejected")
	errStale    = errors.New("listed periods are stale")
)

func main() {
	if version == "" {
		version = buildVersion(debug.ReadBuildInfo())
	}
	os.Exit(runWithSignals(os.Args[1:], os.Stdout, os.Stderr))
}

// runWithSignals runs a verb as the command does: Ctrl-C (SIGINT) or SIGTERM
// cancels the verb, which says "interrupted", and the command exits 130
// whatever the verb returned; a second signal ends it at once.
func runWithSignals(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // the next signal gets its default action
	}()
	return afterSignal(ctx, run(ctx, args, stdout, stderr), stderr)
}

// afterSignal returns the exit code of a verb that returned code: 130 when
// ctx was canceled, saying "interrupted" if the verb ended without noticing.
func afterSignal(ctx context.Context, code int, stderr io.Writer) int {
	if ctx.Err() == nil {
		return code
	}
	if code != exitCanceled {
		fmt.Fprintln(stderr, "ratelist: interrupted")
	}
	return exitCanceled
}

const usageText = `usage: ratelist VERB [flags]

verbs:
  run        rate an archive and write lists, cards, standings, rejects, summary
  validate   check an archive, change nothing
  standings  standings of one tournament with tiebreaks, to stdout
  check      check a TRF file before upload: every finding with its line, column and fix
  rate       the rating changes a TRF file's tournament brings, per player
  norms      title norms (GM, IM, WGM, WIM) of one TRF file, per player and requirement
  calibrate  derive TurČAS coefficients from past Scrabble games
  generate   write a synthetic archive
  import     TRF, PGN or CSV files into an archive; a corrected report; registry updates
  archive    correct an archive: remove a tournament, set or merge players, log
  report     write a static HTML site of a run's lists, players and tournaments
  export     a tournament as TRF, or a list in FIDE's shapes (fide-txt, fide-xml, csv)
  diff       entries, exits and movers between two lists
  player     one player's lists and cards
  cards      every player's card of one tournament
  top        the top players of a list: open, women, juniors, girls, seniors, age categories

Run 'ratelist VERB -h' for the flags of a verb, 'ratelist --version' for the version.
`

// run dispatches a verb and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return exitUsage
	}
	verb, rest := args[0], args[1:]
	switch verb {
	case "run":
		return cmdRun(ctx, rest, stdout, stderr)
	case "validate":
		return cmdValidate(ctx, rest, stdout, stderr)
	case "standings":
		return cmdStandings(ctx, rest, stdout, stderr)
	case "check":
		return cmdCheck(ctx, rest, stdout, stderr)
	case "rate":
		return cmdRate(ctx, rest, stdout, stderr)
	case "norms":
		return cmdNorms(ctx, rest, stdout, stderr)
	case "calibrate":
		return cmdCalibrate(ctx, rest, stdout, stderr)
	case "generate":
		return cmdGenerate(ctx, rest, stdout, stderr)
	case "import":
		return cmdImport(ctx, rest, stdout, stderr)
	case "archive":
		return cmdArchive(ctx, rest, stdout, stderr)
	case "report":
		return cmdReport(ctx, rest, stdout, stderr)
	case "export":
		return cmdExport(ctx, rest, stdout, stderr)
	case "diff":
		return cmdDiff(rest, stdout, stderr)
	case "player":
		return cmdPlayer(rest, stdout, stderr)
	case "cards":
		return cmdCards(rest, stdout, stderr)
	case "top":
		return cmdTop(rest, stdout, stderr)
	case "--version", "-version":
		fmt.Fprintln(stdout, "ratelist", currentVersion())
		return exitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usageText)
		return exitOK
	}
	fmt.Fprintf(stderr, "ratelist: unknown verb %q\n\n%s", verb, usageText)
	return exitUsage
}

// exitCode maps the outcome of every verb to the documented exit codes.
func exitCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled):
		return exitCanceled
	case errors.Is(err, pipeline.ErrUsage), errors.Is(err, importer.ErrUsage), errors.Is(err, generate.ErrOptions),
		errors.Is(err, sitereport.ErrSymlink), errors.Is(err, correct.ErrUsage):
		return exitUsage
	case errors.Is(err, errStale):
		return exitStale
	case errors.Is(err, errRejected):
		return exitRejected
	}
	return exitFailed
}

// optionFlags are the flags of the pipeline.Options fields an error can name.
var optionFlags = map[string]string{"Period": "--period", "Until": "--until", "From": "--from", "Resume": "--resume", "Rerate": "--rerate", "Out": "--out", "StandingsCSV": "--standings-csv"}

// message is err's text for people: "interrupted" after Ctrl-C, the flag of
// a bad run option named, or the two flags that contradict each other.
func message(err error) string {
	if errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	var ce *pipeline.ConflictError
	if errors.As(err, &ce) {
		return strings.Replace(err.Error(), ce.Error(), optionFlags[ce.Option]+" contradicts "+optionFlags[ce.With]+": "+ce.Err.Error(), 1)
	}
	var oe *pipeline.OptionError
	if errors.As(err, &oe) {
		if f, ok := optionFlags[oe.Option]; ok {
			return strings.Replace(err.Error(), oe.Error(), "parsing "+f+": "+oe.Err.Error(), 1)
		}
	}
	return err.Error()
}

// runOutcome is a successful run's outcome for exitCode: stale periods, or
// published lists written again with other rows, win over rejected rows.
func runOutcome(sum *pipeline.Summary) error {
	switch {
	case len(sum.StalePeriods) > 0, len(sum.ChangedLists) > 0, sum.RerateFrom != "":
		return errStale
	case sum.RowsRejected > 0:
		return errRejected
	}
	return nil
}
