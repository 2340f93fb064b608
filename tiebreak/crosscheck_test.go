package tiebreak_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/oracle/reftb"
	"github.com/ratelist/ratelist/tiebreak"
)

// The cross-check: random tournaments (Swiss-like and round robins, every kind of
// unplayed round, unrated players, Scrabble points) scored by the product and by the
// independent reference implementation internal/oracle/reftb, value by value.

var crossPolicies = []tiebreak.Policy{tiebreak.Fide2009, tiebreak.Fide2023, tiebreak.Fide2026}

// genTournament builds one random tournament. Every player appears at most once per
// round; a round without a game for a player is left out (the product reads it as Z)
// or written as an explicit Z.
func genTournament(rng *rand.Rand, id int, scrabble bool) *tiebreak.Tournament {
	t := &tiebreak.Tournament{ID: int64(id), Name: fmt.Sprintf("gen%d", id), System: "swiss", Discipline: "chess"}
	if scrabble {
		t.Discipline = "scrabble"
	}
	rr := rng.IntN(4) == 0
	var np int
	if rr {
		t.System = "round-robin"
		np = 4 + rng.IntN(9) // 4..12
		t.Rounds = np - 1
		if np%2 == 1 {
			t.Rounds = np
		}
	} else {
		np = 4 + rng.IntN(37) // 4..40
		t.Rounds = 3 + rng.IntN(9)
	}
	// Half the tournaments have unrated players, which make every rating-based value
	// undefined; the other half exercise those codes.
	unrated := rng.IntN(2) == 0
	for i := 0; i < np; i++ {
		r := 1000 + rng.IntN(1800)
		if unrated && rng.IntN(7) == 0 {
			r = 0
		}
		t.Players = append(t.Players, tiebreak.Player{ID: int64(100 + i), StartNo: i + 1, Name: fmt.Sprintf("P%d", i+1), Rating: r})
	}
	// withdrawals: round from which the player is gone, and how it shows.
	withdraw := make([]int, np)
	wstyle := make([]int, np) // 0 no entry, 1 explicit Z, 2 forfeit losses when paired
	for i := range withdraw {
		withdraw[i] = t.Rounds + 1
		if rng.IntN(8) == 0 {
			withdraw[i] = 2 + rng.IntN(t.Rounds)
			wstyle[i] = rng.IntN(3)
		}
	}
	score := make([]int, np)
	add := func(g tiebreak.Game) {
		t.Games = append(t.Games, g)
		score[g.White] += hp(g.WhiteResult)
		if g.Black >= 0 {
			score[g.Black] += hp(g.BlackResult)
		}
	}
	bye := func(rd, p int, code byte) {
		if code == 0 {
			return // no entry: Z
		}
		add(tiebreak.Game{Round: rd, White: p, Black: -1, WhiteResult: code})
	}
	played := func(rd, w, b int) {
		g := tiebreak.Game{Round: rd, White: w, Black: b}
		switch x := rng.IntN(100); {
		case x < 4:
			g.WhiteResult, g.BlackResult = '+', '-'
		case x < 8:
			g.WhiteResult, g.BlackResult = '-', '+'
		case x < 10:
			g.WhiteResult, g.BlackResult = '-', '-'
		default:
			if scrabble {
				g.WhitePoints = int32(260 + rng.IntN(300))
				g.BlackPoints = int32(240 + rng.IntN(300))
				g.HasPoints = rng.IntN(30) != 0
				switch {
				case g.WhitePoints > g.BlackPoints:
					g.WhiteResult, g.BlackResult = '1', '0'
				case g.WhitePoints < g.BlackPoints:
					g.WhiteResult, g.BlackResult = '0', '1'
				default:
					g.WhiteResult, g.BlackResult = '=', '='
				}
				if rng.IntN(25) == 0 {
					g.WhitePoints = g.BlackPoints
					g.WhiteResult, g.BlackResult = '=', '='
				}
				break
			}
			switch y := rng.IntN(100); {
			case y < 38:
				g.WhiteResult, g.BlackResult = '1', '0'
			case y < 65:
				g.WhiteResult, g.BlackResult = '=', '='
			default:
				g.WhiteResult, g.BlackResult = '0', '1'
			}
			if rng.IntN(12) == 0 { // played but unrated
				g.WhiteResult = map[byte]byte{'1': 'W', '=': 'D', '0': 'L'}[g.WhiteResult]
				g.BlackResult = map[byte]byte{'1': 'W', '=': 'D', '0': 'L'}[g.BlackResult]
			}
		}
		if rng.IntN(2) == 0 {
			g.White, g.Black = b, w
			g.WhiteResult, g.BlackResult = g.BlackResult, g.WhiteResult
			g.WhitePoints, g.BlackPoints = g.BlackPoints, g.WhitePoints
		}
		add(g)
	}
	gone := func(rd, p int) bool { return rd >= withdraw[p] }
	absentCode := func(p int) byte {
		if wstyle[p] == 1 {
			return 'Z'
		}
		return 0
	}
	requestBye := func() byte {
		return []byte{'H', 'H', 'F', 'Z', 0, '+'}[rng.IntN(6)] // '+' without opponent: rare kind
	}
	for rd := 1; rd <= t.Rounds; rd++ {
		if rr {
			pairs := bergerRound(np, rd)
			for _, pr := range pairs {
				a, b := pr[0], pr[1]
				if b < 0 { // the rest of the odd player
					if !gone(rd, a) {
						bye(rd, a, []byte{'U', 0, 'Z'}[rng.IntN(3)])
					} else {
						bye(rd, a, absentCode(a))
					}
					continue
				}
				ga, gb := gone(rd, a), gone(rd, b)
				switch {
				case ga && gb:
					bye(rd, a, absentCode(a))
					bye(rd, b, absentCode(b))
				case ga || gb:
					if gb {
						a, b = b, a
					}
					// a is gone, b present
					if wstyle[a] == 2 || rng.IntN(3) != 0 {
						add(tiebreak.Game{Round: rd, White: a, Black: b, WhiteResult: '-', BlackResult: '+'})
					} else {
						bye(rd, a, absentCode(a))
						bye(rd, b, 'F')
					}
				default:
					played(rd, a, b)
				}
			}
			continue
		}
		// Swiss-like: absent players, byes on request, then pair by score with noise.
		var pool []int
		for p := 0; p < np; p++ {
			switch {
			case gone(rd, p):
				if wstyle[p] == 2 && rng.IntN(2) == 0 {
					pool = append(pool, -p-1) // paired, then forfeits
				} else {
					bye(rd, p, absentCode(p))
				}
			case rng.IntN(18) == 0:
				bye(rd, p, requestBye())
			default:
				pool = append(pool, p)
			}
		}
		key := map[int]float64{}
		for _, x := range pool {
			p := x
			if p < 0 {
				p = -p - 1
			}
			key[x] = float64(score[p]) + rng.Float64()*2.5
		}
		sort.Slice(pool, func(i, j int) bool { return key[pool[i]] > key[pool[j]] })
		if len(pool)%2 == 1 {
			last := pool[len(pool)-1]
			pool = pool[:len(pool)-1]
			if last < 0 {
				bye(rd, -last-1, absentCode(-last-1))
			} else {
				bye(rd, last, 'U')
			}
		}
		for i := 0; i+1 < len(pool); i += 2 {
			a, b := pool[i], pool[i+1]
			switch {
			case a < 0 && b < 0:
				add(tiebreak.Game{Round: rd, White: -a - 1, Black: -b - 1, WhiteResult: '-', BlackResult: '-'})
			case a < 0 || b < 0:
				if b < 0 {
					a, b = b, a
				}
				add(tiebreak.Game{Round: rd, White: -a - 1, Black: b, WhiteResult: '-', BlackResult: '+'})
			default:
				played(rd, a, b)
			}
		}
	}
	return t
}

func hp(c byte) int {
	switch c {
	case '1', 'W', '+', 'F', 'U':
		return 2
	case '=', 'D', 'H':
		return 1
	}
	return 0
}

// bergerRound pairs np players (a phantom -1 when odd) by the circle method.
func bergerRound(np, rd int) [][2]int {
	n := np
	if n%2 == 1 {
		n++
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	// rotate all but the last rd-1 times
	for k := 1; k < rd; k++ {
		last := idx[n-2]
		copy(idx[1:n-1], idx[0:n-2])
		idx[0] = last
	}
	var out [][2]int
	for i := 0; i < n/2; i++ {
		a, b := idx[i], idx[n-1-i]
		if a >= np {
			a = -1
		}
		if b >= np {
			b = -1
		}
		if a < 0 {
			a, b = b, a
		}
		if rd%2 == 0 {
			if b >= 0 {
				a, b = b, a
			}
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

// mismatch is one disagreement between the product and the reference.
type mismatch struct {
	policy      tiebreak.Policy
	code        string
	player      int
	got         tiebreak.Value
	want        reftb.Value
	tournament  string
	t           *tiebreak.Tournament
	coefficient reftb.Scrabble
}

func (m mismatch) String() string {
	g := "undef"
	if m.got.OK {
		g = fmt.Sprint(m.got.V)
	}
	w := "undef"
	if m.want.OK {
		f, _ := m.want.R.Float64()
		w = fmt.Sprintf("%v (=%s)", f, m.want.R.RatString())
	}
	return fmt.Sprintf("policy %s code %s player #%d: product %s, reference %s\n%s", m.policy, m.code, m.player+1, g, w, m.tournament)
}

func sameValue(got tiebreak.Value, want reftb.Value) bool {
	if got.OK != want.OK {
		return false
	}
	if !got.OK {
		return true
	}
	f, _ := want.R.Float64()
	return got.V == f
}

var turcasSets = []reftb.Scrabble{
	{},
	{A: 1, B: 0.0006, C: 0.0098, D: 0.139},
	{A: 1.5, B: 0.003, C: 0.021, D: -0.25},
}

// crossCheck compares every code and policy on t; it returns the mismatches.
func crossCheck(tb testing.TB, t *tiebreak.Tournament, sc reftb.Scrabble) []mismatch {
	scrabble := t.Discipline == "scrabble"
	codes := reftb.Codes
	if scrabble {
		codes = append(append([]string{}, reftb.Codes...), reftb.ScrabbleCodes...)
	}
	var out []mismatch
	points := reftb.Points(t)
	for _, pol := range crossPolicies {
		opt := tiebreak.Options{Unplayed: pol}
		opt.Scrabble.Coefficients = tiebreak.Coefficients{A: sc.A, B: sc.B, C: sc.C, D: sc.D}
		rows, err := tiebreak.Standings(t, codes, opt)
		if err != nil {
			tb.Fatalf("Standings(%s): %v\n%s", pol, err, reftb.Format(t))
		}
		want, err := reftb.Compute(t, codes, pol, sc)
		if err != nil {
			tb.Fatal(err)
		}
		if len(rows) != len(t.Players) {
			tb.Fatalf("%d rows for %d players", len(rows), len(t.Players))
		}
		for _, row := range rows {
			p := row.Index
			if f, _ := points[p].R.Float64(); row.Points != f {
				out = append(out, mismatch{policy: pol, code: "points", player: p, got: tiebreak.Value{V: row.Points, OK: true}, want: points[p]})
			}
			for k, code := range codes {
				m := mismatch{policy: pol, code: code, player: p, got: row.Values[k], want: want[code][p], t: t, coefficient: sc}
				if !sameValue(m.got, m.want) {
					out = append(out, m)
				}
			}
		}
	}
	for i := range out {
		out[i].tournament = reftb.Format(t)
	}
	return out
}

func TestCrossCheckRandom(t *testing.T) {
	n, seed := 600, uint64(20240601)
	if testing.Short() {
		n = 150
	}
	// CROSSCHECK_N / CROSSCHECK_SEED run a longer sweep by hand.
	if v, err := strconv.Atoi(os.Getenv("CROSSCHECK_N")); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.ParseUint(os.Getenv("CROSSCHECK_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	type key struct {
		code   string
		policy tiebreak.Policy
	}
	first := map[key]mismatch{}
	counts := map[key]int{}
	var scr []*tiebreak.Tournament // Scrabble tournaments for the calibration
	checked, nscr := 0, 0
	for i := 0; i < n; i++ {
		scrabble := i%3 == 2
		tt := genTournament(rng, i, scrabble)
		sc := reftb.Scrabble{}
		if scrabble {
			sc = turcasSets[i%len(turcasSets)]
			nscr++
			scr = append(scr, tt)
		}
		for _, m := range crossCheck(t, tt, sc) {
			k := key{m.code, m.policy}
			if _, ok := first[k]; !ok || len(m.tournament) < len(first[k].tournament) {
				first[k] = m
			}
			counts[k]++
		}
		checked++
	}
	keys := make([]key, 0, len(first))
	for k := range first {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].code != keys[j].code {
			return keys[i].code < keys[j].code
		}
		return keys[i].policy < keys[j].policy
	})
	for _, k := range keys {
		t.Errorf("%d mismatches for %s/%s; smallest:\n%s", counts[k], k.code, k.policy, first[k])
	}
	t.Logf("%d tournaments (%d Scrabble, %d of them in the calibration) × %d policies checked", checked, nscr, len(scr), len(crossPolicies))

	got, err := tiebreak.Calibrate(scr, tiebreak.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := reftb.Calibrate(scr)
	if err != nil {
		t.Fatal(err)
	}
	checkCalibration(t, got, want)
}

func checkCalibration(t *testing.T, got tiebreak.Calibration, want reftb.Calibration) {
	t.Helper()
	near := func(name string, g float64, w *big.Rat) {
		f, _ := w.Float64()
		if math.Abs(g-f) > 1e-9*math.Max(1, math.Abs(f)) {
			t.Errorf("calibration %s: product %v, reference %v", name, g, f)
		}
	}
	near("A", got.A, want.A)
	near("B", got.B, want.B)
	near("C", got.C, want.C)
	near("D", got.D, want.D)
	near("b (MeanBH)", got.MeanBH, want.MeanBH)
	near("a (MeanAbs)", got.MeanAbs, want.MeanAbs)
	near("r (MeanRel)", got.MeanRel, want.MeanRel)
	near("δ (Delta)", got.Delta, want.Delta)
	if got.Games != want.Games || got.Players != want.Players || got.Tournaments != want.Tournaments {
		t.Errorf("calibration counts: product games %d players %d tournaments %d, reference %d %d %d",
			got.Games, got.Players, got.Tournaments, want.Games, want.Players, want.Tournaments)
	}
}

// TurČAS at an exact tie of the fifth decimal rounds half up (docs/tiebreaks.md:
// "Rounding, always half up … TURCAS to 4 decimals"): a float sum would go either
// way. Coefficients A 1.5, B 0.003, C 0.021, D −0.25.
//
//	#1 r0    | 1:4b1(531-489) 2:2w1(337-297) 3:4w1(394-320) 4:4w0(428-438) 5:Z 6:4w- 7:4w- 8:4w-
//	#2 r0    | 1:3b1(483-445) 2:1b0(297-337) 3-8: Z
//	#3 r1432 | 1:2w0(445-483) 2:4w1(508-420) 3-8: Z
//	#4 r2611 | 1:1w0(489-531) 2:3b0(420-508) 3:1b0(320-394) 4:1b1(438-428) 5:U 6-8: 1b+
//
// Player #3: BH (fide2009, docs/tiebreaks.md "Unplayed rounds" and "Scrabble"): opponents #2 adj 1 + 6×½ = 4, #4 adj 0+0+0+1+5×½ = 3;
// Z rounds 3..8 with 1 point before: Svon = 1 + 1 + ½(8 − R) = 4.5, 4, 3.5, 3, 2.5, 2
// → BH = 26.5. Abs = 445 + 508 = 953, Rel = −38 + 88 = 50, Zacinani = 0 − 2 = −2.
// TurČAS = 1.5 × 26.5/8 + 0.003 × 953 + 0.021 × 50 − 0.25 × (−2)
// = 4.96875 + 2.859 + 1.05 + 0.5 = 9.37775 exactly → half up 9.3778.
func TestCrossCheckTurCASTie(t *testing.T) {
	tt := &tiebreak.Tournament{Rounds: 8, System: "swiss", Discipline: "scrabble",
		Players: []tiebreak.Player{{StartNo: 1}, {StartNo: 2}, {StartNo: 3, Rating: 1432}, {StartNo: 4, Rating: 2611}}}
	g := func(rd, w, b int, wr, br byte, wp, bp int32) tiebreak.Game {
		return tiebreak.Game{Round: rd, White: w, Black: b, WhiteResult: wr, BlackResult: br, WhitePoints: wp, BlackPoints: bp, HasPoints: wp > 0}
	}
	tt.Games = []tiebreak.Game{
		g(1, 3, 0, '0', '1', 489, 531), g(1, 2, 1, '0', '1', 445, 483),
		g(2, 0, 1, '1', '0', 337, 297), g(2, 2, 3, '1', '0', 508, 420),
		g(3, 0, 3, '1', '0', 394, 320),
		g(4, 0, 3, '0', '1', 428, 438),
		{Round: 5, White: 3, Black: -1, WhiteResult: 'U'},
		g(6, 0, 3, '-', '+', 0, 0), g(7, 0, 3, '-', '+', 0, 0), g(8, 0, 3, '-', '+', 0, 0),
	}
	sc := turcasSets[2]
	exact := reftb.TurCASExact(tt, sc)[2]
	if exact.Cmp(big.NewRat(937775, 100000)) != 0 {
		t.Fatalf("reference exact TurČAS of #3 = %s, want 9.37775", exact.FloatString(6))
	}
	opt := tiebreak.Options{Unplayed: tiebreak.Fide2009}
	opt.Scrabble.Coefficients = tiebreak.Coefficients{A: sc.A, B: sc.B, C: sc.C, D: sc.D}
	rows, err := tiebreak.Standings(tt, []string{"TURCAS"}, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Index == 2 && r.Values[0].V != 9.3778 {
			t.Fatalf("TURCAS #3 = %v, want 9.3778", r.Values[0].V)
		}
	}
}

// The calibration in a round robin: it uses "BH/Kol (as in TURCAS)", and TURCAS counts
// a round-robin forfeit as a game against the scheduled opponent, so the
// calibration's Buchholz must too.
//
//	round robin, 3 rounds
//	#1 | 1:4b1(517-360) 2:2b+ 3:3b0(454-522)     2
//	#2 | 1:3w=(240-240) 2:1w- 3:4b+             1.5
//	#3 | 1:2b=(240-240) 2:F   3:1w1(522-454)    2.5
//	#4 | 1:1w0(360-517) 2:Z   3:2w-             0
//
// fide2009 adjusted scores with forfeits played: #1 2, #2 1.5, #3 2 (F as ½), #4 ½ (Z).
// BH: #1 = ½ + 1.5 + 2 = 4; #2 = 2 + 2 + ½ = 4.5; #3 = 1.5 + Svon(½ + 0 + ½ = 1) + 2
// = 4.5; #4 = 2 + Svon(0 + 1 + ½ = 1.5) + 1.5 = 5 → b = (4 + 4.5 + 4.5 + 5)/3/4 = 1.5,
// which is also the mean of the product's own TURCAS (A = 1) here (forfeits taken as
// unplayed would give 17/12).
func TestCrossCheckCalibrateRoundRobin(t *testing.T) {
	tt := &tiebreak.Tournament{Rounds: 3, System: "round-robin", Discipline: "scrabble",
		Players: []tiebreak.Player{{StartNo: 1, Rating: 1560}, {StartNo: 2}, {StartNo: 3, Rating: 1278}, {StartNo: 4, Rating: 2459}}}
	tt.Games = []tiebreak.Game{
		{Round: 1, White: 3, Black: 0, WhiteResult: '0', BlackResult: '1', WhitePoints: 360, BlackPoints: 517, HasPoints: true},
		{Round: 1, White: 1, Black: 2, WhiteResult: '=', BlackResult: '=', WhitePoints: 240, BlackPoints: 240, HasPoints: true},
		{Round: 2, White: 1, Black: 0, WhiteResult: '-', BlackResult: '+'},
		{Round: 2, White: 2, Black: -1, WhiteResult: 'F'},
		{Round: 3, White: 2, Black: 0, WhiteResult: '1', BlackResult: '0', WhitePoints: 522, BlackPoints: 454, HasPoints: true},
		{Round: 3, White: 3, Black: 1, WhiteResult: '-', BlackResult: '+'},
	}
	want, err := reftb.Calibrate([]*tiebreak.Tournament{tt})
	if err != nil {
		t.Fatal(err)
	}
	if want.MeanBH.Cmp(big.NewRat(3, 2)) != 0 {
		t.Fatalf("reference b = %s, want 3/2", want.MeanBH.RatString())
	}
	rows, err := tiebreak.Standings(tt, []string{"TURCAS"}, tiebreak.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, r := range rows {
		sum += r.Values[0].V
	}
	if math.Abs(sum/4-1.5) > 1e-4 {
		t.Fatalf("product TURCAS (A = 1) mean %v, want 1.5", sum/4)
	}
	got, err := tiebreak.Calibrate([]*tiebreak.Tournament{tt}, tiebreak.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkCalibration(t, got, want)
}

// TestCrossCheckCalibrationSmall checks the calibration on a single small
// tournament that can be recomputed by hand.
func TestCrossCheckCalibrationSmall(t *testing.T) {
	tt := &tiebreak.Tournament{Rounds: 2, System: "swiss", Discipline: "scrabble",
		Players: []tiebreak.Player{{StartNo: 1}, {StartNo: 2}, {StartNo: 3}}}
	tt.Games = []tiebreak.Game{
		{Round: 1, White: 0, Black: 1, WhiteResult: '1', BlackResult: '0', WhitePoints: 400, BlackPoints: 350, HasPoints: true},
		{Round: 1, White: 2, Black: -1, WhiteResult: 'U'},
		{Round: 2, White: 2, Black: 0, WhiteResult: '0', BlackResult: '1', WhitePoints: 300, BlackPoints: 420, HasPoints: true},
		{Round: 2, White: 1, Black: -1, WhiteResult: 'U'},
	}
	got, err := tiebreak.Calibrate([]*tiebreak.Tournament{tt}, tiebreak.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := reftb.Calibrate([]*tiebreak.Tournament{tt})
	if err != nil {
		t.Fatal(err)
	}
	checkCalibration(t, got, want)
}

func TestCrossCheckFormat(t *testing.T) {
	tt := genTournament(rand.New(rand.NewPCG(1, 2)), 0, true)
	if s := reftb.Format(tt); !strings.Contains(s, "#1 ") {
		t.Fatal(s)
	}
}
