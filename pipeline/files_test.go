package pipeline

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/output"
)

// outFiles lists the files of an output folder but ratelist's own marker and
// lock, by slash path.
func outFiles(t *testing.T, out string) map[string]fs.FileInfo {
	t.Helper()
	files := map[string]fs.FileInfo{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if rel == outMarker || rel == lockName {
			return nil
		}
		fi, err := d.Info()
		files[filepath.ToSlash(rel)] = fi
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestOutputFilesTable: every file a run writes (with Joker games, a team
// competition, --arrow and every standings CSV) is of a kind output.Files lists, and every kind is
// written; a resumed run then keeps, untouched, exactly the files the table
// marks kept (those of the periods before the first it writes, the site),
// writes again or removes every other one, and ends with what a full run
// writes.
func TestOutputFilesTable(t *testing.T) {
	dir := t.TempDir()
	err := generate.Archive(context.Background(), generate.Options{Players: 150, Games: 9000, Months: 8, Seed: 5, Dir: dir, JokerGames: 400})
	if err != nil {
		t.Fatal(err)
	}
	importInto(t, dir, teamTRFs[1:], nil) // a team competition (November 2024)
	archive := os.DirFS(dir)
	out := t.TempDir()
	opt := Options{Archive: archive, Out: out, Arrow: true, StandingsCSV: StandingsCSVAll, KeepSite: true}
	first := opt
	first.Until = "2025-01"
	runOpt(t, first)
	site := output.Site.Path(out, "")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(site, "index.html"), []byte("a site"), 0o644); err != nil {
		t.Fatal(err)
	}

	before := outFiles(t, out)
	kinds := map[*output.File]int{}
	for rel := range before {
		f, _, ok := output.Match(rel)
		if !ok {
			t.Errorf("%s: written by the run, but of no kind in output.Files", rel)
			continue
		}
		kinds[f]++
	}
	for _, f := range output.Files {
		if kinds[f] == 0 {
			t.Errorf("%s: in output.Files, but the run wrote none", f.Pattern)
		}
	}

	resumed := opt
	resumed.Resume = true
	sum := runOpt(t, resumed)
	if sum.FirstList <= first.Until {
		t.Fatalf("resumed run's first list %q, want one after %s", sum.FirstList, first.Until)
	}
	// The tournaments of the kept periods, from their standings.
	keptTour := map[string]bool{}
	for rel := range before {
		if f, key, _ := output.Match(rel); f == output.StandingsPeriod && key < sum.FirstList {
			rows, err := parquet.ReadFile[output.StandingsRow](output.StandingsPeriod.Path(out, key))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				keptTour[strconv.FormatInt(r.TournamentID, 10)] = true
			}
		}
	}
	after := outFiles(t, out)
	nKept := 0
	for rel, fi := range before {
		f, key, _ := output.Match(rel)
		want := false
		switch f.Kept {
		case output.KeptByPeriod:
			want = key < sum.FirstList
		case output.KeptByTournament:
			want = keptTour[key]
		case output.KeptAlways:
			want = true
		}
		now, ok := after[rel]
		kept := ok && os.SameFile(fi, now)
		if kept != want {
			t.Errorf("%s: kept by --resume %v, the table says %v", rel, kept, want)
		}
		if kept {
			nKept++
		}
	}
	if nKept < 10 {
		t.Errorf("only %d files kept by --resume", nKept)
	}
	// What it kept and wrote is what a full run writes.
	full := opt
	full.Out = t.TempDir()
	runOpt(t, full)
	resumedTree := readTree(t, out)
	delete(resumedTree, "site/index.html")
	sameTrees(t, "resume vs full", readTree(t, full.Out), resumedTree, func(rel string) bool {
		return rel == output.Summary.Rel("")
	})

	// A run that is not told the site is ratelist's removes it.
	opt.KeepSite = false
	runOpt(t, opt)
	if _, err := os.Lstat(site); err == nil {
		t.Error("site/ stays after a run without KeepSite")
	}
}
