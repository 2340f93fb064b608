// Package refelo is a deliberately simple reference implementation of the
// school Elo system (docs/school-elo.md, whose sections the § numbers below
// are), written from the rules alone to cross-check the product. It favours obviousness over speed: whole tables in
// memory, maps, and integer arithmetic in hundredths and half points.
//
// Readings taken where the rules leave room (each compared with the product):
//   - Tournaments are rated strictly one after another in the order of §1;
//     "the ratings its players had when it started" are the ratings after every
//     earlier tournament in that order, and the stage in force is the stage after
//     the previous tournament in that order (§5).
//   - Stage one: a player with no rating but a category or an Elo gets the
//     initial rating when the tournament starts (§5, §9), so they count as a
//     rated opponent in that tournament.
//   - "More than 100 players have played 30 or more games" counts players whose
//     games_total (rated games, §1 and §4) is ≥ 30.
//   - rank is the row number (1, 2, 3, …) in the order rating desc, player_id asc.
package refelo

import (
	"bytes"
	"encoding/csv"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"github.com/ratelist/ratelist/internal/oracle/oracletab"
)

// PD is Table 2: the expected score, in hundredths, of a player whose rating
// difference to the opponents' average is d (capped at ±350, §2).
func PD(d int) int {
	return oracletab.PD(max(-350, min(350, d)))
}

// K is the development coefficient for the next tournament (§3): tourneys
// is the number of tournaments in which the player's rating was computed, games
// the rated games so far, rating the rating before the tournament.
func K(tourneys, games, rating int) int {
	switch {
	case tourneys < 2 || (tourneys < 3 && games <= 18):
		return 40
	case games < 30:
		return 25
	case rating <= 2000:
		return 15
	}
	return 10
}

// Change is K × (W − We), We = n × PD(Ro − Ra), rounded half away from zero
// (§2). w2 is the score in half points; ra is already rounded.
func Change(ro, ra, n, w2, k int) int {
	we := n * PD(ro-ra)                               // hundredths
	return oracletab.RoundHalfAway(k*(50*w2-we), 100) // k × (W − We) in hundredths → whole
}

// AverageRating is Ra: the average of the opponents' ratings rounded half up.
func AverageRating(opps []int) int {
	sum := 0
	for _, r := range opps {
		sum += r
	}
	return oracletab.RoundHalfUp(sum, len(opps))
}

// StageTwoInitial is a first-time player's rating from their result in stage
// two (§5): n rated games, w2 points in half points, ra the
// opponents' rounded average. ok is false when the score is 0 (undefined).
func StageTwoInitial(ra, n, w2 int) (int, bool) {
	switch {
	case w2 == n: // exactly 50% (w2 is in half points)
		return ra, true
	case w2 > n:
		// Ra + 20 × floor((W − n/2) / 0.5) = Ra + 20 × (2W − n)
		return ra + 20*(w2-n), true
	}
	p := oracletab.RoundHalfUp(100*w2, 2*n) // W/n in hundredths, half up
	dp, ok := oracletab.DP(p)
	if !ok {
		return 0, false
	}
	return ra + dp, true
}

// StageOneInitial is the initial rating by Elo (not less than 2000) or by
// category; ok is false for a student with neither.
func StageOneInitial(category, elo int) (int, bool) {
	if elo > 0 {
		return max(elo, 2000), true
	}
	switch category {
	case 1:
		return 2000, true
	case 2:
		return 1800, true
	case 3:
		return 1600, true
	case 4:
		return 1400, true
	}
	return 0, false
}

// Category is the list's category column for a rating (§6).
func Category(r int) string {
	switch {
	case r >= 2200:
		return "CM"
	case r >= 2000:
		return "1"
	case r >= 1800:
		return "2"
	case r >= 1600:
		return "3"
	case r >= 1400:
		return "4"
	}
	return ""
}

type player struct {
	id       int64
	name     string
	category int
	elo      int

	rated    bool
	rating   int
	games    int // games_total
	tourneys int // tournaments in which the rating was computed
}

type tournament = oracletab.Tournament

// Lists rates the CSV archive in dir under the school rules with the given
// stage (0 = automatic switch, 1 or 2 = pinned) and returns each monthly
// rating list's CSV bytes keyed "YYYY-MM".
func Lists(dir string, stagePin int) (map[string][]byte, error) {
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
	for _, r := range prows {
		p := &player{id: oracletab.ID64(r["player_id"]), name: r["name"], category: orZero(oracletab.OptInt(r["category"])), elo: orZero(oracletab.OptInt(r["fide_rating"]))}
		players[p.id] = p
	}
	order, err := oracletab.RatedChess(trows, grows)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	if len(order) == 0 {
		return out, nil
	}

	stage := 1
	if stagePin == 2 {
		stage = 2
	}
	monthOf := func(date string) string { return date[:7] }
	first, last := monthOf(order[0].End), monthOf(order[len(order)-1].End)
	periodGames := map[int64]int{}
	prevList := map[int64]int{} // player → rating on the previous list
	everListed := map[int64]bool{}
	ti := 0
	for month := first; month <= last; month = nextMonth(month) {
		clear(periodGames)
		for ti < len(order) && monthOf(order[ti].End) <= month {
			rateTournament(order[ti], players, stage, periodGames)
			ti++
			if stagePin == 0 && stage == 1 {
				n := 0
				for _, p := range players {
					if p.rated && p.games >= 30 {
						n++
					}
				}
				if n > 100 {
					stage = 2
				}
			}
		}
		var listed []*player
		for _, p := range players {
			if p.rated && p.games >= 8 {
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
			if old, ok := prevList[p.id]; ok {
				change = strconv.Itoa(p.rating - old)
			}
			flags := ""
			if !everListed[p.id] {
				flags = "new"
			}
			w.Write([]string{strconv.Itoa(i + 1), strconv.FormatInt(p.id, 10), p.name, strconv.Itoa(p.rating), change,
				strconv.Itoa(periodGames[p.id]), strconv.Itoa(p.games), strconv.Itoa(K(p.tourneys, p.games, p.rating)),
				Category(p.rating), flags})
			now[p.id] = p.rating
			everListed[p.id] = true
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return nil, err
		}
		out[month] = buf.Bytes()
		prevList = now
	}
	return out, nil
}

func nextMonth(m string) string {
	t, err := time.Parse("2006-01", m)
	if err != nil {
		panic(err)
	}
	return t.AddDate(0, 1, 0).Format("2006-01")
}

// rateTournament applies one tournament with the stage in force at its start.
func rateTournament(t *tournament, players map[int64]*player, stage int, periodGames map[int64]int) {
	// Who plays in it.
	in := map[int64]bool{}
	for _, g := range t.Games {
		in[g.White] = true
		if !g.Bye {
			in[g.Black] = true
		}
	}
	// Stage one: newcomers with a category or Elo get their initial rating now.
	if stage == 1 {
		for id := range in {
			p := players[id]
			if p != nil && !p.rated {
				if r, ok := StageOneInitial(p.category, p.elo); ok {
					p.rated, p.rating = true, r
				}
			}
		}
	}
	// Ratings at the start (after the stage-one initial ratings).
	start := map[int64]int{}
	for id := range in {
		if p := players[id]; p != nil && p.rated {
			start[id] = p.rating
		}
	}
	// Each player's rated games: played over the board against an opponent
	// with a rating at the start.
	opps := map[int64][]int{}
	pts := map[int64]int{}
	add := func(me, opp int64, code string) {
		s, ok := oracletab.HalfPoints(code)
		if !ok {
			return
		}
		r, rated := start[opp]
		if !rated {
			return
		}
		opps[me] = append(opps[me], r)
		pts[me] += s
	}
	for _, g := range t.Games {
		if g.Bye {
			continue
		}
		add(g.White, g.Black, g.WR)
		add(g.Black, g.White, g.BR)
	}
	// Compute every change from the start ratings, then apply.
	type result struct {
		p          *player
		rating     int
		computed   bool
		games      int
		newlyRated bool
	}
	var results []result
	for id := range in {
		p := players[id]
		if p == nil {
			continue
		}
		n := len(opps[id])
		if p.rated {
			res := result{p: p, rating: p.rating, games: n}
			if n >= 4 {
				ra := AverageRating(opps[id])
				k := K(p.tourneys, p.games, p.rating)
				res.rating = p.rating + Change(p.rating, ra, n, pts[id], k)
				res.computed = true
			}
			results = append(results, res)
			continue
		}
		if stage == 2 && n >= 4 {
			if r, ok := StageTwoInitial(AverageRating(opps[id]), n, pts[id]); ok {
				results = append(results, result{p: p, rating: r, computed: true, games: n, newlyRated: true})
			}
		}
	}
	for _, r := range results {
		r.p.rating = r.rating
		r.p.rated = true
		r.p.games += r.games
		if r.computed {
			r.p.tourneys++
		}
		periodGames[r.p.id] += r.games
	}
}

// orZero is n, 0 for an empty cell.
func orZero(n int, _ bool) int { return n }
