// Package reftb is a deliberately simple, independent reference implementation of
// the seeds' tiebreaks and the core FIDE family, written from the rules (FIDE's
// tiebreak regulations) and the product's recorded choices (docs/tiebreaks.md)
// only, to cross-check package tiebreak. It favours
// obviousness over speed: maps keyed by player and round, one function per code,
// and exact arithmetic (half points as integers, *big.Rat for every value).
//
// Codes: BH, BH/C1, BH/M1, FB, AOB, SB, ARO, TPR, PTP, PS, WIN, WON, BPG, BWG, REP,
// LJV, LJV/C1, LJV/M1 under the policies fide2009, fide2023 and fide2026; TURCAS, SPREAD and
// SCORE for Scrabble; the TurČAS calibration statistics (docs/tiebreaks.md,
// "Scrabble").
//
// Readings taken where neither the rules nor docs/tiebreaks.md decide (each is a
// point to compare with the product):
//   - fide2023/2026 opponents' scores: face value, except the rounds without an
//     opponent (H, Z, a '-' with no opponent) after the player's last round that is
//     not a VUR, each counted as a draw. VURs: H, Z, '-'; F, U and '+' are not.
//     A forfeit loss with an opponent keeps its 0 wherever it stands.
//   - BH/M1 under fide2023/2026: the low cut is taken first (a VUR if there is one,
//     the one of smallest value), then the highest value among the remaining rounds.
//   - Round robins: a forfeit with a known opponent is a game against that opponent
//     for BH, SB, PS and WIN (not a VUR); WON, BPG, BWG, ARO and TPR count only games
//     played over the board. Opponents' scores are their face-value scores, and
//     under fide2023/2026 a round without an opponent (the rest round) is no round
//     at all for BH and SB.
//   - ARO, TPR and PTP are undefined for every player when any player is unrated.
//   - FB: every pairing of the last round with an opponent, forfeits included, is
//     made a drawn game; everything else as in BH. AOB: the plain BH (this policy)
//     of the opponents met over the board. REP: rounds minus H, Z and '-'.
//   - TURCAS and the calibration use the fide2009 Buchholz of wins whatever the
//     policy, with the round-robin rule above (calibration "as in TURCAS").
//   - LJV ignores the policy and the round-robin rule: its multiplier counts every
//     unplayed round (H F U Z + -) of the opponent as a draw.
//   - W/D/L (played, unrated) are games over the board like 1/=/0.
//   - TurČAS coefficients are the decimals they were written as (0.003 is 3/1000,
//     not the nearest float64); the sum is exact and rounded to 4 decimals half up.
package reftb

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/rating/tables"
	"github.com/ratelist/ratelist/tiebreak"
)

// Value is one tiebreak value: exact, or undefined (OK false).
type Value struct {
	R  *big.Rat
	OK bool
}

func (v Value) String() string {
	if !v.OK {
		return "undef"
	}
	return v.R.RatString()
}

func ratInt(n int64) Value           { return Value{R: big.NewRat(n, 1), OK: true} }
func ratFrac(n, d int64) Value       { return Value{R: big.NewRat(n, d), OK: true} }
func half(h int) Value               { return ratFrac(int64(h), 2) }
func quarter(q int) Value            { return ratFrac(int64(q), 4) }
func isCode(c byte, set string) bool { return strings.IndexByte(set, c) >= 0 }

// slot is one player's round.
type slot struct {
	code          byte // result code; 'Z' when the player has no game that round
	opp           int  // opponent index, -1 for none
	black         bool
	pts, oppPts   int32
	hasPts        bool
	twoPlayerGame bool // a Game with both players (any result)
}

// ref is the laid-out tournament.
type ref struct {
	t      *tiebreak.Tournament
	n      int                  // rounds
	rr     bool                 // round robin: forfeits with an opponent are played games
	slots  map[int]map[int]slot // player -> round -> slot
	policy tiebreak.Policy
}

func newRef(t *tiebreak.Tournament, policy tiebreak.Policy) *ref {
	r := &ref{t: t, n: t.Rounds, policy: policy, slots: map[int]map[int]slot{}}
	switch strings.ToLower(t.System) {
	case "round-robin", "rr", "berger":
		r.rr = true
	}
	for _, g := range t.Games {
		if g.Round > r.n {
			r.n = g.Round
		}
	}
	for p := range t.Players {
		r.slots[p] = map[int]slot{}
		for rd := 1; rd <= r.n; rd++ {
			r.slots[p][rd] = slot{code: 'Z', opp: -1}
		}
	}
	for _, g := range t.Games {
		if g.Black < 0 {
			r.slots[g.White][g.Round] = slot{code: up(g.WhiteResult), opp: -1}
			continue
		}
		r.slots[g.White][g.Round] = slot{code: up(g.WhiteResult), opp: g.Black, pts: g.WhitePoints, oppPts: g.BlackPoints, hasPts: g.HasPoints, twoPlayerGame: true}
		r.slots[g.Black][g.Round] = slot{code: up(g.BlackResult), opp: g.White, black: true, pts: g.BlackPoints, oppPts: g.WhitePoints, hasPts: g.HasPoints, twoPlayerGame: true}
	}
	return r
}

func up(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// halfPoints is the score of a result code in half points.
func halfPoints(c byte) int {
	switch {
	case isCode(c, "1W+FU"):
		return 2
	case isCode(c, "=DH"):
		return 1
	}
	return 0
}

// otb reports whether the slot is a game played over the board.
func otb(s slot) bool { return isCode(s.code, "1=0WDL") }

// game reports whether the slot is a game against an opponent for BH and SB: over the
// board, or in a round robin a forfeit against the scheduled opponent.
func (r *ref) game(s slot) bool {
	return otb(s) || (r.rr && isCode(s.code, "+-") && s.opp >= 0)
}

// vur: voluntarily unplayed round (H, Z, -), only for rounds that are not games.
func (r *ref) vur(s slot) bool { return !r.game(s) && isCode(s.code, "HZ-") }

// score is the final score (face value) in half points.
func (r *ref) score(p int) int {
	s := 0
	for rd := 1; rd <= r.n; rd++ {
		s += halfPoints(r.slots[p][rd].code)
	}
	return s
}

// scoreBefore is the score before round rd, face value, in half points.
func (r *ref) scoreBefore(p, rd int) int {
	s := 0
	for x := 1; x < rd; x++ {
		s += halfPoints(r.slots[p][x].code)
	}
	return s
}

// adj is p's score as used in his opponents' tiebreaks, in half points.
func (r *ref) adj(p int) int {
	if r.policy == tiebreak.Fide2009 {
		s := 0
		for rd := 1; rd <= r.n; rd++ {
			sl := r.slots[p][rd]
			if r.game(sl) {
				s += halfPoints(sl.code)
			} else {
				s++ // every unplayed round of the opponent counts as a draw
			}
		}
		return s
	}
	// fide2023/2026: face value; byes and absences after the last round of
	// availability count as draws (not in a round robin).
	last := 0
	for rd := 1; rd <= r.n; rd++ {
		if !r.vur(r.slots[p][rd]) {
			last = rd
		}
	}
	s := 0
	for rd := 1; rd <= r.n; rd++ {
		sl := r.slots[p][rd]
		if rd > last && sl.opp < 0 && !r.rr {
			s++
		} else {
			s += halfPoints(sl.code)
		}
	}
	return s
}

// Svon is the final score of the fide2009 virtual opponent, in half points:
// SPR + (1 − SfPR) + ½(n − R), with spr and sfpr in half points.
func Svon(spr, sfpr, n, round int) int { return spr + (2 - sfpr) + (n - round) }

// own is the score (half points) of the opponent that stands in for an unplayed
// round of p: virtual (2009), dummy (2023), capped dummy (2026).
func (r *ref) own(p, rd int) int {
	sl := r.slots[p][rd]
	switch r.policy {
	case tiebreak.Fide2009:
		return Svon(r.scoreBefore(p, rd), halfPoints(sl.code), r.n, rd)
	case tiebreak.Fide2026:
		s := r.score(p)
		if isCode(sl.code, "+-") && sl.opp >= 0 {
			return min(s, r.adj(sl.opp))
		}
		return min(s, r.n)
	}
	return r.score(p)
}

// round is one round's BH value and whether it is a VUR.
type round struct {
	rd    int
	value int // half points
	vur   bool
}

// restRound: under fide2023/2026 a round robin's round without an opponent is no
// round for BH and SB.
func (r *ref) restRound(sl slot) bool {
	return r.rr && r.policy != tiebreak.Fide2009 && sl.opp < 0
}

func (r *ref) bhRounds(p int) []round {
	var out []round
	for rd := 1; rd <= r.n; rd++ {
		sl := r.slots[p][rd]
		switch {
		case r.restRound(sl):
		case r.game(sl):
			out = append(out, round{rd, r.adj(sl.opp), false})
		default:
			out = append(out, round{rd, r.own(p, rd), r.vur(sl)})
		}
	}
	return out
}

// bh is Buchholz with cut (drop `cut` lowest) or median (also drop the highest).
func (r *ref) bh(p, cut int, median bool) int {
	rs := r.bhRounds(p)
	drop := map[int]bool{} // index into rs
	for c := 0; c < cut; c++ {
		best := -1
		if r.policy != tiebreak.Fide2009 { // VURs first
			for i, x := range rs {
				if !drop[i] && x.vur && (best < 0 || x.value < rs[best].value) {
					best = i
				}
			}
		}
		if best < 0 {
			for i, x := range rs {
				if !drop[i] && (best < 0 || x.value < rs[best].value) {
					best = i
				}
			}
		}
		drop[best] = true
	}
	if median {
		for c := 0; c < cut; c++ {
			best := -1
			for i, x := range rs {
				if !drop[i] && (best < 0 || x.value > rs[best].value) {
					best = i
				}
			}
			drop[best] = true
		}
	}
	s := 0
	for i, x := range rs {
		if !drop[i] {
			s += x.value
		}
	}
	return s
}

// sb is Sonneborn-Berger in quarter points.
func (r *ref) sb(p int) int {
	s := 0
	for rd := 1; rd <= r.n; rd++ {
		sl := r.slots[p][rd]
		switch {
		case r.restRound(sl):
		case r.game(sl):
			s += r.adj(sl.opp) * halfPoints(sl.code)
		default:
			s += r.own(p, rd) * halfPoints(sl.code)
		}
	}
	return s
}

// ratedOpponents lists the ratings of opponents met over the board and p's half
// points against them.
func (r *ref) ratedOpponents(p int) (ratings []int, pts int) {
	for rd := 1; rd <= r.n; rd++ {
		sl := r.slots[p][rd]
		if otb(sl) {
			ratings = append(ratings, r.t.Players[sl.opp].Rating)
			pts += halfPoints(sl.code)
		}
	}
	return
}

// roundHalfUp returns num/den rounded half up (den > 0).
func roundHalfUp(num, den int64) int64 {
	q := new(big.Rat).SetFrac64(num, den)
	q.Add(q, big.NewRat(1, 2))
	return floorRat(q)
}

func floorRat(q *big.Rat) int64 {
	z := new(big.Int).Div(q.Num(), q.Denom()) // Euclidean: floor for positive denominators
	return z.Int64()
}

// allRated: the rating-based codes are defined only when every player is rated.
func (r *ref) allRated() bool {
	for _, pl := range r.t.Players {
		if pl.Rating <= 0 {
			return false
		}
	}
	return true
}

func (r *ref) aro(p int) (int, bool) {
	if !r.allRated() {
		return 0, false
	}
	rs, _ := r.ratedOpponents(p)
	if len(rs) == 0 {
		return 0, false
	}
	sum := 0
	for _, x := range rs {
		sum += x
	}
	return int(roundHalfUp(int64(sum), int64(len(rs)))), true
}

// dpTable is FIDE B.02 table 8.1.1 (p ≥ 0.50 in hundredths → dp), read from
// the tables' one copy (rating/tables); dp(1.00) = 800.
var dpTable = func() map[int]int {
	m := map[int]int{100: 800}
	for p := 50; p < 100; p++ {
		m[p], _ = tables.DP(p)
	}
	return m
}()

// DP returns dp for p in hundredths (0..100).
func DP(hundredths int) int {
	if hundredths >= 50 {
		return dpTable[hundredths]
	}
	return -dpTable[100-hundredths]
}

func (r *ref) tpr(p int) (int, bool) {
	aro, ok := r.aro(p)
	if !ok {
		return 0, false
	}
	rs, pts := r.ratedOpponents(p)
	// p = pts/2 / len, in hundredths rounded half up: 100*pts/(2*len) = 50*pts/len.
	h := roundHalfUp(int64(50*pts), int64(len(rs)))
	return aro + DP(int(h)), true
}

// pdRows is FIDE B.02 table 8.1.2, read from the tables' one copy
// (rating/tables): rating differences dMin..dMax give the higher-rated player
// pd hundredths (the lower 100 − pd); the last row has no end.
var pdRows = func() []struct{ dMin, dMax, pd int } {
	var rows []struct{ dMin, dMax, pd int }
	for _, r := range tables.PDRows() {
		if r.Max < 0 {
			r.Max = math.MaxInt
		}
		rows = append(rows, struct{ dMin, dMax, pd int }{r.Min, r.Max, r.High})
	}
	return rows
}()

// PD returns the expected score, in hundredths, of a player rated d above his
// opponent (no 400-point cap).
func PD(d int) int {
	a := d
	if a < 0 {
		a = -a
	}
	h := 100
	for _, row := range pdRows {
		if a >= row.dMin && a <= row.dMax {
			h = row.pd
		}
	}
	if d < 0 {
		return 100 - h
	}
	return h
}

// ptp: the lowest integer rating whose expected score against the opponents met over
// the board reaches p's score; a zero score is lowest opponent − 800.
func (r *ref) ptp(p int) (int, bool) {
	if !r.allRated() {
		return 0, false
	}
	rs, pts := r.ratedOpponents(p)
	if len(rs) == 0 {
		return 0, false
	}
	lo, hi := rs[0], rs[0]
	for _, x := range rs {
		lo, hi = min(lo, x), max(hi, x)
	}
	if pts == 0 {
		return lo - 800, true
	}
	reaches := func(rating int) bool {
		exp := 0
		for _, x := range rs {
			exp += PD(rating - x)
		}
		return 2*exp >= 100*pts // exp hundredths ≥ pts half points
	}
	// The expected score grows with the rating: bisect for the first that reaches pts
	// (hi + 736 gives every opponent 1).
	a, b := lo-800, hi+736
	for a < b {
		if m := a + (b-a)/2; reaches(m) {
			b = m
		} else {
			a = m + 1
		}
	}
	return a, true
}

// rep: rounds minus voluntarily unplayed rounds (H, Z, and a forfeit loss even in a
// round robin).
func (r *ref) rep(p int) int {
	return r.count(p, func(s slot) bool { return otb(s) || !isCode(s.code, "HZ-") })
}

// fore is r with every last-round pairing with an opponent, forfeits included, made
// a drawn game against that opponent.
func (r *ref) fore() *ref {
	f := *r
	f.slots = map[int]map[int]slot{}
	for p, rounds := range r.slots {
		f.slots[p] = map[int]slot{}
		for rd, sl := range rounds {
			if rd == r.n && sl.opp >= 0 {
				sl.code = '='
			}
			f.slots[p][rd] = sl
		}
	}
	return &f
}

// aob: the average BH of the opponents met over the board, in hundredths half up.
func (r *ref) aob(p int) (int64, bool) {
	sum, k := 0, 0
	for rd := 1; rd <= r.n; rd++ {
		if sl := r.slots[p][rd]; otb(sl) {
			sum += r.bh(sl.opp, 0, false)
			k++
		}
	}
	if k == 0 {
		return 0, false
	}
	return roundHalfUp(int64(100*sum), int64(2*k)), true
}

func (r *ref) ps(p int) int {
	s, cum := 0, 0
	for rd := 1; rd <= r.n; rd++ {
		cum += halfPoints(r.slots[p][rd].code)
		s += cum
	}
	return s
}

func (r *ref) count(p int, f func(slot) bool) int {
	c := 0
	for rd := 1; rd <= r.n; rd++ {
		if f(r.slots[p][rd]) {
			c++
		}
	}
	return c
}

// ----- Lajevardi-zadeh (docs/tiebreaks.md, "Lajevardi-zadeh") -----

// LJVBaseRating is the default rating of unrated players.
const LJVBaseRating = 1600

// LJVStage1 is the seed's result-and-colour value (halfPts: 2 win, 1 draw, 0 loss).
func LJVStage1(halfPts int, black bool) int {
	v := map[int][2]int{2: {9, 10}, 1: {4, 5}, 0: {1, 2}}[halfPts]
	if black {
		return v[1]
	}
	return v[0]
}

// LJVStage2 is stage one plus trunc((opp − own)/100), truncated toward zero.
func LJVStage2(halfPts int, black bool, own, opp int) int {
	return LJVStage1(halfPts, black) + (opp-own)/100 // Go's / truncates toward zero
}

func (r *ref) ljvRating(p int) int {
	if x := r.t.Players[p].Rating; x > 0 {
		return x
	}
	return LJVBaseRating
}

// ljvAdj: final score with every unplayed round counted as a draw (half points),
// whatever the policy.
func (r *ref) ljvAdj(p int) int {
	s := 0
	for rd := 1; rd <= r.n; rd++ {
		c := r.slots[p][rd].code
		if isCode(c, "1=0WDL") {
			s += halfPoints(c)
		} else {
			s++
		}
	}
	return s
}

type ljvRound struct {
	value, contrib int  // half points
	own0           bool // own forfeit loss or absence: cut first
}

func (r *ref) ljvRounds(p int) []ljvRound {
	var out []ljvRound
	own := r.score(p)
	for rd := 1; rd <= r.n; rd++ {
		sl := r.slots[p][rd]
		switch {
		case isCode(sl.code, "1=0WDL"):
			a := r.ljvAdj(sl.opp)
			v := LJVStage2(halfPoints(sl.code), sl.black, r.ljvRating(p), r.ljvRating(sl.opp))
			out = append(out, ljvRound{a, v * a, false})
		case sl.code == '+' && sl.opp >= 0:
			a := r.ljvAdj(sl.opp)
			out = append(out, ljvRound{a, 3 * a, false})
		case sl.code == '+':
			out = append(out, ljvRound{own, 3 * own, false})
		case isCode(sl.code, "UFH"):
			out = append(out, ljvRound{own, 5 * own, false})
		case sl.opp >= 0: // forfeit loss with an opponent
			out = append(out, ljvRound{r.ljvAdj(sl.opp), 0, true})
		default: // Z, - without opponent
			out = append(out, ljvRound{own, 0, true})
		}
	}
	return out
}

func (r *ref) ljv(p int, cut, median bool) int {
	rs := r.ljvRounds(p)
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].value != rs[j].value {
			return rs[i].value < rs[j].value
		}
		return rs[i].contrib < rs[j].contrib
	})
	if cut || median {
		k := 0 // the first own forfeit loss or absence, else the least
		for i, x := range rs {
			if x.own0 {
				k = i
				break
			}
		}
		rs = append(rs[:k:k], rs[k+1:]...)
	}
	if median {
		rs = rs[:len(rs)-1]
	}
	s := 0
	for _, x := range rs {
		s += x.contrib
	}
	return s
}

// ----- Scrabble (docs/tiebreaks.md, "Scrabble") -----

// Scrabble holds the TurČAS coefficients and bye spread.
type Scrabble struct {
	A, B, C, D float64 // all zero: A = 1
	ByeSpread  int     // 0: 50
}

// bh2009 is the fide2009 Buchholz (half points) whatever r's policy.
func (r *ref) bh2009(p int) int {
	r2 := *r
	r2.policy = tiebreak.Fide2009
	return r2.bh(p, 0, false)
}

func (r *ref) scoreAbs(p int) int64 {
	var s int64
	for rd := 1; rd <= r.n; rd++ {
		if sl := r.slots[p][rd]; sl.hasPts && sl.twoPlayerGame {
			s += int64(sl.pts)
		}
	}
	return s
}

func (r *ref) spreadGames(p int) int64 {
	var s int64
	for rd := 1; rd <= r.n; rd++ {
		if sl := r.slots[p][rd]; sl.hasPts && sl.twoPlayerGame {
			s += int64(sl.pts) - int64(sl.oppPts)
		}
	}
	return s
}

func (r *ref) spread(p int, bye int) int64 {
	s := r.spreadGames(p)
	for rd := 1; rd <= r.n; rd++ {
		switch r.slots[p][rd].code {
		case 'U', 'F', '+':
			s += int64(bye)
		case '-':
			s -= int64(bye)
		}
	}
	return s
}

// zacinani: games not started (Black) minus games started (White), over the
// board games only.
func (r *ref) zacinani(p int) int {
	z := 0
	for rd := 1; rd <= r.n; rd++ {
		sl := r.slots[p][rd]
		if isCode(sl.code, "1=0WDL") {
			if sl.black {
				z++
			} else {
				z--
			}
		}
	}
	return z
}

// TurCASExact returns each player's TurČAS before rounding (for telling exact
// ties at the fifth decimal).
func TurCASExact(t *tiebreak.Tournament, sc Scrabble) []*big.Rat {
	r := newRef(t, tiebreak.Fide2009)
	out := make([]*big.Rat, len(t.Players))
	for p := range out {
		out[p] = r.turcasExact(p, sc)
	}
	return out
}

func (r *ref) turcas(p int, sc Scrabble) *big.Rat { return Round4(r.turcasExact(p, sc)) }

func (r *ref) turcasExact(p int, sc Scrabble) *big.Rat {
	a, b, c, d := sc.A, sc.B, sc.C, sc.D
	if a == 0 && b == 0 && c == 0 && d == 0 {
		a = 1
	}
	bye := sc.ByeSpread
	if bye == 0 {
		bye = 50
	}
	rat := decimal
	x := new(big.Rat).Mul(rat(a), big.NewRat(int64(r.bh2009(p)), int64(2*r.n)))
	x.Add(x, new(big.Rat).Mul(rat(b), big.NewRat(r.scoreAbs(p), 1)))
	x.Add(x, new(big.Rat).Mul(rat(c), big.NewRat(r.spread(p, bye), 1)))
	x.Add(x, new(big.Rat).Mul(rat(d), big.NewRat(int64(r.zacinani(p)), 1)))
	return x
}

// decimal reads a coefficient as the decimal it was written as (0.003, not the
// binary float64 nearest to it): the shortest representation that round-trips.
func decimal(f float64) *big.Rat {
	x, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	if !ok {
		panic(f)
	}
	return x
}

// Round4 rounds to 4 decimals, half up (toward +∞ at .5).
func Round4(x *big.Rat) *big.Rat {
	y := new(big.Rat).Mul(x, big.NewRat(10000, 1))
	y.Add(y, big.NewRat(1, 2))
	return big.NewRat(floorRat(y), 10000)
}

// ----- entry points -----

// Codes are the chess codes this package computes.
var Codes = []string{"BH", "BH/C1", "BH/M1", "FB", "AOB", "SB", "ARO", "TPR", "PTP", "PS", "WIN", "WON", "BPG", "BWG", "REP", "LJV", "LJV/C1", "LJV/M1"}

// ScrabbleCodes are the Scrabble codes this package computes.
var ScrabbleCodes = []string{"TURCAS", "SPREAD", "SCORE"}

// Compute returns, per code, one value per player (index into t.Players).
func Compute(t *tiebreak.Tournament, codes []string, policy tiebreak.Policy, sc Scrabble) (map[string][]Value, error) {
	r := newRef(t, policy)
	fore := r.fore()
	out := map[string][]Value{}
	for _, code := range codes {
		vs := make([]Value, len(t.Players))
		for p := range t.Players {
			var v Value
			switch code {
			case "BH":
				v = half(r.bh(p, 0, false))
			case "BH/C1":
				v = half(r.bh(p, 1, false))
			case "BH/M1":
				v = half(r.bh(p, 1, true))
			case "FB":
				v = half(fore.bh(p, 0, false))
			case "AOB":
				if x, ok := r.aob(p); ok {
					v = ratFrac(x, 100)
				}
			case "PTP":
				if x, ok := r.ptp(p); ok {
					v = ratInt(int64(x))
				}
			case "REP":
				v = ratInt(int64(r.rep(p)))
			case "SB":
				v = quarter(r.sb(p))
			case "ARO":
				if x, ok := r.aro(p); ok {
					v = ratInt(int64(x))
				}
			case "TPR":
				if x, ok := r.tpr(p); ok {
					v = ratInt(int64(x))
				}
			case "PS":
				v = half(r.ps(p))
			case "WIN":
				v = ratInt(int64(r.count(p, func(s slot) bool { return halfPoints(s.code) == 2 })))
			case "WON":
				v = ratInt(int64(r.count(p, func(s slot) bool { return otb(s) && halfPoints(s.code) == 2 })))
			case "BPG":
				v = ratInt(int64(r.count(p, func(s slot) bool { return otb(s) && s.black })))
			case "BWG":
				v = ratInt(int64(r.count(p, func(s slot) bool { return otb(s) && s.black && halfPoints(s.code) == 2 })))
			case "LJV":
				v = half(r.ljv(p, false, false))
			case "LJV/C1":
				v = half(r.ljv(p, true, false))
			case "LJV/M1":
				v = half(r.ljv(p, false, true))
			case "TURCAS":
				v = Value{R: r.turcas(p, sc), OK: true}
			case "SPREAD":
				bye := sc.ByeSpread
				if bye == 0 {
					bye = 50
				}
				v = ratInt(r.spread(p, bye))
			case "SCORE":
				v = ratInt(r.scoreAbs(p))
			default:
				return nil, fmt.Errorf("reftb: unknown code %q", code)
			}
			vs[p] = v
		}
		out[code] = vs
	}
	return out, nil
}

// Points returns each player's score (face value).
func Points(t *tiebreak.Tournament) []Value {
	r := newRef(t, tiebreak.Fide2009)
	out := make([]Value, len(t.Players))
	for p := range out {
		out[p] = half(r.score(p))
	}
	return out
}

// Calibration is TurČAS's calibration statistics, exact, plus the coefficients.
type Calibration struct {
	A, B, C, D, MeanBH, MeanAbs, MeanRel, Delta *big.Rat
	Games, Players, Tournaments                 int
}

// Calibrate computes TurČAS's calibration over the tournaments (docs/tiebreaks.md
// reading): per tournament and player with at least one two-player game with
// points, BH/Kol (fide2009 Buchholz), Abs and |Rel| over those games only; δ over
// those games (White = starter).
func Calibrate(ts []*tiebreak.Tournament) (Calibration, error) {
	var c Calibration
	sumBH, sumAbs, sumRel, sumDelta := new(big.Rat), new(big.Rat), new(big.Rat), new(big.Rat)
	for _, t := range ts {
		r := newRef(t, tiebreak.Fide2009)
		games := 0
		for _, g := range t.Games {
			if g.Black >= 0 && g.HasPoints {
				games++
				sumDelta.Add(sumDelta, big.NewRat(int64(g.WhitePoints)-int64(g.BlackPoints), 1))
			}
		}
		if games == 0 {
			continue
		}
		c.Games += games
		c.Tournaments++
		for p := range t.Players {
			has := false
			for rd := 1; rd <= r.n; rd++ {
				if sl := r.slots[p][rd]; sl.hasPts && sl.twoPlayerGame {
					has = true
				}
			}
			if !has {
				continue
			}
			c.Players++
			sumBH.Add(sumBH, big.NewRat(int64(r.bh2009(p)), int64(2*r.n)))
			sumAbs.Add(sumAbs, big.NewRat(r.scoreAbs(p), 1))
			rel := r.spreadGames(p)
			if rel < 0 {
				rel = -rel
			}
			sumRel.Add(sumRel, big.NewRat(rel, 1))
		}
	}
	if c.Games == 0 || c.Players == 0 {
		return c, fmt.Errorf("reftb: no Scrabble games with points")
	}
	np := big.NewRat(int64(c.Players), 1)
	c.MeanBH = new(big.Rat).Quo(sumBH, np)
	c.MeanAbs = new(big.Rat).Quo(sumAbs, np)
	c.MeanRel = new(big.Rat).Quo(sumRel, np)
	c.Delta = new(big.Rat).Quo(sumDelta, big.NewRat(int64(c.Games), 1))
	c.A = big.NewRat(1, 1)
	two := big.NewRat(2, 1)
	if c.MeanAbs.Sign() != 0 {
		c.B = new(big.Rat).Quo(c.MeanBH, new(big.Rat).Mul(two, c.MeanAbs))
	} else {
		c.B = new(big.Rat)
	}
	if c.MeanRel.Sign() != 0 {
		c.C = new(big.Rat).Quo(c.MeanBH, new(big.Rat).Mul(two, c.MeanRel))
	} else {
		c.C = new(big.Rat)
	}
	// D = C·δ + B·δ/2
	c.D = new(big.Rat).Mul(c.C, c.Delta)
	c.D.Add(c.D, new(big.Rat).Quo(new(big.Rat).Mul(c.B, c.Delta), two))
	return c, nil
}

// Format prints t compactly, one line per player, for recomputation by hand:
//
//	#3 r1850 pts 2.5 | 1:5w1 2:U 3:7b= 4:- 5:Z
//
// "5w1" = against #5 with White, result 1; a bye or absence shows its code alone;
// Scrabble points follow as "(412-380)".
func Format(t *tiebreak.Tournament) string {
	r := newRef(t, tiebreak.Fide2009)
	var b strings.Builder
	fmt.Fprintf(&b, "tournament %q system=%s discipline=%s rounds=%d players=%d\n", t.Name, t.System, t.Discipline, r.n, len(t.Players))
	for p, pl := range t.Players {
		s := r.score(p)
		fmt.Fprintf(&b, "#%d r%d pts %s |", p+1, pl.Rating, half(s))
		for rd := 1; rd <= r.n; rd++ {
			sl := r.slots[p][rd]
			if sl.opp < 0 {
				fmt.Fprintf(&b, " %d:%c", rd, sl.code)
				continue
			}
			col := 'w'
			if sl.black {
				col = 'b'
			}
			fmt.Fprintf(&b, " %d:%d%c%c", rd, sl.opp+1, col, sl.code)
			if sl.hasPts {
				fmt.Fprintf(&b, "(%d-%d)", sl.pts, sl.oppPts)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
