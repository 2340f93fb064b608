package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/internal/oracle/reffide"
	"github.com/ratelist/ratelist/officer"
)

// genPlayer and genGame are a generated tournament: ratings 0 (unrated),
// below FIDE's floor or 1400–2700, juniors and adults; games with results
// over the board, forfeits, W/D/L and byes.
type genPlayer struct {
	name   string
	rating int
	birth  int
	fideID int64
}

type genGame struct {
	round, white, black int // black −1: a bye
	wr, br              byte
}

type genTournament struct {
	start, end time.Time
	rounds     int
	players    []genPlayer
	games      []genGame
}

func genTRF(rng *rand.Rand) genTournament {
	n, rounds := 6+rng.IntN(9), 3+rng.IntN(6)
	start := time.Date(2024+rng.IntN(2), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
	t := genTournament{start: start, end: start.AddDate(0, 0, rounds-1), rounds: rounds}
	for i := range n {
		p := genPlayer{name: fmt.Sprintf("Player %02d", i+1), birth: 1960 + rng.IntN(55)}
		switch x := rng.IntN(10); {
		case x < 2: // unrated
		case x < 3:
			p.rating = 1000 + rng.IntN(400)
		default:
			p.rating = 1400 + rng.IntN(1300)
		}
		if p.rating > 0 || rng.IntN(2) == 0 {
			p.fideID = int64(100000 + i)
		}
		t.players = append(t.players, p)
	}
	for r := 1; r <= rounds; r++ {
		order := rng.Perm(n)
		if n%2 == 1 {
			bye := byte("UHFZ"[rng.IntN(4)])
			t.games = append(t.games, genGame{r, order[n-1], -1, bye, 0})
			order = order[:n-1]
		}
		for k := 0; k+1 < len(order); k += 2 {
			g := genGame{round: r, white: order[k], black: order[k+1]}
			switch x := rng.IntN(20); {
			case x == 0:
				g.wr, g.br = '+', '-'
			case x == 1:
				g.wr, g.br = 'W', 'L'
			case x == 2:
				g.wr, g.br = 'D', 'D'
			default:
				res := [3][2]byte{{'1', '0'}, {'=', '='}, {'0', '1'}}[rng.IntN(3)]
				g.wr, g.br = res[0], res[1]
			}
			t.games = append(t.games, g)
		}
	}
	return t
}

// points are the generated results in TRF16's scoring.
var points = map[byte]float64{'1': 1, '=': 0.5, '+': 1, 'W': 1, 'D': 0.5, 'F': 1, 'U': 1, 'H': 0.5}

// trf writes t as a TRF16 file, by its columns.
func (t genTournament) trf() string {
	var b strings.Builder
	fmt.Fprintf(&b, "012 Generated\n022 Town\n032 NED\n042 %s\n052 %s\n102 Arbiter\n", t.start.Format("2006/01/02"), t.end.Format("2006/01/02"))
	rounds := make([][]string, len(t.players))
	score := make([]float64, len(t.players))
	for i := range rounds {
		rounds[i] = make([]string, t.rounds)
	}
	for _, g := range t.games {
		score[g.white] += points[g.wr]
		if g.black < 0 {
			rounds[g.white][g.round-1] = fmt.Sprintf("0000 - %c", g.wr)
			continue
		}
		score[g.black] += points[g.br]
		rounds[g.white][g.round-1] = fmt.Sprintf("%4d w %c", g.black+1, g.wr)
		rounds[g.black][g.round-1] = fmt.Sprintf("%4d b %c", g.white+1, g.br)
	}
	for i, p := range t.players {
		rating, id := "    ", strings.Repeat(" ", 11)
		if p.rating > 0 {
			rating = fmt.Sprintf("%4d", p.rating)
		}
		if p.fideID > 0 {
			id = fmt.Sprintf("%11d", p.fideID)
		}
		fmt.Fprintf(&b, "001 %4d m    %-33s %s NED %s %4d/01/01 %4.1f %4d  %s\n", i+1, p.name, rating, id, p.birth, score[i], i+1, strings.Join(rounds[i], "  "))
	}
	return b.String()
}

// csvArchive writes t as a CSV archive for the reference rater, player_id
// the starting rank.
func (t genTournament) csvArchive(dir string) error {
	var p, g strings.Builder
	p.WriteString("player_id,name,birth_year,category,fide_rating,club\n")
	for i, x := range t.players {
		rating := ""
		if x.rating > 0 {
			rating = strconv.Itoa(x.rating)
		}
		fmt.Fprintf(&p, "%d,%s,%d,,%s,\n", i+1, x.name, x.birth, rating)
	}
	g.WriteString("tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points\n")
	for _, x := range t.games {
		if x.black < 0 {
			fmt.Fprintf(&g, "1,%d,%d,,%c,,,\n", x.round, x.white+1, x.wr)
		} else {
			fmt.Fprintf(&g, "1,%d,%d,%d,%c,%c,,\n", x.round, x.white+1, x.black+1, x.wr, x.br)
		}
	}
	tours := fmt.Sprintf("tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n1,Generated,%s,%s,swiss,%d,chess,true,\n",
		t.start.Format(time.DateOnly), t.end.Format(time.DateOnly), t.rounds)
	for name, text := range map[string]string{"players.csv": p.String(), "games.csv": g.String(), "tournaments.csv": tours} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// rateJSON runs `ratelist rate --trf file --format json`.
func rateJSON(t *testing.T, file string, args ...string) officer.RateReport {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), append([]string{"rate", "--trf", file, "--format", "json"}, args...), &stdout, &stderr); code != exitOK {
		t.Fatalf("rate --trf %s: exit %d\n%s", file, code, stderr.String())
	}
	var rep officer.RateReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// cardsOfRun imports file with `import trf`, rates the archive with `run`
// and returns `cards --format csv` of its tournament, by player_id.
func cardsOfRun(t *testing.T, file, rules string, end time.Time) map[string][]map[string]string {
	t.Helper()
	dir := t.TempDir()
	archive, out := filepath.Join(dir, "a"), filepath.Join(dir, "out")
	mustRun(t, exitOK, "import", "trf", file, "--archive", archive, "--quiet")
	mustRun(t, exitOK, "run", "--archive", archive, "--out", out, "--rules", rules, "--as-of", end.AddDate(0, 0, 100).Format(time.DateOnly), "--quiet")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"cards", "--out", out, "--tournament", "1", "--format", "csv"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("cards: exit %d\n%s", code, stderr.String())
	}
	rows, err := csv.NewReader(&stdout).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	by := map[string][]map[string]string{}
	for _, r := range rows[1:] {
		m := map[string]string{}
		for c, h := range rows[0] {
			m[h] = r[c]
		}
		by[m["player_id"]] = append(by[m["player_id"]], m)
	}
	return by
}

func i32s(p *int32) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(int(*p))
}

func f64s(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}

// reach counts the cases the comparisons with a run went through.
type reach struct{ rated, initial, pool, unratedOpp, forfeit, bye int }

// TestRateTRFEqualsRun: over generated tournaments, `rate --trf` gives every
// player the numbers a `run` of a one-tournament archive made by `import trf`
// gives him (`cards`), under the school and FIDE rules; under FIDE each new
// rating (or none) is also the reference rater's (internal/oracle/reffide),
// read from the last list it writes.
func TestRateTRFEqualsRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2026))
	var reached reach
	n := 8
	if testing.Short() {
		n = 4 // the first 4 of the 8 reach every case too (checked below)
	}
	for c := range n {
		gt := genTRF(rng)
		dir := t.TempDir()
		file := filepath.Join(dir, "t.trf")
		if err := os.WriteFile(file, []byte(gt.trf()), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, rules := range []string{"fide", "school"} {
			rep := compareWithRun(t, fmt.Sprintf("case %d", c), file, rules, &reached)
			if rules == "fide" {
				checkReference(t, c, gt, rep)
			}
		}
	}
	t.Logf("reached: %+v", reached)
	if reached.rated == 0 || reached.initial == 0 || reached.pool == 0 || reached.unratedOpp == 0 || reached.forfeit == 0 || reached.bye == 0 {
		t.Errorf("the generated tournaments miss a case: %+v", reached)
	}
}

// TestRateTRFFilesEqualRun: `rate --trf` equals a run of `import trf` for
// every player of the repository's TRF files (real files, the published FIDE
// tournament, six of the tie-break reference files), under the FIDE rules.
func TestRateTRFFilesEqualRun(t *testing.T) {
	refs, least := "t_010[1-6].trf", 12
	if testing.Short() {
		refs, least = "t_010[1-2].trf", 8 // two of the six generated reference files
	}
	var files []string
	for _, pattern := range []string{"../../testdata/trf-real/*.trf", "../../testdata/fide-published/*.trf", "../../testdata/tiebreak-reference/" + refs,
		"../../importer/testdata/*.trf", "../../trf/testdata/*.trf"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < least {
		t.Fatalf("%d TRF files", len(files))
	}
	var reached reach
	for _, f := range files {
		compareWithRun(t, filepath.Base(f), f, "fide", &reached)
	}
	t.Logf("%d files, reached: %+v", len(files), reached)
}

// compareWithRun compares `rate --trf file` under rules with `cards` of a run
// of `import trf file`, player by player, and returns rate's report.
func compareWithRun(t *testing.T, name, file, rules string, reached *reach) officer.RateReport {
	t.Helper()
	rep := rateJSON(t, file, "--rules", rules)
	end, err := time.Parse(time.DateOnly, rep.End)
	if err != nil {
		t.Fatal(err)
	}
	cards := cardsOfRun(t, file, rules, end)
	for _, p := range rep.Players {
		rows := cards[strconv.Itoa(p.StartNo)]
		where := fmt.Sprintf("%s, %s, starting rank %d", name, rules, p.StartNo)
		if rules == "school" {
			if len(rows) != 1 {
				t.Fatalf("%s: %d cards", where, len(rows))
			}
			r := rows[0]
			want := []string{cmpOrS(r["rating_used"], r["rating_before"]), r["k"], r["games"], r["score"], r["opponents_average"], r["expected"], r["change_unrounded"], r["change"], r["rating_after"], r["reason"]}
			got := []string{i32s(p.Ro), i32s(p.K), strconv.Itoa(int(p.Games)), strconv.FormatFloat(p.Score, 'f', -1, 64), i32s(p.OppAverage), f64s(p.We), f64s(p.ChangeUnrounded), strconv.Itoa(int(p.Change)), i32s(p.New), p.Reason}
			if !slices.Equal(got, want) {
				t.Errorf("%s: rate --trf %v, run's card %v", where, got, want)
			}
			continue
		}
		// FIDE: the card_games rows of his period, as cards shows them.
		var n int
		var w, we, ch float64
		for _, r := range rows {
			if r["reason"] != "fide-game" && r["reason"] != "fide-pool-game" {
				continue
			}
			n++
			w += atof(r["w"])
			we += atof(r["pd"])
			ch += atof(r["change_unrounded"])
			if r["reason"] == "fide-game" && (r["rating_before"] != i32s(p.Ro) || r["k"] != i32s(p.K)) {
				t.Errorf("%s: Ro %s K %s, run's card Ro %s K %s", where, i32s(p.Ro), i32s(p.K), r["rating_before"], r["k"])
			}
		}
		if n > 0 && (int32(n) != p.Games || w != p.Score || (p.Ro != nil && (!near(we, p.We) || !near(ch, p.ChangeUnrounded)))) {
			t.Errorf("%s: rate --trf n %d W %v We %s ΔR %s; run's cards n %d W %v We %v ΔR %v", where, p.Games, p.Score, f64s(p.We), f64s(p.ChangeUnrounded), n, w, we, ch)
		}
		if p.Ro != nil && p.Games > 0 && n == 0 {
			t.Errorf("%s: rate --trf has %d rated games, the run's cards none", where, p.Games)
		}
		switch {
		case p.Ro != nil && p.Games > 0:
			reached.rated++
		case p.Ro == nil && n > 0:
			reached.initial++
		case p.Ro == nil && p.Games > 0:
			reached.pool++
		}
		if p.OppUnrated > 0 {
			reached.unratedOpp++
		}
	}
	for _, u := range rep.NotRated {
		switch u.Why {
		case "forfeit":
			reached.forfeit++
		case "bye":
			reached.bye++
		}
	}
	return rep
}

// checkReference compares the new ratings with the reference rater's last
// list: a player has a new rating exactly when he is on it, with it.
func checkReference(t *testing.T, c int, gt genTournament, rep officer.RateReport) {
	t.Helper()
	dir := t.TempDir()
	if err := gt.csvArchive(dir); err != nil {
		t.Fatal(err)
	}
	lists, err := reffide.Lists(dir)
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for l := range lists {
		last = max(last, l)
	}
	if last != rep.List {
		t.Errorf("case %d: the reference's last list %s, rate --trf's %s", c, last, rep.List)
	}
	rows, err := csv.NewReader(bytes.NewReader(lists[last])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, r := range rows[1:] {
		listed[r[1]] = r[3]
	}
	for _, p := range rep.Players {
		if got, want := i32s(p.New), listed[strconv.Itoa(p.StartNo)]; got != want {
			t.Errorf("case %d, starting rank %d (Ro %s, %s): new rating %q, the reference's list %q", c, p.StartNo, i32s(p.Ro), p.Reason, got, want)
		}
	}
}

func cmpOrS(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func atof(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

func near(a float64, b *float64) bool { return b != nil && math.Abs(a-*b) < 1e-9 }
