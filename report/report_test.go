package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	stdhtml "html"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/internal/golden"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/rating"
)

var demoFixture, siteFixture testutil.Fixture

// demoRun rates the embedded demo archive once per test binary and returns
// the output folder.
func demoRun(t *testing.T) string {
	t.Helper()
	return demoFixture.Dir(t, "ratelist-report-test-", func(dir string) error {
		rules, err := pipeline.ParseRules("demo rules.toml", ratelist.DemoRules())
		if err != nil {
			return err
		}
		_, err = pipeline.Run(context.Background(), pipeline.Options{
			Archive: ratelist.Demo(), ArchiveName: "(embedded demo)", Out: dir, Rules: rules, RulesName: "demo rules.toml",
		})
		return err
	})
}

// demoSite is the demo run's report, built once per test binary (default
// workers) for the tests that only read it; a test that changes a site builds
// its own (buildDemo).
func demoSite(t *testing.T) string {
	t.Helper()
	out := demoRun(t)
	dir := siteFixture.Dir(t, "ratelist-report-site-", func(dir string) error {
		st, err := Build(context.Background(), Options{Out: out, Site: filepath.Join(dir, "site"), Archive: ratelist.Demo()})
		if err == nil && (st.Players == 0 || st.Tournaments == 0 || st.Lists == 0) {
			err = fmt.Errorf("Build wrote %+v", st)
		}
		return err
	})
	return filepath.Join(dir, "site")
}

func TestMain(m *testing.M) {
	code := m.Run()
	demoFixture.Remove()
	siteFixture.Remove()
	os.Exit(code)
}

// buildDemo writes the demo report into a fresh folder and returns it.
func buildDemo(t *testing.T, workers int) string {
	t.Helper()
	out := demoRun(t)
	site := filepath.Join(t.TempDir(), "site")
	st, err := Build(context.Background(), Options{Out: out, Site: site, Archive: ratelist.Demo(), Workers: workers})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if st.Players == 0 || st.Tournaments == 0 || st.Lists == 0 {
		t.Fatalf("Build wrote %+v", st)
	}
	return site
}

// TestDemoSite checks the structure of the demo archive's site: a page for
// every listed player and every tournament, valid SVG charts with one marker
// per rated tournament, and links that all resolve inside the site.
func TestDemoSite(t *testing.T) {
	out := demoRun(t)
	site := demoSite(t)

	// Every player of every list (rating and Joker) has a page.
	lists, _ := filepath.Glob(filepath.Join(out, "lists", "*.csv"))
	jlists, _ := filepath.Glob(filepath.Join(out, "lists", "joker", "*.csv"))
	if len(lists) == 0 || len(jlists) == 0 {
		t.Fatalf("demo run has %d rating lists and %d Joker lists", len(lists), len(jlists))
	}
	listed := 0
	for _, l := range append(lists, jlists...) {
		pos, recs, err := csvTable(l, "player_id")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			listed++
			if p := filepath.Join(site, "players", field(r, pos[0])+".html"); !exists(p) {
				t.Errorf("%s: player %s has no page", filepath.Base(l), field(r, pos[0]))
			}
		}
		period := strings.TrimSuffix(filepath.Base(l), ".csv")
		page := "list-" + period + ".html"
		if filepath.Base(filepath.Dir(l)) == "joker" {
			page = "joker-" + period + ".html"
		} else if l == lists[len(lists)-1] {
			page = "index.html"
		}
		if !exists(filepath.Join(site, page)) {
			t.Errorf("list %s has no page %s", l, page)
		}
	}
	// Every tournament with standings has a tournament page.
	allStandings, err := readAllStandings(out)
	if err != nil || len(allStandings) == 0 {
		t.Fatalf("standings of the demo run: %d tournaments, %v", len(allStandings), err)
	}
	for id := range allStandings {
		if !exists(filepath.Join(site, "tournaments", strconv.FormatInt(id, 10)+".html")) {
			t.Errorf("no page for the standings of tournament %d", id)
		}
	}

	// Chart points expected per player: one per card with a date and a
	// rating after it.
	cs, err := readCards(filepath.Join(out, "cards.parquet"), filepath.Join(out, "card_games.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	wantPoints := map[string]int{}
	wantCards := map[string]int{}
	for _, c := range cs.cards {
		f := fmt.Sprintf("players/%d.html", c.PlayerID)
		wantCards[f]++
		if c.RatingAfter != none && c.EndDate != 0 {
			wantPoints[f]++
		}
	}
	jd := rating.TablesOf("joker")
	jcards := map[int64][]tableCard{}
	if err := readTableCards(filepath.Join(out, "joker_cards.parquet"), &jd.Site, jcards); err != nil {
		t.Fatal(err)
	}
	wantJoker := map[string]int{}
	for id, cs := range jcards {
		wantJoker[fmt.Sprintf("players/%d.html", id)] = len(cs)
	}

	files := golden.ListFiles(t, site)
	have := map[string]bool{}
	for _, f := range files {
		have[f] = true
	}
	var pages, charts, links int
	for _, f := range files {
		if !strings.HasSuffix(f, ".html") {
			continue
		}
		pages++
		b, err := os.ReadFile(filepath.Join(site, f))
		if err != nil {
			t.Fatal(err)
		}
		html := string(b)
		svgs := svgBlocks(html)
		charts += len(svgs)
		for i, svg := range svgs {
			if err := checkXML(svg); err != nil {
				t.Errorf("%s: chart %d is not valid SVG: %v", f, i, err)
			}
			if !strings.Contains(svg, "<title>") || !strings.Contains(svg, `role="img"`) {
				t.Errorf("%s: chart %d has no <title> or role", f, i)
			}
		}
		switch {
		case strings.HasPrefix(f, "players/"):
			rows := cardRows(html)
			if len(rows) != wantCards[f] {
				t.Errorf("%s: %d card rows, want %d", f, len(rows), wantCards[f])
			}
			pts := 0
			for _, r := range rows {
				if len(r) != 13 {
					t.Errorf("%s: card row with %d cells, want 13", f, len(r))
					continue
				}
				if r[0] != "" && r[11] != "" {
					pts++
				}
			}
			if pts != wantPoints[f] {
				t.Errorf("%s: %d chart points in the card, want %d", f, pts, wantPoints[f])
			}
			if pts < minChartPoints {
				pts = 0 // no chart
			}
			if got := chartPoints(html, "<h2>Rating history</h2>"); got != pts {
				t.Errorf("%s: rating chart has %d points, the card %d", f, got, pts)
			}
			if n := len(html) - cardBytes(html); n > 10<<10 {
				t.Errorf("%s: %d bytes besides the card, want at most 10 KB", f, n)
			}
			if got := jokerPoints(html); got != wantJoker[f] {
				t.Errorf("%s: Joker chart has %d points, want %d", f, got, wantJoker[f])
			}
		case strings.HasPrefix(f, "tournaments/"):
			id := strings.TrimSuffix(path.Base(f), ".html")
			rows := 0
			tid, _ := strconv.ParseInt(id, 10, 64)
			if st := allStandings[tid]; st != nil {
				rows = len(st.Rows)
			}
			checkTourTable(t, f, html, rows)
		case f == "index.html" || strings.HasPrefix(f, "list-"):
			if len(svgs) != 1 {
				t.Errorf("%s: %d charts, want the histogram", f, len(svgs))
				break
			}
			period := strings.TrimSuffix(strings.TrimPrefix(f, "list-"), ".html")
			if f == "index.html" {
				period = strings.TrimSuffix(filepath.Base(lists[len(lists)-1]), ".csv")
			}
			rows, err := readList(filepath.Join(out, "lists", period+".csv"))
			if err != nil {
				t.Fatal(err)
			}
			bins := map[int]bool{}
			for _, r := range rows {
				bins[floorDiv(r.Rating, 50)] = true
			}
			if got := strings.Count(svgs[0], BarFill+`"`); got != len(bins) {
				t.Errorf("%s: histogram has %d bars, want %d", f, got, len(bins))
			}
		}
		// Every internal link and script resolves to a file of the site.
		for _, m := range linkRE.FindAllStringSubmatch(html, -1) {
			ref := m[2]
			if strings.Contains(ref, "://") || strings.HasPrefix(ref, "//") {
				t.Errorf("%s: external reference %q (the site must work offline)", f, ref)
				continue
			}
			if strings.HasPrefix(ref, "#") {
				continue
			}
			ref, _, _ = strings.Cut(ref, "#")
			target := path.Clean(path.Join(path.Dir(f), ref))
			if !have[target] {
				t.Errorf("%s: link %q resolves to %s, which is not in the site", f, m[2], target)
			}
			links++
		}
	}
	t.Logf("%d files, %d pages, %d charts, %d links checked, %d list rows", len(files), pages, charts, links, listed)
	if charts == 0 || links == 0 {
		t.Fatal("no charts or no links found")
	}
}

var linkRE = regexp.MustCompile(`(href|src)="([^"]*)"`)

// cardBytes is the size of a page's rating card table.
func cardBytes(html string) int {
	i := strings.Index(html, `id=card>`)
	if i < 0 {
		return 0
	}
	return strings.Index(html[i:], "</table>")
}

// jokerPoints returns the number of points of a page's Joker chart.
func jokerPoints(html string) int { return chartPoints(html, `<h2 id="joker-h">`) }

// chartPoints returns the number of points of the first line chart after
// the text at.
func chartPoints(html, at string) int {
	i := strings.Index(html, at)
	if i < 0 {
		return 0
	}
	m := regexp.MustCompile(`<path class="line" d="M([^"]*)"`).FindStringSubmatch(html[i:])
	if m == nil {
		return 0
	}
	return len(strings.Fields(m[1])) / 2
}

// cardRows returns the rows of a page's rating card table, as text.
func cardRows(html string) [][]string { return tableRows(html, "card") }

var (
	tagRE  = regexp.MustCompile(`<[^>]*>`)
	cellRE = regexp.MustCompile(`<t[dh][ >]`)
)

// tableRows returns the body rows of the table with the given id, each
// cell as its text: the pages' tables are written without end tags of cells
// and rows, so a cell runs to the next one.
func tableRows(html, id string) [][]string {
	loc := regexp.MustCompile(`<table class=(?:"[^"]*"|[^ >]*) id="?` + id + `"?>`).FindStringIndex(html)
	if loc == nil {
		return nil
	}
	i := loc[0]
	body := html[i:]
	body = body[strings.Index(body, "<tbody>")+len("<tbody>") : strings.Index(body, "</table>")]
	var rows [][]string
	for _, tr := range strings.Split(body, "<tr")[1:] {
		var cells []string
		locs := cellRE.FindAllStringIndex(tr, -1)
		for k, l := range locs {
			end := len(tr)
			if k+1 < len(locs) {
				end = locs[k+1][0]
			}
			cell := tr[l[0]:end]
			cells = append(cells, strings.TrimSpace(stdhtml.UnescapeString(tagRE.ReplaceAllString(cell, ""))))
		}
		rows = append(rows, cells)
	}
	return rows
}

// checkTourTable checks a tournament page's standings table: a row per
// standings row, each as wide as the head, and each round's cell naming
// an opponent by a start number of the table.
func checkTourTable(t *testing.T, f, html string, standingsRows int) {
	t.Helper()
	rows := tableRows(html, "st")
	if standingsRows > 0 && len(rows) != standingsRows {
		t.Errorf("%s: %d standings rows, want %d", f, len(rows), standingsRows)
	}
	head := regexp.MustCompile(`(?s)<table class="list st[^"]*" id=st>.*?<thead>(.*?)</thead>`).FindStringSubmatch(html)
	if head == nil {
		if standingsRows > 0 {
			t.Errorf("%s: no standings table", f)
		}
		return
	}
	ncols := strings.Count(head[1], "<th ")
	start := map[string]bool{}
	for _, r := range rows {
		if len(r) != ncols {
			t.Errorf("%s: row %v has %d cells, the head %d", f, r, len(r), ncols)
			return
		}
		start[r[1]] = true
	}
	cellRE := regexp.MustCompile(`^(\d+)[wb][10½+−]$`)
	for _, r := range rows {
		for _, c := range r {
			if m := cellRE.FindStringSubmatch(c); m != nil && !start[m[1]] {
				t.Errorf("%s: cell %q names start number %s, which no row has", f, c, m[1])
			}
		}
	}
}

// svgBlocks returns the inline <svg>…</svg> elements of a page.
func svgBlocks(html string) []string {
	var out []string
	for {
		i := strings.Index(html, "<svg")
		if i < 0 {
			return out
		}
		j := strings.Index(html[i:], "</svg>")
		if j < 0 {
			return append(out, html[i:])
		}
		out = append(out, html[i:i+j+len("</svg>")])
		html = html[i+j+len("</svg>"):]
	}
}

// checkXML parses s as one XML element with an svg root.
func checkXML(s string) error {
	d := xml.NewDecoder(strings.NewReader(s))
	depth, root := 0, ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = e.Name.Local
			}
			depth++
		case xml.EndElement:
			depth--
		}
	}
	if root != "svg" || depth != 0 {
		return fmt.Errorf("root %q, unclosed depth %d", root, depth)
	}
	return nil
}

// TestDeterministic builds the site twice with different worker counts and
// compares every file byte for byte.
func TestDeterministic(t *testing.T) {
	a, b := buildDemo(t, 1), buildDemo(t, 8)
	fa, fb := golden.ListFiles(t, a), golden.ListFiles(t, b)
	if strings.Join(fa, "\n") != strings.Join(fb, "\n") {
		t.Fatalf("file lists differ: %d vs %d files", len(fa), len(fb))
	}
	for _, f := range fa {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between runs", f)
		}
	}
}

// TestReplaceSite checks that a site is replaced on the next build and that
// a folder that is not a site is left alone.
func TestReplaceSite(t *testing.T) {
	out := demoRun(t)
	dir := t.TempDir()
	site := filepath.Join(dir, "site")
	if _, err := Build(context.Background(), Options{Out: out, Site: site}); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(site, "players", "999999999.html")
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), Options{Out: out, Site: site}); err != nil {
		t.Fatal(err)
	}
	if exists(stale) {
		t.Error("a rebuilt site kept a stale page")
	}
	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "keep.txt"), []byte("mine"), 0o644)
	if _, err := Build(context.Background(), Options{Out: out, Site: other}); err == nil {
		t.Error("Build replaced a folder that is not a site")
	}
	if !exists(filepath.Join(other, "keep.txt")) {
		t.Error("Build removed a file of a folder that is not a site")
	}
	if _, err := Build(context.Background(), Options{Out: dir, Site: filepath.Join(dir, "x")}); !errors.Is(err, ErrNoRun) {
		t.Errorf("Build without a run: err = %v, want ErrNoRun", err)
	}
}

// TestUpdate checks that a build over an earlier site writes only what
// changed: nothing when nothing did, a page that went missing, every page when
// the title changes.
func TestUpdate(t *testing.T) {
	out := demoRun(t)
	site := filepath.Join(t.TempDir(), "site")
	opt := Options{Out: out, Site: site, Archive: ratelist.Demo()}
	first, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if first.Written != first.Files || first.Files == 0 {
		t.Fatalf("first build wrote %d of %d files", first.Written, first.Files)
	}
	again, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Written != 0 || again.Removed != 0 || again.Files != first.Files {
		t.Errorf("unchanged rebuild: %+v, want nothing written or removed", again)
	}
	gone := filepath.Join(site, "players", demoLatest(t).idString()+".html")
	want, _ := os.ReadFile(gone)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	fixed, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(gone); fixed.Written != 1 || !bytes.Equal(got, want) {
		t.Errorf("rebuild after a page went missing wrote %d files, page restored %v", fixed.Written, bytes.Equal(got, want))
	}
	opt.Title = "Another title"
	retitled, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, f := range golden.ListFiles(t, site) {
		if strings.HasSuffix(f, ".html") {
			pages++
		}
	}
	if retitled.Written < pages {
		t.Errorf("retitled rebuild wrote %d files, want at least the %d pages", retitled.Written, pages)
	}
	if err := filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file left: %s", p)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestFidePlayer builds the demo rated under the FIDE rules, whose games are
// rows of card_games.parquet: a player's page shows each tournament once, with
// its games, before the row of the period they were rated in.
func TestFidePlayer(t *testing.T) {
	out := t.TempDir()
	rules, err := pipeline.DefaultRules("fide")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Run(context.Background(), pipeline.Options{Archive: ratelist.Demo(), ArchiveName: "(embedded demo)",
		Out: out, Rules: rules, RulesName: "fide"}); err != nil {
		t.Fatal(err)
	}
	// The card rows are counted before they are read, so that their slice is
	// made once at its size.
	cs, err := readCards(filepath.Join(out, "cards.parquet"), filepath.Join(out, "card_games.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs.cards) != cap(cs.cards) {
		t.Errorf("room for %d card rows, %d read", cap(cs.cards), len(cs.cards))
	}
	site := filepath.Join(out, "site")
	if _, err := Build(context.Background(), Options{Out: out, Site: site, Archive: ratelist.Demo()}); err != nil {
		t.Fatal(err)
	}
	games, players, periods := 0, 0, 0
	for _, f := range golden.ListFiles(t, site) {
		if !strings.HasPrefix(f, "players/") {
			continue
		}
		html := readString(t, filepath.Join(site, f))
		seen := map[string]bool{}
		var n, w float64 // the games and score of the folded rows since the last period's row
		for _, r := range cardRows(html) {
			if r[12] != "fide-game" && r[12] != "fide-pool-game" {
				// A period's games (card_games.parquet) come right before its row
				// and add up to it.
				pn, _ := strconv.ParseFloat(r[3], 64)
				pw, _ := strconv.ParseFloat(r[4], 64)
				if n > 0 {
					periods++
				}
				if n > 0 && (pn != n || pw != w) {
					t.Errorf("%s: %s: %v games, score %v before it; the row says %s games, score %s", f, r[1], n, w, r[3], r[4])
				}
				n, w = 0, 0
				continue
			}
			gn, _ := strconv.ParseFloat(r[3], 64)
			gw, _ := strconv.ParseFloat(r[4], 64)
			n, w = n+gn, w+gw
			games++
			if key := r[0] + " " + r[1]; seen[key] {
				t.Errorf("%s: tournament %s shows twice on the card", f, key)
			} else {
				seen[key] = true
			}
			if r[5] != "" || r[10] != "" {
				t.Errorf("%s: %s: per-game row shows opponents' average %q and change %q, want both empty", f, r[1], r[5], r[10])
			}
		}
		players++
	}
	if games == 0 || periods == 0 {
		t.Fatalf("%d per-game card rows, %d periods' rows after them on %d player pages", games, periods, players)
	}
}

// TestStandingsFromParquet: the standings the report reads from the periods'
// Parquet files are, for every tournament with a CSV file, that file's header
// and records.
func TestStandingsFromParquet(t *testing.T) {
	out := demoRun(t)
	st, err := readAllStandings(out)
	if err != nil {
		t.Fatal(err)
	}
	csvs, _ := filepath.Glob(filepath.Join(out, "standings", "*.csv"))
	if len(csvs) == 0 {
		t.Fatal("no standings CSV in the demo run")
	}
	for _, p := range csvs {
		id, _ := strconv.ParseInt(strings.TrimSuffix(filepath.Base(p), ".csv"), 10, 64)
		recs := testutil.ReadCSV(t, p)
		s := st[id]
		if s == nil {
			t.Errorf("tournament %d: no standings in the Parquet files", id)
			continue
		}
		if !slices.Equal(s.Header, recs[0]) || len(s.Rows) != len(recs)-1 {
			t.Errorf("tournament %d: header %v, %d rows; CSV %v, %d rows", id, s.Header, len(s.Rows), recs[0], len(recs)-1)
			continue
		}
		for i, r := range s.Rows {
			if !slices.Equal(r, recs[i+1]) {
				t.Errorf("tournament %d row %d: %v, CSV %v", id, i+1, r, recs[i+1])
			}
		}
	}
}

// readAllStandings reads every standings file in the output folder out.
func readAllStandings(out string) (map[int64]*standings, error) {
	labels, err := output.StandingsPeriod.Keys(out)
	if err != nil {
		return nil, err
	}
	return readStandings(out, labels, func(int64) bool { return true })
}

// TestIncremental rates the demo up to a period and builds its site, resumes
// the run to the end and builds over that site: the result is byte for byte
// the site a full build of the final outputs gives, and the rebuild kept
// files without making them again. Both rule sets (the demo's alone under -short).
func TestIncremental(t *testing.T) {
	demo, err := pipeline.ParseRules("demo rules.toml", ratelist.DemoRules())
	if err != nil {
		t.Fatal(err)
	}
	fide, err := pipeline.DefaultRules("fide")
	if err != nil {
		t.Fatal(err)
	}
	for name, rules := range map[string]pipeline.Rules{"demo": demo, "fide": fide} {
		if testing.Short() && name == "fide" {
			continue // -short: the demo's rules go through the same incremental build
		}
		t.Run(name, func(t *testing.T) {
			out := t.TempDir()
			run := func(until string, resume bool) {
				t.Helper()
				if _, err := pipeline.Run(context.Background(), pipeline.Options{Archive: ratelist.Demo(), ArchiveName: "(embedded demo)",
					Out: out, Rules: rules, RulesName: name, Until: until, Resume: resume}); err != nil {
					t.Fatal(err)
				}
			}
			site := filepath.Join(t.TempDir(), "site")
			opt := Options{Out: out, Site: site, Archive: ratelist.Demo()}
			run("2025-05", false)
			if _, err := Build(context.Background(), opt); err != nil {
				t.Fatal(err)
			}
			run("", true)
			st, err := Build(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if st.Kept == 0 || st.Written == 0 {
				t.Errorf("rebuild after a resumed run kept %d and wrote %d of %d files, want some of each", st.Kept, st.Written, st.Files)
			}
			// The new tournaments' pairings come from the games read for the
			// keys, not from rating the archive again as in a full build.
			if st.Rerated != 0 {
				t.Errorf("rebuild after a resumed run rated the archive again for %d tournaments, want 0", st.Rerated)
			}
			full := filepath.Join(t.TempDir(), "site")
			fst, err := Build(context.Background(), Options{Out: out, Site: full, Archive: ratelist.Demo()})
			if err != nil {
				t.Fatal(err)
			}
			if fst.Rerated == 0 {
				t.Errorf("a full build rated the archive again for no tournament")
			}
			sameSite(t, site, full)
		})
	}
}

// TestInterruptedUpdate: an update that stopped after it began leaves an
// empty manifest, so the next build writes every file again.
func TestInterruptedUpdate(t *testing.T) {
	out := demoRun(t)
	site := filepath.Join(t.TempDir(), "site")
	opt := Options{Out: out, Site: site, Archive: ratelist.Demo()}
	if _, err := Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	man := make(chan manifest, 1)
	man <- readManifest(site)
	if _, err := openSink(site, true, man); err != nil { // begins an update, never finished
		t.Fatal(err)
	}
	page := filepath.Join(site, "players", demoLatest(t).idString()+".html")
	if err := os.WriteFile(page, []byte("half written"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if st.Kept != 0 || st.Written != st.Files {
		t.Errorf("build after an interrupted update kept %d and wrote %d of %d files, want all written", st.Kept, st.Written, st.Files)
	}
	again, err := Build(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if again.Kept != again.Files-countAssets(t) || again.Written != 0 {
		t.Errorf("build after a finished update: kept %d, wrote %d of %d files", again.Kept, again.Written, again.Files)
	}
	full := filepath.Join(t.TempDir(), "site")
	if _, err := Build(context.Background(), Options{Out: out, Site: full, Archive: ratelist.Demo()}); err != nil {
		t.Fatal(err)
	}
	sameSite(t, site, full)
}

// countAssets is the number of asset files, which are always made.
func countAssets(t *testing.T) int {
	n := 0
	fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	return n
}

// sameSite fails unless the sites a and b hold the same files with the same
// bytes, the manifest included.
func sameSite(t *testing.T, a, b string) {
	t.Helper()
	fa, fb := golden.ListFiles(t, a), golden.ListFiles(t, b)
	if strings.Join(fa, "\n") != strings.Join(fb, "\n") {
		t.Fatalf("file lists differ: %d vs %d files", len(fa), len(fb))
	}
	for _, f := range append(fa, marker) {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs from a full build's", f)
		}
	}
}

// TestReadsTheTablesFiles: the report reads the files of a run that
// output.Files marks as read by it, and no other: from a copy of the demo
// run's outputs that holds only those, it builds the same site.
func TestReadsTheTablesFiles(t *testing.T) {
	only, kinds := copyReportFiles(t, demoRun(t))
	for _, f := range output.Files {
		if f.Report && !kinds[f] && f != output.StandingsTeamCSV { // no team competition in the demo: TestTeamPages
			t.Errorf("the demo run wrote no %s", f.Pattern)
		}
	}
	site := filepath.Join(t.TempDir(), "site")
	if _, err := Build(context.Background(), Options{Out: only, Site: site, Archive: ratelist.Demo()}); err != nil {
		t.Fatal(err)
	}
	sameSite(t, demoSite(t), site)
}

// copyReportFiles copies the files of the run's output folder out that
// output.Files marks as read by the report into a new folder, and returns it
// and their kinds.
func copyReportFiles(t *testing.T, out string) (string, map[*output.File]bool) {
	t.Helper()
	only := t.TempDir()
	kinds := map[*output.File]bool{}
	for _, rel := range golden.ListFiles(t, out) {
		f, _, ok := output.Match(rel)
		if !ok || !f.Report {
			continue
		}
		kinds[f] = true
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(only, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return only, kinds
}
