package pipeline

import (
	"errors"
	"fmt"
	"slices"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/rating"
	"golang.org/x/sync/errgroup"
)

// cardRow is one row of cards.parquet: a player in a rated tournament. It
// gives the file's schema; rows are queued column by column (cardCols).
type cardRow struct {
	Period          string   `parquet:"period,dict"`
	TournamentID    int64    `parquet:"tournament_id,delta"`
	EndDate         int32    `parquet:"end_date,date,delta"`
	PlayerID        int64    `parquet:"player_id,delta"`
	Name            string   `parquet:"name"`
	Stage           int32    `parquet:"stage,delta"`
	RatingBefore    *int32   `parquet:"rating_before,optional"`
	Games           int32    `parquet:"games,delta"`
	Score           float64  `parquet:"score"`
	OppAverage      *int32   `parquet:"opponents_average,optional"`
	D               *int32   `parquet:"d,optional"`
	Expected        *float64 `parquet:"expected,optional"`
	K               *int32   `parquet:"k,optional"`
	ChangeUnrounded *float64 `parquet:"change_unrounded,optional"`
	Change          int32    `parquet:"change,delta"`
	RatingAfter     *int32   `parquet:"rating_after,optional"`
	Reason          string   `parquet:"reason,dict"`
	// Per-game rows of per-period rule sets (FIDE).
	OpponentID     *int64   `parquet:"opponent_id,optional"`
	OpponentRating *int32   `parquet:"opponent_rating,optional"`
	PD             *float64 `parquet:"pd,optional"`
	W              *float64 `parquet:"w,optional"`
	// The rating the tournament was rated with (Ro): the rating before, or a
	// newcomer's stage-one initial rating.
	RatingUsed *int32 `parquet:"rating_used,optional"`
}

const cardsPerRowGroup = 1 << 16

// cardCols holds the rows of one row group of cards.parquet column by column,
// one slice per field of cardRow.
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

// addCards queues audit rows; tournament is 0 for rows of a period's close.
func (r *runner) addCards(tournament int64, end int32, cards []rating.Card) error {
	if r.cards == nil || len(cards) == 0 {
		return nil
	}
	key := periodKey(r.opt.Period, r.rules.ListDay(end))
	if tournament == 0 { // a period's close: end is the list period's last day
		key = periodKey(r.opt.Period, end)
	}
	period := r.cardPeriod(key)
	for len(cards) > 0 {
		n := min(len(cards), cardsPerRowGroup-r.cardBuf.len())
		r.cardBuf.add(&r.arch.Players, period, tournament, end, cards[:n])
		cards = cards[n:]
		if err := r.cardAdded(); err != nil {
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
		oppAverage[i], oppAverageSet[i] = c.OppAverage, c.Games > 0
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

// cardPeriod is the label of period key. Cards come period by period, so the
// last label is remembered rather than formatted again for every tournament.
func (r *runner) cardPeriod(key int) string {
	if r.cardLabel == "" || key != r.cardKey {
		r.cardKey, r.cardLabel = key, periodLabel(r.opt.Period, key)
	}
	return r.cardLabel
}

// pushCard queues one card row read back from a cards.parquet (carryCards).
func (r *runner) pushCard(row cardRow) error {
	b := r.cardBuf
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
	return r.cardAdded()
}

// cardAdded hands the queued rows on once they fill a row group. Row groups
// hold exactly cardsPerRowGroup rows, so that cards.parquet's bytes depend
// only on its rows (a resumed run that carries earlier cards over writes the
// same file as a full run).
func (r *runner) cardAdded() error {
	if r.cardBuf.len() == cardsPerRowGroup {
		return r.flushCards(false)
	}
	return nil
}

// writeCards writes c as the writer's current row group (not flushed), column
// by column in cardRow's field order.
func writeCards(w *parquet.GenericWriter[cardRow], c *cardCols) error {
	cw := w.ColumnWriters()
	return errors.Join(
		writeColumn(cw, 0, c.period, nil),
		writeColumn(cw, 1, c.tournament, nil),
		writeColumn(cw, 2, c.end, nil),
		writeColumn(cw, 3, c.player, nil),
		writeColumn(cw, 4, c.name, nil),
		writeColumn(cw, 5, c.stage, nil),
		writeColumn(cw, 6, c.before.v, c.before.set),
		writeColumn(cw, 7, c.games, nil),
		writeColumn(cw, 8, c.score, nil),
		writeColumn(cw, 9, c.oppAverage.v, c.oppAverage.set),
		writeColumn(cw, 10, c.d.v, c.d.set),
		writeColumn(cw, 11, c.expected.v, c.expected.set),
		writeColumn(cw, 12, c.k.v, c.k.set),
		writeColumn(cw, 13, c.changeExact.v, c.changeExact.set),
		writeColumn(cw, 14, c.change, nil),
		writeColumn(cw, 15, c.after.v, c.after.set),
		writeColumn(cw, 16, c.reason, nil),
		writeColumn(cw, 17, c.opponent.v, c.opponent.set),
		writeColumn(cw, 18, c.oppRating.v, c.oppRating.set),
		writeColumn(cw, 19, c.pd.v, c.pd.set),
		writeColumn(cw, 20, c.w.v, c.w.set),
		writeColumn(cw, 21, c.used.v, c.used.set),
	)
}

// cardValue is the Go type of a cards.parquet column.
type cardValue interface {
	int32 | int64 | float64 | string
}

// writeColumn writes column col of a row group: required when set is nil,
// else optional (null where set is false). It writes 64 rows at a time, as
// GenericWriter.Write does, so that pages end at the same rows: the file is
// the one GenericWriter[cardRow] would write.
func writeColumn[T cardValue](cw []*parquet.ColumnWriter, col int, vals []T, set []bool) error {
	def := 0
	if set != nil {
		def = 1
	}
	buf := make([]parquet.Value, 64)
	for start := 0; start < len(vals); start += len(buf) {
		rows := buf[:min(len(buf), len(vals)-start)]
		toValues(rows, vals[start:])
		for i := range rows {
			if set != nil && !set[start+i] {
				rows[i] = parquet.NullValue()
			} else {
				rows[i].SetDefinitionLevel(def)
			}
			rows[i].SetColumnIndex(col)
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

// flushCards hands a full row group to the cards goroutine, or, when final
// (after every goroutine has stopped), writes the rest and closes the file.
func (r *runner) flushCards(final bool) error {
	if !final {
		if err := send(r.ctx, r.cardsCh, r.cardBuf); err != nil {
			return err
		}
		select { // a buffer the cards goroutine has finished with, or a new one
		case b := <-r.cardsFree:
			r.cardBuf = b
		default:
			r.cardBuf = newCardCols()
		}
		return nil
	}
	if err := writeCards(r.cards, r.cardBuf); err != nil {
		return fmt.Errorf("write cards.parquet: %w", err)
	}
	if err := r.cards.Close(); err != nil {
		return fmt.Errorf("write cards.parquet: %w", err)
	}
	return r.cardsF.finish()
}

// startCards creates cards.parquet and starts the goroutine (in g) that writes
// its row groups, in order, while rating goes on. A resumed run first carries
// over the cards of the periods it does not rate.
func (r *runner) startCards(g *errgroup.Group) error {
	var err error
	if r.cardsF, err = r.stage.create("cards.parquet"); err != nil {
		return err
	}
	r.cards = parquet.NewGenericWriter[cardRow](r.cardsF, outputOptions...)
	r.cardBuf = newCardCols()
	cardsCh, cardsFree := make(chan *cardCols, 2), make(chan *cardCols, 2)
	r.cardsCh, r.cardsFree = cardsCh, cardsFree
	g.Go(func() error {
		for chunk := range cardsCh {
			if err := writeCards(r.cards, chunk); err != nil {
				return fmt.Errorf("write cards.parquet: %w", err)
			}
			if err := r.cards.Flush(); err != nil {
				return fmt.Errorf("write cards.parquet: %w", err)
			}
			chunk.reset()
			select {
			case cardsFree <- chunk:
			default:
			}
		}
		return nil
	})
	if r.startKey > r.firstPeriod {
		if err := r.carryCards(periodLabel(r.opt.Period, r.startKey)); err != nil {
			close(cardsCh)
			g.Wait()
			r.cardsF.f.Close()
			return err
		}
	}
	return nil
}
