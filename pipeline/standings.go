package pipeline

import (
	"slices"
	"sync/atomic"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/tiebreak"
)

// startEntry is a player of a tournament with the rating at its start.
type startEntry struct{ rating, p int32 }

// standingsScratch is what one tournament's standings at a time reuse:
// per-player slots (-1 between uses), the tournament view and its players,
// the tiebreak engine, and the codes of the last tiebreaks column and
// discipline seen.
type standingsScratch struct {
	local                 []int32
	t                     tiebreak.Tournament
	entries               []startEntry
	engine                tiebreak.Engine
	tiebreaks, discipline string
	codes                 []string
}

// standingsInput builds the tiebreak engine's view of a tournament from its rows
// and the start ratings noted in them. Start numbers follow the rating at the
// start (highest first), then player_id (dense order). The view is built in
// sc.t, reusing its slices and sc's.
func standingsInput(players *archive.Players, t *archive.Tournament, rows []gameRow, sc *standingsScratch) *tiebreak.Tournament {
	local, tt := sc.local, &sc.t
	*tt = tiebreak.Tournament{
		ID: t.ID, Name: t.Name, Start: dayTime(t.Start), End: dayTime(t.End), Rounds: int(t.Rounds),
		System: t.System, Discipline: t.Discipline, Tiebreaks: t.Tiebreaks,
		Players: tt.Players[:0], Games: tt.Games[:0],
	}
	ps := sc.entries[:0]
	defer func() { sc.entries = ps[:0] }()
	maxRound := int32(0)
	for _, g := range rows {
		if local[g.white] < 0 {
			local[g.white] = 0
			ps = append(ps, startEntry{g.wrat, g.white})
		}
		if g.black >= 0 && local[g.black] < 0 {
			local[g.black] = 0
			ps = append(ps, startEntry{g.brat, g.black})
		}
		maxRound = max(maxRound, g.round)
	}
	if tt.Rounds == 0 {
		tt.Rounds = int(maxRound)
	}
	slices.SortFunc(ps, func(a, b startEntry) int {
		if a.rating != b.rating {
			return int(b.rating) - int(a.rating)
		}
		return int(a.p) - int(b.p)
	})
	for i, e := range ps {
		local[e.p] = int32(i)
		tt.Players = append(tt.Players, tiebreak.Player{
			ID: players.ID[e.p], StartNo: i + 1, Name: players.Name[e.p], Rating: int(e.rating),
		})
	}
	touchNames(tt.Players, func(p *tiebreak.Player) string { return p.Name })
	tt.Games = slices.Grow(tt.Games, len(rows))[:len(rows)]
	for i := range rows {
		g := &rows[i]
		tg := tiebreak.Game{Round: int(g.round), White: int(local[g.white]), Black: -1,
			WhiteResult: g.wres, BlackResult: g.bres, WhitePoints: g.wpts, BlackPoints: g.bpts, HasPoints: g.hasPts}
		if g.black >= 0 {
			tg.Black = int(local[g.black])
		}
		tt.Games[i] = tg
	}
	for _, e := range ps {
		local[e.p] = -1
	}
	return tt
}

// touchNames reads the first byte of each row's name, in a loop of its own so
// that the processor overlaps the cache misses (names lie scattered over the
// heap): the CSV writer that comes next then finds them in cache instead of
// missing on each in turn.
func touchNames[T any](rows []T, name func(*T) string) {
	var b byte
	for i := range rows {
		if n := name(&rows[i]); n != "" {
			b |= n[0]
		}
	}
	touched.Store(uint32(b))
}

// touched keeps touchNames' reads: a result nobody uses would let the compiler
// drop them. It is atomic because jobs on several goroutines store to it.
var touched atomic.Uint32
