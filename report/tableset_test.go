package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// Each table rule set's lists and cards are files of the output table, read
// by the report, and every list column and card column its site declaration
// names is one the site can show.
func TestTableSetFiles(t *testing.T) {
	defs := rating.TableDefinitions()
	if len(defs) == 0 {
		t.Fatal("no table rule set registered")
	}
	for _, d := range defs {
		for _, f := range []*output.File{tableListFile(d), tableCardsFile(d)} {
			if g, _, ok := output.Match(f.Rel("2025-03")); !ok || !slices.Contains(output.Files, g) || !g.Report {
				t.Errorf("%s: %s is not a file of the output table read by the report", d.Name, f.Pattern)
			}
		}
		site := &d.Site
		if site.RankBy != "" && !slices.ContainsFunc(site.List, func(c rating.SiteColumn) bool { return c.Name == site.RankBy }) {
			t.Errorf("%s: RankBy %q is not a declared list column", d.Name, site.RankBy)
		}
		if (site.Chart == "") != (site.ChartLabel == "") || (site.Changes == "") != (site.ChangesLabel == "") {
			t.Errorf("%s: a charted or listed column without its label, or a label without its column", d.Name)
		}
		for _, l := range []string{site.ChartLabel, site.ChangesLabel} {
			if l != strings.ToLower(l) {
				t.Errorf("%s: label %q is not lower case", d.Name, l)
			}
		}
	}
}

func TestShown(t *testing.T) {
	head := []string{"rank", "player_id", "name", "player_rating", "level"}
	if got := shown(head); !slices.Equal(got, []int{3, 4}) {
		t.Errorf("shown(%v) = %v, want [3 4]", head, got)
	}
	if got, want := lowerFirst("Player rating"), "player rating"; got != want {
		t.Errorf("lowerFirst = %q, want %q", got, want)
	}
	if got, want := upperFirst("level"), "Level"; got != want {
		t.Errorf("upperFirst = %q, want %q", got, want)
	}
}
