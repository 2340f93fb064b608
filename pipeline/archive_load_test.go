package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestLoadErrorNamesItsTable: when one of the two tables loaded side by side
// cannot be read, the error is that table's, not the other's stop.
func TestLoadErrorNamesItsTable(t *testing.T) {
	var many strings.Builder
	many.WriteString("player_id,name\n")
	for i := range 200000 {
		fmt.Fprintf(&many, "%d,Player %d\n", i+1, i)
	}
	for _, tc := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"players.csv": many.String(), "tournaments.parquet": "PAR1 not parquet PAR1"}, "tournaments.parquet"},
		{map[string]string{"players.parquet": "PAR1 not parquet PAR1", "tournaments.csv": fuzzTournaments}, "players.parquet"},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, tc.files)
		_, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: t.TempDir()})
		if err == nil || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one naming %s", err, tc.want)
		}
	}
}
