package pipeline

import (
	"context"
	"errors"
	"fmt"
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

// errFound stops ForEachTournament once LoadTournament has its tournament.
var errFound = errors.New("found")

// LoadTournament returns one tournament of the archive in folder dir.
func LoadTournament(ctx context.Context, dir string, id int64) (*tiebreak.Tournament, error) {
	var got *tiebreak.Tournament
	err := ForEachTournament(ctx, dir, func(t *tiebreak.Tournament) error {
		if t.ID == id {
			got = t
			return errFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errFound) {
		return nil, err
	}
	if got == nil {
		return nil, fmt.Errorf("tournament %d: not in the archive or it has no valid games", id)
	}
	return got, nil
}
