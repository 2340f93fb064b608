package archive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
		for name, body := range tc.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := Load(context.Background(), os.DirFS(dir), func(RowError) {})
		if err == nil || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want one naming %s", err, tc.want)
		}
	}
}
