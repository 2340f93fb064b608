package pipeline

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/ratelist/ratelist/tiebreak"
)

// TestLoadTournament: one tournament loaded alone is the one a walk over the
// whole archive hands over (its players' ratings at its start included); an
// id the archive does not have is ErrNoTournament.
func TestLoadTournament(t *testing.T) {
	dir := genArchive(t, 5, false)
	ctx := context.Background()
	var all []*tiebreak.Tournament
	if err := ForEachTournament(ctx, dir, func(t *tiebreak.Tournament) error {
		all = append(all, t)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(all) < 3 {
		t.Fatalf("the archive has %d tournaments with games; the test needs 3", len(all))
	}
	want := all[len(all)/2]
	got, err := LoadTournament(ctx, dir, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tournament %d loaded alone differs from the walk's", want.ID)
	}
	if _, err := LoadTournament(ctx, dir, -7); !errors.Is(err, ErrNoTournament) {
		t.Errorf("unknown id: %v, want ErrNoTournament", err)
	}
}
