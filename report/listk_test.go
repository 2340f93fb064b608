package report

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/pipeline"
)

// TestListWithoutK: a list row whose k cell is empty (a rule set without K)
// reads as such and its page row shows an empty K, where a row with K shows
// it.
func TestListWithoutK(t *testing.T) {
	p := filepath.Join(t.TempDir(), "2025-01.csv")
	csv := "rank,player_id,name,rating,change,games_period,games_total,k,category,flags,glicko_rating\n" +
		"1,7,Ann,1835,,3,3,,,new,1835.20\n2,9,Bob,1700,,3,3,20,,new,1700.00\n"
	if err := os.WriteFile(p, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := readList(p)
	if err != nil {
		t.Fatal(err)
	}
	if !rows[0].NoK || rows[1].NoK || rows[1].K != 20 {
		t.Fatalf("rows %+v", rows)
	}
	ann, bob := string(appendRatingRow(nil, &rows[0], "", ratingShape{})), string(appendRatingRow(nil, &rows[1], "", ratingShape{}))
	if !strings.Contains(ann, "<td>3<td>3<td><td>") || !strings.Contains(bob, "<td>3<td>3<td>20<td>") {
		t.Errorf("rows:\n%s%s", ann, bob)
	}
}

// TestGlickoListPage: the list page of a rule set without K (Glicko-2) has
// no K column, and a cell under each of the rule set's own columns; the
// demo's (school) list keeps its K.
func TestGlickoListPage(t *testing.T) {
	out := t.TempDir()
	rules, err := pipeline.DefaultRules("glicko2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Run(context.Background(), pipeline.Options{Archive: ratelist.Demo(), ArchiveName: "(embedded demo)",
		Out: out, Rules: rules, RulesName: "glicko2"}); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(out, "site")
	if _, err := Build(context.Background(), Options{Out: out, Site: site, Archive: ratelist.Demo()}); err != nil {
		t.Fatal(err)
	}
	page := readString(t, filepath.Join(site, "index.html"))
	if strings.Contains(page, `data-col="k"`) {
		t.Error("Glicko-2 list page has a K column")
	}
	heads := strings.Count(page, `<th scope=col data-col=`)
	row, _, _ := strings.Cut(page[strings.Index(page, "<tr><td>1<th"):], "\n")
	if cells := strings.Count(row, "<td>") + strings.Count(row, "<th "); cells != heads || !strings.Contains(page, `data-col="rd"`) {
		t.Errorf("%d headings, %d cells in the first row %q", heads, cells, row)
	}
	school := readString(t, filepath.Join(demoSite(t), "index.html"))
	if !strings.Contains(school, `data-col="k" data-num>K<`) {
		t.Error("school list page lacks its K column")
	}
	validatePages(t, htmlValidate(t), site, []string{"index.html"})
}
