package pipeline

import (
	"maps"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/tiebreak"
)

// Pairings holds the games rows of chosen tournaments while a caller reads
// the games table itself, checked as a run checks them, and gives each one's
// games. It lets a reader that scans the games table anyway (the report's
// keys) have a few tournaments' games without rating the archive again.
//
// The caller adds the rows of one tournament at a time (a run of rows) and
// then commits them: kept, or dropped when it does not want that tournament.
//
// Unlike a run's standings input, a tournament's players are in the order of
// their ids: there are no ratings to order them by.
type Pairings struct {
	p       producer
	local   []int32           // standingsInput's slot per player (-1 between uses)
	held    map[int]*heldRows // by tournament position
	pending []gameRow         // the run's valid rows
	pendT   int               // the run's tournament position, -1 for none
	n       int               // rows held
}

// heldRows are one tournament's rows held so far, in file order.
type heldRows struct {
	rows []gameRow
	// lost says that some of its rows were dropped, so its games are not
	// complete.
	lost bool
}

// NewPairings returns an empty Pairings for the archive a (loaded by
// LoadArchive, for its players and tournaments; a is not changed).
func NewPairings(a *archive.Archive) *Pairings {
	ra := *a
	ra.Counts = maps.Clone(a.Counts)
	if ra.Counts == nil {
		ra.Counts = map[string]*archive.TableCount{}
	}
	c := &Pairings{held: map[int]*heldRows{}, pendT: -1}
	c.p.arch = &runArchive{Archive: &ra, rejects: newRejectSink(nil)}
	c.p.pairs.slots = newPairSlots(len(a.Players.ID))
	c.p.tables = tablesRated(a.Tournaments)
	c.local = newLocal(len(a.Players.ID))
	return c
}

// Add checks row i of b, a batch of the games table read with
// archive.GameColumns, and adds it to the run when it is valid. The rows of a
// run are of one tournament: the caller commits the run before a row of
// another one.
func (c *Pairings) Add(b *archive.Batch, i int) {
	ti := -1
	if !b.Nulls[archive.GameTournamentID][i] {
		ti = c.p.arch.TournamentIndex(b.Ints[archive.GameTournamentID][i])
	}
	var g gameRow
	if c.p.checkGame(b, i, ti, &g) != nil {
		return
	}
	g.at = newRowAt(0, b.First+int64(i)) // its rejects go nowhere: the file is not kept
	c.pendT = ti
	c.pending = append(c.pending, g)
}

// Commit ends the run of rows: keep holds them with their tournament, else
// they are dropped and the tournament's games are incomplete.
func (c *Pairings) Commit(keep bool) {
	if c.pendT < 0 {
		return
	}
	h := c.held[c.pendT]
	if h == nil {
		h = &heldRows{}
		c.held[c.pendT] = h
	}
	switch {
	case h.lost:
	case keep:
		h.rows = append(h.rows, c.pending...)
		c.n += len(c.pending)
	default:
		c.n -= len(h.rows)
		h.rows, h.lost = nil, true
	}
	c.pending, c.pendT = c.pending[:0], -1
}

// Held is the number of rows held.
func (c *Pairings) Held() int { return c.n }

// Tournament returns the pairings of tournament id from the rows held, and
// forgets them: its games in file order, without the rows a run rejects (a
// player paired twice in a round among them), as a run hands them to its
// standings. ok is false when some of its rows were dropped. A tournament
// without valid rows, and a tournament a table rule set rates, has none (nil), as in a run.
func (c *Pairings) Tournament(id int64) (tt *tiebreak.Tournament, ok bool) {
	ti := c.p.arch.TournamentIndex(id)
	h := c.held[ti]
	if ti < 0 || h == nil {
		return nil, true
	}
	delete(c.held, ti)
	c.n -= len(h.rows)
	if h.lost {
		return nil, false
	}
	t := &c.p.arch.Tournaments[ti]
	rows, _ := c.p.checkPairings(t, h.rows)
	if len(rows) == 0 || rating.TablesOf(t.Discipline) != nil {
		return nil, true
	}
	return standingsInput(&c.p.arch.Players, t, rows, &standingsScratch{local: c.local}), true
}
