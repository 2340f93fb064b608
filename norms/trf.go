package norms

import (
	"strings"

	"github.com/ratelist/ratelist/trf"
)

// FromTRF converts a TRF file: its players with title, federation, sex, rating
// and FIDE id; each pairing once, as the file's two records settle it; a round
// robin in which every pair met twice is a double round robin; the host
// federation from 032.
func FromTRF(f *trf.File) (Tournament, error) {
	tt, err := f.Tournament()
	if err != nil {
		return Tournament{}, err
	}
	t := Tournament{Rounds: tt.Rounds, Host: strings.ToUpper(strings.TrimSpace(f.Federation))}
	for _, p := range f.Players {
		sex := strings.ToLower(p.Sex)
		title := Title(p.Title)
		t.Players = append(t.Players, Player{
			StartNo: p.StartNo, Name: p.Name, Title: title, Federation: strings.ToUpper(p.Federation),
			Female: sex == "w" || sex == "f" || title == WGM || title == WIM || title == "WFM" || title == "WCM",
			Rating: p.Rating, FideID: p.FideID, Rounds: EmptyRounds(tt.Rounds),
		})
	}
	for _, g := range tt.Games {
		r := g.Round - 1
		if g.Black < 0 {
			t.Players[g.White].Rounds[r] = Round{Opp: -1, Result: g.WhiteResult}
			continue
		}
		t.Players[g.White].Rounds[r] = Round{Opp: g.Black, Colour: 'w', Result: g.WhiteResult}
		t.Players[g.Black].Rounds[r] = Round{Opp: g.White, Colour: 'b', Result: g.BlackResult}
	}
	if tt.System == "round-robin" {
		t.Kind = RoundRobinKind(t)
	}
	return t, nil
}

// RoundRobinKind is the kind of a round robin as its pairings show: a double
// round robin when every pair of players met twice, else a round robin.
func RoundRobinKind(t Tournament) Kind {
	met := map[[2]int]int{}
	for i, p := range t.Players {
		for _, rd := range p.Rounds {
			if rd.Opp > i {
				met[[2]int{i, rd.Opp}]++
			}
		}
	}
	n := len(t.Players)
	if n < 2 || len(met) != n*(n-1)/2 {
		return RoundRobin
	}
	for _, c := range met {
		if c != 2 {
			return RoundRobin
		}
	}
	return DoubleRoundRobin
}

// EmptyRounds are n rounds without a game, for a player's Rounds to fill.
func EmptyRounds(n int) []Round {
	rs := make([]Round, n)
	for i := range rs {
		rs[i] = Round{Opp: -1, Result: 'Z'}
	}
	return rs
}
