package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/testutil"
	"golang.org/x/sync/errgroup"
)

// TestCommitIntoExistingOut: staged files replace what --out already has, new
// folders move whole, nested folders are created; of the other files only
// those keep names stay (the rest, and the folders left empty, go); ratelist's
// own files stay, and the staging folder is gone.
func TestCommitIntoExistingOut(t *testing.T) {
	out := t.TempDir()
	testutil.WriteFiles(t, out, map[string]string{
		outMarker:                 outMarkerText,
		lockName:                  "",
		"lists/2025-01.csv":       "old list",
		"lists/2024-12.csv":       "kept list",
		"lists/2025-03.csv":       "later list",
		"lists/2024-12.arrow":     "stale arrow",
		"summary.json":            "old summary",
		"state/2024-12.state":     "kept state",
		"state/2025-01.state":     "old state",
		"state/2025-03.state":     "later state",
		"standings/9.csv":         "deleted tournament",
		"site/index.html":         "old site",
		"site/players/1.html":     "old page",
		"lists/joker/2025-03.csv": "later joker list",
	})
	s, err := newStaging(out)
	if err != nil {
		t.Fatal(err)
	}
	staged := map[string]string{
		"lists/2025-01.csv":       "new list",
		"lists/joker/2025-01.csv": "joker list",
		"standings/1.csv":         "standings 1",
		"standings/2.csv":         "standings 2",
		"cards.parquet":           "cards",
		"summary.json":            "new summary",
		"state/2025-01.state":     "new state",
	}
	for rel, data := range staged {
		if err := s.writeFile(rel, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	keep := func(rel string) bool { return rel == "lists/2024-12.csv" || rel == "state/2024-12.state" }
	if err := s.commit(keep); err != nil {
		t.Fatal(err)
	}
	staged["lists/2024-12.csv"], staged["state/2024-12.state"] = "kept list", "kept state"
	staged[outMarker], staged[lockName] = outMarkerText, ""
	got := readTree(t, out)
	delete(got, lockName) // readTree leaves it out
	delete(staged, lockName)
	sameTrees(t, "out after commit", toBytes(staged), got, nil)
	for _, gone := range []string{"site", "state/2025-03.state", "lists/joker/2025-03.csv"} {
		if _, err := os.Lstat(filepath.Join(out, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", gone, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(out, ".ratelist-tmp-*")); len(left) > 0 {
		t.Errorf("staging folder left: %v", left)
	}
}

func toBytes(m map[string]string) map[string][]byte {
	b := map[string][]byte{}
	for k, v := range m {
		b[k] = []byte(v)
	}
	return b
}

// TestCommitReplacesSymlinks: a symlink in --out, to a folder or to a file,
// kept or not, is replaced by the run's output or removed; nothing outside
// --out is written or removed.
func TestCommitReplacesSymlinks(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, elsewhere, map[string]string{
		"lists/2025-01.csv":   "someone else's list",
		"standings/1.csv":     "someone else's standings",
		"secret.txt":          "precious",
		"state/2024-12.state": "someone else's state",
	})
	before := readTree(t, elsewhere)
	for link, target := range map[string]string{
		"lists":         "lists",      // a folder the run writes into
		"standings":     "standings",  // the same
		"cards.parquet": "secret.txt", // a file the run writes
		"state":         "state",      // a folder whose files would stay
		"notes.txt":     "secret.txt", // a file the run does not write
	} {
		if err := os.Symlink(filepath.Join(elsewhere, target), filepath.Join(out, link)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := newStaging(out)
	if err != nil {
		t.Fatal(err)
	}
	for rel, data := range map[string]string{
		"lists/2025-01.csv": "new list", "standings/2.csv": "standings 2", "cards.parquet": "cards", "state/2025-01.state": "state",
	} {
		if err := s.writeFile(rel, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.commit(func(rel string) bool { return true }); err != nil {
		t.Fatal(err)
	}
	sameTrees(t, "the symlinks' targets", before, readTree(t, elsewhere), nil)
	want := map[string][]byte{"lists/2025-01.csv": []byte("new list"), "standings/2.csv": []byte("standings 2"),
		"cards.parquet": []byte("cards"), "state/2025-01.state": []byte("state"), outMarker: []byte(outMarkerText)}
	sameTrees(t, "out", want, readTree(t, out), nil)
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type()&os.ModeSymlink != 0 {
			t.Errorf("%s is still a symlink", p)
		}
		return err
	})
}

// TestLockFileSymlink: a symlink where the lock file goes is replaced, not
// truncated through.
func TestLockFileSymlink(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "precious")
	testutil.WriteFiles(t, elsewhere, map[string]string{"precious": "precious"})
	if err := os.Symlink(target, filepath.Join(out, lockName)); err != nil {
		t.Fatal(err)
	}
	l, err := lockOut(out)
	if err != nil {
		t.Fatal(err)
	}
	l.unlock()
	if b, _ := os.ReadFile(target); string(b) != "precious" {
		t.Errorf("the lock's symlink target now holds %q", b)
	}
}

// TestFileWriterFailureStopsSenders: when the file writer fails (here its
// folder cannot be created), the workers still sending batches stop with the
// run's error instead of waiting for ever, and the error names the file.
func TestFileWriterFailureStopsSenders(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{"file": "not a folder"})
	blocker := filepath.Join(dir, "file")
	g, ctx := errgroup.WithContext(context.Background())
	s := &writeSink{stage: &staging{tmp: blocker}}
	files := make(chan *fileBatch, 4)
	g.Go(func() error { return s.writeFiles(files) })
	var workers sync.WaitGroup
	workers.Add(2) // as start does: the workers are the writer's only senders
	go func() {
		workers.Wait()
		close(files)
	}()
	for range 2 {
		g.Go(func() error {
			defer workers.Done()
			for i := range 100 {
				fb := new(fileBatch)
				fb.add(fmt.Sprintf("standings/%d.csv", i), []byte("rank\n"))
				if err := send(ctx, files, fb); err != nil {
					return err
				}
			}
			return nil
		})
	}
	done := make(chan error)
	go func() { done <- g.Wait() }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "standings") {
			t.Fatalf("error %v, want one naming the standings folder", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the senders did not stop after the file writer failed")
	}
}

// TestKeptOutputs: what a resumed run keeps of an earlier run's files.
func TestKeptOutputs(t *testing.T) {
	k := keptOutputs{before: "2025-02", period: day.Month, allCSV: true}
	k.keep(7, "2025-01")
	for rel, want := range map[string]bool{
		"lists/2025-01.csv": true, "lists/2025-01.parquet": true, "lists/2025-02.csv": false,
		"lists/2025-01.arrow": false, "lists/joker/2025-01.csv": false, "lists/joker/2025-03.csv": false,
		"state/2025-01.state": true, "state/2025-02.state": false, "state/2025-Q1.state": false,
		"standings/7.csv": true, "standings/8.csv": false, "standings/2025-01.parquet": true,
		"standings/2025-02.parquet": false, "cards.parquet": false, "card_games.parquet": false, "summary.json": false,
		"site/index.html": false, "lists/notes.txt": false,
	} {
		if got := k.has(rel); got != want {
			t.Errorf("has(%s) = %v, want %v", rel, got, want)
		}
	}
	if k.allCSV = false; k.has("standings/7.csv") {
		t.Error("with --standings-csv last, an earlier period's standings CSV is kept")
	}
	k.arrow = true
	if !k.has("lists/2025-01.arrow") {
		t.Error("with --arrow, an earlier period's .arrow list is not kept")
	}
	if (&keptOutputs{period: day.Month}).has("lists/2025-01.csv") {
		t.Error("a run that does not resume keeps a list")
	}
}
