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
			Rating: p.Rating, FideID: p.FideID, Rounds: emptyRounds(tt.Rounds),
		})
	}
	met := map[[2]int]int{}
	for _, g := range tt.Games {
		r := g.Round - 1
		if g.Black < 0 {
			t.Players[g.White].Rounds[r] = Round{Opp: -1, Result: g.WhiteResult}
			continue
		}
		t.Players[g.White].Rounds[r] = Round{Opp: g.Black, Colour: 'w', Result: g.WhiteResult}
		t.Players[g.Black].Rounds[r] = Round{Opp: g.White, Colour: 'b', Result: g.BlackResult}
		met[[2]int{min(g.White, g.Black), max(g.White, g.Black)}]++
	}
	if tt.System == "round-robin" {
		t.Kind = RoundRobin
		n := len(t.Players)
		double := n > 1 && len(met) == n*(n-1)/2
		for _, c := range met {
			double = double && c == 2
		}
		if double {
			t.Kind = DoubleRoundRobin
		}
	}
	return t, nil
}

func emptyRounds(n int) []Round {
	rs := make([]Round, n)
	for i := range rs {
		rs[i] = Round{Opp: -1, Result: 'Z'}
	}
	return rs
}
