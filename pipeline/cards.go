package pipeline

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/rating"
	"golang.org/x/sync/errgroup"
)

// cardRow is one row of cards.parquet: a player in a rated tournament.
type cardRow struct {
	Period          string   `parquet:"period"`
	TournamentID    int64    `parquet:"tournament_id"`
	EndDate         int32    `parquet:"end_date,date"`
	PlayerID        int64    `parquet:"player_id"`
	Name            string   `parquet:"name"`
	Stage           int32    `parquet:"stage"`
	RatingBefore    *int32   `parquet:"rating_before,optional"`
	Games           int32    `parquet:"games"`
	Score           float64  `parquet:"score"`
	OppAverage      *int32   `parquet:"opponents_average,optional"`
	D               *int32   `parquet:"d,optional"`
	Expected        *float64 `parquet:"expected,optional"`
	K               *int32   `parquet:"k,optional"`
	ChangeUnrounded *float64 `parquet:"change_unrounded,optional"`
	Change          int32    `parquet:"change"`
	RatingAfter     *int32   `parquet:"rating_after,optional"`
	Reason          string   `parquet:"reason"`
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

// addCards queues audit rows; tournament is 0 for rows of a period's close.
func (r *runner) addCards(tournament int64, end int32, cards []rating.Card) error {
	if r.cards == nil || len(cards) == 0 {
		return nil
	}
	period := periodLabel(r.opt.Period, periodKey(r.opt.Period, r.rules.ListDay(end)))
	if tournament == 0 { // a period's close: end is the list period's last day
		period = periodLabel(r.opt.Period, periodKey(r.opt.Period, end))
	}
	for _, c := range cards {
		row := cardRow{
			Period: period, TournamentID: tournament, EndDate: end, PlayerID: r.arch.Players.ID[c.Player],
			Name: r.arch.Players.Name[c.Player], Stage: int32(c.Stage), Games: c.Games, Score: float64(c.Score2) / 2,
			Change: c.Change, Reason: c.Reason,
		}
		if c.RatedBefore {
			row.RatingBefore = r.arena.i32(c.Before)
		}
		if c.RatedAfter {
			row.RatingAfter = r.arena.i32(c.After)
		}
		if c.RatedUsed {
			row.RatingUsed = r.arena.i32(c.Used)
		}
		if c.Games > 0 {
			row.OppAverage = r.arena.i32(c.OppAverage)
		}
		if c.Tournament != 0 {
			row.TournamentID, row.EndDate = c.Tournament, c.End
		}
		if c.PerGame {
			row.OpponentID, row.OpponentRating = r.arena.i64(r.arch.Players.ID[c.Opponent]), r.arena.i32(c.OppRating)
			row.W = r.arena.f64(float64(c.Score2) / 2)
			if c.K > 0 {
				row.PD = r.arena.f64(float64(c.Expected) / 100)
			}
		}
		if c.K > 0 {
			row.K = r.arena.i32(c.K)
			if !c.PeriodTotal {
				row.D = r.arena.i32(c.D)
			}
			row.Expected = r.arena.f64(float64(c.Expected) / 100)
			row.ChangeUnrounded = r.arena.f64(float64(c.ChangeExact) / 100)
		}
		if err := r.pushCard(row); err != nil {
			return err
		}
	}
	return nil
}

// pushCard queues one card row. Row groups hold exactly cardsPerRowGroup rows,
// so that cards.parquet's bytes depend only on its rows (a resumed run that
// carries earlier cards over writes the same file as a full run).
func (r *runner) pushCard(row cardRow) error {
	r.cardBuf = append(r.cardBuf, row)
	if len(r.cardBuf) == cardsPerRowGroup {
		return r.flushCards(false)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// cardArena hands out pointers for the optional columns of card rows from
// blocks, instead of one allocation per value (millions of cards at scale).
// Rows keep their blocks alive until they are written.
type cardArena struct {
	a32 []int32
	a64 []int64
	af  []float64
}

const arenaBlock = 1 << 14

func (a *cardArena) i32(v int32) *int32 {
	if len(a.a32) == cap(a.a32) {
		a.a32 = make([]int32, 0, arenaBlock)
	}
	a.a32 = append(a.a32, v)
	return &a.a32[len(a.a32)-1]
}

func (a *cardArena) i64(v int64) *int64 {
	if len(a.a64) == cap(a.a64) {
		a.a64 = make([]int64, 0, arenaBlock)
	}
	a.a64 = append(a.a64, v)
	return &a.a64[len(a.a64)-1]
}

func (a *cardArena) f64(v float64) *float64 {
	if len(a.af) == cap(a.af) {
		a.af = make([]float64, 0, arenaBlock)
	}
	a.af = append(a.af, v)
	return &a.af[len(a.af)-1]
}

// flushCards hands a full row group to the cards goroutine, or, when final
// (after every goroutine has stopped), writes the rest and closes the file.
func (r *runner) flushCards(final bool) error {
	if !final {
		select {
		case r.cardsCh <- r.cardBuf:
		case <-r.ctx.Done():
			return r.ctx.Err()
		}
		select { // a buffer the cards goroutine has finished with, or a new one
		case b := <-r.cardsFree:
			r.cardBuf = b[:0]
		default:
			r.cardBuf = make([]cardRow, 0, cardsPerRowGroup)
		}
		return nil
	}
	if _, err := r.cards.Write(r.cardBuf); err != nil {
		return fmt.Errorf("write cards.parquet: %w", err)
	}
	r.cardBuf = r.cardBuf[:0]
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
	r.cards = parquet.NewGenericWriter[cardRow](r.cardsF, parquet.Compression(outputCodec))
	cardsCh, cardsFree := make(chan []cardRow, 2), make(chan []cardRow, 2)
	r.cardsCh, r.cardsFree = cardsCh, cardsFree
	g.Go(func() error {
		for chunk := range cardsCh {
			if _, err := r.cards.Write(chunk); err != nil {
				return fmt.Errorf("write cards.parquet: %w", err)
			}
			if err := r.cards.Flush(); err != nil {
				return fmt.Errorf("write cards.parquet: %w", err)
			}
			clear(chunk) // drop the strings it points to
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
