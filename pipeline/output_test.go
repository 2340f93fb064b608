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

	"golang.org/x/sync/errgroup"
)

// TestCommitIntoExistingOut: staged files replace what --out already has, new
// folders move whole, nested folders are created, other files stay, and the
// staging folder is gone.
func TestCommitIntoExistingOut(t *testing.T) {
	out := t.TempDir()
	writeFiles(t, out, map[string]string{
		"lists/2025-01.csv":   "old list",
		"lists/keep.txt":      "kept",
		"summary.json":        "old summary",
		"state/2025-01.state": "old state",
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
		"state/2025-02.state":     "new state",
	}
	for rel, data := range staged {
		if err := s.writeFile(rel, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.commit(); err != nil {
		t.Fatal(err)
	}
	staged["lists/keep.txt"], staged["state/2025-01.state"] = "kept", "old state"
	for rel, want := range staged {
		got, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q (%v), want %q", rel, got, err, want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(out, ".ratelist-tmp-*")); len(left) > 0 {
		t.Errorf("staging folder left: %v", left)
	}
}

// TestFileWriterFailureStopsSenders: when the file writer fails (here its
// folder cannot be created), the workers still sending batches stop with the
// run's error instead of waiting for ever, and the error names the file.
func TestFileWriterFailureStopsSenders(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"file": "not a folder"})
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
