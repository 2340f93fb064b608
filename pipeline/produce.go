package pipeline

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/rating"
)

// gameRow is one validated games row, compact, waiting for its tournament.
type gameRow struct {
	at           rowAt
	round        int32
	white, black int32 // dense player index; black -1 for a bye
	wres, bres   byte
	hasPts       bool
	wpts, bpts   int32
	wrat, brat   int32 // ratings at the tournament's start (0 = unrated), for standings
}

// rowAt is where a games row was read: the index of its file in
// Archive.GameFiles above the row's number in it, in one int64 (the rows a run
// holds while their tournaments wait are 40 bytes each, not 48).
type rowAt int64

// rowBits is the bits of a rowAt that hold the row's number.
const rowBits = 40

// newRowAt is row of the games file of index file (row < 1<<rowBits, file < 1<<23: readGames).
func newRowAt(file int32, row int64) rowAt { return rowAt(int64(file)<<rowBits | row) }

// file is the index of the row's file in Archive.GameFiles.
func (a rowAt) file() int32 { return int32(a >> rowBits) }

// row is the row's number in its file.
func (a rowAt) row() int64 { return int64(a) & (1<<rowBits - 1) }

// takeFunc receives one complete tournament's valid games rows, in rating
// order, and the sum of their rowHash values (0 without a registry's hashes:
// producer.fingerprint); the rows are the receiver's from then on, and
// rows.release hands their buffer back once nothing reads them.
type takeFunc func(ctx context.Context, t *archive.Tournament, rows tourRows, rowSum uint64) error

// tourRows is a tournament's valid rows and the slab block they lie in (nil:
// a buffer of their own).
type tourRows struct {
	rows  []gameRow
	block *rowBlock
}

// release hands the rows' block back once every tournament carved from it has
// released its rows; rows not released are the GC's, as any other garbage.
func (h tourRows) release() { h.block.release() }

// producer is the first stage of a run. It reads the games table, checks each
// row, holds the valid ones with their tournament, and hands a tournament's
// rows on as soon as it and every tournament before it in rating order are
// complete: so memory grows with the tournaments waiting for an earlier one,
// not with the games already rated.
type producer struct {
	arch     *runArchive
	order    []int            // tournament positions in rating order
	next     int              // the position in order to hand on next
	tours    []openTournament // per tournament position
	held     []tourRows       // the rows of the tournaments holding some (openTournament.held)
	unheld   []int32          // the places of held free for reuse
	tables   []bool           // per tournament position: a table rule set rates it (rating.TablesOf)
	slab     rowSlab
	spill    rowSpill
	lastEnd  int32 // the end date of the last tournament handed on
	gameRows int64 // rows of the games table, for progress
	pairs    pairScratch
	prob     archive.Problem // the problem checkGame returns
	progress Progress
}

// openTournament is a tournament while its rows are read: how many of them are
// not read yet (pass one counted them) and where its valid rows so far are
// held, side by side, as every row reads both. It is kept small, as there is
// one for every tournament of the archive; only the tournaments holding rows
// have a place in producer.held.
type openTournament struct {
	remaining int32
	held      int32 // 1 + its place in producer.held; 0: none
}

// hold gives ot a place in p.held for rows, and returns it.
func (p *producer) hold(ot *openTournament, rows tourRows) *tourRows {
	if n := len(p.unheld); n > 0 {
		ot.held, p.unheld = p.unheld[n-1], p.unheld[:n-1]
		p.held[ot.held-1] = rows
	} else {
		p.held = append(p.held, rows)
		ot.held = int32(len(p.held))
	}
	return &p.held[ot.held-1]
}

// unhold takes ot's rows out of p.held (none when it holds none).
func (p *producer) unhold(ot *openTournament) tourRows {
	if ot.held == 0 {
		return tourRows{}
	}
	k := ot.held - 1
	rows := p.held[k]
	p.held[k], ot.held = tourRows{}, 0
	p.unheld = append(p.unheld, k+1)
	return rows
}

// pairScratch is checkPairings' scratch: a slot per player, the tournament's
// players, and per player and round the row that paired them.
type pairScratch struct {
	slots   []pairSlot
	players []int32
	seen    []rowAt
}

// pairSlot is a player's place among the tournament's players (-1 between
// uses) and his registry row's hash (registryHashes), side by side: every
// row reads both, and players lie scattered in memory.
type pairSlot struct {
	reg   uint64
	local int32
}

// newPairSlots returns n unused slots, without registry hashes.
func newPairSlots(n int) []pairSlot {
	s := make([]pairSlot, n)
	for i := range s {
		s[i].local = -1
	}
	return s
}

// fingerprint gives the producer the registry's hashes (registryHashes), from
// which it sums each tournament's rowHash values as it checks its pairings.
func (p *producer) fingerprint(reg []uint64) {
	for i, h := range reg {
		p.pairs.slots[i].reg = h
	}
}

// countGames is pass one: how many games rows each tournament of a has, from
// the tournament_id column alone, so that a tournament is known to be complete
// the moment its last row has been read. It needs a's tournaments, not its
// players (it runs while they load).
func (p *producer) countGames(ctx context.Context, a *archive.Archive) error {
	p.tours = make([]openTournament, len(a.Tournaments))
	if len(a.GameFiles) == 0 {
		return nil
	}
	tr := archive.NewReader(a.FS, a.GameFiles, archive.GameColumns[:1])
	defer tr.Close()
	tof := newTournamentOf(a)
	for tr.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := tr.Batch()
		p.gameRows += int64(b.N)
		nulls, ids := b.Nulls[0][:b.N], b.Ints[0][:b.N]
		for i, null := range nulls {
			if null {
				continue
			}
			if ti := tof.index(ids[i]); ti >= 0 {
				if p.tours[ti].remaining == math.MaxInt32 {
					return fmt.Errorf("games: tournament %d has more than %d rows", ids[i], math.MaxInt32)
				}
				p.tours[ti].remaining++
			}
		}
	}
	return tr.Err()
}

// open takes the loaded archive: it puts the tournaments in rating order
// (end date, start date, id).
func (p *producer) open(a *runArchive) {
	p.arch = a
	ts := a.Tournaments
	p.order = make([]int, len(ts))
	for i := range p.order {
		p.order[i] = i
	}
	sort.Slice(p.order, func(i, j int) bool {
		a, b := &ts[p.order[i]], &ts[p.order[j]]
		if a.End != b.End {
			return a.End < b.End
		}
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.ID < b.ID
	})
	p.pairs.slots = newPairSlots(len(a.Players.ID))
	p.tables = tablesRated(ts)
	p.lastEnd = math.MinInt32
	p.spill.limit, p.spill.tours = spillRows, map[int]spilledRows{}
}

// tablesRated tells, per tournament of ts, whether a table rule set rates it
// (rating.TablesOf): then its games rows belong in the tables table.
func tablesRated(ts []archive.Tournament) []bool {
	t := make([]bool, len(ts))
	for i := range ts {
		t[i] = rating.TablesOf(ts[i].Discipline) != nil
	}
	return t
}

// run is pass two: it validates each row of games (the games table, decoded
// ahead on another goroutine), holds it with its tournament, and hands
// tournaments to take in rating order as they become complete.
func (p *producer) run(ctx context.Context, games *archive.Prefetch, take takeFunc) error {
	defer p.spill.close()
	if err := p.advance(ctx, take); err != nil {
		return err
	}
	if err := p.readGames(ctx, games, take); err != nil {
		return err
	}
	p.arch.rejectOrphans()
	if p.next != len(p.order) {
		t := p.arch.Tournaments[p.order[p.next]]
		return fmt.Errorf("games table changed while it was read: tournament %d is incomplete", t.ID)
	}
	return nil
}

// gameReader is the games table's reader, decoding ahead of readGames.
func (p *producer) gameReader() *archive.Prefetch {
	return archive.NewReader(p.arch.FS, p.arch.GameFiles, archive.GameColumns).Prefetch(3)
}

func (p *producer) readGames(ctx context.Context, games *archive.Prefetch, take takeFunc) error {
	if len(p.arch.GameFiles) == 0 {
		return nil
	}
	if len(p.arch.GameFiles) >= 1<<23 {
		return fmt.Errorf("games: %d files, more than %d", len(p.arch.GameFiles), 1<<23-1)
	}
	cnt := p.arch.count("games")
	fileIdx := map[string]int32{}
	for i, f := range p.arch.GameFiles {
		fileIdx[f] = int32(i)
	}
	if p.progress != nil {
		p.progress.Phase("rating", p.gameRows)
		defer p.progress.Done()
	}
	tof := newTournamentOf(p.arch.Archive)
	for b := range games.Full {
		if err := ctx.Err(); err != nil {
			return err
		}
		if p.progress != nil {
			p.progress.Add(int64(b.N))
		}
		if b.First+int64(b.N) >= 1<<rowBits {
			return fmt.Errorf("games: %s has more than %d rows", b.File, int64(1<<rowBits-1))
		}
		at := newRowAt(fileIdx[b.File], b.First)
		tnulls, tids := b.Nulls[archive.GameTournamentID][:b.N], b.Ints[archive.GameTournamentID][:b.N]
		var scratch gameRow
		cnt.Read += int64(len(tids))
		for i := range tids {
			// Pass one counted this row exactly when its tournament_id decodes to a
			// known tournament, whatever else is wrong with it.
			ti := -1
			if !tnulls[i] {
				ti = tof.index(tids[i])
			}
			// The row is checked in place, in its tournament's rows (copying it there
			// after would stall on reading back the narrow stores that filled it).
			g := &scratch
			var buf []gameRow
			var ot *openTournament
			var held *tourRows
			if ti >= 0 {
				ot = &p.tours[ti]
				if ot.held == 0 { // its first row: pass one counted them
					held = p.hold(ot, p.slab.take(int64(ot.remaining), p.arch.Tournaments[ti].End))
					p.spill.inMemory += int64(ot.remaining)
				} else {
					held = &p.held[ot.held-1]
				}
				buf = append(held.rows, gameRow{})
				g = &buf[len(buf)-1]
			} else {
				scratch = gameRow{}
			}
			if prob := p.checkGame(b, i, ti, g); prob != nil {
				if why, ok := p.orphan(prob, tnulls[i], tids[i]); ok {
					p.arch.rejectOrphan(b, i, tids[i], why)
				} else {
					p.arch.reject("games", b, i, *prob)
				}
				if ti >= 0 {
					held.rows = buf[:len(buf)-1]
				}
			} else {
				g.at = at + rowAt(i)
				held.rows = buf
			}
			if ti >= 0 {
				ot.remaining--
				if ot.remaining == 0 {
					if err := p.advance(ctx, take); err != nil {
						return err
					}
					if ot.held != 0 && p.spill.inMemory > p.spill.limit && p.arch.Tournaments[ti].End > p.lastEnd {
						if err := p.spillOut(ti); err != nil {
							return err
						}
					}
				}
			}
		}
		games.Free <- b
	}
	return games.Err()
}

// slabRows is the rows of one rowSlab block (about 160 KB); a tournament of
// more than slabRows/8 rows gets a block of its own, and one of more than
// slabRows a buffer of its own.
const slabRows = 4096

// rowSlab hands out tournaments' row buffers carved from shared blocks: one
// allocation per block instead of one per tournament, the cost that dominated
// a small tournament's buffer. A block comes back (free) when every
// tournament carved from it has released its rows, so that the blocks in use
// stay few and in the cache: fresh memory costs the producer a miss, or a
// page fault, on every row. A block holds tournaments of one end date, which
// rating order hands on together: carved in file order instead, a block
// waited for its latest tournament, and the blocks held were twice the rows.
type rowSlab struct {
	cur  map[int32]*rowBlock // per end date, the block being carved
	free sync.Pool           // of *rowBlock
}

// rowBlock is one block of a rowSlab and how many hold it: each tournament
// carved from it, and the slab while it carves.
type rowBlock struct {
	rows []gameRow
	refs atomic.Int32
	free *sync.Pool
}

// release drops one hold on b (nil: none to drop).
func (b *rowBlock) release() {
	if b != nil && b.refs.Add(-1) == 0 {
		b.free.Put(b)
	}
}

// take returns an empty buffer of capacity n for a tournament ending on end.
func (s *rowSlab) take(n int64, end int32) tourRows {
	switch {
	case n > slabRows:
		return tourRows{rows: make([]gameRow, 0, n)}
	case n > slabRows/8:
		return s.block().carve(int(n))
	}
	b := s.cur[end]
	if b == nil || cap(b.rows)-len(b.rows) < int(n) {
		b.release()
		b = s.block()
		b.refs.Add(1) // the slab's hold while it carves
		if s.cur == nil {
			s.cur = map[int32]*rowBlock{}
		}
		s.cur[end] = b
	}
	return b.carve(int(n))
}

// closeBefore drops the slab's hold on the blocks of the tournaments ending
// before end, once one ending on end is handed on: rating order has handed
// them all, so none is carved from them any more.
func (s *rowSlab) closeBefore(end int32) {
	for d, b := range s.cur {
		if d < end {
			b.release()
			delete(s.cur, d)
		}
	}
}

// block returns an empty block, held by no one.
func (s *rowSlab) block() *rowBlock {
	b, _ := s.free.Get().(*rowBlock)
	if b == nil {
		b = &rowBlock{rows: make([]gameRow, 0, slabRows), free: &s.free}
	}
	b.rows = b.rows[:0]
	b.refs.Store(0)
	return b
}

// carve returns an empty buffer of capacity n from b's room, held.
func (b *rowBlock) carve(n int) tourRows {
	k := len(b.rows)
	b.rows = b.rows[:k+n]
	b.refs.Add(1)
	return tourRows{rows: b.rows[k : k : k+n], block: b}
}

// orphan tells whether a row's problem is only that its tournament's own row
// was rejected, and why that was.
func (p *producer) orphan(prob *archive.Problem, null bool, tid int64) (string, bool) {
	if prob.Kind != archive.KindUnknownTournament || null {
		return "", false
	}
	return p.arch.RejectedTournament(tid)
}

// advance hands on tournaments in rating order while they are complete,
// after the checks across their rows. The games of a tournament a table rule
// set rates are in the tables table: its games rows were rejected, and it is not handed on.
func (p *producer) advance(ctx context.Context, take takeFunc) error {
	for p.next < len(p.order) && p.tours[p.order[p.next]].remaining == 0 {
		ti := p.order[p.next]
		p.next++
		t := &p.arch.Tournaments[ti]
		if t.End > p.lastEnd {
			p.slab.closeBefore(t.End)
			p.lastEnd = t.End
		}
		held, err := p.unspill(ti)
		if err != nil {
			return err
		}
		rows, sum := p.checkPairings(t, held.rows)
		held.rows = rows
		p.arch.count("games").Used += int64(len(rows))
		if p.tables[ti] {
			held.release()
			continue
		}
		if err := take(ctx, t, held, sum); err != nil {
			return err
		}
	}
	return nil
}

// spillOut moves the rows of complete tournament ti, waiting for an earlier
// one, from memory to p.spill (they stay when it has no file). Its end date
// is after the last handed on: the date's spilled rows are read back whole
// when rating order reaches it.
func (p *producer) spillOut(ti int) error {
	held := &p.held[p.tours[ti].held-1]
	if len(held.rows) == 0 {
		return nil
	}
	e, ok, err := p.spill.write(p.arch.Tournaments[ti].End, held.rows)
	if !ok {
		return err
	}
	p.spill.inMemory -= int64(cap(held.rows))
	held.release()
	*held = tourRows{}
	p.spill.tours[ti] = e
	return nil
}

// unspill takes tournament ti's rows out of p.held, or out of p.spill.
func (p *producer) unspill(ti int) (tourRows, error) {
	held := p.unhold(&p.tours[ti])
	e, ok := p.spill.tours[ti]
	if !ok {
		p.spill.inMemory -= int64(cap(held.rows))
		return held, nil
	}
	delete(p.spill.tours, ti)
	return p.spill.take(p.arch.Tournaments[ti].End, e)
}

// checkGame validates the row-local rules of one games row and fills in g, a
// zero row (which may be left half filled when the row is rejected). It
// returns nil for a valid row, else the row's problem, good until the next
// call: a pointer, as a Problem returned by value goes through memory on
// every row.
func (p *producer) checkGame(b *archive.Batch, i, ti int, g *gameRow) *archive.Problem {
	g.black = -1 // field by field: g is zero already
	if bad := b.BadAt(i); bad != nil {
		return bad
	}
	if b.Nulls[0][i] {
		return p.problem(archive.MissingCell("tournament_id"))
	}
	if ti < 0 {
		return p.problem(p.arch.UnknownTournament(b.Ints[0][i]))
	}
	t := &p.arch.Tournaments[ti]
	if p.tables[ti] {
		td := rating.TablesOf(t.Discipline)
		return p.problem(archive.Problemf(archive.KindWrongDiscipline, "", "tournament %d is a %s tournament: its games belong in the tables table", t.ID, td.Title))
	}
	if b.Nulls[1][i] {
		return p.problem(archive.MissingCell("round"))
	}
	round := b.Ints[1][i]
	if round < 1 || (t.Rounds > 0 && round > int64(t.Rounds)) || round > 1000 {
		return p.problem(archive.Problemf(archive.KindOutOfRange, "round", "round %d is outside 1–%d", round, t.Rounds))
	}
	g.round = int32(round)
	if !b.Nulls[archive.GameDate][i] {
		if d := b.Ints[archive.GameDate][i]; d < int64(t.Start) || d > int64(t.End) {
			return p.problem(archive.Problemf(archive.KindOutOfRange, "date", "date %s is outside tournament %d's dates %s to %s",
				day.Day(d).String(), t.ID, day.Day(t.Start).String(), day.Day(t.End).String()))
		}
	}
	if b.Nulls[3][i] {
		return p.problem(archive.MissingCell("white_id"))
	}
	if g.white = p.arch.Players.Index(b.Ints[3][i]); g.white < 0 {
		return p.problem(archive.Problemf(archive.KindUnknownPlayer, "", "unknown player %d (white_id)", b.Ints[3][i]))
	}
	if b.Nulls[5][i] {
		return p.problem(archive.MissingCell("white_result"))
	}
	// The results are checked from locals: reading back g's byte stores waits.
	wres := byte(b.Ints[5][i])
	g.wres = wres
	if b.Nulls[4][i] { // a bye
		if !b.Nulls[6][i] {
			return p.problem(archive.Problemf(archive.KindByeBlackResult, "", "a bye row (black_id empty) must have an empty black_result"))
		}
		switch wres {
		case 'H', 'F', 'U', 'Z', '+', '-':
		default:
			return p.problem(archive.Problemf(archive.KindNotByeCode, "", "result %q is not a bye code (H F U Z) for a row without black_id", wres))
		}
	} else {
		if g.black = p.arch.Players.Index(b.Ints[4][i]); g.black < 0 {
			return p.problem(archive.Problemf(archive.KindUnknownPlayer, "", "unknown player %d (black_id)", b.Ints[4][i]))
		}
		if g.black == g.white {
			return p.problem(archive.Problemf(archive.KindBadPairing, "", "player %d is paired against himself", b.Ints[3][i]))
		}
		if b.Nulls[6][i] {
			return p.problem(archive.MissingCell("black_result"))
		}
		bres := byte(b.Ints[6][i])
		g.bres = bres
		if !mirrored(wres, bres) {
			return p.problem(archive.Problemf(archive.KindNotMirrored, "", "results %q and %q do not mirror", wres, bres))
		}
	}
	if !b.Nulls[7][i] || !b.Nulls[8][i] {
		if b.Nulls[7][i] || b.Nulls[8][i] && g.black >= 0 {
			return p.problem(archive.Problemf(archive.KindPointsOneSided, "", "white_points and black_points: give both or neither"))
		}
		g.hasPts, g.wpts, g.bpts = true, int32(b.Ints[7][i]), int32(b.Ints[8][i])
	}
	return nil
}

// problem keeps prob for checkGame to return.
func (p *producer) problem(prob archive.Problem) *archive.Problem {
	p.prob = prob
	return &p.prob
}

// mirrored tells whether two result codes of one pairing agree.
func mirrored(w, b byte) bool {
	const pair = 1 << 8
	switch uint(w)*pair + uint(b) {
	case '1'*pair + '0', '0'*pair + '1', '='*pair + '=', '+'*pair + '-', '-'*pair + '+', '-'*pair + '-',
		'W'*pair + 'L', 'L'*pair + 'W', 'D'*pair + 'D':
		return true
	}
	return false
}

// checkPairings rejects rows that pair a player twice in one round (the later
// row, in file order) and returns the rest, with the sum of their rowHash
// values.
func (p *producer) checkPairings(t *archive.Tournament, rows []gameRow) ([]gameRow, uint64) {
	sc := &p.pairs
	slots := sc.slots
	ps := sc.players[:0]
	defer func() { sc.players = ps[:0] }()
	maxRound := int32(0)
	for i := range rows {
		g := &rows[i]
		if slots[g.white].local < 0 {
			slots[g.white].local = int32(len(ps))
			ps = append(ps, g.white)
		}
		if g.black >= 0 && slots[g.black].local < 0 {
			slots[g.black].local = int32(len(ps))
			ps = append(ps, g.black)
		}
		maxRound = max(maxRound, g.round)
	}
	nr := int(maxRound)
	if need := len(ps) * nr; cap(sc.seen) < need {
		sc.seen = make([]rowAt, need)
	} else {
		sc.seen = sc.seen[:need]
		clear(sc.seen)
	}
	n := 0
	var sum uint64
	for i := range rows {
		g := &rows[i]
		round := int(g.round - 1)
		ws := &slots[g.white]
		w, b := int(ws.local)*nr+round, -1
		who, prev := g.white, sc.seen[w]
		breg := uint64(0)
		if g.black >= 0 {
			bs := &slots[g.black]
			b, breg = int(bs.local)*nr+round, bs.reg
			if prev == 0 {
				who, prev = g.black, sc.seen[b]
			}
		}
		if prev != 0 {
			p.arch.count("games").Rejected++
			p.arch.rejects.add(archive.RowError{File: p.arch.GameFiles[g.at.file()], Row: g.at.row(),
				Problem: archive.Problemf(archive.KindBadPairing, "", "player %d is paired twice in round %d (also row %d)", p.arch.Players.ID[who], g.round, prev.row()),
				Values:  gameValues(&p.arch.Players, t, g)})
			continue
		}
		sc.seen[w] = g.at
		if b >= 0 {
			sc.seen[b] = g.at
		}
		sum += rowHash(g, ws.reg, breg)
		if n != i {
			rows[n] = *g
		}
		n++
	}
	for _, pl := range ps {
		slots[pl].local = -1
	}
	return rows[:n], sum
}

// gameValues renders a kept row for rejects.csv (the raw text is not kept).
func gameValues(players *archive.Players, t *archive.Tournament, g *gameRow) string {
	p := players.ID
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

// newLocal returns n per-player slots set to -1.
func newLocal(n int) []int32 {
	l := make([]int32, n)
	for i := range l {
		l[i] = -1
	}
	return l
}

// tournamentOf looks tournament ids up, remembering the last one: a
// tournament's rows mostly come one after the other.
type tournamentOf struct {
	a  *archive.Archive
	id int64
	ti int // a.TournamentIndex(id)
}

func newTournamentOf(a *archive.Archive) tournamentOf {
	return tournamentOf{a: a, ti: a.TournamentIndex(0)}
}

// index is a.TournamentIndex(id).
func (c *tournamentOf) index(id int64) int {
	if id != c.id {
		c.id, c.ti = id, c.a.TournamentIndex(id)
	}
	return c.ti
}
