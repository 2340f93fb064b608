package norms

import (
	"slices"
	"strings"
	"testing"
)

// o is one round of the applicant: an opponent (title, federation, rating)
// and the applicant's result; an empty title and federation with rating 0 and
// a bye or forfeit code is a round without an opponent.
type o struct {
	title, fed string
	rating     int
	res        byte
}

var bye = func(code byte) o { return o{res: code} }

// event builds a tournament whose player 0, an FM of NED, plays rounds; each
// opponent is a player of his own. Opponents' other games do not matter.
func event(kind Kind, rounds ...o) Tournament {
	t := Tournament{Kind: kind, Rounds: len(rounds)}
	t.Players = append(t.Players, Player{StartNo: 1, Name: "Applicant", Title: "FM", Federation: "NED", Rating: 2450})
	for r, x := range rounds {
		if x.fed == "" && x.rating == 0 && x.title == "" {
			t.Players[0].Rounds = append(t.Players[0].Rounds, Round{Opp: -1, Result: x.res})
			continue
		}
		j := len(t.Players)
		t.Players = append(t.Players, Player{StartNo: j + 1, Name: "Opponent " + string(rune('A'+r)), Title: x.title, Federation: x.fed, Rating: x.rating})
		t.Players[0].Rounds = append(t.Players[0].Rounds, Round{Opp: j, Colour: "wb"[r%2], Result: x.res})
	}
	return t
}

// gmNorm is the smallest Swiss GM norm: 7/9 (78 %, dp 220) against an average
// of 21620/9 = 2402.2 → 2402, Rp 2622; 3 GMs, 8 title holders (the CM does not
// count), 3 of NED (≤ 5), 5 other federations.
func gmNorm() []o {
	return []o{
		{"GM", "GER", 2550, '1'},
		{"GM", "FRA", 2500, '='},
		{"GM", "ESP", 2450, '1'},
		{"IM", "NED", 2400, '='},
		{"IM", "NED", 2400, '1'},
		{"FM", "GER", 2350, '='},
		{"IM", "USA", 2420, '1'},
		{"FM", "NED", 2300, '='},
		{"CM", "ENG", 2250, '1'},
	}
}

// with returns rounds with round r (1-based) replaced.
func with(rounds []o, r int, x o) []o {
	out := slices.Clone(rounds)
	out[r-1] = x
	return out
}

func feds(rounds []o, fs ...string) []o {
	out := slices.Clone(rounds)
	for i, f := range fs {
		out[i].fed = f
	}
	return out
}

func titles(rounds []o, ts ...string) []o {
	out := slices.Clone(rounds)
	for i, t := range ts {
		out[i].title = t
	}
	return out
}

func ratings(rounds []o, rs ...int) []o {
	out := slices.Clone(rounds)
	for i, r := range rs {
		out[i].rating = r
	}
	return out
}

func results(rounds []o, rs string) []o {
	out := slices.Clone(rounds)
	for i := range rs {
		out[i].res = rs[i]
	}
	return out
}

func TestProvisions(t *testing.T) {
	base := gmNorm()
	tests := []struct {
		name     string
		t        Tournament
		title    string
		achieved bool
		fails    string
		games    int
		ra, rp   int
		rounds   string
	}{
		{"norm", event(Swiss, base...), GM, true, "", 9, 2402, 2622, "1-9"},

		// 1.4.1a: 9 games; with a half-point bye in round 9 only 8.
		{"1.4.1a misses: 8 games and a requested bye", event(Swiss, with(base, 9, bye('H'))...), GM, false, "1.4.1a", 8, 2421, 2614, "1-8"},
		{"1.4.1a misses: 8 games and a forfeit loss", event(Swiss, with(base, 9, o{"CM", "ENG", 2250, '-'})...), GM, false, "1.4.1a", 8, 2421, 2614, "1-8"},
		// 1.4.1c: 8 games and a pairing-allocated bye or a forfeit win in 9
		// rounds: 6/8 = 75 % (dp 193) against 19370/8 = 2421.25 → 2421.
		{"1.4.1c: pairing-allocated bye", event(Swiss, with(base, 9, bye('U'))...), GM, true, "", 8, 2421, 2614, "1-9"},
		{"1.4.1c: forfeit win", event(Swiss, with(base, 9, o{"CM", "ENG", 2250, '+'})...), GM, true, "", 8, 2421, 2614, "1-9"},
		{"1.4.1c: bye in round 1", event(Swiss, append([]o{bye('U')}, base[:8]...)...), GM, true, "", 8, 2421, 2614, "1-9"},
		// 1.4.1b: a 7-round team event needs 7 games.
		{"1.4.1b: 7 games", func() Tournament {
			t := event(Swiss, base[:7]...)
			t.SevenGames = true
			return t
		}(), GM, true, "", 7, 2439, 2669, "1-7"},
		{"1.4.1b misses: 7 games outside a team event", event(Swiss, base[:7]...), GM, false, "1.4.1a", 7, 2439, 2669, "1-7"},

		// 1.4.3: two federations besides the applicant's.
		{"1.4.3: two other federations", event(Swiss, feds(base, "NED", "NED", "NED", "GER", "GER", "GER", "GER", "GER", "FRA")...), GM, true, "", 9, 2402, 2622, "1-9"},
		{"1.4.3 misses: one other federation", event(Swiss, feds(base, "NED", "NED", "NED", "GER", "GER", "GER", "GER", "GER", "GER")...), GM, false, "1.4.3", 9, 2402, 2622, "1-9"},
		// 1.4.4: at most 3/5 (9 games: 5) from his federation, 2/3 (6) from one.
		{"1.4.4: 5 of his federation", event(Swiss, feds(base, "NED", "NED", "NED", "NED", "NED", "GER", "GER", "FRA", "FRA")...), GM, true, "", 9, 2402, 2622, "1-9"},
		{"1.4.4 misses: 6 of his federation", event(Swiss, feds(base, "NED", "NED", "NED", "NED", "NED", "NED", "GER", "GER", "FRA")...), GM, false, "1.4.4", 9, 2402, 2622, "1-9"},
		{"1.4.4: 6 of one federation", event(Swiss, feds(base, "GER", "GER", "GER", "GER", "GER", "GER", "NED", "FRA", "FRA")...), GM, true, "", 9, 2402, 2622, "1-9"},
		{"1.4.4 misses: 7 of one federation", event(Swiss, feds(base, "GER", "GER", "GER", "GER", "GER", "GER", "GER", "NED", "FRA")...), GM, false, "1.4.4", 9, 2402, 2622, "1-9"},
		{"1.4.3a–d: an exempt event", func() Tournament {
			t := event(Swiss, feds(base, "NED", "NED", "NED", "NED", "NED", "NED", "NED", "NED", "NED")...)
			t.Exempt = true
			return t
		}(), GM, true, "", 9, 2402, 2622, "1-9"},
		{"1.4.3 and 1.4.4 miss: a national event not marked", event(Swiss, feds(base, "NED", "NED", "NED", "NED", "NED", "NED", "NED", "NED", "NED")...), GM, false, "1.4.3;1.4.4", 9, 2402, 2622, "1-9"},

		// 1.4.5a: half the opponents (9: 5) title holders; CM and WCM do not count.
		{"1.4.5a: 5 title holders", event(Swiss, titles(base, "GM", "GM", "GM", "IM", "WFM", "CM", "WCM", "", "")...), GM, true, "", 9, 2402, 2622, "1-9"},
		{"1.4.5a misses: 4 title holders", event(Swiss, titles(base, "GM", "GM", "GM", "IM", "CM", "CM", "WCM", "", "")...), GM, false, "1.4.5a", 9, 2402, 2622, "1-9"},
		// 1.4.5b: a third, at least 3, holding the title or a stronger one.
		{"1.4.5b misses: 2 GMs", event(Swiss, titles(base, "GM", "GM", "IM")...), GM, false, "1.4.5b", 9, 2402, 2622, "1-9"},
		{"1.4.5b: 3 IMs or GMs for an IM norm", event(Swiss, titles(base, "IM", "GM", "IM", "FM", "FM", "FM", "WGM", "FM", "CM")...), IM, true, "", 9, 2402, 2622, "1-9"},
		{"1.4.5b misses: a WGM is no IM", event(Swiss, titles(base, "IM", "GM", "WGM", "FM", "FM", "FM", "WGM", "FM", "CM")...), IM, false, "1.4.5b", 9, 2402, 2622, "1-9"},

		// 1.4.6: unrated counts 1400; the lowest-rated opponent alone is raised
		// to the floor: (17070+2200+1400)/9 = 2296.7, where raising both would
		// give 2385.6 and a norm.
		{"1.4.6: one of two 1400s raised", event(Swiss, ratings(base, 2550, 2500, 2450, 2400, 2400, 2350, 2420, 1400, 0)...), GM, false, "1.4.8;1.4.8a", 9, 2297, 2517, "1-9"},
		{"1.4.6: the lowest raised to 2200", event(Swiss, ratings(base, 2550, 2500, 2450, 2400, 2400, 2350, 2420, 2200, 1900)...), GM, true, "", 9, 2386, 2606, "1-9"},
		{"1.4.6: unrated raised to the IM floor 2050", event(Swiss, ratings(titles(base, "IM", "IM", "IM"), 2550, 2500, 2450, 2400, 2400, 2350, 2420, 2200, 0)...), IM, true, "", 9, 2369, 2589, "1-9"},

		// 1.4.8: Rp ≥ 2600. 6.5/9 = 72 % (dp 166): Ra 2434 is enough, 2433 is not.
		{"1.4.8: Rp 2600", event(Swiss, results(ratings(base, 2550, 2500, 2450, 2400, 2400, 2350, 2420, 2500, 2335), "1=1=1=101")...), GM, true, "", 9, 2434, 2600, "1-9"},
		{"1.4.8 misses: Rp 2599", event(Swiss, results(ratings(base, 2550, 2500, 2450, 2400, 2400, 2350, 2420, 2500, 2327), "1=1=1=101")...), GM, false, "1.4.8", 9, 2433, 2599, "1-9"},
		// 1.4.8a: Ra ≥ 2380 even with a high score: 8.5/9 = 94 % (dp 444).
		{"1.4.8a: Ra 2380", event(Swiss, results(ratings(base, 2400, 2400, 2400, 2400, 2400, 2400, 2400, 2400, 2220), "11111111=")...), GM, true, "", 9, 2380, 2824, "1-9"},
		{"1.4.8a misses: Ra 2379", event(Swiss, results(ratings(base, 2400, 2400, 2400, 2400, 2400, 2400, 2400, 2400, 2211), "11111111=")...), GM, false, "1.4.8a", 9, 2379, 2823, "1-9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := CheckPlayer(tt.t, 0, tt.title)
			got := strings.Join(r.Fails(), ";")
			if r.Achieved != tt.achieved || got != tt.fails || r.Games != tt.games || r.Ra != tt.ra || r.Rp != tt.rp || RoundList(r.Rounds) != tt.rounds {
				t.Errorf("got achieved %v fails %q games %d Ra %d Rp %d rounds %s, want %v %q %d %d %d %s\n%s",
					r.Achieved, got, r.Games, r.Ra, r.Rp, RoundList(r.Rounds), tt.achieved, tt.fails, tt.games, tt.ra, tt.rp, tt.rounds, text(r))
			}
		})
	}
}

func text(r Result) string {
	var b strings.Builder
	WriteText(&b, []Result{r})
	return b.String()
}
