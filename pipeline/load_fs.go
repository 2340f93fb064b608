package pipeline

import (
	"context"
	"io/fs"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/tiebreak"
)

// ForEachTournamentFS is ForEachTournament for an archive given as a file
// system, such as the embedded demo archive (ratelist.Demo()).
func ForEachTournamentFS(ctx context.Context, fsys fs.FS, fn func(*tiebreak.Tournament) error) error {
	return forEachTournament(ctx, fsys, "archive", nil, fn)
}

// ForEachTournamentOfFS is ForEachTournamentFS for the tournaments want
// accepts: the others are rated but not handed over.
func ForEachTournamentOfFS(ctx context.Context, fsys fs.FS, want func(id int64) bool, fn func(*tiebreak.Tournament) error) error {
	return forEachTournament(ctx, fsys, "archive", want, fn)
}

// LoadTournamentFS is LoadTournament for an archive given as a file system.
func LoadTournamentFS(ctx context.Context, fsys fs.FS, id int64) (*tiebreak.Tournament, error) {
	return loadTournament(ctx, fsys, "archive", id)
}

// LoadArchive opens the archive in fsys and loads its small tables (players
// and tournaments); rejected rows are left out. The games are not read.
func LoadArchive(ctx context.Context, fsys fs.FS) (*archive.Archive, error) {
	return archive.Load(ctx, fsys, func(archive.RowError) {})
}
