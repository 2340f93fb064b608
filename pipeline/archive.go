package pipeline

import (
	"context"
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

// openArchive loads the archive in fsys (archive.Load) on the run's date now
// (the clock's when zero), its rejected rows going to rejects.
func openArchive(ctx context.Context, fsys fs.FS, rejects *rejectSink, afterTournaments func(context.Context, *archive.Archive) error, now time.Time) (*runArchive, error) {
	var opts []archive.Option
	if !now.IsZero() {
		opts = append(opts, archive.Now(now))
	}
	a, err := archive.Load(ctx, fsys, func(r archive.RowError) { rejects.add(r.File, r.Row, r.Reason, r.Values) }, afterTournaments, opts...)
	if err != nil {
		return nil, err
	}
	return &runArchive{a, rejects}, nil
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
func (a *runArchive) reject(table string, b *archive.Batch, i int, reason string) {
	a.count(table).Rejected++
	a.rejects.add(b.File, b.First+int64(i), reason, b.Values(i))
}
