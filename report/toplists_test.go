package report

import (
	"context"
	"encoding/csv"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/pipeline"

	"github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/officer"
	"github.com/ratelist/ratelist/toplist"
)

// officerTop is a top list as `ratelist top` makes it (package officer's
// reading of the list and the players table): rank, rank before, player.
func officerTop(t *testing.T, arch fs.FS, out string, periods []string, list string, f toplist.Filter, n int) [][]string {
	t.Helper()
	players, err := officer.ReadPlayers(arch)
	if err != nil {
		t.Fatal(err)
	}
	last, err := officer.LastGames(out)
	if err != nil {
		t.Fatal(err)
	}
	st := toplist.Defaults()
	l, _ := st.Lookup(list)
	sel := func(period string, n int) []toplist.Row {
		rows, err := officer.ReadList(out, period)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := officer.TopPlayers(rows, players, last, period, st)
		if err != nil {
			t.Fatal(err)
		}
		year, _, _ := toplist.Period(period)
		return toplist.Select(ps, l, year, f, n)
	}
	was := map[int64]int{}
	for _, r := range sel(periods[len(periods)-2], 0) {
		was[r.ID] = r.Rank
	}
	var out2 [][]string
	for _, r := range sel(periods[len(periods)-1], n) {
		before := "new"
		if k, ok := was[r.ID]; ok {
			before = strconv.Itoa(k)
		}
		out2 = append(out2, []string{strconv.Itoa(r.Rank), before, strconv.FormatInt(r.ID, 10)})
	}
	return out2
}

// siteTop reads a top list's CSV file of the site: rank, rank before,
// player, of the rows of list.
func siteTop(t *testing.T, path, list string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, r := range recs[1:] {
		if r[0] == list {
			out = append(out, []string{r[1], r[2], r[3]})
		}
	}
	return out
}

// TestTopLists: the site's top lists are the lists `ratelist top` prints
// (package officer's reading of the outputs), with the ranks on the list
// before; a club's page holds its own; the pages need no script and link
// the changes page.
func TestTopLists(t *testing.T) {
	out := demoRun(t)
	site := demoSite(t)
	periods, err := officer.Periods(out)
	if err != nil || len(periods) < 2 {
		t.Fatalf("periods %v, %v", periods, err)
	}
	for _, l := range toplist.Defaults().Lists() {
		got := siteTop(t, filepath.Join(site, csvName(topFile(l.Name))), l.Name)
		want := officerTop(t, ratelist.Demo(), out, periods, l.Name, toplist.Filter{}, 100)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the site's top list\n%v\nis not ratelist top's\n%v", l.Name, got, want)
		}
	}
	if len(siteTop(t, filepath.Join(site, "top-u12.csv"), "u12")) == 0 {
		t.Error("the demo's U12 list is empty")
	}
	club := groupFile("club", "Belovo")
	for _, list := range []string{"open", "u12"} {
		got := siteTop(t, filepath.Join(site, csvName(club)), list)
		want := officerTop(t, ratelist.Demo(), out, periods, list, toplist.Filter{Club: "Belovo"}, 10)
		if len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("club Belovo, %s: the site's\n%v\nis not ratelist top's\n%v", list, got, want)
		}
	}
	for _, f := range []string{"top.html", topFile("u12"), club, "clubs.html"} {
		html := readString(t, filepath.Join(site, f))
		if strings.Contains(html, "<script") {
			t.Errorf("%s needs a script", f)
		}
		if f != "top.html" && f != "clubs.html" && !strings.Contains(html, changesFile(periods[len(periods)-1])+`">what changed</a>`) {
			t.Errorf("%s does not link what changed since the list before", f)
		}
		if !strings.Contains(html, "<caption>") || !strings.Contains(html, `<th scope="col"`) {
			t.Errorf("%s: a table without a caption or column headings", f)
		}
	}
}

// TestTopListsPartlyKept: over a site whose manifest lacks one top-list
// file (a new club's, say), the top-list files are all made again, none
// kept and then written twice, and the site is a full build's.
func TestTopListsPartlyKept(t *testing.T) {
	out := demoRun(t)
	full := demoSite(t)
	site := buildDemo(t, 2)
	man := filepath.Join(site, marker)
	b, err := os.ReadFile(man)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasSuffix(l, " "+csvName(groupFile("club", "Belovo"))) {
			lines = append(lines, l)
		}
	}
	if len(lines) == len(strings.Split(string(b), "\n")) {
		t.Fatal("the manifest names no CSV file of club Belovo")
	}
	if err := os.WriteFile(man, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), Options{Out: out, Site: site, Archive: ratelist.Demo(), Workers: 2}); err != nil {
		t.Fatalf("Build over the site: %v", err)
	}
	sameSite(t, site, full)
}

// TestTopListsGirls: with sex, federation and birth dates in the players
// table, the site's girls' and federations' lists are the ones `ratelist
// top` prints, and hold girls and the federation's players only.
func TestTopListsGirls(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"games.csv", "tables.csv", "tournaments.csv"} {
		b, err := os.ReadFile(filepath.Join("../testdata/demo", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile("../testdata/demo/players.csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	recs[0] = append(recs[0], "federation", "sex", "birth_date")
	for i, r := range recs[1:] {
		date := ""
		if r[2] != "" {
			date = r[2] + "-01-01" // born on 1 January: a year older on the lists
		}
		recs[i+1] = append(r, []string{"ISL", "NOR", "ISL"}[i%3], []string{"w", "m"}[i%2], date)
	}
	var sb strings.Builder
	w := csv.NewWriter(&sb)
	w.WriteAll(recs)
	if err := os.WriteFile(filepath.Join(dir, "players.csv"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rules, err := pipeline.ParseRules("rules.toml", ratelist.DemoRules())
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	arch := os.DirFS(dir)
	if _, err := pipeline.Run(context.Background(), pipeline.Options{Archive: arch, Out: out, Rules: rules, Workers: 2,
		Now: time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(t.TempDir(), "site")
	if _, err := Build(context.Background(), Options{Out: out, Site: site, Archive: arch, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	periods, err := officer.Periods(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range []string{"women", "girls", "girls-u14"} {
		got := siteTop(t, filepath.Join(site, csvName(topFile(list))), list)
		want := officerTop(t, arch, out, periods, list, toplist.Filter{}, 100)
		if len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the site's\n%v\nis not ratelist top's\n%v", list, got, want)
		}
	}
	fed := csvName(groupFile("fed", "ISL"))
	b, err = os.ReadFile(filepath.Join(site, fed))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%s: %v, %d rows", fed, err, len(rows))
	}
	for _, r := range rows[1:] {
		// list,rank,rank_before,player_id,name,rating,change,title,sex,federation,club,birth_year
		if r[9] != "ISL" || strings.HasPrefix(r[0], "girls") && r[8] != "w" {
			t.Errorf("%s: row %v", fed, r)
		}
	}
	if got, want := siteTop(t, filepath.Join(site, fed), "girls-u14"), officerTop(t, arch, out, periods, "girls-u14", toplist.Filter{Federation: "ISL"}, 10); !reflect.DeepEqual(got, want) {
		t.Errorf("ISL girls U14: the site's\n%v\nis not ratelist top's\n%v", got, want)
	}
}
