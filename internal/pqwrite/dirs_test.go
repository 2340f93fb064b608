package pqwrite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSameCellsDirs compares, cell by cell, every Parquet file under the
// folder $PQWRITE_OLD with the file of the same path under $PQWRITE_NEW (two
// runs' --out, one written by parquet-go's writer, one by this package); it
// is skipped without them.
func TestSameCellsDirs(t *testing.T) {
	old, cur := os.Getenv("PQWRITE_OLD"), os.Getenv("PQWRITE_NEW")
	if old == "" || cur == "" {
		t.Skip("PQWRITE_OLD and PQWRITE_NEW name the folders to compare")
	}
	n := 0
	err := filepath.WalkDir(old, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".parquet") {
			return err
		}
		rel, _ := filepath.Rel(old, path)
		a, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(filepath.Join(cur, rel))
		if err != nil {
			return err
		}
		if err := SameCells(a, b); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files compared", n)
}
