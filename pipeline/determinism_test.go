package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/golden"
)

// readTree returns every file under dir by slash path, without the lock file.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := golden.ReadTree(t, dir)
	delete(files, ".ratelist.lock")
	return files
}

func sameTrees(t *testing.T, what string, a, b map[string][]byte, skip func(string) bool) {
	t.Helper()
	var names []string
	for n := range a {
		names = append(names, n)
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			t.Errorf("%s: %s only in the second run", what, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if skip != nil && skip(n) {
			continue
		}
		if bb, ok := b[n]; !ok {
			t.Errorf("%s: %s only in the first run", what, n)
		} else if !bytes.Equal(a[n], bb) {
			t.Errorf("%s: %s differs", what, n)
		}
	}
}

func runTo(t *testing.T, archive string, workers int) map[string][]byte {
	t.Helper()
	out := t.TempDir()
	_, err := Run(context.Background(), Options{Archive: os.DirFS(archive), ArchiveName: "a", Out: out, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return readTree(t, out)
}

// TestDeterminism: byte-identical outputs for 1, 2 and 7 workers and on rerun,
// and the same lists and standings from the CSV and the Parquet form of one archive.
func TestDeterminism(t *testing.T) {
	pq, cs := t.TempDir(), t.TempDir()
	opt := generate.Options{Players: 300, Games: 20000, Months: 8, Seed: 42, Dir: pq, Scrabble: 0.05, Unrated: 0.1}
	if err := generate.Archive(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	opt.Dir, opt.CSV = cs, true
	if err := generate.Archive(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	base := runTo(t, pq, 1)
	if len(base) < 10 {
		t.Fatalf("only %d output files", len(base))
	}
	for _, w := range []int{2, 7, 2} {
		sameTrees(t, "workers", base, runTo(t, pq, w), nil)
	}
	// The CSV archive's rejects name other files; everything else is identical.
	sameTrees(t, "csv vs parquet", base, runTo(t, cs, 2), func(n string) bool { return n == "rejects.csv" })
}

// TestGenerateDeterministic: the same seed gives the same archive bytes.
func TestGenerateDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if err := generate.Archive(context.Background(), generate.Options{Players: 100, Games: 5000, Months: 3, Seed: 9, Dir: d}); err != nil {
			t.Fatal(err)
		}
	}
	sameTrees(t, "generate", readTree(t, a), readTree(t, b), nil)
}

// TestRowOrderDoesNotMatter: the games rows of an archive in any order (here
// reversed, so every tournament waits for all the others) give the same lists,
// cards and standings: rating order comes from the tournaments, not the file.
func TestRowOrderDoesNotMatter(t *testing.T) {
	dir := t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 200, Games: 8000, Months: 6, Seed: 31, Dir: dir, CSV: true}); err != nil {
		t.Fatal(err)
	}
	base := runTo(t, dir, 2)
	p := filepath.Join(dir, "games.csv")
	data, _ := os.ReadFile(p)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	rev := []string{lines[0]}
	for i := len(lines) - 1; i > 0; i-- {
		rev = append(rev, lines[i])
	}
	os.WriteFile(p, []byte(strings.Join(rev, "\n")+"\n"), 0o644)
	got := runTo(t, dir, 2)
	// Rejects would name other rows; there are none in a generated archive.
	sameTrees(t, "reversed games rows", base, got, nil)
}
