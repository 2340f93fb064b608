package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
)

// buildTeams imports the team competitions of testdata/teams (the league is
// tournament 1), runs and builds the site; it returns the archive, the run's
// output folder and the site.
func buildTeams(t *testing.T) (dir, out, site string) {
	t.Helper()
	ctx := context.Background()
	dir = t.TempDir()
	a, err := importer.Open(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"../testdata/teams/armstrong_2011.trf", "../testdata/teams/friendship_cup_2024.trf"}
	if _, err := importer.ImportTRF(ctx, a, files, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	out = t.TempDir()
	if _, err := pipeline.Run(ctx, pipeline.Options{Archive: os.DirFS(dir), Out: out, Period: day.Year, AllowGap: true}); err != nil {
		t.Fatal(err)
	}
	site = filepath.Join(t.TempDir(), "site")
	if _, err := Build(ctx, Options{Out: out, Site: site, Archive: os.DirFS(dir)}); err != nil {
		t.Fatal(err)
	}
	return dir, out, site
}

// TestTeamPages: a team competition's page shows the run's team standings
// with their codes, in their order, and every match board by board; the
// tournament's page links it, and a player's page lists their boards. A
// second build over the site keeps every page.
func TestTeamPages(t *testing.T) {
	dir, out, site := buildTeams(t)
	b, err := os.ReadFile(filepath.Join(site, "tournaments", "1-teams.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if _, err := html.Parse(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(output.StandingsTeamCSV.Path(out, "1"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(src)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range recs[0][5:] {
		if !strings.Contains(page, `<th scope="col">`+c+`</th>`) {
			t.Errorf("no column %s", c)
		}
	}
	at := 0
	for _, r := range recs[1:] {
		row := "<tr><td>" + r[0] + "</td><td>" + r[1] + `</td><th scope="row">` + html.EscapeString(r[2]) + "</th><td>" + strings.Join(r[3:], "</td><td>") + "</td></tr>"
		i := strings.Index(page[at:], row)
		if i < 0 {
			t.Fatalf("team standings row %v missing or out of order", r)
		}
		at += i
	}
	// Twelve teams, eleven rounds: 66 matches of eight boards.
	if n := strings.Count(page, "<h3 id=\"round-"); n != 11 {
		t.Errorf("%d rounds, want 11", n)
	}
	if n := strings.Count(page, "<caption>Round "); n != 66 {
		t.Errorf("%d matches, want 66", n)
	}
	for _, want := range []string{
		"<caption>Round 1: Bray / Greystones 2 – 6 Phibsboro</caption>",
		`<tr><td>1</td><td>White</td><td><a href="../players/47.html">Bennett, Eric</a></td><td>0–1</td><td><a href="../players/145.html">Salter, David</a></td></tr>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("team page lacks %s", want)
		}
	}
	tour, err := os.ReadFile(filepath.Join(site, "tournaments", "1.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tour), `<a href="../tournaments/1-teams.html">`) {
		t.Error("the tournament's page does not link its team page")
	}
	player, err := os.ReadFile(filepath.Join(site, "players", "47.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(player), `<tr><td><a href="../tournaments/1-teams.html">`); n != 11 {
		t.Errorf("player 47 has %d board results, want 11 (every round on board 1)", n)
	}
	st, err := Build(context.Background(), Options{Out: out, Site: site, Archive: os.DirFS(dir)})
	if err != nil {
		t.Fatal(err)
	}
	if st.Written != 0 {
		t.Errorf("a second build wrote %d files", st.Written)
	}
	// The team page and the boards come from the files the report reads.
	only, kinds := copyReportFiles(t, out)
	if !kinds[output.StandingsTeamCSV] {
		t.Fatal("no team standings among the files the report reads")
	}
	again := filepath.Join(t.TempDir(), "site")
	if _, err := Build(context.Background(), Options{Out: only, Site: again, Archive: os.DirFS(dir)}); err != nil {
		t.Fatal(err)
	}
	sameSite(t, site, again)
}

// TestValidTeamHTML validates a team page and a player's page with board
// results with html-validate.
func TestValidTeamHTML(t *testing.T) {
	bin := htmlValidate(t)
	_, _, site := buildTeams(t)
	validatePages(t, bin, site, []string{filepath.Join("tournaments", "1-teams.html"), filepath.Join("players", "47.html")})
}

// TestTeamCodesHelp: the help page explains every team code docs/teams.md
// defines, each under its own id, and the team page links that section; every
// code of the team standings has its entry.
func TestTeamCodesHelp(t *testing.T) {
	_, out, site := buildTeams(t)
	help := readString(t, filepath.Join(site, "help.html"))
	doc := readString(t, "../docs/teams.md")
	_, table, _ := strings.Cut(doc, "## The codes")
	n := 0
	for _, line := range strings.Split(table, "\n") {
		code, ok := strings.CutPrefix(line, "| `")
		if !ok {
			continue
		}
		code, _, _ = strings.Cut(code, "`")
		if _, err := tiebreak.ParseTeamCode(code); err != nil {
			t.Errorf("docs/teams.md code %s: %v", code, err)
		}
		if !strings.Contains(help, `<dt id="team-`+code+`">`+code+`</dt>`) {
			t.Errorf("help page lacks team code %s", code)
		}
		n++
	}
	if n < 17 {
		t.Errorf("read %d team codes from docs/teams.md, want 17 or more", n)
	}
	page := readString(t, filepath.Join(site, "tournaments", "1-teams.html"))
	if !strings.Contains(page, `<a href="../help.html#team-tiebreaks">`) || !strings.Contains(help, `<h2 id="team-tiebreaks">`) {
		t.Error("the team page does not link the help's team codes")
	}
	src := readString(t, output.StandingsTeamCSV.Path(out, "1"))
	head, _, _ := strings.Cut(src, "\n")
	for _, c := range strings.Split(head, ",")[5:] {
		base := strings.FieldsFunc(c, func(r rune) bool { return r == ':' || r == '/' })[0]
		if !strings.Contains(help, `id="team-`+base+`"`) {
			t.Errorf("team standings code %s: no help entry %s", c, base)
		}
	}
}
