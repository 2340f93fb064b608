package report

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/pipeline"
)

// listHref matches a link to a list page (rating or Joker) or to a year's
// index of lists.
var listHref = regexp.MustCompile(`href="(index\.html|list-[^"]+\.html|joker-[^"]+\.html|lists-[^"]+\.html)"`)

// TestListLinksBounded: over 40 monthly lists, each list page links a bounded
// number of other lists (the one before and after, its year's index), each
// year's index its own lists, and lists.html the years: the site's links grow
// with the lists, not with their square.
func TestListLinksBounded(t *testing.T) {
	dir := t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 60, Games: 2500, Months: 40, Seed: 5, Dir: dir, CSV: true}); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	sum, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(dir), Out: out, Workers: 2,
		Now: time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Lists < 36 {
		t.Fatalf("%d lists, want about 40", sum.Lists)
	}
	site := filepath.Join(t.TempDir(), "site")
	if _, err := Build(context.Background(), Options{Out: out, Site: site, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(site, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	years, listPages, total := 0, 0, 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := len(listHref.FindAll(b, -1))
		total += n
		name := filepath.Base(p)
		switch {
		case name == "lists.html":
			continue
		case strings.HasPrefix(name, "lists-"):
			years++
			if n > 4+12 { // the header's three, a month's lists, the crumb
				t.Errorf("%s links %d lists, want at most %d", name, n, 4+12)
			}
		case name == "index.html" || strings.HasPrefix(name, "list-"):
			listPages++
			if n > 6 { // header (2), before, after, year; the changes page is not a list
				t.Errorf("%s links %d lists, want at most 6", name, n)
			}
		}
	}
	if listPages != sum.Lists {
		t.Errorf("%d list pages for %d lists", listPages, sum.Lists)
	}
	idx, err := os.ReadFile(filepath.Join(site, "lists.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(idx), `href="lists-`); n != years || years < 4 {
		t.Errorf("lists.html links %d years, the site has %d year pages (want 4 or more)", n, years)
	}
	if total > 12*len(pages) {
		t.Errorf("%d list links over %d pages: more than linear", total, len(pages))
	}
}

// siteFiles is every entry under dir, links not followed: its content, or the
// link's target.
func siteFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			files[p] = "-> " + target
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestSiteSymlinkRefused: a symbolic link inside the site folder (a folder of
// the site, or a page) is refused: Build writes and removes nothing, in the
// site or where the link points.
func TestSiteSymlinkRefused(t *testing.T) {
	out := demoRun(t)
	built := filepath.Join(t.TempDir(), "site")
	if _, err := Build(context.Background(), Options{Out: out, Site: built, Archive: ratelist.Demo()}); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"players", "tournaments.html", "data/list-2024-09.js", "extra"} {
		t.Run(strings.ReplaceAll(link, "/", "_"), func(t *testing.T) {
			site := filepath.Join(t.TempDir(), "site")
			if err := os.CopyFS(site, os.DirFS(built)); err != nil {
				t.Fatal(err)
			}
			outside := t.TempDir()
			if err := os.WriteFile(filepath.Join(outside, "mine.html"), []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(site, link)); err != nil {
				t.Fatal(err)
			}
			target := outside
			if strings.Contains(link, ".") {
				target = filepath.Join(outside, "mine.html")
			}
			if err := os.Symlink(target, filepath.Join(site, link)); err != nil {
				t.Fatal(err)
			}
			before, outBefore := siteFiles(t, site), siteFiles(t, outside)
			// A run's outputs that changed: the update would write pages.
			_, err := Build(context.Background(), Options{Out: out, Site: site, Archive: ratelist.Demo(), Title: "Another title"})
			if !errors.Is(err, ErrSymlink) {
				t.Fatalf("err = %v, want ErrSymlink", err)
			}
			if after := siteFiles(t, site); !sameMaps(before, after) {
				t.Error("the refused build changed the site")
			}
			if after := siteFiles(t, outside); !sameMaps(outBefore, after) {
				t.Error("the refused build changed the link's target")
			}
		})
	}
}

func sameMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestNoListRefused: an output folder whose run listed no period (everything
// still in the open period) gives ErrNoList and no site.
func TestNoListRefused(t *testing.T) {
	out := t.TempDir()
	rules, err := pipeline.ParseRules("demo rules.toml", ratelist.DemoRules())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Run(context.Background(), pipeline.Options{Archive: ratelist.Demo(), ArchiveName: "(embedded demo)",
		Out: out, Rules: rules, Now: time.Date(2024, 9, 20, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(t.TempDir(), "site")
	_, err = Build(context.Background(), Options{Out: out, Site: site, Archive: ratelist.Demo()})
	if !errors.Is(err, ErrNoList) {
		t.Fatalf("err = %v, want ErrNoList", err)
	}
	if exists(site) {
		t.Error("a site was written with no list")
	}
	if !bytes.Contains([]byte(err.Error()), []byte(out)) {
		t.Errorf("message %q does not name the output folder", err)
	}
}

// TestNewPlayerChangeEmpty: a player not on the list before has an empty
// change in the list (new), shown empty on the site too, where a player on
// it shows 0.
func TestNewPlayerChangeEmpty(t *testing.T) {
	old := string(appendRatingRow(nil, &listRow{Rank: 1, ID: 7, Name: "Old", Rating: 1500}, "", ratingShape{}))
	young := string(appendRatingRow(nil, &listRow{Rank: 2, ID: 8, Name: "New", Rating: 1400, NoChange: true, Flags: "new"}, "", ratingShape{}))
	if !strings.Contains(old, `<td>1500<td>0<td>`) {
		t.Errorf("row %q: want change 0 for Old", old)
	}
	if !strings.Contains(young, `<td>1400<td><td>`) {
		t.Errorf("row %q: want an empty change for New", young)
	}
}
