package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/output"
	sitereport "github.com/ratelist/ratelist/report"
)

// cmdReport writes the static HTML site of a run's outputs.
func cmdReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report", stderr)
	out := fs.String("out", "", "output `dir` of a finished run (required)")
	archive := fs.String("archive", "", "archive `dir` the run read (default: the one summary.json names)")
	site := fs.String("site", "", "site `dir` to write (default OUT/site)")
	title := fs.String("title", "Rating list", "`title` shown on every page")
	workers := fs.Int("workers", 0, "pages written at once `n` (default: the number of CPUs)")
	logFormat := fs.String("log-format", "text", "log `format`: text or json")
	quiet := fs.Bool("quiet", false, "log errors only")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile (pprof) to `file`")
	memLimit := memoryLimitFlag(fs, reportMemory, "")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	stop, code, ok := startCPUProfile("report", *cpuProfile, stderr)
	if !ok {
		return code
	}
	defer stop()
	log, err := newLogger(stderr, *logFormat, *quiet, false)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist report:", err)
		return exitUsage
	}
	if *out == "" {
		fmt.Fprintln(stderr, "ratelist report: --out DIR is required")
		return exitUsage
	}
	if *workers < 0 {
		fmt.Fprintln(stderr, "ratelist report: parsing --workers: must be ≥ 0")
		return exitUsage
	}
	if _, ok := setMemoryLimit("report", *memLimit, stderr); !ok {
		return exitUsage
	}
	arch, err := reportArchive(*out, *archive)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist report:", err)
		return exitUsage
	}
	st, err := sitereport.Build(ctx, sitereport.Options{Out: *out, Site: *site, Archive: arch, Title: *title, Workers: *workers, Log: log})
	if err != nil {
		fmt.Fprintln(stderr, "ratelist report:", message(err))
		return exitCode(err)
	}
	fmt.Fprintf(stdout, "%s: %d lists, %d tournaments, %d players; %d files written, %d unchanged, %d removed; open %s\n",
		st.Site, st.Lists, st.Tournaments, st.Players, st.Written, st.Files-st.Written, st.Removed, filepath.Join(st.Site, "index.html"))
	return exitOK
}

// reportMemory is the default soft memory limit of a report, in MiB: the
// garbage collector works harder near it rather than let the heap grow to
// twice what is live.
const reportMemory = 768

// runReport writes the site of a run's outputs, for `run --report`, under
// the run's own memory limit (--memory-limit).
func runReport(ctx context.Context, out string, archive fs.FS, log *slog.Logger) error {
	_, err := sitereport.Build(ctx, sitereport.Options{Out: out, Archive: archive, Log: log})
	return err
}

// demoName is the archive name summary.json holds for the embedded demo.
const demoName = "(embedded demo)"

// reportArchive resolves the archive for report: --archive, else the folder
// summary.json names (an absolute path), or the embedded demo when the run
// read it. Anything else is an error asking for --archive: a site is never
// built from another archive than the run's. Without summary.json it is nil,
// and Build says there is no run.
func reportArchive(out, dir string) (fs.FS, error) {
	if dir != "" {
		fsys, _, err := openArchive(dir)
		return fsys, err
	}
	sumPath := output.Summary.Path(out, "")
	b, err := os.ReadFile(sumPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", sumPath, err)
	}
	var sum struct {
		Archive string `json:"archive"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		return nil, fmt.Errorf("read %s: %w", sumPath, err)
	}
	if sum.Archive == demoName {
		return ratelist.Demo(), nil
	}
	if filepath.IsAbs(sum.Archive) {
		if st, err := os.Stat(sum.Archive); err == nil && st.IsDir() {
			return os.DirFS(sum.Archive), nil
		}
	}
	return nil, fmt.Errorf("the archive %q that %s names is not a folder here: give --archive DIR", sum.Archive, sumPath)
}
