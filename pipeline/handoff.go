package pipeline

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
)

// handed is one complete tournament on its way from the producer to the rater.
type handed struct {
	t      *archive.Tournament
	rows   tourRows
	rowSum uint64
}

// Handoff batches: a batch goes when it has handoffTournaments tournaments or
// handoffRows rows; handoffBatches of them may wait, so that the producer
// goes on checking rows while the rater closes a period (FIDE's close is long).
const (
	handoffTournaments = 64
	handoffRows        = 8192
	handoffBatches     = 16
)

// runHanded is p.run with take on a goroutine of its own: the producer
// (decoded rows checked and held per tournament) and the rater overlap, each
// on a core, instead of taking turns on one. take still sees the
// tournaments one at a time, in rating order; its first error stops both.
func (p *producer) runHanded(ctx context.Context, games *archive.Prefetch, take takeFunc) error {
	g, hctx := errgroup.WithContext(ctx)
	batches := make(chan []handed, handoffBatches)
	g.Go(func() error {
		// take gets ctx, not hctx: the sink may keep it past this call (jobs
		// on its pool), and hctx ends with runHanded.
		for batch := range batches {
			for _, h := range batch {
				if err := hctx.Err(); err != nil {
					return err
				}
				if err := take(ctx, h.t, h.rows, h.rowSum); err != nil {
					return err
				}
			}
		}
		return nil
	})
	g.Go(func() error {
		defer close(batches)
		var batch []handed
		rows := 0
		flush := func() error {
			if len(batch) == 0 {
				return nil
			}
			err := send(hctx, batches, batch)
			batch, rows = make([]handed, 0, handoffTournaments), 0
			return err
		}
		err := p.run(hctx, games, func(_ context.Context, t *archive.Tournament, r tourRows, sum uint64) error {
			batch = append(batch, handed{t, r, sum})
			if rows += len(r.rows); len(batch) == handoffTournaments || rows >= handoffRows {
				return flush()
			}
			return nil
		})
		if err != nil {
			return err
		}
		return flush()
	})
	return g.Wait()
}
