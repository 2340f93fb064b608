package pipeline_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/oracle/refelo"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/pipeline"
)

// TestCrossCheckSchoolElo rates synthetic archives with the product and with the
// independent reference implementation (internal/oracle/refelo, written from
// the rules alone) and compares every monthly list byte for byte.
func TestCrossCheckSchoolElo(t *testing.T) {
	cases := []struct {
		seed    uint64
		players int
		games   int64
		months  int
		stage   int  // 0 = the default rules (automatic switch)
		mangle  bool // blank defaults and rarer result codes, see mangle
	}{
		{seed: 1, players: 120, games: 6000, months: 6},
		{seed: 2, players: 250, games: 12000, months: 10},
		{seed: 3, players: 400, games: 20000, months: 14},
		{seed: 4, players: 160, games: 3000, months: 8},
		{seed: 5, players: 300, games: 15000, months: 12},
		{seed: 6, players: 200, games: 9000, months: 9, stage: 1},
		{seed: 7, players: 200, games: 9000, months: 9, stage: 2},
		{seed: 8, players: 220, games: 10000, months: 7, mangle: true},
	}
	for _, c := range cases {
		if testing.Short() && c.games > 12000 {
			continue // -short: seeds 1, 2 and 4 check the default rules on smaller archives
		}
		t.Run(fmt.Sprintf("seed%d_stage%d", c.seed, c.stage), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := t.TempDir()
			err := generate.Archive(ctx, generate.Options{
				Players: c.players, Games: c.games, Months: c.months, Seed: c.seed,
				Dir: dir, CSV: true, Scrabble: 0.05, Unrated: 0.1,
			})
			if err != nil {
				t.Fatal(err)
			}
			if c.mangle {
				mangle(t, dir)
			}
			var rules pipeline.Rules
			if c.stage == 0 {
				rules, err = pipeline.DefaultRules("school")
			} else {
				rules, err = pipeline.ParseRules("stage.toml", fmt.Appendf(nil, "base = \"school\"\n[school]\nstage = %d\n", c.stage))
			}
			if err != nil {
				t.Fatal(err)
			}
			out, sum := rateAll(t, dir, rules)
			want, err := refelo.Lists(dir, c.stage)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("product stage %d", sum.RuleSetField("stage"))
			compareLists(t, out, want)
		})
	}
}

// rateAll rates the archive in dir into a new folder and returns it; a
// rejected row fails the test, as these archives hold only valid rows.
// afterAll is a run date after every tournament of the cross-checks: the
// references list every period, none of them still open.
var afterAll = time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)

func rateAll(t *testing.T, dir string, rules pipeline.Rules) (string, *pipeline.Summary) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	sum, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(dir), Out: out, Rules: rules, Workers: 2, Now: afterAll})
	if err == nil && sum.RowsRejected > 0 {
		rej, _ := os.ReadFile(filepath.Join(out, "rejects.csv"))
		t.Fatalf("product rejected %d rows:\n%s", sum.RowsRejected, firstLines(rej, 10))
	}
	if err != nil {
		t.Fatal(err)
	}
	return out, sum
}

// firstDiff describes the first differing line of two CSV files with two lines
// of context, or returns "" when they are equal.
func firstDiff(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	g := strings.Split(string(got), "\n")
	w := strings.Split(string(want), "\n")
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	var b strings.Builder
	for j := max(0, i-2); j < i; j++ {
		fmt.Fprintf(&b, "    line %d both:  %s\n", j+1, g[j])
	}
	line := func(s []string) string {
		if i < len(s) {
			return s[i]
		}
		return "(end of file)"
	}
	fmt.Fprintf(&b, "  > line %d product:   %s\n", i+1, line(g))
	fmt.Fprintf(&b, "  > line %d reference: %s\n", i+1, line(w))
	for j := i + 1; j < i+3; j++ {
		if j < len(g) {
			fmt.Fprintf(&b, "    line %d product:   %s\n", j+1, g[j])
		}
		if j < len(w) {
			fmt.Fprintf(&b, "    line %d reference: %s\n", j+1, w[j])
		}
	}
	fmt.Fprintf(&b, "  (%d lines product, %d reference)", len(g)-1, len(w)-1)
	return b.String()
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// mangle rewrites a generated CSV archive into an equivalent one that uses the
// defaults and rarer codes of the archive (docs/archive.md): an empty discipline (chess) and
// empty rated (true) on some tournaments, `½` for `=`, and unrated played games
// (`W`/`D`/`L`) instead of some over-the-board results.
func mangle(t *testing.T, dir string) {
	t.Helper()
	rewrite := func(name string, f func(i int, col map[string]int, r []string)) {
		rewriteCSV(t, filepath.Join(dir, name), f)
	}
	rewrite("tournaments.csv", func(i int, col map[string]int, r []string) {
		if r[col["discipline"]] == "chess" && i%4 == 0 {
			r[col["discipline"]] = ""
		}
		if r[col["rated"]] == "true" && i%3 == 0 {
			r[col["rated"]] = ""
		}
	})
	rewrite("games.csv", func(i int, col map[string]int, r []string) {
		w, b := &r[col["white_result"]], &r[col["black_result"]]
		switch {
		case *w == "=" && i%19 == 0:
			*w, *b = "D", "D"
		case *w == "=" && i%3 == 0:
			*w, *b = "½", "½"
		case *w == "1" && *b == "0" && i%17 == 0:
			*w, *b = "W", "L"
		case *w == "0" && *b == "1" && i%17 == 0:
			*w, *b = "L", "W"
		}
	})
}

// rewriteCSV rewrites a CSV file row by row: f gets each data row's index, the
// column of each header name and the row to change in place.
func rewriteCSV(t *testing.T, path string, f func(i int, col map[string]int, r []string)) {
	t.Helper()
	recs := testutil.ReadCSV(t, path)
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, r := range recs[1:] {
		f(i, col, r)
	}
	var b bytes.Buffer
	if err := csv.NewWriter(&b).WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCrossCheckEdgeCases compares the product with the reference on a
// hand-built archive aimed at the corners the generator rarely reaches: the Elo
// floor, a stage-one newcomer with fewer than 4 games, a newcomer whose only
// row is a forfeit, two tournaments ending the same day, an empty month, the
// switch to stage two after a 30-round tournament of 102 players, and
// stage-two newcomers scoring 0, exactly 50%, 37.5% (p rounded half up), with
// only 3 games, with a category, and against each other.
func TestCrossCheckEdgeCases(t *testing.T) {
	crossCheckEdge(t, "forfeit")
}

// TestCrossCheckByeOnlyNewcomer is the same archive with player 204's only
// stage-one row a half-point bye. Decided reading (docs/school-elo.md §9): taking
// part in a rated tournament, even with byes only, is "playing" it, so the
// stage-one initial rating is assigned (docs/school-elo.md §5: "whatever the number of
// games").
func TestCrossCheckByeOnlyNewcomer(t *testing.T) {
	crossCheckEdge(t, "bye")
}

func crossCheckEdge(t *testing.T, first204 string) {
	dir := t.TempDir()
	var players, tours, games strings.Builder
	players.WriteString("player_id,name,birth_year,category,fide_rating,club\n")
	for i := 1; i <= 102; i++ {
		fmt.Fprintf(&players, "%d,\"P%03d, x\",2012,4,,\n", i, i)
	}
	players.WriteString("201,Elo,2010,2,1900,\n202,Three,2010,3,,\n203,NoCat,2010,,,\n204,ByeOnly,2010,1,,\n")
	players.WriteString("301,Zero,2014,,,\n302,Half,2014,,,\n303,Few,2014,,,\n304,Cat,2014,1,,\n305,NewA,2014,,,\n306,NewB,2014,,,\n")
	tours.WriteString("tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n")
	type g struct {
		w, b   int
		wr, br string
	}
	add := func(id int, name, start, end string, gs []g) {
		for i, x := range gs {
			if x.b == 0 {
				fmt.Fprintf(&games, "%d,%d,%d,,%s,,,\n", id, i+1, x.w, x.wr)
			} else {
				fmt.Fprintf(&games, "%d,%d,%d,%d,%s,%s,,\n", id, i+1, x.w, x.b, x.wr, x.br)
			}
		}
		fmt.Fprintf(&tours, "%d,%s,%s,%s,swiss,%d,chess,true,\n", id, name, start, end, len(gs))
	}
	win := func(w, b int) g { return g{w, b, "1", "0"} }
	draw := func(w, b int) g { return g{w, b, "=", "="} }
	games.WriteString("tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points\n")
	// January, stage one.
	var t1 []g
	for i := 1; i <= 6; i++ {
		t1 = append(t1, win(201, i))
	}
	t1 = append(t1, win(1, 202), draw(202, 2), win(202, 3))
	t1 = append(t1, win(203, 4), win(5, 203), draw(203, 6), win(201, 203))
	if first204 == "bye" {
		t1 = append(t1, g{204, 0, "H", ""}, g{7, 8, "+", "-"})
	} else {
		t1 = append(t1, g{204, 7, "+", "-"})
	}
	add(11, "T1", "2024-01-08", "2024-01-12", t1)
	// Same end date: T3 (started earlier, higher id) is rated before T2.
	add(12, "T2", "2024-01-18", "2024-01-20", []g{win(1, 2), win(1, 9), draw(10, 1), win(11, 1), win(2, 12)})
	add(13, "T3", "2024-01-15", "2024-01-20", []g{win(2, 1), win(2, 13), win(14, 2), draw(1, 15), win(1, 16), win(17, 1)})
	// February: nothing. March: 102 players, 30 rounds (circle method).
	var t4 []g
	slots := make([]int, 102)
	for i := range slots {
		slots[i] = i + 1
	}
	for r := 0; r < 30; r++ {
		for i := 0; i < 51; i++ {
			a, b := slots[i], slots[101-i]
			if (r+i)%2 == 1 {
				a, b = b, a
			}
			switch {
			case (a+b+r)%5 == 0:
				t4 = append(t4, draw(a, b))
			case (a*b+r)%2 == 0:
				t4 = append(t4, win(min(a, b), max(a, b)))
			default:
				t4 = append(t4, win(max(a, b), min(a, b)))
			}
		}
		last := slots[101]
		copy(slots[2:], slots[1:101])
		slots[1] = last
	}
	// Rounds of 51 boards each: renumber.
	for i, x := range t4 {
		fmt.Fprintf(&games, "14,%d,%d,%d,%s,%s,,\n", i/51+1, x.w, x.b, x.wr, x.br)
	}
	fmt.Fprintf(&tours, "14,T4,2024-03-01,2024-03-10,round-robin,30,chess,true,\n")
	// April, stage two.
	var t5 []g
	for i := 1; i <= 5; i++ {
		t5 = append(t5, win(i, 301))
	}
	t5 = append(t5, win(302, 6), win(302, 7), win(8, 302), win(9, 302))
	t5 = append(t5, win(303, 10), win(303, 11), win(303, 12))
	t5 = append(t5, win(304, 13), win(304, 14), win(304, 15), win(304, 16), draw(304, 17))
	t5 = append(t5, win(305, 18), draw(305, 19), win(20, 305), win(21, 305), win(305, 306))
	t5 = append(t5, win(306, 22), win(306, 23), win(306, 24), win(25, 306))
	t5 = append(t5, win(204, 26), win(204, 27), draw(28, 204), win(29, 204))
	t5 = append(t5, win(203, 30), win(31, 203), win(32, 203), win(33, 203))
	add(15, "T5", "2024-04-02", "2024-04-05", t5)
	// May: the April newcomers play on.
	add(16, "T6", "2024-05-02", "2024-05-05", []g{
		win(302, 305), draw(306, 302), win(34, 302), win(302, 35), win(304, 36), win(37, 304), draw(304, 38), win(304, 39),
	})
	testutil.WriteFiles(t, dir, map[string]string{"players.csv": players.String(), "tournaments.csv": tours.String(), "games.csv": games.String()})
	rules, err := pipeline.DefaultRules("school")
	if err != nil {
		t.Fatal(err)
	}
	out, sum := rateAll(t, dir, rules)
	want, err := refelo.Lists(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 5 {
		t.Errorf("reference has %d lists, want 5 (January to May)", len(want))
	}
	if sum.RuleSetField("stage") != 2 {
		t.Errorf("product ends in stage %d, want 2", sum.RuleSetField("stage"))
	}
	compareLists(t, out, want)
}
