package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/ratelist/ratelist/crosstable"
	"github.com/ratelist/ratelist/pipeline"
	sitereport "github.com/ratelist/ratelist/report"
	"github.com/ratelist/ratelist/tiebreak"
)

// table builds the officers' table of the standings rows: crosstable, as
// the site's tournament page does, with the players' title, federation and
// rating from the TRF file's 001 records, or title, federation, club and
// rating from the archive (the rating each game carries) and, with a run's
// output folder out, rating, performance and change from its cards and,
// when in.runStandings, the standings the run wrote instead of rows (their
// start numbers are the run's, numbered by its ratings).
func (in *standingsInput) table(ctx context.Context, codes []string, rows []tiebreak.Row, out string, stderr io.Writer) (*crosstable.Table, error) {
	t := in.t
	b := crosstable.Input{Tournament: t, Codes: codes, RoundRobin: tiebreak.IsRoundRobin(t.System)}
	b.Entries = make([]crosstable.Entry, len(rows))
	for i, r := range rows {
		e := crosstable.Entry{ID: r.Player.ID, Rank: r.Rank, StartNo: r.Player.StartNo, Name: r.Player.Name, Points: tiebreak.FormatValue(tiebreak.Value{V: r.Points, OK: true}), Player: r.Index}
		e.Tiebreaks = make([]string, len(r.Values))
		for k, v := range r.Values {
			e.Tiebreaks[k] = tiebreak.FormatValue(v)
		}
		b.Entries[i] = e
	}
	if in.file != nil {
		b.Rated = rated(t)
		perf := trfPerformances(t)
		b.Info = func(e *crosstable.Entry) crosstable.Info {
			if e.Player < 0 || e.Player >= len(in.file.Players) {
				return crosstable.Info{}
			}
			p := in.file.Players[e.Player]
			v := crosstable.Info{Title: p.Title, Federation: p.Federation, Rating: p.Rating}
			v.Perf, v.HasPerf = perf[e.Player].v, perf[e.Player].ok
			return v
		}
		if b.Rated {
			fmt.Fprintln(stderr, "ratelist standings: note: the rating change needs a run of the tournament: the Change column is empty (ratelist rate --trf gives it)")
		}
		return crosstable.Build(b), nil
	}
	a, err := pipeline.LoadArchive(ctx, os.DirFS(in.dir))
	if err != nil {
		return nil, fmt.Errorf("load the players of %s: %w", in.dir, err)
	}
	b.Clubs = true
	if k := a.TournamentIndex(t.ID); k >= 0 {
		b.Rated = a.Tournaments[k].Rated
		b.RoundRobin = b.RoundRobin || tiebreak.IsRoundRobin(a.Tournaments[k].System)
	}
	var cards map[int64]crosstable.Info
	switch {
	case out != "":
		if in.runStandings {
			codes, entries, ok, err := sitereport.TournamentStandings(out, t)
			if err != nil {
				return nil, err
			}
			if ok {
				b.Codes, b.Entries = codes, entries
			} else {
				fmt.Fprintf(stderr, "ratelist standings: note: the run in %s wrote no standings of tournament %d: they are computed here\n", out, t.ID)
			}
		}
		var ok bool
		if cards, ok, err = sitereport.TournamentCards(out, t.ID); err != nil {
			return nil, err
		}
		if !ok {
			fmt.Fprintf(stderr, "ratelist standings: note: the run in %s rated none of tournament %d: the Perf and Change columns are empty\n", out, t.ID)
		}
		b.Rated = b.Rated || ok
	case b.Rated:
		fmt.Fprintln(stderr, "ratelist standings: note: rating performance and change come from a run's cards: give --out DIR (the Perf and Change columns are empty)")
	}
	b.Info = func(e *crosstable.Entry) crosstable.Info {
		var v crosstable.Info
		if i := a.Players.Index(e.ID); i >= 0 {
			v.Club = a.Players.Club[i]
			if a.Players.Info != nil {
				v.Title, v.Federation = a.Players.Info[i].Title, a.Players.Info[i].Federation
			}
		}
		if e.Player >= 0 {
			v.Rating = t.Players[e.Player].Rating
		}
		if c, ok := cards[e.ID]; ok {
			v.Rating, v.Perf, v.HasPerf, v.Change, v.Decimals, v.HasChange = c.Rating, c.Perf, c.HasPerf, c.Change, c.Decimals, c.HasChange
		}
		return v
	}
	return crosstable.Build(b), nil
}

// rated says whether a TRF file's tournament has a rated player: then it
// shows performance and change.
func rated(t *tiebreak.Tournament) bool {
	for _, p := range t.Players {
		if p.Rating > 0 {
			return true
		}
	}
	return false
}

type perfValue struct {
	v  int
	ok bool
}

// trfPerformances are the players' rating performances from a TRF file's
// ratings: over the games played over the board (1, =, 0) against a rated
// opponent, the opponents' average rating (rounded half up) plus the rating
// difference of the score (crosstable.Performance). Forfeits, byes and
// games against unrated opponents do not count.
func trfPerformances(t *tiebreak.Tournament) []perfValue {
	n := len(t.Players)
	sum, games := make([]int, n), make([]int, n)
	score := make([]float64, n)
	add := func(me, opp int, res byte) {
		if opp < 0 || t.Players[opp].Rating <= 0 {
			return
		}
		var s float64
		switch res {
		case '1':
			s = 1
		case '=':
			s = 0.5
		case '0':
		default:
			return
		}
		sum[me] += t.Players[opp].Rating
		games[me]++
		score[me] += s
	}
	for _, g := range t.Games {
		if g.White >= 0 && g.Black >= 0 {
			add(g.White, g.Black, g.WhiteResult)
			add(g.Black, g.White, g.BlackResult)
		}
	}
	out := make([]perfValue, n)
	for i := range out {
		if games[i] == 0 {
			continue
		}
		avg := int(math.Floor(float64(sum[i])/float64(games[i]) + 0.5))
		out[i].v, out[i].ok = crosstable.Performance(avg, score[i], games[i])
	}
	return out
}
