package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/testutil"
)

// TestRejectsStaySmall: a cell of a million digits makes a reject of a few
// kilobytes: its reason (to 200 bytes) and its values (to 4 KB) are cut to an
// excerpt ending in "…", in rejects.csv and in the examples validate prints.
func TestRejectsStaySmall(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	huge := strings.Repeat("7", 1_000_000)
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers,
		"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Spring Open,2025-03-01,2025-03-03,swiss,3,chess,true,
`,
		"games.csv": "tournament_id,round,white_id,black_id,white_result,black_result\n" +
			"10,1,1,2,1,0\n10," + huge + ",3,4,=,=\n",
	})
	sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out})
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(out, "rejects.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 5000 {
		t.Errorf("rejects.csv is %d bytes for one reject", st.Size())
	}
	got := readRejects(t, out)
	if len(got) != 1 {
		t.Fatalf("rejects %v, want one", got)
	}
	for i, limit := range []int{excerptBytes, valuesBytes} {
		cell := got[0][2+i]
		if len(cell) > limit+len("…") || !strings.Contains(cell, "…") {
			t.Errorf("reject cell of %d bytes, want an excerpt of at most %d ending in …: %.60q", len(cell), limit, cell)
		}
	}
	for _, k := range sum.RejectKinds {
		for _, e := range k.Examples {
			if len(e) > 300 {
				t.Errorf("example of %d bytes", len(e))
			}
		}
	}
}

// TestExcerpt: short valid text is kept; long text is cut on a character
// boundary; invalid bytes become U+FFFD.
func TestExcerpt(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	for _, c := range []struct{ in, want string }{
		{"round: malformed integer", "round: malformed integer"},
		{long, strings.Repeat("é", 100) + "…"},
		{"x" + long, "x" + strings.Repeat("é", 99) + "…"},
		{"M\xfcller", "M\uFFFDller"},
	} {
		if got := archive.Cut(c.in, excerptBytes); got != c.want {
			t.Errorf("Cut(%.20q…) = %.40q…, want %.40q…", c.in, got, c.want)
		}
	}
}

// TestCSVTextCells: names that a spreadsheet would run as formulas are
// written with a leading single quote in the lists and the standings, and a
// rejected row's bytes that are not UTF-8 are written as U+FFFD in
// rejects.csv; every cell of these files is UTF-8, and a negative change
// stays a number.
func TestCSVTextCells(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": `player_id,name,birth_year,category,fide_rating,club
1,"=HYPERLINK(""http://x"",""y"")",2010,1,,A
2,+Bob,2011,2,,A
3,-Carl,2012,3,,B
4,@Dan,2012,4,,B
-5,"-Eve` + "\xff" + `",2012,4,,B
`,
		"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Spring Open,2025-03-01,2025-03-03,round-robin,9,chess,true,
11,April Open,2025-04-01,2025-04-03,round-robin,9,chess,true,
`,
		"games.csv": "tournament_id,round,white_id,black_id,white_result,black_result\n" +
			quadrupleRoundRobin(10, 9) + quadrupleRoundRobin(11, 9),
	})
	if _, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out}); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{`'=HYPERLINK("http://x","y")`: true, "'+Bob": true, "'-Carl": true, "'@Dan": true}
	files, _ := filepath.Glob(filepath.Join(out, "lists", "*.csv"))
	standings, _ := filepath.Glob(filepath.Join(out, "standings", "*.csv"))
	if len(files) == 0 || len(standings) == 0 {
		t.Fatalf("lists %v, standings %v", files, standings)
	}
	negative := false
	for _, f := range append(files, standings...) {
		recs := testutil.ReadCSV(t, f)
		col := -1
		for i, h := range recs[0] {
			if h == "name" {
				col = i
			}
		}
		seen, change := 0, slices.Index(recs[0], "change")
		for _, r := range recs[1:] {
			if change >= 0 && r[change] != "" {
				if _, err := strconv.Atoi(r[change]); err != nil {
					t.Errorf("%s: change %q is not a number", filepath.Base(f), r[change])
				}
				negative = negative || strings.HasPrefix(r[change], "-")
			}
			if !want[r[col]] {
				t.Errorf("%s: name %q, want one of the escaped names", filepath.Base(f), r[col])
			}
			seen++
			for _, c := range r {
				if !utf8.ValidString(c) {
					t.Errorf("%s: cell %q is not UTF-8", filepath.Base(f), c)
				}
			}
		}
		if seen == 0 {
			t.Errorf("%s: no rows", f)
		}
	}
	if !negative {
		t.Error("no negative change in the lists: the number cells are not checked")
	}
	found := false
	for _, r := range readRejects(t, out) {
		if r[0] == "players.csv" && r[1] == "5" {
			found = strings.Contains(r[3], "name=-Eve\uFFFD;")
		}
	}
	if !found {
		t.Errorf("rejects.csv has no player row 5 (-5) with its name's invalid byte as U+FFFD")
	}
	raw, _ := os.ReadFile(filepath.Join(out, "rejects.csv"))
	if !utf8.Valid(raw) {
		t.Errorf("rejects.csv is not UTF-8")
	}
}

// quadrupleRoundRobin returns games rows of tournament id in which players
// 1–4 meet in rounds 1..n, three pairings over and over, White winning: every
// player gets the games to be listed.
func quadrupleRoundRobin(id, n int) string {
	pairs := [3][2][2]int{{{1, 2}, {3, 4}}, {{1, 3}, {2, 4}}, {{1, 4}, {2, 3}}}
	var sb strings.Builder
	for r := 1; r <= n; r++ {
		for _, p := range pairs[(r-1)%3] {
			fmt.Fprintf(&sb, "%d,%d,%d,%d,1,0\n", id, r, p[0], p[1])
		}
	}
	return sb.String()
}
