package generate

import (
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
)

// TestGeneratorFollowsSchema: every table the generator writes is a form of
// the archive schema the run reads.
func TestGeneratorFollowsSchema(t *testing.T) {
	for _, tc := range []struct {
		rec  any
		cols []archive.Column
	}{
		{playerRecord{}, archive.PlayerColumns},
		{tournamentRecord{}, archive.TournamentColumns},
		{gameRecord{}, archive.GameColumns},
		{tableRecord{}, archive.TableColumns},
	} {
		if err := archive.Conforms(parquet.SchemaOf(tc.rec), tc.cols); err != nil {
			t.Errorf("%T: %v", tc.rec, err)
		}
	}
}
