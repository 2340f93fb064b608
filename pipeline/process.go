package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/tiebreak"
	"golang.org/x/sync/errgroup"
)

// process handles one complete tournament: the cross-row checks, the lists of
// periods that end before it, its rating, its cards and its standings.
func (r *runner) process(ti int) error {
	t := &r.arch.Tournaments[ti]
	rows := r.checkPairings(t, r.bufs[ti])
	r.bufs[ti] = nil
	r.arch.count("games").Used += int64(len(rows))
	if t.Discipline == "joker" {
		return nil
	}
	key := periodKey(r.opt.Period, r.rules.ListDay(t.End))
	rates := r.rates(t)
	if rates && r.opt.onTournament == nil {
		r.notePeriod(key, r.tournamentHash(t, rows))
	}
	if r.opt.onTournament == nil && !r.inRun(key) {
		return nil // rated by an earlier run (--resume, --from) or left for a later one (--until)
	}
	if rates && r.opt.onTournament == nil {
		for r.curPeriod < key {
			if err := r.emitList(); err != nil {
				return err
			}
		}
	}
	// Standings use the ratings the players had when the tournament started.
	standings := len(rows) > 0 && (r.stage != nil || r.opt.onTournament != nil)
	if standings {
		r.noteStartRatings(rows)
	}
	if rates {
		ev := &rating.Event{ID: t.ID, Start: t.Start, End: t.End, Games: r.evGames[:0]}
		for _, g := range rows {
			ev.Games = append(ev.Games, rating.Game{White: g.white, Black: g.black, WhiteResult: g.wres, BlackResult: g.bres})
		}
		r.evGames = ev.Games
		stageBefore := r.st.Stage
		cards := r.rules.Rate(r.st, ev)
		r.sum.TournamentsRated++
		for _, c := range cards {
			r.sum.GamesRated += int64(c.Games)
		}
		if stageBefore == 1 && r.st.Stage == 2 && r.sum.Stage2From == 0 {
			r.sum.Stage2From = t.ID
		}
		if err := r.addCards(t.ID, t.End, cards); err != nil {
			return err
		}
	}
	if !standings {
		return nil
	}
	if r.opt.onTournament != nil {
		return r.opt.onTournament(r.standingsInput(t, rows, &standingsScratch{local: r.local}))
	}
	r.sum.StandingsWritten++
	r.standings = append(r.standings, standingsJob{t, rows})
	if len(r.standings) == standingsBatch {
		return r.flushStandings()
	}
	return nil
}

// standingsJob is a tournament whose standings are to be written.
type standingsJob struct {
	t    *archive.Tournament
	rows []gameRow
}

// standingsBatch is how many tournaments' standings one pool job writes: one
// job per tournament woke a worker up 88,000 times at 10M games (0.2 s of
// the scheduler's time).
const standingsBatch = 16

// flushStandings hands the tournaments waiting for standings to the pool. The
// job computes them and hands the files to the file writer (runFileWriter).
func (r *runner) flushStandings() error {
	if len(r.standings) == 0 {
		return nil
	}
	batch := r.standings
	r.standings = make([]standingsJob, 0, standingsBatch)
	return r.submit(func() error {
		fb, _ := r.fileBatches.Get().(*fileBatch)
		if fb == nil {
			fb = new(fileBatch)
		}
		for _, j := range batch {
			if err := r.appendStandings(fb, j.t, j.rows); err != nil {
				return err
			}
		}
		return send(r.ctx, r.files, fb)
	})
}

// startFileWriter starts runFileWriter in g, and closes its channel once the
// workers, its only senders, have all stopped: every worker must be counted in
// workers before it is called.
func (r *runner) startFileWriter(g *errgroup.Group, workers *sync.WaitGroup) {
	files := make(chan *fileBatch, 2*r.opt.Workers)
	r.files = files
	g.Go(func() error { return r.runFileWriter(files) })
	go func() {
		workers.Wait()
		close(files)
	}()
}

// fileBatch is small files to be written: their paths (slash-separated, in
// --out) and their bytes, one after another in data.
type fileBatch struct {
	names []string
	ends  []int // where each file's bytes end in data
	data  []byte
}

func (fb *fileBatch) add(name string, data []byte) {
	fb.names = append(fb.names, name)
	fb.data = append(fb.data, data...)
	fb.ends = append(fb.ends, len(fb.data))
}

// runFileWriter writes the batches that come on files until it is closed,
// and hands each batch back to the pool for reuse. The standings files are
// created by this one goroutine: threads creating files in one folder at once
// contend on the folder's lock in the kernel, and a mutex around the creates
// instead made the standings jobs wait for each other (0.2 s of 3.7 s at 10M
// games on tmpfs).
func (r *runner) runFileWriter(files <-chan *fileBatch) error {
	for fb := range files {
		start := 0
		for i, name := range fb.names {
			if err := r.stage.writeFile(name, fb.data[start:fb.ends[i]]); err != nil {
				return err
			}
			start = fb.ends[i]
		}
		fb.names, fb.ends, fb.data = fb.names[:0], fb.ends[:0], fb.data[:0]
		r.fileBatches.Put(fb)
	}
	return nil
}

// noteStartRatings records in each row the ratings its players had before the
// tournament (0 = unrated), so that the standings can be built off the producer.
func (r *runner) noteStartRatings(rows []gameRow) {
	st := r.st
	for i := range rows {
		g := &rows[i]
		g.wrat = 0
		if st.Rated[g.white] {
			g.wrat = st.Rating[g.white]
		}
		g.brat = 0
		if g.black >= 0 && st.Rated[g.black] {
			g.brat = st.Rating[g.black]
		}
	}
}

// submit hands a job to the worker pool.
func (r *runner) submit(job func() error) error { return send(r.ctx, r.jobs, job) }

// send sends v on ch, unless ctx ends first (the run has failed): then it
// returns ctx's error instead of waiting for a receiver that has stopped.
func send[T any](ctx context.Context, ch chan<- T, v T) error {
	select {
	case ch <- v:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// checkPairings rejects rows that pair a player twice in one round (the later
// row, in file order) and returns the rest. seen holds, per player and round,
// the row that paired them (player slots from r.local, reset before returning).
func (r *runner) checkPairings(t *archive.Tournament, rows []gameRow) []gameRow {
	ps := r.pairPlayers[:0]
	defer func() { r.pairPlayers = ps[:0] }()
	maxRound := int32(0)
	for i := range rows {
		g := &rows[i]
		if r.local[g.white] < 0 {
			r.local[g.white] = int32(len(ps))
			ps = append(ps, g.white)
		}
		if g.black >= 0 && r.local[g.black] < 0 {
			r.local[g.black] = int32(len(ps))
			ps = append(ps, g.black)
		}
		maxRound = max(maxRound, g.round)
	}
	nr := int(maxRound)
	if need := len(ps) * nr; cap(r.seen) < need {
		r.seen = make([]int64, need)
	} else {
		r.seen = r.seen[:need]
		clear(r.seen)
	}
	n := 0
	for i := range rows {
		g := &rows[i]
		round := int(g.round - 1)
		w, b := int(r.local[g.white])*nr+round, -1
		who, prev := g.white, r.seen[w]
		if g.black >= 0 {
			b = int(r.local[g.black])*nr + round
			if prev == 0 {
				who, prev = g.black, r.seen[b]
			}
		}
		if prev != 0 {
			r.arch.count("games").Rejected++
			r.rej.add(r.arch.GameFiles[g.file], g.row,
				fmt.Sprintf("player %d is paired twice in round %d (also row %d)", r.arch.Players.ID[who], g.round, prev),
				r.gameValues(t, g))
			continue
		}
		r.seen[w] = g.row
		if b >= 0 {
			r.seen[b] = g.row
		}
		if n != i {
			rows[n] = *g
		}
		n++
	}
	for _, p := range ps {
		r.local[p] = -1
	}
	return rows[:n]
}

func (r *runner) gameValues(t *archive.Tournament, g *gameRow) string {
	p := r.arch.Players.ID
	s := fmt.Sprintf("tournament_id=%d;round=%d;white_id=%d;black_id=", t.ID, g.round, p[g.white])
	if g.black >= 0 {
		s += strconv.FormatInt(p[g.black], 10)
	}
	s += ";white_result=" + string(g.wres) + ";black_result="
	if g.bres != 0 {
		s += string(g.bres)
	}
	return s
}

// standingsInput builds the tiebreak engine's view of a tournament from its rows
// and the start ratings noted in them. Start numbers follow the rating at the
// start (highest first), then player_id (dense order). sc.local is a scratch slot
// per player, -1 on entry and on return. The view is built in sc.t, reusing its
// slices and sc's.
func (r *runner) standingsInput(t *archive.Tournament, rows []gameRow, sc *standingsScratch) *tiebreak.Tournament {
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
			ID: r.arch.Players.ID[e.p], StartNo: i + 1, Name: r.arch.Players.Name[e.p], Rating: int(e.rating),
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
// missing on each in turn (0.6 s of 7 s CPU at 10M games without this).
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

// startEntry is a player of a tournament with the rating at its start.
type startEntry struct{ rating, p int32 }

// standingsScratch is what one tournament's standings at a time reuse (r.scratch):
// per-player slots (-1 between uses), the tournament view and its players, the tiebreak engine,
// and the codes of the last tiebreaks column and discipline seen.
type standingsScratch struct {
	local                 []int32
	t                     tiebreak.Tournament
	entries               []startEntry
	engine                tiebreak.Engine
	tiebreaks, discipline string
	codes                 []string
}

// appendStandings computes a tournament's standings and adds them to fb as
// standings/TOURNAMENT_ID.csv (in a pool job).
func (r *runner) appendStandings(fb *fileBatch, tour *archive.Tournament, rows []gameRow) error {
	sc := r.scratch.Get().(*standingsScratch)
	defer r.scratch.Put(sc)
	t := r.standingsInput(tour, rows, sc)
	codes := sc.codes
	if codes == nil || t.Tiebreaks != sc.tiebreaks || t.Discipline != sc.discipline {
		var ok bool
		if codes, ok = r.tiebreakCodes(t); ok { // a column not understood is warned about every time
			sc.tiebreaks, sc.discipline, sc.codes = t.Tiebreaks, t.Discipline, codes
		}
	}
	st, err := sc.engine.Standings(t, codes, r.opt.Rules.Tiebreaks)
	if err != nil {
		return fmt.Errorf("standings of tournament %d: %w", t.ID, err)
	}
	fb.add("standings/"+strconv.FormatInt(t.ID, 10)+".csv", sc.engine.CSV(codes, st))
	return nil
}

// tiebreakCodes are the tournament's tiebreak codes, or its discipline's
// default when the column is empty or not understood (then warned about, and
// ok is false).
func (r *runner) tiebreakCodes(t *tiebreak.Tournament) (codes []string, ok bool) {
	codes = tiebreak.SplitCodes(t.Tiebreaks)
	if _, err := tiebreak.ParseCodes(t.Tiebreaks); err != nil || len(codes) == 0 {
		if err != nil {
			r.opt.Log.Warn("tournament's tiebreaks column not understood; using the discipline's default",
				"tournament", t.ID, "tiebreaks", t.Tiebreaks, "err", err)
			return tiebreak.DefaultCodes(t.Discipline), false
		}
		codes = tiebreak.DefaultCodes(t.Discipline)
	}
	return codes, true
}
