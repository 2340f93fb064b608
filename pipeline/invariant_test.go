package pipeline

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/internal/generate"
)

// The resume invariant, as a property: over a random archive, after any one
// correction of the archive, `run --resume` over the outputs of an earlier
// run either gives exactly a full run's outputs, or says so (stale periods, a
// published list written again) with a rerun_from at or before the first
// period that differs; `--from` that period, and `--resume --rerate` over the
// earlier outputs, then give exactly a full run's outputs.

// table is one CSV table of an archive: its header and rows.
type table struct {
	header []string
	rows   [][]string
}

func readTable(t testing.TB, path string) *table {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return &table{header: recs[0], rows: recs[1:]}
}

func (tb *table) col(name string) int {
	for i, h := range tb.header {
		if h == name {
			return i
		}
	}
	panic("no column " + name)
}

func (tb *table) write(t testing.TB, path string) {
	t.Helper()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(tb.header)
	w.WriteAll(tb.rows)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mutation is one correction of an archive's tables, named for failures.
type mutation func(r *rand.Rand, tabs map[string]*table) string

var mutations = []mutation{
	func(r *rand.Rand, tabs map[string]*table) string { // a result corrected
		g := tabs["games"]
		i := r.IntN(len(g.rows))
		w, b := g.col("white_result"), g.col("black_result")
		if g.rows[i][g.col("black_id")] == "" {
			g.rows[i][w] = map[string]string{"F": "H", "H": "Z", "U": "F", "Z": "F"}[g.rows[i][w]]
		} else {
			g.rows[i][w], g.rows[i][b] = g.rows[i][b], g.rows[i][w]
			if g.rows[i][w] == g.rows[i][b] {
				g.rows[i][w], g.rows[i][b] = "1", "0"
			}
		}
		return "result of games row " + strconv.Itoa(i+1)
	},
	func(r *rand.Rand, tabs map[string]*table) string { // a game withdrawn
		g := tabs["games"]
		i := r.IntN(len(g.rows))
		g.rows = append(g.rows[:i], g.rows[i+1:]...)
		return "games row " + strconv.Itoa(i+1) + " removed"
	},
	func(r *rand.Rand, tabs map[string]*table) string { // Scrabble points corrected
		g := tabs["games"]
		p := g.col("white_points")
		for range 50 {
			i := r.IntN(len(g.rows))
			if g.rows[i][p] != "" {
				g.rows[i][p] = strconv.Itoa(r.IntN(600))
				return "points of games row " + strconv.Itoa(i+1)
			}
		}
		return "no points found"
	},
	func(r *rand.Rand, tabs map[string]*table) string { // a tournament withdrawn
		ts, g := tabs["tournaments"], tabs["games"]
		i := r.IntN(len(ts.rows))
		id := ts.rows[i][0]
		ts.rows = append(ts.rows[:i], ts.rows[i+1:]...)
		kept := g.rows[:0]
		for _, row := range g.rows {
			if row[0] != id {
				kept = append(kept, row)
			}
		}
		g.rows = kept
		return "tournament " + id + " removed"
	},
	func(r *rand.Rand, tabs map[string]*table) string { // a tournament's row corrected
		ts := tabs["tournaments"]
		i := r.IntN(len(ts.rows))
		switch r.IntN(3) {
		case 0:
			c := ts.col("rated")
			ts.rows[i][c] = map[string]string{"true": "false", "false": "true", "": "false"}[ts.rows[i][c]]
			return "rated flag of tournament " + ts.rows[i][0]
		case 1:
			ts.rows[i][ts.col("tiebreaks")] = "SB,BH"
			return "tiebreaks of tournament " + ts.rows[i][0]
		}
		ts.rows[i][ts.col("name")] += " (corrected)"
		return "name of tournament " + ts.rows[i][0]
	},
	func(r *rand.Rand, tabs map[string]*table) string { // a player's registry row corrected
		ps := tabs["players"]
		i := r.IntN(len(ps.rows))
		switch r.IntN(5) {
		case 0:
			ps.rows[i][ps.col("name")] += " Jr."
			return "name of player " + ps.rows[i][0]
		case 1:
			ps.rows[i][ps.col("category")] = strconv.Itoa(1 + r.IntN(4))
			return "category of player " + ps.rows[i][0]
		case 2:
			ps.rows[i][ps.col("club")] = "Other Club"
			return "club of player " + ps.rows[i][0]
		case 3:
			ps.rows[i][ps.col("fide_rating")] = strconv.Itoa(1500 + r.IntN(900))
			return "FIDE rating of player " + ps.rows[i][0]
		}
		ps.rows[i][ps.col("birth_year")] = strconv.Itoa(1960 + r.IntN(55))
		return "birth year of player " + ps.rows[i][0]
	},
	func(r *rand.Rand, tabs map[string]*table) string { // players registered, no games yet
		ps := tabs["players"]
		what := ""
		if r.IntN(2) == 0 { // the registry's first federation (a column the table lacked)
			ps.header = append(ps.header, "federation")
			for i := range ps.rows {
				ps.rows[i] = append(ps.rows[i], "")
			}
			what = " with a federation"
		}
		row := make([]string, len(ps.header))
		row[0], row[ps.col("name")] = strconv.Itoa(r.IntN(100000)+1), "Newcomer, Nina"
		for slices.ContainsFunc(ps.rows, func(x []string) bool { return x[0] == row[0] }) {
			row[0] = strconv.Itoa(r.IntN(100000) + 1)
		}
		row[ps.col("birth_year")] = "2012"
		if what != "" {
			row[ps.col("federation")] = "IRL"
		}
		if r.IntN(3) == 0 {
			row[ps.col("fide_rating")] = "2000"
			what += " FIDE-rated"
		}
		ps.rows = append(ps.rows, row)
		return "player " + row[0] + " added" + what
	},
	func(r *rand.Rand, tabs map[string]*table) string { // a player removed (merged into another id)
		ps := tabs["players"]
		i := r.IntN(len(ps.rows))
		id := ps.rows[i][0]
		ps.rows = append(ps.rows[:i], ps.rows[i+1:]...)
		return "player " + id + " removed"
	},
	func(r *rand.Rand, tabs map[string]*table) string { // a Joker table corrected
		tb := tabs["tables"]
		if tb == nil {
			return "no Joker tables"
		}
		i := r.IntN(len(tb.rows))
		tb.rows[i][tb.col("score")] = strconv.Itoa(r.IntN(400) - 100)
		return "Joker score of tables row " + strconv.Itoa(i+1)
	},
}

// periodOf is the period label a file of the outputs belongs to, "" for none.
func periodOf(name string) string {
	base := filepath.Base(name)
	label, _, _ := strings.Cut(base, ".")
	if len(label) == 7 && label[4] == '-' {
		return label
	}
	return ""
}

// diffFiles lists the files that differ between two output trees, aside from
// summary.json (how the run went) and the states (ratelist's own bookkeeping,
// which holds the registry it was saved with).
func diffFiles(a, b map[string][]byte) []string {
	var out []string
	for n, x := range a {
		if y, ok := b[n]; !ok || !bytes.Equal(x, y) {
			out = append(out, n)
		}
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	kept := out[:0]
	for _, n := range out {
		if n != "summary.json" && !strings.HasPrefix(n, "state/") {
			kept = append(kept, n)
		}
	}
	return kept
}

func copyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestResumeInvariant(t *testing.T) {
	cases := 200 // make test-all runs all of them, without -race
	switch {
	case testing.Short():
		cases = 5 // make test, under -race: the first of the same 200
	case raceEnabled:
		cases = 10
	}
	for _, rules := range []string{"school", "fide", "joker"} {
		t.Run(rules, func(t *testing.T) {
			t.Parallel()
			resumeInvariant(t, rules, cases)
		})
	}
}

func resumeInvariant(t *testing.T, rules string, cases int) {
	base := t.TempDir()
	gen := generate.Options{Players: 40, Games: 900, Months: 6, Seed: 7, Dir: base, CSV: true, Scrabble: 0.2, Unrated: 0.2}
	ruleSet := "school"
	switch rules {
	case "fide":
		ruleSet = "fide"
	case "joker":
		gen.JokerGames = 120
	}
	if err := generate.Archive(context.Background(), gen); err != nil {
		t.Fatal(err)
	}
	r, err := DefaultRules(ruleSet)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"players", "tournaments", "games"}
	if rules == "joker" {
		names = append(names, "tables")
	}
	opts := func(archive, out string) Options {
		return Options{Archive: os.DirFS(archive), ArchiveName: "a", Out: out, Rules: r, Workers: 1,
			Now: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)}
	}
	// The earlier run: up to the middle of the archive, as a cron job left it.
	earlier := t.TempDir()
	o := opts(base, earlier)
	o.Until = "2024-12"
	runOpt(t, o)

	rnd := rand.New(rand.NewPCG(uint64(len(rules)), 26))
	stale := 0
	for c := range cases {
		arch := t.TempDir()
		tabs := map[string]*table{}
		for _, n := range names {
			tabs[n] = readTable(t, filepath.Join(base, n+".csv"))
		}
		what := mutations[rnd.IntN(len(mutations))](rnd, tabs)
		for _, n := range names {
			tabs[n].write(t, filepath.Join(arch, n+".csv"))
		}
		name := fmt.Sprintf("case %d (%s)", c, what)

		full := t.TempDir()
		runOpt(t, opts(arch, full))
		want := readTree(t, full)

		out := t.TempDir()
		copyTree(t, earlier, out)
		o := opts(arch, out)
		o.Resume = true
		sum := runOpt(t, o)
		diff := diffFiles(readTree(t, out), want)
		told := len(sum.StalePeriods) > 0 || len(sum.ChangedLists) > 0
		if len(diff) > 0 && !told {
			t.Fatalf("%s: --resume differs from a full run in %v and exits 0", name, diff)
		}
		// A player added is not a change of the past, but for FIDE's starting
		// list: a FIDE-rated one is on every list of a full run.
		if strings.Contains(what, " added") && told && !(rules == "fide" && strings.HasSuffix(what, "FIDE-rated")) {
			t.Errorf("%s: a player added to the registry made periods stale: %v", name, sum.StalePeriods)
		}
		if len(sum.StalePeriods) == 0 {
			if len(diff) > 0 {
				t.Fatalf("%s: --resume rewrote published lists %v but differs from a full run in %v", name, sum.ChangedLists, diff)
			}
			continue
		}
		stale++
		for _, n := range diff {
			if p := periodOf(n); p != "" && p < sum.RerunFrom {
				t.Fatalf("%s: %s differs but rerun_from is %s", name, n, sum.RerunFrom)
			}
		}
		if stale%4 == 1 { // --rerate runs --from by itself: the flag itself now and then
			o = opts(arch, out)
			o.From = sum.RerunFrom
			runOpt(t, o)
			if d := diffFiles(readTree(t, out), want); len(d) > 0 {
				t.Fatalf("%s: --from %s differs from a full run in %v", name, sum.RerunFrom, d)
			}
		}

		out = t.TempDir()
		copyTree(t, earlier, out)
		o = opts(arch, out)
		o.Resume, o.Rerate = true, true
		rs := runOpt(t, o)
		if d := diffFiles(readTree(t, out), want); len(d) > 0 {
			t.Fatalf("%s: --resume --rerate differs from a full run in %v", name, d)
		}
		if rs.RerateFrom != sum.RerunFrom || len(rs.StalePeriods) > 0 {
			t.Errorf("%s: --rerate re-rated from %q (stale after: %v), want from %s", name, rs.RerateFrom, rs.StalePeriods, sum.RerunFrom)
		}
	}
	t.Logf("%d cases, %d of them stale", cases, stale)
	if stale == 0 {
		t.Error("no case made a period stale: the mutations do not reach the past")
	}
}
