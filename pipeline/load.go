package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/ratelist/ratelist/tiebreak"
)

// ForEachTournament calls fn for every tournament of the archive in folder dir
// that has games, in rating order, with its players' ratings at its start under
// the default rule set (DefaultRuleSet) and its default settings. Rejected
// rows are left out (run validate to see them).
func ForEachTournament(ctx context.Context, dir string, fn func(*tiebreak.Tournament) error) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return forEachTournament(ctx, os.DirFS(dir), dir, nil, fn)
}

// errFound stops the walk once loadTournament has its tournament.
var errFound = errors.New("found")

// LoadTournament returns one tournament of the archive in folder dir, as
// ForEachTournament hands it over.
func LoadTournament(ctx context.Context, dir string, id int64) (*tiebreak.Tournament, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("archive: %w", err)
	}
	return loadTournament(ctx, os.DirFS(dir), dir, id)
}

// loadTournament is LoadTournament for an archive in fsys, called name in errors.
func loadTournament(ctx context.Context, fsys fs.FS, name string, id int64) (*tiebreak.Tournament, error) {
	var got *tiebreak.Tournament
	err := forEachTournament(ctx, fsys, name, func(t int64) bool { return t == id }, func(t *tiebreak.Tournament) error {
		got = t
		return errFound
	})
	if err != nil && !errors.Is(err, errFound) {
		return nil, err
	}
	if got == nil {
		return nil, fmt.Errorf("tournament %d: %w", id, ErrNoTournament)
	}
	return got, nil
}
