package pipeline

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"slices"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/norms"
	"github.com/ratelist/ratelist/output"
)

// Norm is one title norm made in a rated chess tournament of a listed
// period, as summary.json and norms.csv list it.
type Norm struct {
	Period       string  `json:"period"`
	TournamentID int64   `json:"tournament_id"`
	Tournament   string  `json:"tournament"`
	PlayerID     int64   `json:"player_id"`
	Name         string  `json:"name"`
	Federation   string  `json:"federation"`
	Title        string  `json:"norm_title"`
	Games        int     `json:"games"` // counted, a 1.4.1c bye included
	Score        float64 `json:"score"`
	Ra           int     `json:"ra"`
	Rp           int     `json:"rp"`
}

// normFinder checks the tournaments of a run for title norms (package norms),
// with the registry's titles, federations, sex and FIDE ratings.
type normFinder struct {
	players *archive.Players
	// strong marks the players holding GM, IM, WGM or WIM (nil: none does).
	strong []bool
	found  []Norm
	slot   map[int32]int // scratch: dense index → index in the tournament
}

func newNormFinder(p *archive.Players) *normFinder {
	f := &normFinder{players: p}
	for i, in := range p.Info {
		switch norms.Title(in.Title) {
		case norms.GM, norms.IM, norms.WGM, norms.WIM:
			if f.strong == nil {
				f.strong = make([]bool, len(p.ID))
			}
			f.strong[i] = true
		}
	}
	return f
}

// possible tells whether a norm can be made from rows: every norm needs at
// least three opponents holding the title or a stronger one (1.4.5b), so at
// least three players holding GM, IM, WGM or WIM. It is the cheap test that
// spares most tournaments the full check.
func (f *normFinder) possible(rows []gameRow) bool {
	if f.strong == nil {
		return false
	}
	var seen [3]int32
	n := 0
	for i := range rows {
		for _, p := range [2]int32{rows[i].white, rows[i].black} {
			if p >= 0 && f.strong[p] && !slices.Contains(seen[:n], p) {
				seen[n] = p
				if n++; n == len(seen) {
					return true
				}
			}
		}
	}
	return false
}

// check adds the norms made in t, a rated chess tournament of period, to
// f.found.
func (f *normFinder) check(t *archive.Tournament, rows []gameRow, period string) {
	if t.Discipline != "chess" || !f.possible(rows) {
		return
	}
	nt := f.tournament(t, rows)
	for _, r := range norms.Check(nt) {
		if !r.Achieved {
			continue
		}
		p := nt.Players[r.Player]
		f.found = append(f.found, Norm{
			Period: period, TournamentID: t.ID, Tournament: t.Name, PlayerID: p.FideID, Name: p.Name, Federation: p.Federation,
			Title: r.Title, Games: r.Counted, Score: r.Score, Ra: r.Ra, Rp: r.Rp,
		})
	}
}

// tournament builds the norms input of t from its rows. Each player's FideID
// holds the archive's player id, which Norm reports.
func (f *normFinder) tournament(t *archive.Tournament, rows []gameRow) norms.Tournament {
	rounds := int(t.Rounds)
	for i := range rows {
		rounds = max(rounds, int(rows[i].round))
	}
	if f.slot == nil {
		f.slot = map[int32]int{}
	}
	clear(f.slot)
	nt := norms.Tournament{Rounds: rounds}
	index := func(p int32) int {
		if i, ok := f.slot[p]; ok {
			return i
		}
		in := f.players.Info[p]
		title := norms.Title(in.Title)
		i := len(nt.Players)
		f.slot[p] = i
		nt.Players = append(nt.Players, norms.Player{
			StartNo: i + 1, Name: f.players.Name[p], Title: title, Federation: in.Federation,
			Female: strings.EqualFold(in.Sex, "w") || title == norms.WGM || title == norms.WIM || title == "WFM" || title == "WCM",
			Rating: int(f.players.Elo[p]), FideID: f.players.ID[p], Rounds: norms.EmptyRounds(rounds),
		})
		return i
	}
	for i := range rows {
		g := &rows[i]
		w, r := index(g.white), int(g.round)-1
		if g.black < 0 {
			nt.Players[w].Rounds[r] = norms.Round{Opp: -1, Result: g.wres}
			continue
		}
		b := index(g.black)
		nt.Players[w].Rounds[r] = norms.Round{Opp: b, Colour: 'w', Result: g.wres}
		nt.Players[b].Rounds[r] = norms.Round{Opp: w, Colour: 'b', Result: g.bres}
	}
	if t.System == "round-robin" {
		nt.Kind = norms.RoundRobinKind(nt)
	}
	return nt
}

// sorted returns the norms found by period, tournament and player, each
// player's in the order GM, IM, WGM, WIM.
func (f *normFinder) sorted() []Norm {
	slices.SortStableFunc(f.found, func(a, b Norm) int {
		return cmp.Or(cmp.Compare(a.Period, b.Period), cmp.Compare(a.TournamentID, b.TournamentID), cmp.Compare(a.PlayerID, b.PlayerID))
	})
	return f.found
}

// within returns the norms of the periods first to last (labels).
func within(ns []Norm, first, last string) []Norm {
	var out []Norm
	for _, n := range ns {
		if first != "" && n.Period >= first && n.Period <= last {
			out = append(out, n)
		}
	}
	return out
}

// writeNorms writes norms.csv: every norm of the listed periods, a header
// alone when there is none.
func writeNorms(stage *staging, ns []Norm) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"period", "tournament_id", "tournament", "player_id", "name", "federation", "norm_title", "games", "score", "ra", "rp"})
	for _, n := range ns {
		w.Write([]string{n.Period, strconv.FormatInt(n.TournamentID, 10), n.Tournament, strconv.FormatInt(n.PlayerID, 10), n.Name, n.Federation,
			n.Title, strconv.Itoa(n.Games), strconv.FormatFloat(n.Score, 'f', -1, 64), strconv.Itoa(n.Ra), strconv.Itoa(n.Rp)})
	}
	w.Flush()
	o, err := stage.create(output.Norms.Rel(""))
	if err != nil {
		return err
	}
	o.Write(buf.Bytes())
	return o.finish()
}
