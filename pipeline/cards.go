package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/parquet-go/parquet-go"
	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/colbuf"
	"github.com/ratelist/ratelist/internal/pqwrite"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// cardsPerRowGroup is how many rows a row group of cards.parquet, and of
// card_games.parquet, holds.
const cardsPerRowGroup = 1 << 16

// cardCols holds the rows of one row group of cards.parquet column by column,
// a column per field of output.Card.
type cardCols struct {
	period, reason            labels
	name                      []string
	tournament, player        []int64
	end, stage, games, change []int32
	score                     []float64

	before, oppAverage, d, k, after, used optional[int32]
	expected, changeExact                 optional[float64]
	added                                 addedCols // the rule set's own columns
}

// gameCols holds the rows of one row group of card_games.parquet column by
// column, a column per field of output.CardGame.
type gameCols struct {
	period, reason               labels
	player, tournament, opponent []int64
	end, oppRating               []int32
	w                            []float64
	d                            optional[int32]
	pd, changeExact              optional[float64]
	added                        addedCols // the rule set's own columns
}

// addedCols are a rule set's own columns of a row group (its declared
// Columns.Cards or Columns.Games), a slice per column of the column's type.
type addedCols struct {
	cols []rating.Column
	ints [][]int64
	flts [][]float64
	strs [][]string
	row  []rating.Value // CardValues' scratch

	floats bool        // every column is a Float64
	fill   [][]float64 // add's scratch
}

func newAddedCols(cols []rating.Column, n int) addedCols {
	a := addedCols{cols: cols, ints: make([][]int64, len(cols)), flts: make([][]float64, len(cols)), strs: make([][]string, len(cols)), row: make([]rating.Value, len(cols)), floats: true}
	for i, c := range cols {
		a.floats = a.floats && c.Type == rating.Float64
		switch c.Type {
		case rating.Int64:
			a.ints[i] = make([]int64, 0, n)
		case rating.Float64:
			a.flts[i] = make([]float64, 0, n)
		default:
			a.strs[i] = make([]string, 0, n)
		}
	}
	return a
}

// add appends the values of the cards cards[x] for x in ix, which ex gives.
// Columns all of Float64 are extended once and filled by index.
func (a *addedCols) add(ex rating.Extras, ix []int32) {
	if !a.floats {
		for _, x := range ix {
			ex.CardValues(int(x), a.row)
			a.push(a.row)
		}
		return
	}
	cols := a.fill[:0]
	for j := range a.cols {
		cols = append(cols, colbuf.Extend(&a.flts[j], len(ix)))
	}
	a.fill = cols
	for i, x := range ix {
		ex.CardValues(int(x), a.row)
		for j, v := range a.row {
			cols[j][i] = v.Float
		}
	}
}

// push appends a row of values, one per column.
func (a *addedCols) push(vals []rating.Value) {
	for i, c := range a.cols {
		switch v := vals[i]; c.Type {
		case rating.Int64:
			a.ints[i] = append(a.ints[i], v.Int)
		case rating.Float64:
			a.flts[i] = append(a.flts[i], v.Float)
		default:
			a.strs[i] = append(a.strs[i], v.Str)
		}
	}
}

func (a *addedCols) reset() {
	for i := range a.cols {
		clear(a.strs[i]) // drop the strings they point to
		a.ints[i], a.flts[i], a.strs[i] = a.ints[i][:0], a.flts[i][:0], a.strs[i][:0]
	}
}

// addedColumns are the columns of a file that added (of C's row group)
// fills: after the contract's columns.
func addedColumns[C any](cols []rating.Column, added func(*C) *addedCols) []column[C] {
	out := make([]column[C], len(cols))
	for i, c := range cols {
		switch c.Type {
		case rating.Int64:
			out[i] = required(c.Name, func(x *C) []int64 { return added(x).ints[i] })
		case rating.Float64:
			out[i] = required(c.Name, func(x *C) []float64 { return added(x).flts[i] })
		default:
			out[i] = required(c.Name, func(x *C) []string { return added(x).strs[i] })
		}
	}
	return out
}

// cardShape is what the two card files hold: the contract's columns and the
// rule set's own (rating.Columns.Cards and .Games), which it gives through ex.
type cardShape struct {
	ex                    rating.Extras // nil when it adds no card column
	rowAdded, gameAdded   []rating.Column
	rowShape, gameShape   *output.Shape // nil without added columns
	rowSchema, gameSchema *parquet.Schema
	rowCols               []column[cardCols]
	gameCols              []column[gameCols]
	rowLeaves, gameLeaves []int
	noK                   bool // rating.Columns.NoK: expected (pd) does not wait for a K
	floatGames            bool // every column of gameAdded is a Float64 (rating.GameRows)
	rowOpts, gameOpts     []parquet.WriterOption
}

// plainCards is the shape of a rule set that adds no card column.
var plainCards = &cardShape{
	rowSchema: output.CardSchema, gameSchema: output.CardGameSchema,
	rowCols: cardColumns, gameCols: gameColumns, rowLeaves: cardLeaves, gameLeaves: gameLeaves,
}

// newCardShape is the shape of def's cards; rules is its rater.
func newCardShape(def *rating.Definition, rules rating.RuleSet) *cardShape {
	rows, games := def.Columns.Cards, def.Columns.Games
	if len(rows) == 0 && len(games) == 0 {
		if def.Columns.NoK {
			sh := *plainCards
			sh.noK = true
			return &sh
		}
		return plainCards
	}
	sh := &cardShape{ex: rules.(rating.Extras), rowAdded: rows, gameAdded: games,
		rowShape: output.CardShape(rows), gameShape: output.CardGameShape(games), noK: def.Columns.NoK}
	sh.rowSchema, sh.gameSchema = sh.rowShape.Schema, sh.gameShape.Schema
	sh.floatGames = !slices.ContainsFunc(games, func(c rating.Column) bool { return c.Type != rating.Float64 })
	sh.rowCols = append(slices.Clip(cardColumns), addedColumns(rows, func(c *cardCols) *addedCols { return &c.added })...)
	sh.gameCols = append(slices.Clip(gameColumns), addedColumns(games, func(g *gameCols) *addedCols { return &g.added })...)
	sh.rowLeaves, sh.gameLeaves = columnIndex(sh.rowSchema, sh.rowCols), columnIndex(sh.gameSchema, sh.gameCols)
	sh.rowOpts, sh.gameOpts = sampled(rows), sampled(games)
	return sh
}

// sampled are the writer options of a file with the added columns cols: a
// column declared Incompressible is compressed only where it pays.
func sampled(cols []rating.Column) []parquet.WriterOption {
	var opts []parquet.WriterOption
	for _, c := range cols {
		if c.Incompressible {
			opts = append(opts, pqwrite.CompressIfWorth(c.Name))
		}
	}
	return opts
}

// labels is a text column whose rows repeat a few values (a period, a
// reason): a code per row into vals. A row group's buffer then holds four
// bytes per row instead of a string, and nothing for the GC to follow.
type labels struct {
	codes    []int32
	vals     []string
	index    map[string]int32 // vals' codes
	byReason [256]int32       // a reason's code + 1 (0: none yet), for reason
}

func newLabels(n int) labels {
	return labels{codes: make([]int32, 0, n), index: map[string]int32{}}
}

// add appends a row of s.
func (l *labels) add(s string) { l.codes = append(l.codes, l.code(s)) }

// code is s's code, s added to vals when new. Most rows repeat the value
// before them.
func (l *labels) code(s string) int32 {
	if n := len(l.vals); n > 0 && l.vals[n-1] == s {
		return int32(n - 1)
	}
	c, ok := l.index[s]
	if !ok {
		c = int32(len(l.vals))
		l.index[s] = c
		l.vals = append(l.vals, s)
	}
	return c
}

// reason is the code of r's name, remembered by r: a reason's name is looked
// up once per row group, not once per row.
func (l *labels) reason(r rating.Reason) int32 {
	if c := l.byReason[r]; c != 0 {
		return c - 1
	}
	c := l.code(r.String())
	l.byReason[r] = c + 1
	return c
}

func (l *labels) reset() {
	clear(l.vals) // drop the strings they point to
	clear(l.index)
	l.codes, l.vals = l.codes[:0], l.vals[:0]
	l.byReason = [256]int32{}
}

// optional is an optional column: a value for every row (ignored when unset)
// and whether it is set.
type optional[T any] struct {
	v   []T
	set []bool
}

func newOptional[T any](n int) optional[T] {
	return optional[T]{v: make([]T, 0, n), set: make([]bool, 0, n)}
}

func (o *optional[T]) add(v T, set bool) {
	o.v = append(o.v, v)
	o.set = append(o.set, set)
}

func (o *optional[T]) addPtr(p *T) {
	if p == nil {
		var zero T
		o.add(zero, false)
		return
	}
	o.add(*p, true)
}

func (o *optional[T]) reset() { o.v, o.set = o.v[:0], o.set[:0] }

// newCardCols returns empty columns with room for n rows (appends grow them),
// added the rule set's own.
func newCardCols(added []rating.Column, n int) *cardCols {
	c := &cardCols{added: newAddedCols(added, n)}
	c.period, c.reason, c.name = newLabels(n), newLabels(n), make([]string, 0, n)
	c.tournament, c.player = make([]int64, 0, n), make([]int64, 0, n)
	c.end, c.stage, c.games, c.change = make([]int32, 0, n), make([]int32, 0, n), make([]int32, 0, n), make([]int32, 0, n)
	c.score = make([]float64, 0, n)
	for _, o := range []*optional[int32]{&c.before, &c.oppAverage, &c.d, &c.k, &c.after, &c.used} {
		*o = newOptional[int32](n)
	}
	for _, o := range []*optional[float64]{&c.expected, &c.changeExact} {
		*o = newOptional[float64](n)
	}
	return c
}

func (c *cardCols) reset() {
	c.period.reset()
	c.reason.reset()
	clear(c.name) // drop the strings they point to
	c.name = c.name[:0]
	c.tournament, c.player = c.tournament[:0], c.player[:0]
	c.end, c.stage, c.games, c.change = c.end[:0], c.stage[:0], c.games[:0], c.change[:0]
	c.score = c.score[:0]
	for _, o := range []*optional[int32]{&c.before, &c.oppAverage, &c.d, &c.k, &c.after, &c.used} {
		o.reset()
	}
	for _, o := range []*optional[float64]{&c.expected, &c.changeExact} {
		o.reset()
	}
	c.added.reset()
}

// newGameCols returns empty columns with room for n rows (appends grow them),
// added the rule set's own.
func newGameCols(added []rating.Column, n int) *gameCols {
	g := &gameCols{added: newAddedCols(added, n)}
	g.period, g.reason = newLabels(n), newLabels(n)
	g.player, g.tournament, g.opponent = make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
	g.end, g.oppRating, g.w = make([]int32, 0, n), make([]int32, 0, n), make([]float64, 0, n)
	g.d = newOptional[int32](n)
	g.pd, g.changeExact = newOptional[float64](n), newOptional[float64](n)
	return g
}

func (g *gameCols) reset() {
	g.period.reset()
	g.reason.reset()
	g.player, g.tournament, g.opponent = g.player[:0], g.tournament[:0], g.opponent[:0]
	g.end, g.oppRating, g.w = g.end[:0], g.oppRating[:0], g.w[:0]
	g.d.reset()
	g.pd.reset()
	g.changeExact.reset()
	g.added.reset()
}

// cardWriter writes cards.parquet and card_games.parquet: the rating
// goroutine queues rows column by column (add), in chunks, and each file's
// encoders write them while rating goes on (run). A row group of either file
// holds exactly cardsPerRowGroup rows (the last one fewer), so that each
// file's bytes depend only on its own rows: a resumed run that carries
// earlier cards over writes the same files as a full run.
type cardWriter struct {
	f, gf   *outFile
	rows    *cardQueue[cardCols] // cards.parquet
	games   *cardQueue[gameCols] // card_games.parquet
	players *archive.Players
	shape   *cardShape
	kind    day.Kind                      // the period kind
	key     int                           // the period key of label
	label   string                        // the label of the last cards' period ("": none yet)
	ix      struct{ rows, games []int32 } // add's scratch: which cards are rows, which are games
}

// newCardWriter creates cards.parquet and card_games.parquet of shape sh in
// stage.
func newCardWriter(stage *staging, players *archive.Players, kind day.Kind, sh *cardShape) (*cardWriter, error) {
	f, err := stage.create(output.Cards.Rel(""))
	if err != nil {
		return nil, err
	}
	gf, err := stage.create(output.CardGames.Rel(""))
	if err != nil {
		f.abort()
		return nil, err
	}
	w, err := newColumnWriter(f, sh.rowSchema, sh.rowOpts...)
	if err != nil {
		f.abort()
		gf.abort()
		return nil, err
	}
	gw, err := newColumnWriter(gf, sh.gameSchema, sh.gameOpts...)
	if err != nil {
		f.abort()
		gf.abort()
		return nil, err
	}
	return &cardWriter{
		f: f, gf: gf, players: players, kind: kind, shape: sh,
		rows: newCardQueue("cards.parquet", w, sh.rowCols, sh.rowLeaves,
			func() *cardCols { return newCardCols(sh.rowAdded, cardsPerChunk) }, (*cardCols).reset),
		games: newCardQueue("card_games.parquet", gw, sh.gameCols, sh.gameLeaves,
			func() *gameCols { return newGameCols(sh.gameAdded, cardsPerChunk) }, (*gameCols).reset),
	}, nil
}

// cardsPerChunk is how many rows the rating goroutine hands an encoder at a
// time: a row group is written in chunks, so that the buffers are few and
// small (fresh memory costs page faults) and still in the cache when
// encoded. A multiple of pqwrite's piece (64 rows), so that pages end where
// they would with the whole row group at once.
const cardsPerChunk = cardsPerRowGroup / 8

// cardEncoders is how many goroutines encode each file's row groups: for a
// rule set that makes a row per game, more than one core encodes in time.
const cardEncoders = 2

// cardBuffers is how many chunk buffers of one file are made at most: the
// one being filled, and per encoder the one it encodes and one queued. When
// all are in use, the rating goroutine waits for one. They are all reused.
const cardBuffers = 1 + 2*cardEncoders

// cardQueue is one file of the card writer: its chunks, and its encoders.
// Row group i goes chunk by chunk to encoder i mod cardEncoders, which
// writes them into a row group of its own and commits it to the file when
// its turn comes, after row group i-1.
type cardQueue[C any] struct {
	name    string
	w       *pqwrite.Writer
	cols    []column[C]
	leaves  []int
	newBuf  func() *C
	reset   func(*C)
	buf     *C  // the chunk being filled (nil: none yet)
	inChunk int // its rows
	rows    int // the rows queued of the row group being filled, buf's too
	group   int // the row group's index in the file
	made    int // chunk buffers made
	in      [cardEncoders]chan cardChunk[C]
	turn    [cardEncoders]chan struct{}
	free    chan *C // buffers the encoders have finished with
}

// cardChunk is a chunk of a row group on its way to an encoder; last ends
// the row group.
type cardChunk[C any] struct {
	c    *C
	last bool
}

func newCardQueue[C any](name string, w *pqwrite.Writer, cols []column[C], leaves []int, newBuf func() *C, reset func(*C)) *cardQueue[C] {
	q := &cardQueue[C]{name: name, w: w, cols: cols, leaves: leaves, newBuf: newBuf, reset: reset, free: make(chan *C, cardBuffers)}
	for i := range cardEncoders {
		q.in[i], q.turn[i] = make(chan cardChunk[C], 1), make(chan struct{}, 1)
	}
	q.turn[0] <- struct{}{} // the first encoder commits first
	return q
}

// chunk is the chunk being filled and how many rows it takes yet. A new
// chunk is a buffer the encoders have finished with, else a new one while
// fewer than cardBuffers are made, else the next one they finish with.
func (q *cardQueue[C]) chunk(ctx context.Context) (*C, int, error) {
	if q.buf == nil {
		select {
		case q.buf = <-q.free:
		default:
			if q.made < cardBuffers {
				q.made++
				q.buf = q.newBuf()
				break
			}
			select {
			case q.buf = <-q.free:
			case <-ctx.Done():
				return nil, 0, ctx.Err()
			}
		}
	}
	return q.buf, cardsPerChunk - q.inChunk, nil
}

// added counts n rows added to the chunk, and hands it on once full.
func (q *cardQueue[C]) added(ctx context.Context, n int) error {
	q.inChunk += n
	q.rows += n
	if q.inChunk < cardsPerChunk {
		return nil
	}
	return q.send(ctx, q.rows == cardsPerRowGroup)
}

// send hands the chunk on to its row group's encoder; last ends the row
// group.
func (q *cardQueue[C]) send(ctx context.Context, last bool) error {
	if err := send(ctx, q.in[q.group%cardEncoders], cardChunk[C]{q.buf, last}); err != nil {
		return err
	}
	q.buf, q.inChunk = nil, 0
	if last {
		q.group++
		q.rows = 0
	}
	return nil
}

// flush hands on what is queued as the file's last row group.
func (q *cardQueue[C]) flush(ctx context.Context) error {
	if _, _, err := q.chunk(ctx); err != nil {
		return err
	}
	return q.send(ctx, true)
}

// close tells the encoders that no more chunks come.
func (q *cardQueue[C]) close() {
	for _, in := range q.in {
		close(in)
	}
}

// run writes the chunks of both files until they are closed (close).
func (cw *cardWriter) run() error {
	g, ctx := errgroup.WithContext(context.Background())
	for i := range cardEncoders {
		g.Go(func() error { return cw.rows.encode(ctx, i) })
		g.Go(func() error { return cw.games.encode(ctx, i) })
	}
	return g.Wait()
}

// close ends both files' chunks: run returns once they are written.
func (cw *cardWriter) close() {
	cw.rows.close()
	cw.games.close()
}

// encode is encoder i: it writes each chunk that comes into its row group,
// and commits the row group when its last chunk is written and its turn
// comes, then hands the turn on.
func (q *cardQueue[C]) encode(ctx context.Context, i int) error {
	rg := q.w.NewRowGroup()
	var scratch columnScratch
	for {
		var chunk cardChunk[C]
		var ok bool
		select {
		case chunk, ok = <-q.in[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if !ok {
			return nil
		}
		err := writeColumns(rg, q.cols, q.leaves, &scratch, chunk.c)
		q.reset(chunk.c)
		q.free <- chunk.c // never blocks: it has room for every buffer
		if err == nil && chunk.last {
			err = q.commit(ctx, rg, i)
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", q.name, err)
		}
	}
}

// commit writes row group rg of encoder i to the file in its turn.
func (q *cardQueue[C]) commit(ctx context.Context, rg *pqwrite.RowGroup, i int) error {
	if err := rg.Finish(); err != nil {
		return err
	}
	select {
	case <-q.turn[i]:
	case <-ctx.Done():
		return ctx.Err()
	}
	if err := q.w.WriteRowGroup(rg); err != nil {
		return err
	}
	q.turn[(i+1)%cardEncoders] <- struct{}{}
	return nil
}

// add queues audit rows of period key; tournament is 0 for rows of a period's
// close. A per-game card is a row of card_games.parquet, any other one a row
// of cards.parquet.
func (cw *cardWriter) add(ctx context.Context, key int, tournament int64, end int32, cards []rating.Card) error {
	if len(cards) == 0 {
		return nil
	}
	cw.period(key)
	rows, games := cw.ix.rows[:0], cw.ix.games[:0]
	for i := range cards {
		if cards[i].PerGame {
			games = append(games, int32(i))
		} else {
			rows = append(rows, int32(i))
		}
	}
	cw.ix.rows, cw.ix.games = rows, games
	for len(rows) > 0 {
		b, room, err := cw.rows.chunk(ctx)
		if err != nil {
			return err
		}
		n := min(len(rows), room)
		b.add(cw.players, cw.label, tournament, end, cards, rows[:n], cw.shape.noK)
		if cw.shape.ex != nil {
			b.added.add(cw.shape.ex, rows[:n])
		}
		rows = rows[n:]
		if err := cw.rows.added(ctx, n); err != nil {
			return err
		}
	}
	for len(games) > 0 {
		g, room, err := cw.games.chunk(ctx)
		if err != nil {
			return err
		}
		n := min(len(games), room)
		g.add(cw.players, cw.label, cards, games[:n], cw.shape.noK)
		if cw.shape.ex != nil {
			g.added.add(cw.shape.ex, games[:n])
		}
		games = games[n:]
		if err := cw.games.added(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

// period makes key the period of the rows queued next.
func (cw *cardWriter) period(key int) {
	if cw.label == "" || key != cw.key {
		cw.key, cw.label = key, day.Period{Kind: cw.kind, Key: key}.Label()
	}
}

// addGames queues per-game rows of a period's close of period key: rows of
// card_games.parquet, as add queues per-game cards.
func (cw *cardWriter) addGames(ctx context.Context, key int, rows *rating.GameRows) error {
	if len(rows.Values) != len(cw.shape.gameAdded) || (len(rows.Values) > 0 && !cw.shape.floatGames) {
		return fmt.Errorf("card_games.parquet: %d game values for %d columns, not all Float64", len(rows.Values), len(cw.shape.gameAdded))
	}
	cw.period(key)
	for lo := 0; lo < rows.Len(); {
		g, room, err := cw.games.chunk(ctx)
		if err != nil {
			return err
		}
		hi := lo + min(rows.Len()-lo, room)
		g.addRows(cw.players, cw.label, rows, lo, hi, cw.shape.noK)
		if err := cw.games.added(ctx, hi-lo); err != nil {
			return err
		}
		lo = hi
	}
	return nil
}

// addRows appends rows lo to hi of rows, as add appends per-game cards: D,
// PD and the change set on a row rated with a K, PD always with noK.
func (g *gameCols) addRows(players *archive.Players, period string, rows *rating.GameRows, lo, hi int, noK bool) {
	n := hi - lo
	player, opponent := colbuf.Extend(&g.player, n), colbuf.Extend(&g.opponent, n)
	for i, p := range rows.Player[lo:hi] {
		player[i] = players.IDOf(p)
	}
	for i, p := range rows.Opponent[lo:hi] { // misses the cache: a loop of its own (see cardCols.add)
		opponent[i] = players.IDOf(p)
	}
	colbuf.Fill(colbuf.Extend(&g.period.codes, n), g.period.code(period))
	reason := colbuf.Extend(&g.reason.codes, n)
	if len(rows.Reasons) > 0 {
		for i, x := range rows.Reasons[lo:hi] {
			reason[i] = g.reason.reason(x)
		}
	} else {
		colbuf.Fill(reason, g.reason.reason(rows.Reason))
	}
	copy(colbuf.Extend(&g.tournament, n), rows.Tournament[lo:hi])
	copy(colbuf.Extend(&g.end, n), rows.End[lo:hi])
	copy(colbuf.Extend(&g.oppRating, n), rows.OppRating[lo:hi])
	w := colbuf.Extend(&g.w, n)
	for i, s := range rows.Score2[lo:hi] {
		w[i] = float64(s) / 2
	}
	pd, pdSet := g.pd.extend(n)
	for i, e := range rows.Expected[lo:hi] {
		pd[i] = float64(e) / 100
	}
	d, dSet := g.d.extend(n)
	exact, exactSet := g.changeExact.extend(n)
	if len(rows.Rated) > 0 {
		rated := rows.Rated[lo:hi]
		copy(d, rows.D[lo:hi])
		for i, e := range rows.ChangeExact[lo:hi] {
			exact[i] = float64(e) / 100
		}
		copy(dSet, rated)
		copy(exactSet, rated)
		for i, r := range rated {
			pdSet[i] = r || noK
		}
	} else {
		// d and the change are unset: their values are never written, only the flags cleared.
		clear(dSet)
		clear(exactSet)
		colbuf.Fill(pdSet, noK)
	}
	for j, vals := range rows.Values {
		copy(colbuf.Extend(&g.added.flts[j], n), vals[lo:hi])
	}
}

// add appends a row per card cards[i] for i in ix. The columns are extended
// once and filled by index, column group by column group: cheaper than an
// append per value. Expected is set on a card rated with a K, or on any
// with noK (a rule set without K).
func (b *cardCols) add(players *archive.Players, period string, tournament int64, end int32, cards []rating.Card, ix []int32, noK bool) {
	n := len(ix)
	// The registry lookups, in a loop of their own: in a big registry they
	// miss the cache, and so their misses overlap.
	player, name := colbuf.Extend(&b.player, n), colbuf.Extend(&b.name, n)
	for i, x := range ix {
		c := &cards[x]
		player[i] = players.IDOf(c.Player)
		name[i] = players.Name[c.Player]
	}
	periods, tours, ends, stage := colbuf.Extend(&b.period.codes, n), colbuf.Extend(&b.tournament, n), colbuf.Extend(&b.end, n), colbuf.Extend(&b.stage, n)
	games, score, change, reason := colbuf.Extend(&b.games, n), colbuf.Extend(&b.score, n), colbuf.Extend(&b.change, n), colbuf.Extend(&b.reason.codes, n)
	pc := b.period.code(period)
	for i, x := range ix {
		c := &cards[x]
		periods[i] = pc
		tours[i], ends[i] = tournament, end
		if c.Tournament != 0 {
			tours[i], ends[i] = c.Tournament, c.End
		}
		stage[i] = int32(c.Stage)
		games[i] = c.Games
		score[i] = float64(c.Score2) / 2
		change[i] = c.Change
		reason[i] = b.reason.reason(c.Reason)
	}
	before, beforeSet := b.before.extend(n)
	oppAverage, oppAverageSet := b.oppAverage.extend(n)
	d, dSet := b.d.extend(n)
	k, kSet := b.k.extend(n)
	after, afterSet := b.after.extend(n)
	for i, x := range ix {
		c := &cards[x]
		before[i], beforeSet[i] = c.Before, c.RatedBefore
		oppAverage[i], oppAverageSet[i] = c.OppAverage, c.Games > 0
		d[i], dSet[i] = c.D, c.K > 0 && !c.PeriodTotal
		k[i], kSet[i] = c.K, c.K > 0
		after[i], afterSet[i] = c.After, c.RatedAfter
	}
	expected, expectedSet := b.expected.extend(n)
	changeExact, changeExactSet := b.changeExact.extend(n)
	used, usedSet := b.used.extend(n)
	for i, x := range ix {
		c := &cards[x]
		expected[i], expectedSet[i] = float64(c.Expected)/100, c.K > 0 || noK
		changeExact[i], changeExactSet[i] = float64(c.ChangeExact)/100, c.K > 0
		used[i], usedSet[i] = c.Used, c.RatedUsed
	}
}

// add appends a row per per-game card cards[i] for i in ix: W in Score2, and
// D, PD (in Expected) and the change set when the game was rated (K > 0; K
// itself is its period row's); with noK (a rule set without K) PD always.
func (g *gameCols) add(players *archive.Players, period string, cards []rating.Card, ix []int32, noK bool) {
	n := len(ix)
	player, opponent := colbuf.Extend(&g.player, n), colbuf.Extend(&g.opponent, n)
	for i, x := range ix { // the registry lookups, in a loop of their own (see cardCols.add)
		c := &cards[x]
		player[i] = players.IDOf(c.Player)
		opponent[i] = players.IDOf(c.Opponent)
	}
	periods, reason, tour, end := colbuf.Extend(&g.period.codes, n), colbuf.Extend(&g.reason.codes, n), colbuf.Extend(&g.tournament, n), colbuf.Extend(&g.end, n)
	oppRating, w := colbuf.Extend(&g.oppRating, n), colbuf.Extend(&g.w, n)
	pc := g.period.code(period)
	for i, x := range ix {
		c := &cards[x]
		periods[i], reason[i] = pc, g.reason.reason(c.Reason)
		tour[i], end[i], oppRating[i], w[i] = c.Tournament, c.End, c.OppRating, float64(c.Score2)/2
	}
	d, dSet := g.d.extend(n)
	pd, pdSet := g.pd.extend(n)
	exact, exactSet := g.changeExact.extend(n)
	for i, x := range ix {
		c := &cards[x]
		rated := c.K > 0
		d[i], dSet[i] = c.D, rated
		pd[i], pdSet[i] = float64(c.Expected)/100, rated || noK
		exact[i], exactSet[i] = float64(c.ChangeExact)/100, rated
	}
}

// extend lengthens the column by n rows and returns their values and flags.
func (o *optional[T]) extend(n int) ([]T, []bool) {
	return colbuf.Extend(&o.v, n), colbuf.Extend(&o.set, n)
}

// push queues one card row read back from a cards.parquet (carry), with
// its values of the rule set's columns.
func (cw *cardWriter) push(ctx context.Context, row *output.Card, vals []rating.Value) error {
	b, _, err := cw.rows.chunk(ctx)
	if err != nil {
		return err
	}
	b.added.push(vals)
	b.period.add(row.Period)
	b.tournament = append(b.tournament, row.TournamentID)
	b.end = append(b.end, row.EndDate)
	b.player = append(b.player, row.PlayerID)
	b.name = append(b.name, row.Name)
	b.stage = append(b.stage, row.Stage)
	b.before.addPtr(row.RatingBefore)
	b.games = append(b.games, row.Games)
	b.score = append(b.score, row.Score)
	b.oppAverage.addPtr(row.OppAverage)
	b.d.addPtr(row.D)
	b.expected.addPtr(row.Expected)
	b.k.addPtr(row.K)
	b.changeExact.addPtr(row.ChangeUnrounded)
	b.change = append(b.change, row.Change)
	b.after.addPtr(row.RatingAfter)
	b.reason.add(row.Reason)
	b.used.addPtr(row.RatingUsed)
	return cw.rows.added(ctx, 1)
}

// pushGame queues one game row read back from a card_games.parquet (carry),
// with its values of the rule set's columns.
func (cw *cardWriter) pushGame(ctx context.Context, row *output.CardGame, vals []rating.Value) error {
	g, _, err := cw.games.chunk(ctx)
	if err != nil {
		return err
	}
	g.added.push(vals)
	g.period.add(row.Period)
	g.player = append(g.player, row.PlayerID)
	g.tournament = append(g.tournament, row.TournamentID)
	g.end = append(g.end, row.EndDate)
	g.opponent = append(g.opponent, row.OpponentID)
	g.oppRating = append(g.oppRating, row.OpponentRating)
	g.w = append(g.w, row.W)
	g.d.addPtr(row.D)
	g.pd.addPtr(row.PD)
	g.changeExact.addPtr(row.ChangeUnrounded)
	g.reason.add(row.Reason)
	return cw.games.added(ctx, 1)
}

// flushAll hands on what is queued of both files: the last row groups.
// card_games.parquet gets none when it has no rows.
func (cw *cardWriter) flushAll(ctx context.Context) error {
	if cw.games.rows > 0 {
		if err := cw.games.flush(ctx); err != nil {
			return err
		}
	}
	return cw.rows.flush(ctx)
}

// finish closes the files, after the goroutine has written every row group.
func (cw *cardWriter) finish() error {
	if err := cw.rows.w.Close(); err != nil {
		cw.abort()
		return fmt.Errorf("write cards.parquet: %w", err)
	}
	if err := cw.games.w.Close(); err != nil {
		cw.abort()
		return fmt.Errorf("write card_games.parquet: %w", err)
	}
	if err := cw.f.finish(); err != nil {
		cw.gf.abort()
		return err
	}
	return cw.gf.finish()
}

// abort closes the files of a failed run.
func (cw *cardWriter) abort() {
	cw.f.abort()
	cw.gf.abort()
}

// column is one column of a file written column by column: its name in the
// file's schema and how a row group's values (C) are written to it.
type column[C any] struct {
	name  string
	write func(col *pqwrite.Column, s *columnScratch, c *C) error
}

// columnScratch is the scratch of a row group's column writes.
type columnScratch struct {
	def []byte
}

// required is a column with a value in every row.
func required[C any, T cardValue](name string, vals func(*C) []T) column[C] {
	return column[C]{name, func(col *pqwrite.Column, s *columnScratch, c *C) error {
		return writeValues(col, vals(c), nil, &s.def)
	}}
}

// nullable is an optional column. Its values move (writeValues): a row
// group's columns are written once.
func nullable[C any, T cardValue](name string, vals func(*C) *optional[T]) column[C] {
	return column[C]{name, func(col *pqwrite.Column, s *columnScratch, c *C) error {
		o := vals(c)
		return writeValues(col, o.v, o.set, &s.def)
	}}
}

// text is a required labels column, written as indexes into its values
// (pqwrite's StringIndexes): no string per row.
func text[C any](name string, get func(*C) *labels) column[C] {
	return column[C]{name, func(col *pqwrite.Column, _ *columnScratch, c *C) error {
		l := get(c)
		return col.StringIndexes(l.vals, l.codes, nil, nil)
	}}
}

// cardColumns says which of cardCols' columns fills each column of output.Card.
var cardColumns = []column[cardCols]{
	text("period", func(c *cardCols) *labels { return &c.period }),
	required("tournament_id", func(c *cardCols) []int64 { return c.tournament }),
	required("end_date", func(c *cardCols) []int32 { return c.end }),
	required("player_id", func(c *cardCols) []int64 { return c.player }),
	required("name", func(c *cardCols) []string { return c.name }),
	required("stage", func(c *cardCols) []int32 { return c.stage }),
	nullable("rating_before", func(c *cardCols) *optional[int32] { return &c.before }),
	required("games", func(c *cardCols) []int32 { return c.games }),
	required("score", func(c *cardCols) []float64 { return c.score }),
	nullable("opponents_average", func(c *cardCols) *optional[int32] { return &c.oppAverage }),
	nullable("d", func(c *cardCols) *optional[int32] { return &c.d }),
	nullable("expected", func(c *cardCols) *optional[float64] { return &c.expected }),
	nullable("k", func(c *cardCols) *optional[int32] { return &c.k }),
	nullable("change_unrounded", func(c *cardCols) *optional[float64] { return &c.changeExact }),
	required("change", func(c *cardCols) []int32 { return c.change }),
	nullable("rating_after", func(c *cardCols) *optional[int32] { return &c.after }),
	text("reason", func(c *cardCols) *labels { return &c.reason }),
	nullable("rating_used", func(c *cardCols) *optional[int32] { return &c.used }),
}

// gameColumns says which of gameCols' columns fills each column of
// output.CardGame.
var gameColumns = []column[gameCols]{
	text("period", func(g *gameCols) *labels { return &g.period }),
	required("player_id", func(g *gameCols) []int64 { return g.player }),
	required("tournament_id", func(g *gameCols) []int64 { return g.tournament }),
	required("end_date", func(g *gameCols) []int32 { return g.end }),
	required("opponent_id", func(g *gameCols) []int64 { return g.opponent }),
	required("opponent_rating", func(g *gameCols) []int32 { return g.oppRating }),
	required("w", func(g *gameCols) []float64 { return g.w }),
	nullable("d", func(g *gameCols) *optional[int32] { return &g.d }),
	nullable("pd", func(g *gameCols) *optional[float64] { return &g.pd }),
	nullable("change_unrounded", func(g *gameCols) *optional[float64] { return &g.changeExact }),
	text("reason", func(g *gameCols) *labels { return &g.reason }),
}

// columnIndex is each of cols' leaf index in schema.
func columnIndex[C any](schema *parquet.Schema, cols []column[C]) []int {
	idx := make([]int, len(cols))
	for i, col := range cols {
		idx[i] = schemaLeaf(schema, col.name).ColumnIndex
	}
	return idx
}

var (
	cardLeaves = columnIndex(output.CardSchema, cardColumns)
	gameLeaves = columnIndex(output.CardGameSchema, gameColumns)
)

// writeColumns writes c into row group rg, column by column: cols[i] into
// leaf idx[i].
func writeColumns[C any](rg *pqwrite.RowGroup, cols []column[C], idx []int, s *columnScratch, c *C) error {
	errs := make([]error, len(cols))
	for i, col := range cols {
		errs[i] = col.write(rg.Column(idx[i]), s, c)
	}
	return errors.Join(errs...)
}

// cardValue is the Go type of a cards.parquet column.
type cardValue interface {
	int32 | int64 | float64 | string
}
