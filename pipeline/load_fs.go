package pipeline

import (
	"context"
	"errors"
	"io/fs"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/tiebreak"
)

// ForEachTournamentFS is ForEachTournament for an archive given as a file
// system, such as the embedded demo archive (ratelist.Demo()).
func ForEachTournamentFS(ctx context.Context, fsys fs.FS, fn func(*tiebreak.Tournament) error) error {
	return forEachTournament(ctx, fsys, "archive", fn)
}

// forEachTournament runs the pipeline in its write-nothing mode, handing every
// tournament to fn; rejected rows are left out, not an error.
func forEachTournament(ctx context.Context, fsys fs.FS, name string, fn func(*tiebreak.Tournament) error) error {
	_, err := Run(ctx, Options{Archive: fsys, ArchiveName: name, onTournament: fn, Workers: 1})
	if errors.Is(err, ErrRejected) {
		return nil
	}
	return err
}

// LoadArchive opens the archive in fsys and loads its small tables (players
// and tournaments); rejected rows are left out. The games are not read.
func LoadArchive(ctx context.Context, fsys fs.FS) (*archive.Archive, error) {
	return archive.Load(ctx, fsys, func(archive.RowError) {}, nil)
}
