package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/norms"
	"github.com/ratelist/ratelist/trf"
)

// cmdNorms implements
//
//	ratelist norms --trf FILE [--list FIDE-LIST] [--format csv|text|json]
//	    [--kind auto|swiss|round-robin|double-round-robin] [--predetermined]
//	    [--exempt] [--seven-games]
//
// It prints, for every player and every title norm he can still earn, whether
// the tournament gives it and each requirement's number. Exit 0 ok, 1 the file
// cannot be read, 2 bad usage.
func cmdNorms(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("norms", stderr)
	trfFile := fs.String("trf", "", "read the tournament from the TRF `file`")
	listFile := fs.String("list", "", "FIDE's players `list` (TXT or XML): fills the titles, federations, sex and ratings the TRF leaves blank")
	format := fs.String("format", "csv", "output `format`: csv, text or json")
	kind := fs.String("kind", "auto", "tournament `system`: auto (from the file), swiss, round-robin or double-round-robin")
	predetermined := fs.Bool("predetermined", false, "a Swiss event whose pairings were fixed in advance: later rounds may not be left out (1.4.1e)")
	exempt := fs.Bool("exempt", false, "an event of 1.4.3a–c (national or national team championship, zonal, approved by the QC): no federation requirements (a large Swiss of 1.4.3d is found from the file)")
	seven := fs.Bool("seven-games", false, "a 7-round team event of 1.4.1b: 7 games suffice")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "ratelist norms: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return usage("unexpected argument %q", fs.Arg(0))
	}
	if *trfFile == "" {
		return usage("give --trf FILE")
	}
	if *format != "csv" && *format != "text" && *format != "json" {
		return usage("parsing --format: %q is not csv, text or json", *format)
	}
	kinds := map[string]norms.Kind{"swiss": norms.Swiss, "round-robin": norms.RoundRobin, "double-round-robin": norms.DoubleRoundRobin}
	if _, ok := kinds[*kind]; !ok && *kind != "auto" {
		return usage("parsing --kind: %q is not auto, swiss, round-robin or double-round-robin", *kind)
	}

	fail := func(err error) int {
		fmt.Fprintf(stderr, "ratelist norms: %v\n", message(err))
		return exitCode(err)
	}
	name, t, err := readNormsTRF(*trfFile, slog.New(slog.NewTextHandler(stderr, nil)))
	if err != nil {
		return fail(err)
	}
	if *listFile != "" {
		want := map[int64]bool{}
		for _, p := range t.Players {
			if p.FideID > 0 {
				want[p.FideID] = true
			}
		}
		list, err := readListPlayers(ctx, *listFile, want, stderr)
		if err != nil {
			return fail(err)
		}
		fillFromList(&t, list)
	}
	if k, ok := kinds[*kind]; ok {
		t.Kind = k
	}
	t.Predetermined, t.Exempt, t.SevenGames = *predetermined, *exempt, *seven

	results := norms.Check(t)
	switch *format {
	case "text":
		if name != "" {
			fmt.Fprintf(stdout, "%s (%s, %d rounds)\n", name, t.Kind, t.Rounds)
		}
		if norms.LargeSwiss(t) {
			fmt.Fprintf(stdout, "A Swiss of 1.4.3d (20 foreign rated players, 10 of them titled): no federation requirements.\n")
		}
		fmt.Fprintln(stdout)
		err = norms.WriteText(stdout, results)
	case "json":
		err = writeNormsJSON(stdout, name, t, results)
	default:
		err = norms.WriteCSV(stdout, results)
	}
	if err != nil {
		return fail(err)
	}
	return exitOK
}

// readNormsTRF reads a TRF file, logs its warnings, and returns the event's
// name and its players and rounds.
func readNormsTRF(name string, log *slog.Logger) (string, norms.Tournament, error) {
	src, err := os.Open(name)
	if err != nil {
		return "", norms.Tournament{}, err
	}
	defer src.Close()
	f, err := trf.Read(src, name)
	if err != nil {
		return "", norms.Tournament{}, err
	}
	for _, w := range f.Warnings {
		log.Warn(w.Error())
	}
	t, err := norms.FromTRF(f)
	return f.Name, t, err
}

// fillFromList fills what the TRF leaves blank from FIDE's list: the title
// (the stronger of Tit and WTit), the federation, the standard rating. The
// TRF's own values win: they are the ones of the event's start. A woman is a
// woman by either.
func fillFromList(t *norms.Tournament, list map[int64]importer.FideListPlayer) {
	for i := range t.Players {
		p := &t.Players[i]
		lp, ok := list[p.FideID]
		if !ok {
			continue
		}
		if p.Title == "" {
			p.Title = norms.Stronger(norms.Title(lp.Title), norms.Title(lp.WTitle))
		}
		if p.Federation == "" {
			p.Federation = strings.ToUpper(lp.Federation)
		}
		if p.Rating == 0 {
			p.Rating = int(lp.Rating)
		}
		if strings.EqualFold(lp.Sex, "F") || strings.HasPrefix(p.Title, "W") {
			p.Female = true
		}
	}
}

// writeNormsJSON writes the event and every result with its requirements and
// the IT1 certificate's list of opponents.
func writeNormsJSON(w io.Writer, name string, t norms.Tournament, results []norms.Result) error {
	type result struct {
		norms.Result
		Fails []string `json:"fails"`
	}
	out := struct {
		Tournament string   `json:"tournament"`
		Kind       string   `json:"kind"`
		Rounds     int      `json:"rounds"`
		Exempt     bool     `json:"exempt"`      // --exempt (1.4.3a–c)
		LargeSwiss bool     `json:"large_swiss"` // 1.4.3d
		Results    []result `json:"results"`
	}{name, t.Kind.String(), t.Rounds, t.Exempt, norms.LargeSwiss(t), []result{}}
	for _, r := range results {
		fails := r.Fails()
		if fails == nil {
			fails = []string{}
		}
		out.Results = append(out.Results, result{r, fails})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
