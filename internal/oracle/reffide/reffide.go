// Package reffide is a deliberately simple reference implementation of the FIDE
// rating rules as docs/fide.md states them (with its choices where the rules
// are silent), written without looking at the
// product's rater to cross-check it. It favours obviousness over speed: whole
// tables in memory, maps, months as integers, and integer arithmetic in
// hundredths and half points.
//
// Readings taken (the rules first, docs/fide.md where they are silent):
//   - The list YYYY-MM takes every rated chess tournament that ended at least 3
//     days before its 1st; it rates the period YYYY-MM − 1 with the ratings of
//     the list YYYY-MM − 1 (the list in force at the period's start).
//   - Tournaments are taken in rating order (end date, start date, id); the
//     order matters only for a player's "first tournament".
//   - The junior year, the 2650 exemption and the period's K use the first day
//     of the period (the month before the list); the list's own `k` column is
//     the K for the list's own month, before the K × n limit.
//   - `change` is empty for a player not on the previous list; `flags` holds
//     `new` on a player's first list ever and `i` when inactive (joined by a
//     space if both ever applied, which the rules make impossible).
package reffide

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/internal/oracle/oracletab"
)

// Cap is the 400-point rule (docs/fide.md, "The list"): d is own − opponent's
// rating; a player rated 2650 or more uses the real difference when exempt
// (periods from 2025-10-01).
func Cap(own, d int, exempt bool) int {
	if exempt && own >= 2650 {
		return d
	}
	return max(-400, min(400, d))
}

// PD is Table 8.1.2 for a difference d (already capped): the expected score in
// hundredths.
func PD(d int) int { return oracletab.PD(d) }

// DP is Table 8.1.1 for p in hundredths (0 and 100 included: ∓800).
func DP(p int) int {
	switch p {
	case 0:
		return -800
	case 100:
		return 800
	}
	dp, ok := oracletab.DP(p)
	if !ok {
		panic(fmt.Sprintf("reffide: no dp for p = %d", p))
	}
	return dp
}

// K is docs/fide.md's K ("The list") before the K × n limit: reached is "published rating has reached
// 2400", games the rated games in total before the period, birth 0 = unknown.
func K(reached bool, games, rating, birth, year int) int {
	switch {
	case reached:
		return 10
	case games < 30:
		return 40
	case birth != 0 && birth+18 >= year && rating < 2300:
		return 40
	}
	return 20
}

// KLimit applies K × n ≤ 700.
func KLimit(k, n int) int {
	if n > 0 && k*n > 700 {
		return 700 / n
	}
	return k
}

// Change is K × Σ (W − PD) rounded once, half away from zero. w2 is each
// game's score in half points, pd its PD in hundredths.
func Change(k int, w2, pd []int) int {
	sum := 0
	for i := range w2 {
		sum += 50*w2[i] - pd[i]
	}
	return oracletab.RoundHalfAway(k*sum, 100)
}

// Initial is docs/fide.md's "Initial ratings": n pooled games with opponents summing to sum and w2 half
// points. It returns Ra and Ru (Ru capped at 2200; the caller checks 1400).
func Initial(sum, n, w2 int) (ra, ru int) {
	ra = oracletab.RoundHalfUp(sum+2*1800, n+2)
	p := oracletab.RoundHalfUp(50*(w2+2), n+2) // (W + 1)/(n + 2) in hundredths
	return ra, min(ra+DP(p), 2200)
}

// Month is a month counted from year 0: year × 12 + month − 1.
type Month int

func monthOf(t time.Time) Month { return Month(t.Year()*12 + int(t.Month()) - 1) }

func (m Month) String() string { return fmt.Sprintf("%04d-%02d", int(m)/12, int(m)%12+1) }

// Year is the calendar year of the month.
func (m Month) Year() int { return int(m) / 12 }

// ListOf is the list that takes a tournament ending on end (YYYY-MM-DD): the
// first list whose 1st is at least 3 days after end.
func ListOf(end string) Month {
	t, err := time.Parse("2006-01-02", end)
	if err != nil {
		panic(err)
	}
	d := t.AddDate(0, 0, 3)
	m := monthOf(d)
	if d.Day() != 1 {
		m++
	}
	return m
}

var exemptFrom = Month(2025*12 + 9) // periods starting on or after 2025-10-01

type poolGame struct {
	list Month // the list that took the game
	opp  int   // opponent's rating on the list in force
	w2   int
}

type player struct {
	id    int64
	name  string
	birth int

	rated      bool
	rating     int
	games      int
	reached    bool // published rating has reached 2400
	everRated  bool
	firstDone  bool // first tournament seen (zero-score rule used up)
	pool       []poolGame
	lastActive Month // list whose period counts as played
	listed     bool  // on some list already
}

// tournament is a rated tournament with the list period it counts for.
type tournament struct {
	*oracletab.Tournament
	list Month
}

// Stats counts how often each rule made a difference, so that a cross-check
// can tell which rules its archives reached.
type Stats struct {
	RatedGames      int // rated games (each side once)
	StartBelowFloor int // players whose starting fide_rating is below 1400
	Capped          int // sides of a game whose |D| > 400 was capped
	Exempt          int // sides of a game rated ≥ 2650 with |D| > 400 used uncapped
	KLimited        int // periods where K × n ≤ 700 lowered K
	Junior          int // periods rated with the junior K 40 (30+ games, below 2300)
	K10             int // periods rated with K 10
	HalfRounded     int // changes with a fraction of exactly .5
	Floor           int // players removed below 1400
	Reentered       int // removed players who got a new initial rating
	Initial         int // initial ratings (Ru ≥ 1400)
	Initial2200     int // initial ratings capped at 2200
	InitialLow      int // closes where a pool of ≥ 5 gave Ru < 1400
	ZeroFirst       int // first tournaments scored zero and disregarded
	Expired         int // pooled games dropped out of the 26-period span
	Inactive        int // list rows flagged i
	CrossPeriods    int // tournaments rated in a later list than their end month + 1
}

// Lists rates the CSV archive in dir under the current FIDE rules and returns
// each monthly list's CSV bytes keyed "YYYY-MM", from the month of the first
// rated chess tournament's end date to the list that takes the last one.
func Lists(dir string) (map[string][]byte, error) {
	out, _, err := ListsStats(dir)
	return out, err
}

// ListsStats is Lists with the rule counters.
func ListsStats(dir string) (map[string][]byte, Stats, error) {
	var st Stats
	out, err := lists(dir, &st)
	return out, st, err
}

func lists(dir string, st *Stats) (map[string][]byte, error) {
	prows, err := oracletab.ReadCSV(filepath.Join(dir, "players.csv"))
	if err != nil {
		return nil, err
	}
	trows, err := oracletab.ReadCSV(filepath.Join(dir, "tournaments.csv"))
	if err != nil {
		return nil, err
	}
	grows, err := oracletab.ReadCSV(filepath.Join(dir, "games.csv"))
	if err != nil {
		return nil, err
	}
	players := map[int64]*player{}
	startRated := map[int64]bool{}
	for _, r := range prows {
		p := &player{id: oracletab.ID64(r["player_id"]), name: r["name"]}
		p.birth, _ = oracletab.OptInt(r["birth_year"])
		if elo, ok := oracletab.OptInt(r["fide_rating"]); ok && elo < 1400 {
			st.StartBelowFloor++ // below the floor: starts unrated, like a player without one
		} else if ok {
			p.rated, p.rating, p.games, p.everRated = true, elo, 30, true
			p.reached = elo >= 2400
			startRated[p.id] = true
		}
		players[p.id] = p
	}
	rc, err := oracletab.RatedChess(trows, grows)
	if err != nil {
		return nil, err
	}
	order := make([]*tournament, len(rc))
	for i, t := range rc {
		order[i] = &tournament{t, ListOf(t.End)}
		if e, _ := time.Parse("2006-01-02", t.End); order[i].list > monthOf(e)+1 {
			st.CrossPeriods++
		}
	}
	out := map[string][]byte{}
	if len(order) == 0 {
		return out, nil
	}
	firstEnd, _ := time.Parse("2006-01-02", order[0].End)
	first := monthOf(firstEnd)
	last := first
	for _, t := range order {
		last = max(last, t.list)
	}
	byList := map[Month][]*tournament{}
	for _, t := range order {
		byList[t.list] = append(byList[t.list], t)
	}

	prevList := map[int64]int{}
	for m := first; m <= last; m++ {
		games := map[int64]int{} // rated games of the period just rated
		if m == first {
			for id := range startRated {
				players[id].lastActive = m
			}
		} else {
			closePeriod(m, byList[m], players, games, st)
		}
		b, now, err := writeList(m, players, prevList, games, st)
		if err != nil {
			return nil, err
		}
		out[m.String()] = b
		prevList = now
	}
	return out, nil
}

// closePeriod rates the period m − 1 (tournaments ts, in rating order) with the
// ratings in force (the list of m − 1, which is the players' current state).
func closePeriod(m Month, ts []*tournament, players map[int64]*player, games map[int64]int, st *Stats) {
	period := m - 1
	type rg struct{ opp, w2 int }
	rated := map[int64][]rg{}
	inForce := func(id int64) (int, bool) {
		p := players[id]
		if p == nil || !p.rated {
			return 0, false
		}
		return p.rating, true
	}
	for _, t := range ts {
		newPool := map[int64][]poolGame{}
		for _, g := range t.Games {
			if g.Bye {
				continue
			}
			ws, okw := oracletab.HalfPoints(strings.ToUpper(g.WR))
			bs, okb := oracletab.HalfPoints(strings.ToUpper(g.BR))
			if !okw || !okb {
				continue
			}
			wr, wRated := inForce(g.White)
			br, bRated := inForce(g.Black)
			switch {
			case wRated && bRated:
				rated[g.White] = append(rated[g.White], rg{br, ws})
				rated[g.Black] = append(rated[g.Black], rg{wr, bs})
			case wRated && players[g.Black] != nil:
				newPool[g.Black] = append(newPool[g.Black], poolGame{m, wr, bs})
			case bRated && players[g.White] != nil:
				newPool[g.White] = append(newPool[g.White], poolGame{m, br, ws})
			}
		}
		// The first tournament is the first in which the player met a rated
		// opponent over the board: the first with games for the pool.
		for id, pg := range newPool {
			p := players[id]
			if !p.firstDone {
				p.firstDone = true
				if !p.everRated {
					score := 0
					for _, x := range pg {
						score += x.w2
					}
					if score == 0 {
						st.ZeroFirst++
						pg = nil // zero in the first tournament: disregarded
					}
				}
			}
			p.pool = append(p.pool, pg...)
		}
	}
	// Rated players: one change per period, all from the ratings in force.
	newRating := map[int64]int{}
	for id, gs := range rated {
		p := players[id]
		k0 := K(p.reached, p.games, p.rating, p.birth, period.Year())
		k := KLimit(k0, len(gs))
		var w2, pd []int
		sum := 0
		for _, g := range gs {
			w2 = append(w2, g.w2)
			d := p.rating - g.opp
			c := Cap(p.rating, d, period >= exemptFrom)
			pd = append(pd, PD(c))
			sum += 50*g.w2 - PD(c)
			switch {
			case c != d:
				st.Capped++
			case d > 400 || d < -400:
				st.Exempt++
			}
		}
		st.RatedGames += len(gs)
		if k != k0 {
			st.KLimited++
		}
		if k0 == 10 {
			st.K10++
		}
		if k0 == 40 && p.games >= 30 {
			st.Junior++
		}
		if (k*sum)%100 == 50 || (k*sum)%100 == -50 {
			st.HalfRounded++
		}
		newRating[id] = p.rating + Change(k, w2, pd)
	}
	for id, r := range newRating {
		p := players[id]
		n := len(rated[id])
		p.games += n
		games[id] = n
		p.lastActive = m
		p.rating = r
		if r < 1400 { // below the floor: unrated from now on, empty pool
			st.Floor++
			p.rated, p.rating, p.pool = false, 0, nil
		}
	}
	// Unrated players' pools.
	for _, p := range players {
		if p.rated || len(p.pool) == 0 {
			continue
		}
		var kept []poolGame
		for _, g := range p.pool {
			if int(m-g.list) < 26 { // at most 26 consecutive periods: lists m−25 … m
				kept = append(kept, g)
			} else {
				st.Expired++
			}
		}
		p.pool = kept
		if len(p.pool) < 5 {
			continue
		}
		sum, w2 := 0, 0
		for _, g := range p.pool {
			sum += g.opp
			w2 += g.w2
		}
		_, ru := Initial(sum, len(p.pool), w2)
		if ru < 1400 {
			st.InitialLow++
			continue
		}
		st.Initial++
		if ru == 2200 {
			st.Initial2200++
		}
		if p.everRated {
			st.Reentered++
		}
		p.rated, p.rating, p.everRated = true, ru, true
		p.games += len(p.pool)
		p.pool = nil
		p.lastActive = m
	}
	for _, p := range players {
		if p.rated && p.rating >= 2400 {
			p.reached = true
		}
	}
}

func writeList(m Month, players map[int64]*player, prev map[int64]int, games map[int64]int, st *Stats) ([]byte, map[int64]int, error) {
	var listed []*player
	for _, p := range players {
		if p.rated {
			listed = append(listed, p)
		}
	}
	sort.Slice(listed, func(i, j int) bool {
		if listed[i].rating != listed[j].rating {
			return listed[i].rating > listed[j].rating
		}
		return listed[i].id < listed[j].id
	})
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"rank", "player_id", "name", "rating", "change", "games_period", "games_total", "k", "category", "flags"})
	now := map[int64]int{}
	for i, p := range listed {
		change := ""
		if old, ok := prev[p.id]; ok {
			change = strconv.Itoa(p.rating - old)
		}
		var flags []string
		if !p.listed {
			flags = append(flags, "new")
		}
		if m-p.lastActive >= 12 {
			flags = append(flags, "i")
			st.Inactive++
		}
		k := K(p.reached, p.games, p.rating, p.birth, m.Year())
		w.Write([]string{strconv.Itoa(i + 1), strconv.FormatInt(p.id, 10), p.name, strconv.Itoa(p.rating), change,
			strconv.Itoa(games[p.id]), strconv.Itoa(p.games), strconv.Itoa(k), "", strings.Join(flags, " ")})
		now[p.id] = p.rating
		p.listed = true
	}
	w.Flush()
	return buf.Bytes(), now, w.Error()
}

// WriteEdgeArchive writes a small hand-made CSV archive aimed at corners that
// random archives reach rarely or never; reffide_test.go checks the reference
// on it against hand computations, and the pipeline cross-check compares the
// product with the reference on it. Players: 1 Top 2700, 2 Mid 2200, 3 Idle
// 1400 (never plays a rated game), 4 and 5 FloorA/FloorB 1400 (FloorB wins:
// FloorA falls to 1390, removed), 6 Junior 1800 born 2007, 7 Partner 1600 (no
// birth year), 8 Climber 2390, and unrated 9 Newbie, 10 ZeroFirst, 11
// ForfeitFirst, 12 Strong, 13 OrderA, 14 OrderB, 15 Exact, 16 JustBelow, 17
// Under (fide_rating 1399: below the floor, starts unrated).
func WriteEdgeArchive(dir string) error {
	players := "player_id,name,birth_year,category,fide_rating,club\n" +
		"1,Top,1990,,2700,\n2,Mid,1985,,2200,\n3,Idle,1980,,1400,\n4,FloorA,1980,,1400,\n" +
		"5,FloorB,1980,,1400,\n6,Junior,2007,,1800,\n7,Partner,,,1600,\n8,Climber,1980,,2390,\n" +
		"9,Newbie,2000,,,\n10,ZeroFirst,2000,,,\n11,ForfeitFirst,,,,\n12,Strong,1995,,,\n13,OrderA,,,,\n14,OrderB,,,,\n15,Exact,,,,\n16,JustBelow,,,,\n" +
		"17,Under,,,1399,\n"
	var tours, games strings.Builder
	tours.WriteString("tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n")
	games.WriteString("tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points\n")
	type g struct {
		w, b   int
		wr, br string
	}
	win := func(w, b int) g { return g{w, b, "1", "0"} }
	draw := func(w, b int) g { return g{w, b, "=", "="} }
	add := func(id int, start, end string, gs ...g) {
		for i, x := range gs {
			fmt.Fprintf(&games, "%d,%d,%d,%d,%s,%s,,\n", id, i+1, x.w, x.b, x.wr, x.br)
		}
		fmt.Fprintf(&tours, "%d,T%d,%s,%s,swiss,%d,chess,true,\n", id, id, start, end, len(gs))
	}
	// January 2025 (list 2025-02).
	t1 := []g{win(5, 4), win(8, 1), win(7, 10), win(10, 9), {11, 7, "-", "+"}, draw(17, 9)}
	for range 18 {
		t1 = append(t1, draw(6, 7))
	}
	add(1, "2025-01-05", "2025-01-10", t1...)
	// Ends 26 February: list 2025-03.
	add(2, "2025-02-24", "2025-02-26", win(2, 8), draw(9, 7), win(6, 9))
	// Ends 27 February 2025: list 2025-04, rated with the 2025-03 list.
	add(3, "2025-02-25", "2025-02-27", win(2, 9),
		win(10, 7), draw(2, 10), win(6, 10), win(10, 7), win(2, 10),
		win(12, 1), g{1, 12, "0", "1"}, win(12, 2), g{2, 12, "0", "1"}, win(12, 2))
	// "First tournament" in rating order (end date, start date, id), not id order:
	// OrderA's first is 12 (ends earlier, zero: disregarded); OrderB's is 14
	// (same end, starts earlier, 1½), so its zero in 13 counts.
	add(12, "2025-03-01", "2025-03-10", win(7, 13), win(6, 13))
	add(11, "2025-03-08", "2025-03-12", win(13, 7), draw(13, 6), win(13, 3))
	add(14, "2025-03-02", "2025-03-12", win(14, 3), draw(14, 7))
	add(13, "2025-03-05", "2025-03-12", win(6, 14), win(2, 14), win(7, 14))
	add(15, "2025-04-08", "2025-04-10", draw(13, 7), win(2, 13))
	// ForfeitFirst: after the forfeit, a zero in its first tournament over the
	// board, then ½ of 5 (below 1400), then 3 wins.
	add(4, "2025-05-08", "2025-05-10", win(3, 11), win(3, 11), win(3, 11), win(6, 11), win(7, 11))
	add(5, "2025-06-08", "2025-06-10", draw(11, 3), win(3, 11), win(3, 11), win(6, 11), win(7, 11))
	add(20, "2025-07-08", "2025-07-10", win(11, 3), win(11, 3), win(11, 3))
	// Initial ratings of exactly 1400 (listed) and 1399 (not listed).
	add(16, "2025-05-12", "2025-05-14", draw(15, 16), win(3, 16))
	add(17, "2025-06-12", "2025-06-14", draw(15, 3), win(3, 15), win(7, 15), win(7, 15), win(6, 15),
		win(6, 16), win(6, 16), win(6, 16), win(7, 16), win(13, 16))
	// Under, unrated from the start: 0 of 2, then 2½ of 5.
	add(18, "2025-08-10", "2025-08-12", win(7, 17), win(6, 17))
	add(19, "2025-09-10", "2025-09-12", win(17, 7), draw(17, 7), win(7, 17), win(6, 17), win(17, 6))
	// The 2650 exemption: the September and October 2025 periods.
	add(6, "2025-09-08", "2025-09-10", draw(1, 2))
	add(7, "2025-10-08", "2025-10-10", draw(1, 2))
	// Newbie's pool: the 2025 games expire, each at L − G = 26.
	add(8, "2027-04-10", "2027-04-12", draw(9, 7), draw(9, 6))
	add(9, "2027-05-10", "2027-05-12", win(7, 9), draw(9, 6))
	add(10, "2027-06-10", "2027-06-12", draw(9, 7))
	for name, s := range map[string]string{"players.csv": players, "tournaments.csv": tours.String(), "games.csv": games.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			return err
		}
	}
	return nil
}
