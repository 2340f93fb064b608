package pipeline_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/oracle/reffide"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/pipeline"
)

// TestCrossCheckFide rates synthetic archives with the product (--rules fide)
// and with the independent reference implementation (internal/oracle/reffide, written
// from docs/fide.md without the product's rater) and compares
// every monthly list byte for byte.
//
// The generator gives a FIDE Elo to about 5% of players; most cases rewrite the
// players table (rerate) so that many more players start rated, over the whole
// range 1400–2700, with adults, juniors, birth years at the junior boundary and
// unknown birth years, and some start below 1400 (unrated), so that the K
// rules, the 400 cap and its 2650 exemption (archives starting mid-2025), K × n
// ≤ 700, the 1400 floor, pooling and the inactive flag are all reached.
func TestCrossCheckFide(t *testing.T) {
	cases := []struct {
		seed    uint64
		players int
		games   int64
		months  int
		start   time.Time // zero: the generator's default (2024-09)
		rated   float64   // share of players given a fide_rating; 0 = as generated
		mangle  bool
	}{
		{seed: 11, players: 150, games: 6000, months: 8, rated: 0.5},
		{seed: 12, players: 200, games: 9000, months: 10, start: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC), rated: 0.6},
		{seed: 13, players: 300, games: 4000, months: 30},
		{seed: 14, players: 120, games: 8000, months: 6, start: time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC), rated: 0.7},
		{seed: 15, players: 250, games: 5000, months: 28, start: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), rated: 0.4},
		{seed: 16, players: 180, games: 7000, months: 9, start: time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC), rated: 0.55, mangle: true},
	}
	// Which rules the archives reached, over all cases: each must be reached at
	// least once, or the cross-check proves less than it seems to.
	var mu sync.Mutex
	var total reffide.Stats
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		v := reflect.ValueOf(total)
		for i := range v.NumField() {
			if v.Field(i).Int() == 0 {
				t.Errorf("no archive reached %s", v.Type().Field(i).Name)
			}
		}
		t.Logf("rules reached: %+v", total)
	})
	for _, c := range cases {
		t.Run(fmt.Sprintf("seed%d", c.seed), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := t.TempDir()
			err := generate.Archive(ctx, generate.Options{
				Players: c.players, Games: c.games, Months: c.months, Seed: c.seed,
				Start: c.start, Dir: dir, CSV: true, Unrated: 0.1,
			})
			if err != nil {
				t.Fatal(err)
			}
			if c.rated > 0 {
				year := 2024
				if !c.start.IsZero() {
					year = c.start.Year()
				}
				rerate(t, dir, c.seed, year, c.rated)
			}
			if c.mangle {
				mangle(t, dir)
			}
			rules, err := pipeline.DefaultRules("fide")
			if err != nil {
				t.Fatal(err)
			}
			out, _ := rateAll(t, dir, rules)
			want, st, err := reffide.ListsStats(dir)
			if err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			tv, sv := reflect.ValueOf(&total).Elem(), reflect.ValueOf(st)
			for i := range tv.NumField() {
				tv.Field(i).SetInt(tv.Field(i).Int() + sv.Field(i).Int())
			}
			mu.Unlock()
			t.Logf("reference: %+v", st)
			compareLists(t, out, want)
		})
	}
}

// compareLists compares every list the reference has with the product's, and
// the sets of months written.
func compareLists(t *testing.T, out string, want map[string][]byte) {
	t.Helper()
	got, err := filepath.Glob(filepath.Join(out, "lists", "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var gotMonths, wantMonths []string
	for _, f := range got {
		gotMonths = append(gotMonths, strings.TrimSuffix(filepath.Base(f), ".csv"))
	}
	for m := range want {
		wantMonths = append(wantMonths, m)
	}
	sort.Strings(wantMonths)
	if strings.Join(gotMonths, " ") != strings.Join(wantMonths, " ") {
		t.Errorf("lists written %v, reference has %v", gotMonths, wantMonths)
	}
	rows, flagged := 0, map[string]int{}
	for _, m := range wantMonths {
		b, err := os.ReadFile(filepath.Join(out, "lists", m+".csv"))
		if err != nil {
			t.Errorf("list %s: %v", m, err)
			continue
		}
		if d := firstDiff(b, want[m]); d != "" {
			t.Errorf("list %s differs from the reference:\n%s", m, d)
			return // later lists inherit the difference
		}
		for _, line := range strings.Split(strings.TrimSpace(string(want[m])), "\n")[1:] {
			rows++
			f := line[strings.LastIndexByte(line, ',')+1:]
			if f != "" {
				flagged[f]++
			}
		}
	}
	t.Logf("%d lists agree (%d list rows, flags %v)", len(wantMonths), rows, flagged)
}

// rerate rewrites the players table so that a share of the players start with
// a fide_rating: half near the strength the generator plays them by (its
// category), the rest a band around the floor, the middle, 2400+ (K 10)
// and a few 2650+ (the cap exemption); the generator's weakest players (no
// category) mostly stay unrated, so that low initial ratings occur. Birth years for adults, juniors, the
// junior boundary (18 in the archive's first or second year) and unknown.
func rerate(t *testing.T, dir string, seed uint64, year int, share float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0xf1de))
	rewriteCSV(t, filepath.Join(dir, "players.csv"), func(_ int, col map[string]int, r []string) {
		switch u := rng.Float64(); {
		case u < 0.3:
			r[col["birth_year"]] = strconv.Itoa(1960 + rng.IntN(40))
		case u < 0.4:
			r[col["birth_year"]] = ""
		case u < 0.55:
			r[col["birth_year"]] = strconv.Itoa(year - 19 + rng.IntN(3)) // 18 around the start
		}
		cat, _ := strconv.Atoi(r[col["category"]]) // 0: the generator's weakest players
		if rng.Float64() >= share || (cat == 0 && rng.Float64() < 0.7) {
			r[col["fide_rating"]] = ""
			return
		}
		var elo int
		switch u := rng.Float64(); {
		case u < 0.5: // near the strength the generator plays by (below 1400: unrated)
			elo = max(1300, []int{1350, 2050, 1850, 1650, 1450}[cat]+int(rng.NormFloat64()*80))
		case u < 0.6: // around the floor: 1380–1399 start unrated
			elo = 1380 + rng.IntN(100)
		case u < 0.8:
			elo = 1480 + rng.IntN(820)
		case u < 0.92:
			elo = 2300 + rng.IntN(200)
		case u < 0.96:
			elo = 2500 + rng.IntN(150)
		default:
			elo = 2650 + rng.IntN(51)
		}
		r[col["fide_rating"]] = strconv.Itoa(elo)
	})
}

// TestCrossCheckFideEdges compares the product with the reference on the
// hand-made archive of reffide.WriteEdgeArchive (every number checked by hand
// in internal/oracle/reffide/reffide_test.go): a starting rating of 1400 (rated) and
// of 1399 (unrated from the start), a removal below the floor, K × n ≤ 700, K
// 10 for good after reaching 2400, the junior year boundary, the 3-day close
// on 26/27 February, the 2200 cap, a zero-score first tournament, a
// forfeit-only first tournament, an initial rating below 1400 that keeps
// pooling, the first tournament taken in rating order (end date, start date,
// id), the 2650 exemption from the October 2025 period (with a −4.5 rounded
// away from zero), pool expiry at exactly 26 periods and the inactive flag at
// exactly 12 periods.
//
// The "ends" variant adds tournaments that must not count or count only for the
// list range: an earlier unrated chess tournament and an earlier Scrabble one
// (ignored), a rated chess tournament without games before everything (the
// first list moves to its month) and one after everything (one more list), and
// one with rows that are not rated games: lower-case unrated played results,
// a double forfeit and byes.
func TestCrossCheckFideEdges(t *testing.T) {
	for _, variant := range []string{"plain", "ends"} {
		t.Run(variant, func(t *testing.T) { crossCheckFideEdge(t, variant) })
	}
}

func crossCheckFideEdge(t *testing.T, variant string) {
	dir := t.TempDir()
	if err := reffide.WriteEdgeArchive(dir); err != nil {
		t.Fatal(err)
	}
	if variant == "ends" {
		testutil.AppendFile(t, filepath.Join(dir, "tournaments.csv"), "90,Empty,2027-08-18,2027-08-20,swiss,5,chess,true,\n"+
			"91,EarlyEmpty,2024-11-01,2024-11-02,swiss,5,chess,true,\n92,EarlyUnrated,2024-10-01,2024-10-02,swiss,5,chess,false,\n"+
			"93,EarlyScrabble,2024-09-01,2024-09-02,swiss,5,scrabble,true,\n94,NotRated,2025-03-03,2025-03-05,swiss,4,chess,true,\n")
		testutil.AppendFile(t, filepath.Join(dir, "games.csv"), "92,1,1,2,1,0,,\n93,1,1,2,0,1,400,420\n"+
			"94,1,1,2,d,d,,\n94,2,6,7,w,l,,\n94,3,8,2,-,-,,\n94,4,1,,h,,,\n94,4,2,,U,,,\n94,4,9,10,+,-,,\n")
	}
	rules, err := pipeline.DefaultRules("fide")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := rateAll(t, dir, rules)
	want, err := reffide.Lists(dir)
	if err != nil {
		t.Fatal(err)
	}
	compareLists(t, out, want)
}
