package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

const cardsPerRowGroup = 1 << 16

// cardCols holds the rows of one row group of cards.parquet column by column,
// one slice per field of output.Card.
type cardCols struct {
	period, name, reason      []string
	tournament, player        []int64
	end, stage, games, change []int32
	score                     []float64

	before, oppAverage, d, k, after, oppRating, used optional[int32]
	expected, changeExact, pd, w                     optional[float64]
	opponent                                         optional[int64]
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

// newCardCols returns empty columns with room for a row group.
func newCardCols() *cardCols {
	const n = cardsPerRowGroup
	c := &cardCols{}
	c.period, c.name, c.reason = make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	c.tournament, c.player = make([]int64, 0, n), make([]int64, 0, n)
	c.end, c.stage, c.games, c.change = make([]int32, 0, n), make([]int32, 0, n), make([]int32, 0, n), make([]int32, 0, n)
	c.score = make([]float64, 0, n)
	for _, o := range []*optional[int32]{&c.before, &c.oppAverage, &c.d, &c.k, &c.after, &c.oppRating, &c.used} {
		*o = newOptional[int32](n)
	}
	for _, o := range []*optional[float64]{&c.expected, &c.changeExact, &c.pd, &c.w} {
		*o = newOptional[float64](n)
	}
	c.opponent = newOptional[int64](n)
	return c
}

func (c *cardCols) len() int { return len(c.period) }

func (c *cardCols) reset() {
	clear(c.period) // drop the strings they point to
	clear(c.name)
	clear(c.reason)
	c.period, c.name, c.reason = c.period[:0], c.name[:0], c.reason[:0]
	c.tournament, c.player = c.tournament[:0], c.player[:0]
	c.end, c.stage, c.games, c.change = c.end[:0], c.stage[:0], c.games[:0], c.change[:0]
	c.score = c.score[:0]
	for _, o := range []*optional[int32]{&c.before, &c.oppAverage, &c.d, &c.k, &c.after, &c.oppRating, &c.used} {
		o.reset()
	}
	for _, o := range []*optional[float64]{&c.expected, &c.changeExact, &c.pd, &c.w} {
		o.reset()
	}
	c.opponent.reset()
}

// cardWriter writes cards.parquet: the rating goroutine queues rows column by
// column (add), and full row groups go to the writer's own goroutine (run),
// which writes them in order while rating goes on.
type cardWriter struct {
	f       *outFile
	w       *parquet.GenericWriter[output.Card]
	players *archive.Players
	kind    string    // the period kind
	buf     *cardCols // the row group being filled
	full    chan *cardCols
	free    chan *cardCols // buffers the goroutine has finished with
	key     int            // the period key of label
	label   string         // the label of the last cards' period ("": none yet)
}

// newCardWriter creates cards.parquet in stage.
func newCardWriter(stage *staging, players *archive.Players, kind string) (*cardWriter, error) {
	f, err := stage.create("cards.parquet")
	if err != nil {
		return nil, err
	}
	return &cardWriter{
		f: f, w: newParquetWriter[output.Card](f, output.CardSchema), players: players, kind: kind,
		buf: newCardCols(), full: make(chan *cardCols, cardsQueued), free: make(chan *cardCols, cardBuffers),
	}, nil
}

// cardEncoders is how many goroutines encode cards.parquet's row groups: a
// FIDE run makes a row per game, more than one core encodes in time.
const cardEncoders = 2

// cardsQueued is how many full row groups wait for the encoders.
const cardsQueued = 2

// cardBuffers is how many row-group buffers can be in use at once: the one
// being filled, the queued ones, one the dispatcher holds and one per
// encoder. The free list holds them all, so that every buffer is reused:
// buffers are large, and making new ones feeds the GC.
const cardBuffers = 1 + cardsQueued + 1 + cardEncoders

// run writes the row groups that come on full until it is closed. Row group i
// is encoded by encoder i mod cardEncoders into a row group of its own, and
// the encoders commit them to the file in turn, in the order they came.
func (cw *cardWriter) run() error {
	g, ctx := errgroup.WithContext(context.Background())
	var in [cardEncoders]chan *cardCols
	var turn [cardEncoders]chan struct{}
	for i := range cardEncoders {
		in[i], turn[i] = make(chan *cardCols), make(chan struct{}, 1)
	}
	turn[0] <- struct{}{} // the first encoder commits first
	for i := range cardEncoders {
		g.Go(func() error { return cw.encode(ctx, in[i], turn[i], turn[(i+1)%cardEncoders]) })
	}
	i := 0
dispatch:
	for chunk := range cw.full {
		select {
		case in[i] <- chunk:
		case <-ctx.Done():
			break dispatch
		}
		i = (i + 1) % cardEncoders
	}
	for _, c := range in {
		close(c)
	}
	return g.Wait()
}

// encode writes each row group that comes on in into a row group of its own,
// and commits it to the file when its turn comes (a value on turn), then
// hands the turn on to next.
func (cw *cardWriter) encode(ctx context.Context, in <-chan *cardCols, turn <-chan struct{}, next chan<- struct{}) error {
	rg := cw.w.BeginRowGroup()
	for chunk := range in {
		if err := writeCards(rg.ColumnWriters(), chunk); err != nil {
			return fmt.Errorf("write cards.parquet: %w", err)
		}
		if err := rg.Flush(); err != nil {
			return fmt.Errorf("write cards.parquet: %w", err)
		}
		select {
		case <-turn:
		case <-ctx.Done():
			return ctx.Err()
		}
		if _, err := rg.Commit(); err != nil {
			return fmt.Errorf("write cards.parquet: %w", err)
		}
		next <- struct{}{}
		chunk.reset()
		select {
		case cw.free <- chunk:
		default:
		}
	}
	return nil
}

// add queues audit rows of period key; tournament is 0 for rows of a period's
// close.
func (cw *cardWriter) add(ctx context.Context, key int, tournament int64, end int32, cards []rating.Card) error {
	if len(cards) == 0 {
		return nil
	}
	if cw.label == "" || key != cw.key {
		cw.key, cw.label = key, periodLabel(cw.kind, key)
	}
	for len(cards) > 0 {
		n := min(len(cards), cardsPerRowGroup-cw.buf.len())
		cw.buf.add(cw.players, cw.label, tournament, end, cards[:n])
		cards = cards[n:]
		if err := cw.added(ctx); err != nil {
			return err
		}
	}
	return nil
}

// add appends a row per card. The columns are extended once and filled by
// index, column group by column group: cheaper than an append per value.
func (b *cardCols) add(players *archive.Players, period string, tournament int64, end int32, cards []rating.Card) {
	n := len(cards)
	// The registry lookups, in a loop of their own: in a big registry they
	// miss the cache, and so their misses overlap.
	player, name := extend(&b.player, n), extend(&b.name, n)
	opponent, opponentSet := b.opponent.extend(n)
	for i := range cards {
		c := &cards[i]
		player[i] = players.ID[c.Player]
		name[i] = players.Name[c.Player]
		opponent[i], opponentSet[i] = 0, c.PerGame
		if c.PerGame {
			opponent[i] = players.ID[c.Opponent]
		}
	}
	periods, tours, ends, stage := extend(&b.period, n), extend(&b.tournament, n), extend(&b.end, n), extend(&b.stage, n)
	games, score, change, reason := extend(&b.games, n), extend(&b.score, n), extend(&b.change, n), extend(&b.reason, n)
	for i := range cards {
		c := &cards[i]
		periods[i] = period
		tours[i], ends[i] = tournament, end
		if c.Tournament != 0 {
			tours[i], ends[i] = c.Tournament, c.End
		}
		stage[i] = int32(c.Stage)
		games[i] = c.Games
		score[i] = float64(c.Score2) / 2
		change[i] = c.Change
		reason[i] = c.Reason.String()
	}
	before, beforeSet := b.before.extend(n)
	oppAverage, oppAverageSet := b.oppAverage.extend(n)
	d, dSet := b.d.extend(n)
	k, kSet := b.k.extend(n)
	after, afterSet := b.after.extend(n)
	for i := range cards {
		c := &cards[i]
		before[i], beforeSet[i] = c.Before, c.RatedBefore
		// A per-game row has one opponent, no average: opponent_rating says it.
		oppAverage[i], oppAverageSet[i] = c.OppAverage, c.Games > 0 && !c.PerGame
		d[i], dSet[i] = c.D, c.K > 0 && !c.PeriodTotal
		k[i], kSet[i] = c.K, c.K > 0
		after[i], afterSet[i] = c.After, c.RatedAfter
	}
	expected, expectedSet := b.expected.extend(n)
	changeExact, changeExactSet := b.changeExact.extend(n)
	oppRating, oppRatingSet := b.oppRating.extend(n)
	pd, pdSet := b.pd.extend(n)
	w, wSet := b.w.extend(n)
	used, usedSet := b.used.extend(n)
	for i := range cards {
		c := &cards[i]
		expected[i], expectedSet[i] = float64(c.Expected)/100, c.K > 0
		changeExact[i], changeExactSet[i] = float64(c.ChangeExact)/100, c.K > 0
		oppRating[i], oppRatingSet[i] = c.OppRating, c.PerGame
		pd[i], pdSet[i] = float64(c.Expected)/100, c.PerGame && c.K > 0
		w[i], wSet[i] = float64(c.Score2)/2, c.PerGame
		used[i], usedSet[i] = c.Used, c.RatedUsed
	}
}

// extend lengthens *s by n and returns the n new elements.
func extend[T any](s *[]T, n int) []T {
	l := len(*s)
	*s = slices.Grow(*s, n)[:l+n]
	return (*s)[l : l+n]
}

// extend lengthens the column by n rows and returns their values and flags.
func (o *optional[T]) extend(n int) ([]T, []bool) { return extend(&o.v, n), extend(&o.set, n) }

// push queues one card row read back from a cards.parquet (carry).
func (cw *cardWriter) push(ctx context.Context, row output.Card) error {
	b := cw.buf
	b.period = append(b.period, row.Period)
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
	b.reason = append(b.reason, row.Reason)
	b.opponent.addPtr(row.OpponentID)
	b.oppRating.addPtr(row.OpponentRating)
	b.pd.addPtr(row.PD)
	b.w.addPtr(row.W)
	b.used.addPtr(row.RatingUsed)
	return cw.added(ctx)
}

// added hands the queued rows on once they fill a row group. Row groups hold
// exactly cardsPerRowGroup rows, so that cards.parquet's bytes depend only on
// its rows (a resumed run that carries earlier cards over writes the same file
// as a full run).
func (cw *cardWriter) added(ctx context.Context) error {
	if cw.buf.len() == cardsPerRowGroup {
		return cw.flush(ctx)
	}
	return nil
}

// flush hands the queued rows to the goroutine as a row group.
func (cw *cardWriter) flush(ctx context.Context) error {
	if err := send(ctx, cw.full, cw.buf); err != nil {
		return err
	}
	select { // a buffer the goroutine has finished with, or a new one
	case b := <-cw.free:
		cw.buf = b
	default:
		cw.buf = newCardCols()
	}
	return nil
}

// finish closes the file, after the goroutine has written every row group.
func (cw *cardWriter) finish() error {
	if err := cw.w.Close(); err != nil {
		cw.f.abort()
		return fmt.Errorf("write cards.parquet: %w", err)
	}
	return cw.f.finish()
}

// cardColumn is one column of cards.parquet: its name in output.Card's schema and
// how a row group's values are written to it.
type cardColumn struct {
	name  string
	write func(cw []*parquet.ColumnWriter, col int, buf []parquet.Value, c *cardCols) error
}

// required is a column with a value in every row.
func required[T cardValue](name string, vals func(*cardCols) []T) cardColumn {
	return cardColumn{name, func(cw []*parquet.ColumnWriter, col int, buf []parquet.Value, c *cardCols) error {
		return writeColumn(cw, col, buf, vals(c), nil)
	}}
}

// nullable is an optional column.
func nullable[T cardValue](name string, vals func(*cardCols) *optional[T]) cardColumn {
	return cardColumn{name, func(cw []*parquet.ColumnWriter, col int, buf []parquet.Value, c *cardCols) error {
		o := vals(c)
		return writeColumn(cw, col, buf, o.v, o.set)
	}}
}

// cardColumns says which of cardCols' columns fills each column of output.Card.
var cardColumns = []cardColumn{
	required("period", func(c *cardCols) []string { return c.period }),
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
	required("reason", func(c *cardCols) []string { return c.reason }),
	nullable("opponent_id", func(c *cardCols) *optional[int64] { return &c.opponent }),
	nullable("opponent_rating", func(c *cardCols) *optional[int32] { return &c.oppRating }),
	nullable("pd", func(c *cardCols) *optional[float64] { return &c.pd }),
	nullable("w", func(c *cardCols) *optional[float64] { return &c.w }),
	nullable("rating_used", func(c *cardCols) *optional[int32] { return &c.used }),
}

// cardColumnIndex is each of cardColumns' leaf index in output.Card's schema.
var cardColumnIndex = func() []int {
	idx := make([]int, len(cardColumns))
	for i, col := range cardColumns {
		idx[i] = schemaLeaf(output.CardSchema, col.name).ColumnIndex
	}
	return idx
}()

// writeCards writes c as a row group (not flushed) through its column
// writers, column by column.
func writeCards(cw []*parquet.ColumnWriter, c *cardCols) error {
	errs := make([]error, len(cardColumns))
	buf := make([]parquet.Value, rowChunk)
	for i, col := range cardColumns {
		errs[i] = col.write(cw, cardColumnIndex[i], buf, c)
	}
	return errors.Join(errs...)
}

// cardValue is the Go type of a cards.parquet column.
type cardValue interface {
	int32 | int64 | float64 | string
}

// rowChunk is how many rows GenericWriter.Write hands its columns at a time
// (and checks whether a page is full after): the column-wise writers do the
// same, so that pages end at the same rows and the files are the ones
// GenericWriter would write.
const rowChunk = 64

// writeColumn writes column col of a row group: required when set is nil,
// else optional (null where set is false). It writes len(buf) (rowChunk)
// rows at a time, through buf.
func writeColumn[T cardValue](cw []*parquet.ColumnWriter, col int, buf []parquet.Value, vals []T, set []bool) error {
	for start := 0; start < len(vals); start += len(buf) {
		rows := buf[:min(len(buf), len(vals)-start)]
		toValues(rows, vals[start:])
		// A ColumnWriter's values need no column index (it writes one column),
		// and a required value's definition level is 0 as made.
		if set != nil {
			for i, ok := range set[start : start+len(rows)] {
				if ok {
					rows[i].SetDefinitionLevel(1)
				} else {
					rows[i] = parquet.NullValue()
				}
			}
		}
		if _, err := cw[col].WriteRowValues(rows); err != nil {
			return err
		}
	}
	return nil
}

// toValues sets values to the first len(values) of vals.
func toValues[T cardValue](values []parquet.Value, vals []T) {
	switch vals := any(vals).(type) {
	case []int32:
		for i := range values {
			values[i] = parquet.Int32Value(vals[i])
		}
	case []int64:
		for i := range values {
			values[i] = parquet.Int64Value(vals[i])
		}
	case []float64:
		for i := range values {
			values[i] = parquet.DoubleValue(vals[i])
		}
	case []string: // without copying the bytes: the column copies them
		for i := range values {
			values[i] = parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(vals[i]), len(vals[i])))
		}
	}
}
