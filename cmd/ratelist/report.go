package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/ratelist/ratelist"
	sitereport "github.com/ratelist/ratelist/report"
)

// cmdReport writes the static HTML site of a run's outputs.
func cmdReport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report", stderr)
	out := fs.String("out", "", "output `dir` of a finished run (required)")
	archive := fs.String("archive", "", "archive `dir` the run read (default: the one named in summary.json, or the embedded demo)")
	site := fs.String("site", "", "site `dir` to write (default OUT/site)")
	title := fs.String("title", "Rating list", "`title` shown on every page")
	workers := fs.Int("workers", 0, "pages written at once `n` (default: the number of CPUs)")
	logFormat := fs.String("log-format", "text", "log `format`: text or json")
	quiet := fs.Bool("quiet", false, "log errors only")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile (pprof) to `file`")
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
	limitMemory()
	arch, err := reportArchive(*out, *archive)
	if err != nil {
		fmt.Fprintln(stderr, "ratelist report:", err)
		return exitFailed
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

// reportMemory is the soft memory limit of a report: the garbage collector
// works harder near it rather than let the heap grow to twice what is live.
const reportMemory = 768 << 20

// limitMemory sets the soft memory limit of a report unless GOMEMLIMIT does.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(reportMemory)
	}
}

// runReport writes the site of a run's outputs, for `run --report`.
func runReport(ctx context.Context, out string, archive fs.FS, log *slog.Logger) error {
	limitMemory()
	_, err := sitereport.Build(ctx, sitereport.Options{Out: out, Archive: archive, Log: log})
	return err
}

// reportArchive resolves the archive for report: --archive, else the folder
// summary.json names if it still exists, else the embedded demo.
func reportArchive(out, dir string) (fs.FS, error) {
	if dir != "" {
		fsys, _, err := openArchive(dir)
		return fsys, err
	}
	var sum struct {
		Archive string `json:"archive"`
	}
	if b, err := os.ReadFile(filepath.Join(out, "summary.json")); err == nil && json.Unmarshal(b, &sum) == nil {
		if st, err := os.Stat(sum.Archive); err == nil && st.IsDir() {
			return os.DirFS(sum.Archive), nil
		}
	}
	return ratelist.Demo(), nil
}
