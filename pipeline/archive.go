package pipeline

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/ratelist/ratelist/archive"
)

// runArchive is the archive a run reads, with the row counts of every table
// and the sink of its rejected rows.
type runArchive struct {
	*archive.Archive
	rejects *rejectSink
}

// archiveLoad is the load of a run's archive in two tasks, which execute runs
// at the same time: the players, and the tournaments followed by the
// producer's pass one over the games (which needs the tournaments, not the
// players).
type archiveLoad struct {
	ld         *archive.Loading
	prod       *producer
	playersErr error
}

// newArchiveLoad opens the archive in fsys on the run's date now (the clock's
// when zero).
func newArchiveLoad(fsys fs.FS, prod *producer, now time.Time) (*archiveLoad, error) {
	var opts []archive.Option
	if !now.IsZero() {
		opts = append(opts, archive.Now(now))
	}
	ld, err := archive.Open(fsys, opts...)
	if err != nil {
		return nil, err
	}
	return &archiveLoad{ld: ld, prod: prod}, nil
}

func (l *archiveLoad) players(ctx context.Context) error {
	l.playersErr = l.ld.Players(ctx)
	return l.playersErr
}

func (l *archiveLoad) tournaments(ctx context.Context) error {
	if err := l.ld.Tournaments(ctx); err != nil {
		return err
	}
	return l.prod.countGames(ctx, l.ld.Partial())
}

// done takes the outcome of both tasks (err, the first error of either): the
// loaded archive, its rejected rows passed to rejects, or the error. The
// players' error comes first, as when they were read first, unless it is only
// the stop caused by the other task's error.
func (l *archiveLoad) done(ctx context.Context, err error, rejects *rejectSink) (*runArchive, error) {
	if perr := l.playersErr; perr != nil && (ctx.Err() != nil || !errors.Is(perr, context.Canceled)) {
		return nil, perr
	}
	if err != nil {
		return nil, err
	}
	return &runArchive{l.ld.Done(rejects.add), rejects}, nil
}

func (a *runArchive) count(table string) *archive.TableCount {
	c := a.Counts[table]
	if c == nil {
		c = &archive.TableCount{}
		a.Counts[table] = c
	}
	return c
}

// reject records row i of b as rejected and counts it.
func (a *runArchive) reject(table string, b *archive.Batch, i int, p archive.Problem) {
	a.count(table).Rejected++
	a.rejects.add(archive.RowErrorAt(b, i, p))
}
