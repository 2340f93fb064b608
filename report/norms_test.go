package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/pipeline"
)

// A run whose round robin makes norms (testdata/norms/rr10.trf with FIDE's
// list: Applicant's GM and IM norms, Ra 2416, Rp 2636, as docs/arbiter.md
// shows) has a norms page listing them in norms.csv's order, linked from the
// tournaments page; the demo run makes none, and its site has neither.
func TestNormsPage(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, err := importer.Open(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importer.ImportTRF(ctx, a, []string{"../testdata/norms/rr10.trf"}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if a, err = importer.Open(dir, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := importer.ImportFideList(ctx, a, []string{"../importer/testdata/fidelist/players_list_foa.txt"}, importer.FideListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := pipeline.Run(ctx, pipeline.Options{Archive: os.DirFS(dir), Out: out, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(out, "site")
	if _, err := Build(ctx, Options{Out: out, Site: site, Archive: os.DirFS(dir)}); err != nil {
		t.Fatal(err)
	}
	page := readString(t, filepath.Join(site, "norms.html"))
	row := func(title string) string {
		return `<tr><td>2025-03</td><td><a href="tournaments/1.html">Norm Round Robin</a></td><th scope="row"><a href="players/1.html">Applicant, Ann</a></th><td>` +
			title + `</td><td class="n">9</td><td class="n">7</td><td class="n">2416</td><td class="n">2636</td></tr>`
	}
	gm, im := strings.Index(page, row("GM")), strings.Index(page, row("IM"))
	if gm < 0 || im < gm {
		t.Errorf("norms.html does not list Applicant's GM norm, then her IM norm:\n%s", page)
	}
	if idx := readString(t, filepath.Join(site, "tournaments.html")); !strings.Contains(idx, `<a href="norms.html">Title norms</a> made in these tournaments: 2.`) {
		t.Errorf("tournaments.html does not link the norms page:\n%s", idx)
	}
	// The page has a key: a build over the site with nothing changed keeps it.
	if m, _, err := readManifestFiles(site); err != nil {
		t.Fatal(err)
	} else if m[normsFile].key == 0 {
		t.Errorf("the manifest has no key for %s: %+v", normsFile, m[normsFile])
	}
	st, err := Build(ctx, Options{Out: out, Site: site, Archive: os.DirFS(dir)})
	if err != nil {
		t.Fatal(err)
	}
	if st.Written != 0 {
		t.Errorf("a second build wrote %d files, want 0", st.Written)
	}
	// On a phone the page does not scroll sideways: its table scrolls in its frame.
	t.Run("phone", func(t *testing.T) {
		if m := measure(t, chromium(t), filepath.Join(site, "norms.html"), 375, false); m.ScrollWidth > m.Width {
			t.Errorf("norms.html is %d px wide in a %d px window (%s)", m.ScrollWidth, m.Width, strings.Join(m.Wide, ", "))
		}
	})

	demo := demoSite(t)
	if _, err := os.Stat(filepath.Join(demo, "norms.html")); !os.IsNotExist(err) {
		t.Errorf("the demo site has norms.html (%v); its run made no norm", err)
	}
	if strings.Contains(readString(t, filepath.Join(demo, "tournaments.html")), "norms.html") {
		t.Error("the demo site's tournaments.html links norms.html")
	}
}
