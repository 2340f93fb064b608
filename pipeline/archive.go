package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/ratelist/ratelist/archive"
)

// runArchive is the archive a run reads, with the row counts of every table
// and the sink of its rejected rows.
type runArchive struct {
	*archive.Archive
	rejects *rejectSink
	// orphans are the games rows of tournaments whose own row was rejected,
	// by tournament: one rejects line each says how many (rejectOrphans).
	orphans map[int64]*orphanGames
}

// orphanGames are the games rows of one rejected tournament.
type orphanGames struct {
	file  string // of the first row
	first int64  // its data-row number in file
	n     int64
	why   string
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
	return &runArchive{Archive: l.ld.Done(rejects.add), rejects: rejects}, nil
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

// rejectOrphan counts games row i of b, whose tournament tid's own row was
// rejected for why, as rejected, without a rejects line of its own.
func (a *runArchive) rejectOrphan(b *archive.Batch, i int, tid int64, why string) {
	a.count("games").Rejected++
	if a.orphans == nil {
		a.orphans = map[int64]*orphanGames{}
	}
	row := b.First + int64(i)
	o := a.orphans[tid]
	if o == nil {
		o = &orphanGames{file: b.File, first: row, why: why}
		a.orphans[tid] = o
	}
	o.n++
}

// rejectOrphans writes one rejects line per rejected tournament with games
// rows, in tournament id order: the cause is its own row's line, and the
// games are counted, not listed (a tournament typed a century ahead must not
// give a rejects line per game).
func (a *runArchive) rejectOrphans() {
	ids := make([]int64, 0, len(a.orphans))
	for id := range a.orphans {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		o := a.orphans[id]
		p := archive.Problemf(archive.KindUnknownTournament, "",
			"unknown tournament %d: its row was rejected (%s): %d games rows, the first at row %d of %s", id, o.why, o.n, o.first, o.file)
		a.rejects.addRows(archive.RowError{File: o.file, Row: o.first, Problem: p, Values: fmt.Sprintf("tournament_id=%d", id)}, o.n)
	}
}
