package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/trf"
)

// cmdCheck implements
//
//	ratelist check trf FILE... [--format text|json|csv] [--list FIDE-LIST] [--fix OUT.trf]
//
// It prints every finding of each TRF file to stdout (docs/arbiter.md). Exit 0
// clean (notes allowed), 3 warnings only, 1 errors (or a file that cannot be
// read), 2 bad usage.
func cmdCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && isHelp(args[0]) {
		return checkTRF(ctx, args[:1], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "trf" {
		fmt.Fprintln(stderr, "ratelist check: give trf (ratelist check trf -h for the flags)")
		return exitUsage
	}
	return checkTRF(ctx, args[1:], stdout, stderr)
}

func checkTRF(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check trf", stderr)
	format := fs.String("format", "text", "output `format`: text, json or csv")
	listFile := fs.String("list", "", "FIDE's players `file` (TXT or XML): ids, names, federations, birth years and ratings checked against it")
	fixOut := fs.String("fix", "", "write a corrected copy of the (one) file to `out.trf` (points columns, missing mirrored records) and check that")
	files, code, ok := parseMixed(fs, args)
	if !ok {
		return code
	}
	usage := usageFunc(stderr, "check trf")
	switch {
	case len(files) == 0:
		return usage("no TRF files")
	case *format != "text" && *format != "json" && *format != "csv":
		return usage("parsing --format: %q is not text, json or csv", *format)
	case *fixOut != "" && len(files) != 1:
		return usage("--fix writes one file: give one TRF file")
	}
	fail := failFunc(stderr, "check trf")
	type checked struct {
		name string
		data []byte
	}
	var inputs []checked
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return fail(err)
		}
		inputs = append(inputs, checked{name, data})
	}
	var opt trf.CheckOptions
	if *listFile != "" {
		want := map[int64]bool{}
		for _, in := range inputs {
			if f, err := trf.Read(bytes.NewReader(in.data), in.name); err == nil {
				for _, p := range f.Players {
					want[p.FideID] = true
				}
			}
		}
		list, err := readFideList(ctx, *listFile, want, stderr)
		if err != nil {
			return fail(err)
		}
		opt.List = list
	}
	var changes []trf.Finding
	if *fixOut != "" {
		fixed, ch, err := trf.Fix(inputs[0].data, inputs[0].name)
		if err != nil {
			return fail(fmt.Errorf("fix: %w", err))
		}
		if err := writeFileAtomic(*fixOut, fixed); err != nil {
			return fail(err)
		}
		for i := range ch {
			ch[i].File = *fixOut
		}
		changes = ch
		inputs = []checked{{*fixOut, fixed}}
	}
	var all []trf.Finding
	for _, in := range inputs {
		all = append(all, trf.Check(in.data, in.name, opt)...)
	}
	if err := printFindings(stdout, *format, changes, all, inputs[0].name, len(inputs)); err != nil {
		return fail(err)
	}
	worst := trf.Note
	for _, f := range all {
		worst = max(worst, f.Severity)
	}
	switch worst {
	case trf.Error:
		return exitFailed
	case trf.Warning:
		return exitRejected
	}
	return exitOK
}

// printFindings prints the changes --fix made, then the findings: text (a
// line each, its fix under it, then the counts), json (an object with both
// lists) or csv (one row a finding, the changes with severity "fixed").
func printFindings(w io.Writer, format string, changes, findings []trf.Finding, first string, files int) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if changes == nil {
			changes = []trf.Finding{}
		}
		if findings == nil {
			findings = []trf.Finding{}
		}
		return enc.Encode(struct {
			Fixed    []trf.Finding `json:"fixed"`
			Findings []trf.Finding `json:"findings"`
		}{changes, findings})
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"file", "line", "column", "severity", "code", "message", "fix"})
		for _, f := range changes {
			cw.Write([]string{f.File, strconv.Itoa(f.Line), strconv.Itoa(f.Column), "fixed", f.Code, f.Message, ""})
		}
		for _, f := range findings {
			cw.Write([]string{f.File, strconv.Itoa(f.Line), strconv.Itoa(f.Column), f.Severity.String(), f.Code, f.Message, f.Fix})
		}
		cw.Flush()
		return cw.Error()
	}
	for _, f := range changes {
		fmt.Fprintf(w, "%s:%d:%d: fixed %s: %s\n", f.File, f.Line, f.Column, f.Code, f.Message)
	}
	count := map[trf.Severity]int{}
	for _, f := range findings {
		count[f.Severity]++
		fmt.Fprintf(w, "%s\n    fix: %s\n", f, f.Fix)
	}
	what := first
	if files > 1 {
		what = fmt.Sprintf("%d files", files)
	}
	_, err := fmt.Fprintf(w, "%s: %d errors, %d warnings, %d notes\n", what, count[trf.Error], count[trf.Warning], count[trf.Note])
	return err
}

// readFideList reads the players of FIDE's list whose ids are wanted, as
// check trf compares them.
func readFideList(ctx context.Context, name string, want map[int64]bool, stderr io.Writer) (map[int64]trf.ListPlayer, error) {
	players, err := readListPlayers(ctx, name, want, stderr)
	if err != nil {
		return nil, err
	}
	list := make(map[int64]trf.ListPlayer, len(players))
	for id, p := range players {
		list[id] = trf.ListPlayer{Name: p.Name, Federation: p.Federation, BirthYear: int(p.BirthYear), Rating: int(p.Rating)}
	}
	return list, nil
}

// readListPlayers reads the players of FIDE's list whose ids are wanted (the
// list has a million players: only those are kept).
func readListPlayers(ctx context.Context, name string, want map[int64]bool, stderr io.Writer) (map[int64]importer.FideListPlayer, error) {
	src, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	list := map[int64]importer.FideListPlayer{}
	n := 0
	err = importer.ReadFideList(src, name, func(p *importer.FideListPlayer) error {
		if n++; n%100000 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if want[p.ID] {
			list[p.ID] = *p
		}
		return nil
	}, func(p *importer.Problem) { fmt.Fprintln(stderr, "note:", p) })
	if err != nil {
		return nil, fmt.Errorf("read --list %s: %w", name, err)
	}
	return list, nil
}

// writeFileAtomic writes data to path through a temporary file in its folder.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}
