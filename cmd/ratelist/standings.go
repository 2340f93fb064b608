package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/ratelist/ratelist/crosstable"
	"github.com/ratelist/ratelist/pipeline"
	sitereport "github.com/ratelist/ratelist/report"
	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// cmdStandings implements
//
//	ratelist standings (--trf FILE | --archive DIR --tournament ID) [--tiebreaks CODES]
//	    [--unplayed fide2009|fide2023|fide2026] [--turcas A,B,C,D|SETNAME]
//	    [--turcas-sets FILE] [--format csv|text|html] [--full] [--out DIR]
//
// It prints the final standings of one tournament to stdout: csv the
// standings' contract columns (with --full the officers' table), text and
// html the officers' table as the site prints it (crosstable). Exit 0 ok, 1
// failure, 2 bad usage.
func cmdStandings(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("standings", stderr)
	trfFile := fs.String("trf", "", "read the tournament from the TRF16 `file`")
	archive := fs.String("archive", "", "read the tournament from the archive `dir`")
	id := fs.Int64("tournament", 0, "tournament `id` in the archive")
	codes := fs.String("tiebreaks", "", "comma-separated tiebreak `codes` (default: the tournament's, else per discipline)")
	unplayed := fs.String("unplayed", "", "unplayed-game `policy`: fide2009, fide2023 or fide2026 (default: in force at the start date)")
	turcas := fs.String("turcas", "", "TurČAS coefficients `A,B,C,D` or the name of a coefficient set")
	setsFile := fs.String("turcas-sets", "", "TOML `file` of named TurČAS sets ([NAME] a = .. b = .. c = .. d = ..)")
	format := fs.String("format", "csv", "output `format`: csv (the standings columns), text or html (the officers' table: rank, start no., title, name, federation or club, rating, each round, points, tiebreaks, performance, change)")
	full := fs.Bool("full", false, "with --format csv: the officers' table's columns (rank,start_no,player_id,title,name,federation,club,rating,r1…,points, the codes, performance,change)")
	out := fs.String("out", "", "with --archive: a run's output `dir`, whose cards give the rating, performance and change, and whose standings are printed (unless --tiebreaks, --unplayed or --turcas ask for others)")
	team := fs.Bool("team", false, "team standings of a team competition (the TRF's team records)")
	matchPoints := fs.String("match-points", "", "with --team: match points of a match won, drawn, lost `W,D,L` (default 2,1,0)")
	primary := fs.String("primary", "mp", "with --team: the `score` ranked first, mp (match points) or gp (game points)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "ratelist standings: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usage("unexpected argument %q", fs.Arg(0))
	}
	if (*trfFile == "") == (*archive == "") {
		return usage("give either --trf FILE or --archive DIR --tournament ID")
	}
	if *archive != "" && *id == 0 {
		return usage("--archive needs --tournament ID")
	}
	if *format != "csv" && *format != "text" && *format != "html" {
		return usage("parsing --format: %q is not csv, text or html", *format)
	}
	if *full && *format != "csv" {
		return usage("--full needs --format csv (text and html always print the whole table)")
	}
	if *out != "" && *archive == "" {
		return usage("--out needs --archive DIR --tournament ID")
	}
	var opt tiebreak.Options
	policy, err := tiebreak.ParsePolicy(*unplayed)
	if err != nil {
		return usage("parsing --unplayed: %v", err)
	}
	if *team {
		if *format == "html" || *full || *out != "" {
			return usage("--team prints csv or text: --format html, --full and --out are for individual standings")
		}
		return teamStandings(ctx, teamFlags{trf: *trfFile, archive: *archive, id: *id, codes: *codes, policy: policy, matchPoints: *matchPoints, primary: *primary, format: *format}, stdout, stderr)
	}
	if *matchPoints != "" || *primary != "mp" {
		return usage("--match-points and --primary need --team")
	}
	opt.Unplayed = policy
	var list []string
	if *codes != "" {
		list = tiebreak.SplitCodes(*codes)
		if _, err := tiebreak.ParseCodes(*codes); err != nil {
			return usage("parsing --tiebreaks: %v", err)
		}
	}
	if *setsFile != "" {
		var sets map[string]tiebreak.Coefficients
		if _, err := toml.DecodeFile(*setsFile, &sets); err != nil {
			fmt.Fprintf(stderr, "ratelist standings: read --turcas-sets: %v\n", err)
			return exitCode(err)
		}
		opt.Scrabble.Sets = sets
	}
	if *turcas != "" {
		if err := parseTurcas(*turcas, &opt.Scrabble); err != nil {
			return usage("parsing --turcas: %v", err)
		}
	}

	in, err := loadStandingsInput(ctx, *trfFile, *archive, *id, policy, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ratelist standings: %v\n", message(err))
		return exitCode(err)
	}
	t := in.t
	if *turcas != "" {
		t.TurCAS = "" // the command line wins over the tournament's own set
	}
	if list == nil {
		list, _ = tiebreak.CodesFor(t) // a column not understood: the discipline's default
	}
	rows, err := tiebreak.Standings(t, list, opt)
	if err != nil {
		fmt.Fprintf(stderr, "ratelist standings: %v\n", message(err))
		return exitCode(err)
	}
	if *format == "csv" && !*full {
		err = tiebreak.WriteCSV(stdout, list, rows)
	} else {
		// The run's own standings, as its site shows them, unless asked otherwise.
		in.runStandings = *codes == "" && *unplayed == "" && *turcas == "" && *setsFile == ""
		err = writeTable(ctx, stdout, *format, in, list, rows, *out, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ratelist standings: %v\n", message(err))
		return exitCode(err)
	}
	return exitOK
}

// writeTable prints the standings as officers print them, the site's table
// (crosstable): text with the tournament's name above it, an html page, or
// --full's csv.
func writeTable(ctx context.Context, w io.Writer, format string, in *standingsInput, codes []string, rows []tiebreak.Row, out string, stderr io.Writer) error {
	x, err := in.table(ctx, codes, rows, out, stderr)
	if err != nil {
		return err
	}
	switch format {
	case "html":
		title := in.t.Name
		if title == "" {
			title = "Standings"
		}
		return sitereport.WriteStandingsPage(w, title, x)
	case "text":
		if in.t.Name != "" {
			if _, err := fmt.Fprintf(w, "%s\n\n", in.t.Name); err != nil {
				return fmt.Errorf("write standings: %w", err)
			}
		}
		return crosstable.WriteText(w, x)
	}
	return crosstable.WriteCSV(w, x)
}

// parseTurcas reads "A,B,C,D" into coefficients or else takes the value as a set name.
func parseTurcas(s string, o *tiebreak.ScrabbleOptions) error {
	if !strings.Contains(s, ",") {
		if _, ok := o.Sets[s]; !ok {
			return fmt.Errorf("%q: %w (give A,B,C,D or a set from --turcas-sets)", s, tiebreak.ErrUnknownCoefficientSet)
		}
		o.Set = s
		return nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return fmt.Errorf("%q: want four numbers A,B,C,D", s)
	}
	var v [4]float64
	for k, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return fmt.Errorf("%q: %w", s, err)
		}
		v[k] = f
	}
	o.Set = ""
	o.Coefficients = tiebreak.Coefficients{A: v[0], B: v[1], C: v[2], D: v[3]}
	return nil
}

// standingsInput is the tournament the standings are of, with what its
// source says of the players: the TRF file's records, or the archive.
type standingsInput struct {
	t    *tiebreak.Tournament
	file *trf.File // with --trf
	dir  string    // with --archive: the archive's folder
	// runStandings: with a run's outputs, print the standings it wrote (no
	// flag asks for others).
	runStandings bool
}

func loadStandingsInput(ctx context.Context, trfFile, dir string, id int64, policy tiebreak.Policy, stderr io.Writer) (*standingsInput, error) {
	if trfFile != "" {
		f, err := readTRFFile(trfFile, policy, slog.New(slog.NewTextHandler(stderr, nil)))
		if err != nil {
			return nil, err
		}
		t, err := f.Tournament()
		if err != nil {
			return nil, err
		}
		return &standingsInput{t: t, file: f}, nil
	}
	t, err := pipeline.LoadTournament(ctx, dir, id)
	if err != nil {
		return nil, fmt.Errorf("load tournament %d from %s: %w", id, dir, err)
	}
	return &standingsInput{t: t, dir: dir}, nil
}

// readTRFFile reads a TRF file and logs its warnings. An unreadable start date matters
// only when no --unplayed policy is given: the newest rules then apply, and the
// warning says so.
func readTRFFile(name string, policy tiebreak.Policy, log *slog.Logger) (*trf.File, error) {
	src, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	f, err := trf.Read(src, name)
	if err != nil {
		return nil, err
	}
	for _, w := range f.Warnings {
		switch {
		case !errors.Is(w, trf.ErrStartDate):
			log.Warn(w.Error())
		case policy != "":
			log.Warn(w.Error(), "unplayed", string(policy), "note", "the date is not used: --unplayed is given")
		default:
			log.Warn(w.Error(), "unplayed", string(tiebreak.PolicyAt(time.Time{})), "note", "unknown start date: the newest rules apply; give --unplayed to choose")
		}
	}
	return f, nil
}

// teamFlags are the flags of standings --team.
type teamFlags struct {
	trf, archive, codes string
	id                  int64
	policy              tiebreak.Policy
	matchPoints         string
	primary             string
	format              string
}

// teamStandings prints the team standings of a team competition.
func teamStandings(ctx context.Context, f teamFlags, stdout, stderr io.Writer) int {
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "ratelist standings: "+format+"\n", a...)
		return exitUsage
	}
	opt := tiebreak.TeamOptions{Unplayed: f.policy}
	if _, err := tiebreak.TeamPolicy(time.Time{}, opt); err != nil {
		return usage("parsing --unplayed: %v", err)
	}
	switch f.primary {
	case "mp":
	case "gp":
		opt.GamePointsFirst = true
	default:
		return usage("parsing --primary: %q is neither mp nor gp", f.primary)
	}
	list := tiebreak.DefaultTeamCodes()
	if f.codes != "" {
		if _, err := tiebreak.ParseTeamCodes(f.codes); err != nil {
			return usage("parsing --tiebreaks: %v", err)
		}
		list = tiebreak.SplitCodes(f.codes)
	}
	var tt *tiebreak.TeamTournament
	var err error
	if f.trf != "" {
		tt, err = readTeamTRF(f.trf, f.policy, slog.New(slog.NewTextHandler(stderr, nil)))
	} else {
		tt, err = pipeline.LoadTeamTournament(ctx, f.archive, f.id)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ratelist standings: %v\n", message(err))
		return exitCode(err)
	}
	if f.matchPoints != "" {
		pts, err := parseMatchPoints(f.matchPoints, tt.Points)
		if err != nil {
			return usage("parsing --match-points: %v", err)
		}
		tt.Points = &pts
	}
	rows, err := tiebreak.TeamStandings(tt, list, opt)
	if err != nil {
		fmt.Fprintf(stderr, "ratelist standings: %v\n", message(err))
		return exitCode(err)
	}
	if f.format == "text" {
		if tt.Tournament.Name != "" {
			fmt.Fprintf(stdout, "%s\n\n", tt.Tournament.Name)
		}
		err = tiebreak.WriteTeamText(stdout, list, rows)
	} else {
		err = tiebreak.WriteTeamCSV(stdout, list, rows)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ratelist standings: %v\n", message(err))
		return exitCode(err)
	}
	return exitOK
}

// parseMatchPoints reads "W,D,L" match points over the file's team points (or the
// standard ones).
func parseMatchPoints(s string, base *tiebreak.TeamPoints) (tiebreak.TeamPoints, error) {
	pts := tiebreak.StandardTeamPoints()
	declared := base != nil // a 320 record's bye points stay
	if declared {
		pts = *base
	}
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return pts, fmt.Errorf("%q: want three numbers W,D,L", s)
	}
	var v [3]int
	for k, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || f < 0 || f*2 != float64(int(f*2)) {
			return pts, fmt.Errorf("%q: %q is not a whole or half number of points", s, p)
		}
		v[k] = int(f * 2)
	}
	pts.Win, pts.Draw, pts.Loss = v[0], v[1], v[2]
	if !declared {
		pts.PAB = pts.Draw // the bye is a drawn match
	}
	return pts, nil
}

// readTeamTRF reads a TRF file's team competition and logs the file's warnings
// as readTRF does.
func readTeamTRF(name string, policy tiebreak.Policy, log *slog.Logger) (*tiebreak.TeamTournament, error) {
	f, err := readTRFFile(name, policy, log)
	if err != nil {
		return nil, err
	}
	return f.TeamTournament()
}
