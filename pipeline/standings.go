package pipeline

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/pqwrite"
	"github.com/ratelist/ratelist/internal/smallsort"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/tiebreak"
)

// The values of Options.StandingsCSV: which tournaments also get a
// standings/TOURNAMENT_ID.csv besides their period's Parquet file.
const (
	StandingsCSVAll  = "all"  // every tournament the run wrote
	StandingsCSVLast = "last" // the tournaments of the last list period the run wrote
	StandingsCSVNone = "none" // none
)

// checkStandingsCSV validates Options.StandingsCSV.
func checkStandingsCSV(v string) error {
	switch v {
	case StandingsCSVAll, StandingsCSVLast, StandingsCSVNone:
		return nil
	}
	return &OptionError{"StandingsCSV", fmt.Errorf("%w: %q: want all, last or none", ErrUsage, v)}
}

// standingsCols is one tournament's rows of standings/LABEL.parquet, column
// by column (output.StandingsRow's fields).
type standingsCols struct {
	id            int64
	codes         []string // the tiebreak codes, trimmed
	rank, startNo []int32
	player        []int64
	name          []string
	points        []float64
	def           []byte    // the tiebreak values' definition levels, len(codes) per row: 2 set, 1 undefined
	vals          []float64 // the set ones
}

// set makes c one tournament's standings, reusing c's slices: rows are the
// engine's, which the next tournament reuses.
func (c *standingsCols) set(id int64, codes []string, rows []tiebreak.Row) {
	n, k := len(rows), len(codes)
	c.id, c.codes = id, c.codes[:0]
	for _, code := range codes {
		c.codes = append(c.codes, strings.TrimSpace(code))
	}
	c.rank, c.startNo = resize(c.rank, n), resize(c.startNo, n)
	c.player, c.name, c.points = resize(c.player, n), resize(c.name, n), resize(c.points, n)
	c.def, c.vals = resize(c.def, n*k), c.vals[:0]
	for i := range rows {
		r := &rows[i]
		c.rank[i], c.startNo[i], c.player[i], c.name[i], c.points[i] = int32(r.Rank), int32(r.Player.StartNo), r.Player.ID, r.Player.Name, r.Points
		def := c.def[i*k : (i+1)*k]
		for j, v := range r.Values[:k] {
			def[j] = 1
			if v.OK {
				def[j] = 2
				c.vals = append(c.vals, v.V)
			}
		}
	}
}

// resize returns s with length n, reusing its array when large enough.
func resize[T any](s []T, n int) []T { return slices.Grow(s[:0], n)[:n] }

// keptStandingsCSV writes standings/TOURNAMENT_ID.csv for every tournament of
// standings/LABEL.parquet in out, kept from an earlier run: the same bytes as
// the CSVs written when the standings were computed (tiebreak.AppendCSV of the
// same rows). A period without that file has no tournaments, so no CSVs.
func keptStandingsCSV(stage *staging, out, label string) error {
	p := output.StandingsPeriod.Path(out, label)
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("standings CSVs of %s: %w", label, err)
	}
	defer f.Close()
	rd := output.NewReader[output.StandingsRow](f)
	defer rd.Close()
	var (
		id    int64
		codes []string
		rows  []tiebreak.Row
		csv   []byte
	)
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		csv = tiebreak.AppendCSV(csv[:0], codes, rows)
		rows = rows[:0]
		return stage.writeFile(output.StandingsCSV.Rel(strconv.FormatInt(id, 10)), csv)
	}
	buf := rd.Block(1024)
	for {
		n, err := rd.Read(buf)
		for _, r := range buf[:n] {
			if len(rows) > 0 && r.TournamentID != id {
				if err := flush(); err != nil {
					return err
				}
			}
			if len(rows) == 0 {
				id, codes = r.TournamentID, codes[:0]
				for _, c := range r.Tiebreaks {
					codes = append(codes, strings.Clone(c.Code))
				}
			}
			row := tiebreak.Row{Rank: int(r.Rank), Points: r.Points, Values: make([]tiebreak.Value, len(r.Tiebreaks)),
				Player: tiebreak.Player{ID: r.PlayerID, StartNo: int(r.StartNo), Name: strings.Clone(r.Name)}}
			for k, c := range r.Tiebreaks {
				if c.Value != nil {
					row.Values[k] = tiebreak.Value{V: *c.Value, OK: true}
				}
			}
			rows = append(rows, row)
		}
		if err == io.EOF {
			return flush()
		}
		if err != nil {
			return fmt.Errorf("standings CSVs from %s: %w", p, err)
		}
	}
}

// periodStandings is the standings file of one period, written as its
// tournaments' rows come: the standings jobs append to it in rating order
// (one at a time, see writeSink.flushStandings), and a last job closes it.
type periodStandings struct {
	label    string
	f        *outFile
	w        *pqwrite.Writer
	ids      []int64 // write's tournament_id column, reused
	def, rep []byte
	idx      []int32 // the tiebreaks' code indexes, and rep, for k tiebreaks a row (cells)
	k        int
}

// name is the file's path in --out.
func (p *periodStandings) name() string { return output.StandingsPeriod.Rel(p.label) }

// write appends one tournament's rows, creating the file first.
func (p *periodStandings) write(stage *staging, c *standingsCols) error {
	if p.w == nil {
		f, err := stage.create(p.name())
		if err != nil {
			return err
		}
		w, err := newColumnWriter(f, output.StandingsSchema)
		if err != nil {
			f.abort()
			return err
		}
		p.f, p.w = f, w
	}
	if err := p.writeCols(c); err != nil {
		p.f.abort()
		return fmt.Errorf("write %s: %w", p.name(), err)
	}
	return nil
}

// writeCols writes c's columns, each whole.
func (p *periodStandings) writeCols(c *standingsCols) error {
	p.ids = resize(p.ids, len(c.rank))
	for i := range p.ids {
		p.ids[i] = c.id
	}
	col := p.w.Column
	return errors.Join(
		col(standingsLeaf.tournament).Int64(p.ids, nil, nil),
		col(standingsLeaf.rank).Int32(c.rank, nil, nil),
		col(standingsLeaf.startNo).Int32(c.startNo, nil, nil),
		col(standingsLeaf.player).Int64(c.player, nil, nil),
		col(standingsLeaf.name).String(c.name, nil, nil),
		col(standingsLeaf.points).Double(c.points, nil, nil),
		p.writeTiebreaks(c),
	)
}

// writeTiebreaks writes the tiebreaks list: per row, a code and a value per
// tiebreak, the row's first at repetition level 0 and the others at 1, a
// null value one definition level below a set one; a row of a tournament
// without tiebreaks is one null at level 0 in each column (an empty list).
func (p *periodStandings) writeTiebreaks(c *standingsCols) error {
	code, value := p.w.Column(standingsLeaf.code), p.w.Column(standingsLeaf.value)
	k, n := len(c.codes), len(c.rank)
	if k == 0 {
		p.def = resize(p.def, n)
		clear(p.def) // the definition and the repetition levels
		return errors.Join(code.String(nil, p.def, p.def), value.Double(nil, p.def, p.def))
	}
	p.cells(n, k)
	rep := p.rep[:n*k]
	return errors.Join(code.StringIndexes(c.codes, p.idx[:n*k], nil, rep), value.Double(c.vals, c.def, rep))
}

// cells makes p.idx and p.rep at least n rows of k tiebreaks long: each
// row's code indexes 0 to k-1 and repetition levels 0, 1, 1... They are
// the same for every tournament with k tiebreaks, so they are kept.
func (p *periodStandings) cells(n, k int) {
	if p.k == k && len(p.rep) >= n*k {
		return
	}
	p.k = k
	p.idx, p.rep = resize(p.idx, max(n*k, len(p.rep))), resize(p.rep, max(n*k, len(p.rep)))
	for i := range p.rep {
		p.idx[i], p.rep[i] = int32(i%k), byte(min(i%k, 1))
	}
}

// standingsLeaf is the leaf column of each field of output.StandingsRow in
// its schema.
var standingsLeaf = struct {
	tournament, rank, startNo, player, name, points, code, value int
}{
	tournament: standingsColumn("tournament_id"),
	rank:       standingsColumn("rank"),
	startNo:    standingsColumn("start_no"),
	player:     standingsColumn("player_id"),
	name:       standingsColumn("name"),
	points:     standingsColumn("points"),
	code:       standingsColumn("tiebreaks", "list", "element", "code"),
	value:      standingsColumn("tiebreaks", "list", "element", "value"),
}

func standingsColumn(path ...string) int {
	return schemaLeaf(output.StandingsSchema, path...).ColumnIndex
}

// schemaLeaf is the leaf column at path in an output's schema; its absence is
// a typo in this package's column lists.
func schemaLeaf(schema *parquet.Schema, path ...string) parquet.LeafColumn {
	leaf, ok := schema.Lookup(path...)
	if !ok {
		panic(fmt.Sprintf("%s has no column %v", schema.Name(), path))
	}
	return leaf
}

// close completes the file.
func (p *periodStandings) close() error {
	if p.w == nil {
		return nil
	}
	if err := p.w.Close(); err != nil {
		p.f.abort()
		return fmt.Errorf("write %s: %w", p.name(), err)
	}
	return p.f.finish()
}

// startEntry is a player of a tournament (dense index p) with the rating at
// its start, packed so that entries in ascending order are in start-number
// order: rating descending, then p ascending. A sort of integers needs no
// comparison function.
type startEntry uint64

func newStartEntry(rating, p int32) startEntry {
	// Flipping the sign bit orders ratings as unsigned numbers; the
	// complement makes the higher one the smaller key.
	return startEntry(uint64(^(uint32(rating)^1<<31))<<32 | uint64(uint32(p)))
}

func (e startEntry) rating() int32 { return int32(^uint32(e>>32) ^ 1<<31) }
func (e startEntry) p() int32      { return int32(uint32(e)) }

// standingsScratch is what one tournament's standings at a time reuse:
// per-player slots (-1 between uses), the tournament view and its players,
// the tiebreak engine, and the codes of the last tiebreaks column and
// discipline seen.
type standingsScratch struct {
	local                 []int32
	t                     tiebreak.Tournament
	entries               []startEntry
	start                 []int32 // standingsInput's start index of each player by appearance
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
		ID: t.ID, Name: t.Name, Start: day.Day(t.Start).Time(), End: day.Day(t.End).Time(), Rounds: int(t.Rounds),
		System: t.System, Discipline: t.Discipline, Tiebreaks: t.Tiebreaks,
		Players: tt.Players[:0], Games: tt.Games[:0],
	}
	ps := sc.entries[:0]
	defer func() { sc.entries = ps[:0] }()
	// One pass over the rows: the games with the players numbered in order of
	// appearance (local), renumbered in start order once sorted.
	tt.Games = slices.Grow(tt.Games, len(rows))[:len(rows)]
	touchSlots(local, rows)
	maxRound := int32(0)
	for i := range rows {
		g, tg := &rows[i], &tt.Games[i]
		w, b := local[g.white], int32(-1)
		if w < 0 {
			w = int32(len(ps))
			local[g.white] = w
			ps = append(ps, newStartEntry(g.wrat, g.white))
		}
		if g.black >= 0 {
			if b = local[g.black]; b < 0 {
				b = int32(len(ps))
				local[g.black] = b
				ps = append(ps, newStartEntry(g.brat, g.black))
			}
		}
		// Field by field into place: a literal built on the stack and copied
		// would wait on its byte-sized stores.
		tg.Round, tg.White, tg.Black = int(g.round), int(w), int(b)
		tg.WhiteResult, tg.BlackResult, tg.WhitePoints, tg.BlackPoints, tg.HasPoints = g.wres, g.bres, g.wpts, g.bpts, g.hasPts
		maxRound = max(maxRound, g.round)
	}
	if tt.Rounds == 0 {
		tt.Rounds = int(maxRound)
	}
	// The names' entries and bytes, into cache before the view and the files take them.
	touchNames(ps, func(e *startEntry) string { return players.Name[e.p()] })
	smallsort.Sort(ps)
	start := resize(sc.start, len(ps)) // by order of appearance
	sc.start = start
	tt.Players = slices.Grow(tt.Players, len(ps))[:len(ps)]
	for i, e := range ps {
		p := e.p()
		start[local[p]], local[p] = int32(i), -1
		// IDOf: reading ID would miss the cache for most players of a large
		// registry. Field by field: a literal is built on the stack and copied.
		tp := &tt.Players[i]
		tp.ID, tp.StartNo, tp.Name, tp.Rating = players.IDOf(p), i+1, players.Name[p], int(e.rating())
	}
	for i := range tt.Games {
		tg := &tt.Games[i]
		tg.White = int(start[tg.White])
		if tg.Black >= 0 {
			tg.Black = int(start[tg.Black])
		}
	}
	return tt
}

// touchNames reads the first byte of each row's name, in a loop of its own so
// that the processor overlaps the cache misses (names lie scattered over the
// heap, their entries over a large registry): the code that comes next then
// finds them in cache instead of missing on each in turn.
func touchNames[T any](rows []T, name func(*T) string) {
	var b byte
	for i := range rows {
		if n := name(&rows[i]); n != "" {
			b |= n[0]
		}
	}
	touched.Store(uint32(b))
}

// touchSlots reads the rows and the slots of their white players, in a loop
// of its own so that the processor overlaps the cache misses, which the loop
// that numbers the players would take one by one (each of its steps waits on
// whether the player was new).
func touchSlots(local []int32, rows []gameRow) {
	var x int32
	for i := range rows {
		x |= local[rows[i].white]
	}
	touched.Store(uint32(x))
}

// touched keeps touchNames' reads: a result nobody uses would let the compiler
// drop them. It is atomic because jobs on several goroutines store to it.
var touched atomic.Uint32
