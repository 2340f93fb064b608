package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ratelist/ratelist/correct"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/pipeline"
)

// TestCorrectedOldPeriod: a tournament of the first period withdrawn
// (`ratelist archive remove`), the run resumed with its stale periods re-rated,
// then the site updated: every page the change reaches is written again
// (the tournament's page removed, the first list and every later one
// rewritten), and the site is the same bytes, manifest included, as a full
// build of the corrected run.
func TestCorrectedOldPeriod(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "archive")
	if err := generate.Archive(ctx, generate.Options{Players: 80, Games: 900, Months: 4, Seed: 11, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	rules, err := pipeline.DefaultRules("")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	asOf := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	run := func(resume bool) {
		t.Helper()
		if _, err := pipeline.Run(ctx, pipeline.Options{Archive: os.DirFS(dir), ArchiveName: dir, Out: out, Rules: rules,
			RulesName: "default", Resume: resume, Rerate: resume, Now: asOf}); err != nil {
			t.Fatal(err)
		}
	}
	run(false)
	site := filepath.Join(t.TempDir(), "site")
	opt := Options{Out: out, Site: site, Archive: os.DirFS(dir)}
	if _, err := Build(ctx, opt); err != nil {
		t.Fatal(err)
	}
	a, err := pipeline.LoadArchive(ctx, os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	// The first tournament to end: its period is the first list's.
	first := a.Tournaments[0]
	for _, tr := range a.Tournaments {
		if tr.Rated && (!first.Rated || tr.End < first.End) {
			first = tr
		}
	}
	page := filepath.Join(site, filepath.FromSlash(tourPage(first.ID)))
	if _, err := os.Stat(page); err != nil {
		t.Fatalf("no page of tournament %d before the correction: %v", first.ID, err)
	}
	lists, err := filepath.Glob(filepath.Join(site, "list-*.html"))
	if err != nil || len(lists) < 2 {
		t.Fatalf("want at least 2 earlier lists, have %v (%v)", lists, err)
	}
	before := map[string][]byte{}
	for _, f := range lists {
		before[f], _ = os.ReadFile(f)
	}
	if _, err := correct.RemoveTournament(ctx, dir, first.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	run(true)
	st, err := Build(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("update after the correction of tournament %d: %+v; %d earlier lists", first.ID, st, len(lists))
	if st.Removed == 0 || st.Written == 0 || st.Kept == 0 {
		t.Errorf("update after the correction: %+v, want files removed, written and kept", st)
	}
	if _, err := os.Stat(page); !os.IsNotExist(err) {
		t.Errorf("page of the withdrawn tournament %d still there (%v)", first.ID, err)
	}
	for _, f := range lists {
		if b, _ := os.ReadFile(f); string(b) == string(before[f]) {
			t.Errorf("%s not rewritten after a correction of the first period", filepath.Base(f))
		}
	}
	full := filepath.Join(t.TempDir(), "site")
	if _, err := Build(ctx, Options{Out: out, Site: full, Archive: os.DirFS(dir)}); err != nil {
		t.Fatal(err)
	}
	sameSite(t, site, full)
}
