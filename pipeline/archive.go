package pipeline

import (
	"context"
	"io/fs"

	"github.com/ratelist/ratelist/archive"
)

// runArchive is the archive a run reads, with the row counts of every table
// and the sink of its rejected rows.
type runArchive struct {
	*archive.Archive
	rejects *rejectSink
}

// openArchive loads the archive in fsys (archive.Load), its rejected rows going
// to rejects.
func openArchive(ctx context.Context, fsys fs.FS, rejects *rejectSink, afterTournaments func(context.Context, *archive.Archive) error) (*runArchive, error) {
	a, err := archive.Load(ctx, fsys, rejects.add, afterTournaments)
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
func (a *runArchive) reject(table string, b *archive.Batch, i int, p archive.Problem) {
	a.count(table).Rejected++
	a.rejects.add(archive.RowErrorAt(b, i, p))
}
