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
		{"1.4.1c: full-point bye", event(Swiss, with(base, 9, bye('F'))...), GM, true, "", 8, 2421, 2614, "1-9"},
		{"1.4.1c misses: zero-point bye", event(Swiss, with(base, 9, bye('Z'))...), GM, false, "1.4.1a", 8, 2421, 2614, "1-8"},
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
		{"1.4.3a–c: an exempt event", func() Tournament {
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

// TestByeRoundText: a bye in round 4 instead of the draw with an IM (2400):
// 6.5/8 = 81.25 % is 81 % (dp 251), Ra 19220/8 = 2402.5 is 2403, Rp 2654.
func TestByeRoundText(t *testing.T) {
	r := CheckPlayer(event(Swiss, with(gmNorm(), 4, bye('U'))...), 0, GM)
	want := "1 Applicant: GM NORM, 6.5/8 games (and round 4's forfeit win or bye, 1.4.1c) (81%), Ra 2403, dp 251, Rp 2654, rounds 1-9\n"
	if got, _, _ := strings.Cut(text(r), "\n"); got+"\n" != want || r.ByeRound != 4 || r.Counted != 9 {
		t.Errorf("got %q (bye round %d, counted %d), want %q", got, r.ByeRound, r.Counted, want)
	}
}

func TestWriteCSV(t *testing.T) {
	tt := event(Swiss, gmNorm()...)
	tt.Players[0].Name = "=HYPERLINK(1)"
	var b strings.Builder
	if err := WriteCSV(&b, []Result{CheckPlayer(tt, 0, GM), CheckPlayer(tt, 0, IM)}); err != nil {
		t.Fatal(err)
	}
	want := "start_no,name,norm_title,achieved,games,ra,rp,score,fails,rounds_used\n" +
		"1,'=HYPERLINK(1),GM,yes,9,2402,2622,7,,1-9\n" +
		"1,'=HYPERLINK(1),IM,yes,9,2402,2622,7,,1-9\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func text(r Result) string {
	var b strings.Builder
	WriteText(&b, []Result{r})
	return b.String()
}

func TestFewerGames(t *testing.T) {
	base := gmNorm()
	// Two losses to GMs after the norm: 7/11 = 64 % (dp 102) against 26420/11
	// = 2401.8 → 2402 is Rp 2504; the first 9 rounds are the norm (1.4.1e).
	late := append(slices.Clone(base), o{"GM", "SWE", 2400, '0'}, o{"GM", "SWE", 2400, '0'})
	// A first-round win against an untitled 2000 (raised to 2200): 8/10 = 80 %
	// (dp 240), Ra 23820/10 = 2382, Rp 2622, but 3 GMs of 10 games is less than
	// 4; without that game it is the norm (1.4.1f).
	early := append([]o{{"", "ITA", 2000, '1'}}, base...)
	// Two first-round wins against unrated players: 9/11 = 82 % (dp 262), Ra
	// (21620+2200+1400)/11 = 2292.7 → 2293, Rp 2555. Without one of them: 8/10,
	// Ra 2382, Rp 2622; the GMs needed are 4 of 11 or 10 games.
	unrated := append([]o{{"", "ITA", 0, '1'}, {"", "BEL", 0, '1'}}, base...)
	fourGMs := titles(unrated, "", "", "GM", "GM", "GM", "IM", "IM", "GM")
	tests := []struct {
		name     string
		t        Tournament
		achieved bool
		fails    string
		games    int
		ra, rp   int
		rounds   string
	}{
		{"1.4.1e: later rounds left out", event(Swiss, late...), true, "", 9, 2402, 2622, "1-9"},
		{"1.4.1e misses: predetermined pairings", func() Tournament {
			t := event(Swiss, late...)
			t.Predetermined = true
			return t
		}(), false, "1.4.8", 11, 2402, 2504, "1-11"},
		{"1.4.1e misses: a round robin", event(RoundRobin, late...), false, "1.4.8", 11, 2402, 2504, "1-11"},
		{"1.4.1f: a defeated opponent left out", event(Swiss, early...), true, "", 9, 2402, 2622, "2-10"},
		{"1.4.1f: with predetermined pairings too", func() Tournament {
			t := event(Swiss, early...)
			t.Predetermined = true
			return t
		}(), true, "", 9, 2402, 2622, "2-10"},
		{"1.4.1f: Swiss, two defeated opponents left out", event(Swiss, unrated...), true, "", 9, 2402, 2622, "3-11"},
		{"1.4.1f: round robin whose mix makes a norm possible", event(RoundRobin, fourGMs...), true, "", 10, 2382, 2622, "2-11"},
		{"1.4.1f misses: round robin whose mix does not", event(RoundRobin, unrated...), false, "1.4.5b;1.4.8;1.4.8a", 11, 2293, 2555, "1-11"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := CheckPlayer(tt.t, 0, GM)
			got := strings.Join(r.Fails(), ";")
			if r.Achieved != tt.achieved || got != tt.fails || r.Games != tt.games || r.Ra != tt.ra || r.Rp != tt.rp || RoundList(r.Rounds) != tt.rounds {
				t.Errorf("got achieved %v fails %q games %d Ra %d Rp %d rounds %s, want %v %q %d %d %d %s\n%s",
					r.Achieved, got, r.Games, r.Ra, r.Rp, RoundList(r.Rounds), tt.achieved, tt.fails, tt.games, tt.ra, tt.rp, tt.rounds, text(r))
			}
		})
	}
}

// doubleRR is a 6-player double round robin: the applicant meets A–E twice
// (round r: opponent (r−1) mod 5), 6/10 = 60 % (dp 72) against
// (2·2600·2 + 3·2500·2)/10 = 2540: Rp 2612.
func doubleRR(titlesAE ...string) Tournament {
	opps := []o{{"GM", "GER", 2600, 0}, {"GM", "FRA", 2600, 0}, {"IM", "ESP", 2500, 0}, {"IM", "USA", 2500, 0}, {"IM", "ENG", 2500, 0}}
	for i, t := range titlesAE {
		opps[i].title = t
	}
	t := Tournament{Kind: DoubleRoundRobin, Rounds: 10}
	t.Players = append(t.Players, Player{StartNo: 1, Name: "Applicant", Title: "IM", Federation: "NED", Rating: 2450})
	for i, x := range opps {
		t.Players = append(t.Players, Player{StartNo: i + 2, Name: "Opponent " + string(rune('A'+i)), Title: x.title, Federation: x.fed, Rating: x.rating})
	}
	for r, res := range "11==0=1=10" {
		t.Players[0].Rounds = append(t.Players[0].Rounds, Round{Opp: 1 + r%5, Colour: "wb"[r/5], Result: byte(res)})
	}
	return t
}

func TestDoubleRoundRobin(t *testing.T) {
	// 2 GMs met twice are 4 games of 10, a third; but a double round robin
	// counts players: 3 of the 5.
	miss := CheckPlayer(doubleRR(), 0, GM)
	if miss.Achieved || strings.Join(miss.Fails(), ";") != "1.4.5b" || miss.Ra != 2540 || miss.Rp != 2612 {
		t.Errorf("2 GMs of 5 players: %s", text(miss))
	}
	var q Requirement
	for _, x := range miss.Requirements {
		if x.Article == "1.4.5b" {
			q = x
		}
	}
	if q.Value != 2 || q.Need != 3 {
		t.Errorf("1.4.5b counts %v of %v, want 2 of 3", q.Value, q.Need)
	}
	meet := CheckPlayer(doubleRR("GM", "GM", "GM"), 0, GM)
	if !meet.Achieved || RoundList(meet.Rounds) != "1-10" {
		t.Errorf("3 GMs of 5 players: %s", text(meet))
	}
}

// tenGMs is a 10-round Swiss against GMs rated rating from four federations.
func tenGMs(rating int, res string) Tournament {
	var rounds []o
	for i := range 10 {
		rounds = append(rounds, o{"GM", []string{"GER", "FRA", "ESP", "USA"}[i%4], rating, res[i]})
	}
	return event(Swiss, rounds...)
}

func TestScoreAndRounding(t *testing.T) {
	tests := []struct {
		name          string
		t             Tournament
		achieved      bool
		fails         string
		percent, ra   int
		rp            int
		score, scored float64
	}{
		// 1.4.8b: 35 % of 10 games is 3.5 points: p 35 %, dp −110, Ra 2710.
		{"1.4.8b: 35 %", tenGMs(2710, "000000=111"), true, "", 35, 2710, 2600, 3.5, 3.5},
		{"1.4.8b misses: 30 % though Rp 2611", tenGMs(2760, "0000000111"), false, "1.4.8b", 30, 2760, 2611, 3, 3.5},
		// 1.4.7: 23805/10 = 2380.5 is 2381.
		{"1.4.7: Ra .5 up", func() Tournament {
			t := tenGMs(2380, "1111111==0")
			t.Players[10].Rating = 2385
			return t
		}(), true, "", 80, 2381, 2621, 8, 3.5},
		// 1.4.9: 5/8 = 62.5 % is 63 % (dp 95), over the 8 games of 1.4.1c.
		{"1.4.9: p .5 up", func() Tournament {
			t := tenGMs(2510, "11111000==")
			t.Rounds = 9
			t.Players[0].Rounds = append(t.Players[0].Rounds[:8], Round{Opp: -1, Result: 'U'})
			return t
		}(), true, "", 63, 2510, 2605, 5, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := CheckPlayer(tt.t, 0, GM)
			var need float64
			for _, q := range r.Requirements {
				if q.Article == "1.4.8b" {
					need = q.Need
				}
			}
			if r.Achieved != tt.achieved || strings.Join(r.Fails(), ";") != tt.fails || r.Percent != tt.percent || r.Ra != tt.ra || r.Rp != tt.rp || r.Score != tt.score || need != tt.scored {
				t.Errorf("got %v %q p %d Ra %d Rp %d score %v of %v, want %v %q %d %d %d %v of %v\n%s", r.Achieved, strings.Join(r.Fails(), ";"), r.Percent, r.Ra, r.Rp, r.Score, need,
					tt.achieved, tt.fails, tt.percent, tt.ra, tt.rp, tt.score, tt.scored, text(r))
			}
		})
	}
}

// TestRegulationCounts checks the opponents the regulations' table asks for,
// by number of games: title holders (1.4.5a), holders of the title (1.4.5b),
// and the most from the applicant's federation and from one federation
// (1.4.4).
func TestRegulationCounts(t *testing.T) {
	table := []struct{ games, holders, titled, own, one int }{
		{7, 4, 3, 4, 4},
		{8, 4, 3, 4, 5},
		{9, 5, 3, 5, 6},
		{10, 5, 4, 6, 6},
		{11, 6, 4, 6, 7},
		{12, 6, 4, 7, 8},
		{13, 7, 5, 7, 8},
	}
	for _, row := range table {
		var rounds []o
		for range row.games {
			rounds = append(rounds, o{"GM", "GER", 2500, '='})
		}
		r := CheckPlayer(event(Swiss, rounds...), 0, GM)
		got := map[string][]float64{}
		for _, q := range r.Requirements {
			got[q.Article+" "+q.What] = append(got[q.Article+" "+q.What], q.Need)
		}
		want := map[string]float64{
			"1.4.5a title holders":                         float64(row.holders),
			"1.4.5b opponents holding GM":                  float64(row.titled),
			"1.4.4 opponents from the player's federation": float64(row.own),
			"1.4.4 opponents from one federation":          float64(row.one),
		}
		for k, v := range want {
			if len(got[k]) != 1 || got[k][0] != v {
				t.Errorf("%d games: %s needs %v, want %v", row.games, k, got[k], v)
			}
		}
	}
}

// TestGMScoreTable checks the score a GM norm needs in 9 games by Ra, from
// table 8.1.1: 7 (78 %, dp 220) from 2380, 6.5 (72 %, 166) from 2434, 6 (67 %,
// 125) from 2475, 5.5 (61 %, dp 80) from 2520.
func TestGMScoreTable(t *testing.T) {
	for _, c := range []struct {
		points string // results of 9 games
		minRa  int
	}{
		{"11111====", 2380},
		{"1111=====", 2434},
		{"111======", 2475},
		{"11=======", 2520},
	} {
		for _, ra := range []int{c.minRa - 1, c.minRa} {
			var rounds []o
			for i := range 9 {
				rounds = append(rounds, o{"GM", []string{"GER", "FRA", "ESP"}[i%3], ra, c.points[i]})
			}
			r := CheckPlayer(event(Swiss, rounds...), 0, GM)
			if r.Achieved != (ra == c.minRa) {
				t.Errorf("%s at Ra %d: achieved %v\n%s", c.points, ra, r.Achieved, text(r))
			}
		}
	}
}

func TestTitles(t *testing.T) {
	tests := []struct {
		title  string
		female bool
		want   string
	}{
		{"GM", false, ""},
		{"IM", false, "GM"},
		{"IM", true, "GM"},
		{"FM", false, "GM IM"},
		{"", false, "GM IM"},
		{"CM", false, "GM IM"},
		{"", true, "GM IM WGM WIM"},
		{"WFM", true, "GM IM WGM WIM"},
		{"WGM", true, "GM IM"},
		{"WIM", true, "GM IM WGM"},
		{"FM", true, "GM IM WGM WIM"},
	}
	for _, tt := range tests {
		got := strings.Join(Titles(Player{Title: tt.title, Female: tt.female}), " ")
		if got != tt.want {
			t.Errorf("Titles(%q, female %v) = %q, want %q", tt.title, tt.female, got, tt.want)
		}
	}
	for in, want := range map[string]string{"g": GM, "GM": GM, "wg": WGM, " wim": WIM, "m": IM, "WFM": "WFM", "c": "CM", "XY": "", "": ""} {
		if got := Title(in); got != want {
			t.Errorf("Title(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRoundList(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9}, "1-9"}, {[]int{1, 2, 3, 4, 6, 7, 8, 9}, "1-4,6-9"}, {[]int{3}, "3"}, {nil, ""}, {[]int{1, 3, 5, 6}, "1,3,5-6"}} {
		if got := RoundList(c.in); got != c.want {
			t.Errorf("RoundList(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// largeSwiss is the event of gmNorm with 6 of the 9 opponents from NED, the
// host (1.4.4 fails: 6 > 5), so that 3 foreign rated players met him: IM GER,
// FM FRA, CM ESP. Extra players who did not meet him add foreign players rated
// 2100 from fs in turn, the first titled of them IMs.
func largeSwiss(foreign, titled int, fs ...string) Tournament {
	t := event(Swiss, feds(gmNorm(), "NED", "NED", "NED", "NED", "NED", "NED", "GER", "FRA", "ESP")...)
	t.Host = "NED"
	for i := range foreign {
		p := Player{StartNo: len(t.Players) + 1, Federation: fs[i%len(fs)], Rating: 2100}
		if i < titled {
			p.Title = IM
		}
		t.Players = append(t.Players, p)
	}
	return t
}

// TestLargeSwiss: 1.4.3d lifts 1.4.3 and 1.4.4 in a Swiss with 20 foreign
// rated players from 3 federations, 10 of them GM, IM, WGM or WIM.
func TestLargeSwiss(t *testing.T) {
	tests := []struct {
		name string
		t    Tournament
		want bool
	}{
		// 3 met him (1 IM) and 17 more (9 IMs); GER, FRA, ESP, SWE, NOR.
		{"20 foreign from 3, 10 titled", largeSwiss(17, 9, "SWE", "NOR"), true},
		{"19 foreign", largeSwiss(16, 9, "SWE", "NOR"), false},
		{"9 titled", largeSwiss(17, 8, "SWE", "NOR"), false},
		{"host unknown", func() Tournament { t := largeSwiss(17, 9, "SWE", "NOR"); t.Host = ""; return t }(), false},
		{"a round robin", func() Tournament { t := largeSwiss(17, 9, "SWE", "NOR"); t.Kind = RoundRobin; return t }(), false},
		{"unrated foreigners do not count", func() Tournament {
			t := largeSwiss(17, 9, "SWE", "NOR")
			t.Players[len(t.Players)-1].Rating = 0
			return t
		}(), false},
		{"2 federations", func() Tournament {
			t := largeSwiss(17, 9, "GER", "FRA")
			t.Players[9].Federation = "GER" // ESP, round 9
			return t
		}(), false},
	}
	for _, tt := range tests {
		if got := LargeSwiss(tt.t); got != tt.want {
			t.Errorf("%s: LargeSwiss = %v, want %v", tt.name, got, tt.want)
		}
		r := CheckPlayer(tt.t, 0, GM)
		wantFails := "1.4.4"
		if tt.want {
			wantFails = ""
		}
		if got := strings.Join(r.Fails(), ";"); got != wantFails {
			t.Errorf("%s: fails %q, want %q\n%s", tt.name, got, wantFails, text(r))
		}
	}
}
