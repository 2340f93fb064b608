package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ratelist/ratelist/internal/testutil"
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, f := range []*testutil.Fixture{&binFixture, &bigFixture, &demoFixture} {
		f.Remove()
	}
	os.Exit(code)
}

var binFixture, bigFixture testutil.Fixture

// ratelistBin is the path of ratelist built from this package without the
// race detector, once per test binary, for the tests that run it as a child
// process (kill it, signal it, run it from a shell): what they check is the
// process's files, exit code and output, and a raced child runs several times
// slower (the code is raced in-process by the other tests).
func ratelistBin(t *testing.T) string {
	t.Helper()
	dir := binFixture.Dir(t, "ratelist-bin-", func(dir string) error {
		// The version the in-process runs record, so summaries compare.
		cmd := exec.Command("go", "build", "-ldflags=-X main.version=devel", "-o", filepath.Join(dir, "ratelist"), ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, out)
		}
		return nil
	})
	return filepath.Join(dir, "ratelist")
}

// bigArchive is a generated archive large enough that a real run of it is
// still going a moment after it starts, for the tests that signal or kill
// one; generated once per test binary, and only read.
func bigArchive(t *testing.T) string {
	t.Helper()
	bin := ratelistBin(t)
	return bigFixture.Dir(t, "ratelist-big-archive-", func(dir string) error {
		cmd := exec.Command(bin, "generate", "--players", "2000", "--games", "150000", "--months", "10",
			"--seed", "5", "--archive", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("generate: %v: %s", err, out)
		}
		return nil
	})
}

// ratelistCmd is ratelist with args as a child process.
func ratelistCmd(t *testing.T, args ...string) *exec.Cmd {
	return exec.Command(ratelistBin(t), args...)
}

// startHoldingLock starts cmd, a run into out, and returns once it holds out's
// lock (its pid is in the lock file), or after about two seconds.
func startHoldingLock(t *testing.T, cmd *exec.Cmd, out string) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(out, ".ratelist.lock")
	for i := 0; i < 1000; i++ {
		if b, _ := os.ReadFile(lock); len(bytes.TrimSpace(b)) > 0 {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestKillNine kills real runs with SIGKILL at several moments. Every file left in
// --out must be a complete file of the previous run or of a full run (never half
// written), and the next `run --resume` must give exactly a clean run's outputs.
func TestKillNine(t *testing.T) {
	archive := bigArchive(t)
	clean := t.TempDir()
	start := time.Now()
	if out, err := ratelistCmd(t, "run", "--archive", archive, "--out", clean, "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("clean run: %v %s", err, out)
	}
	took := time.Since(start)
	full := readOut(t, clean)
	// The previous run, copied before each kill: every copy is what the run left.
	first := t.TempDir()
	if b, err := ratelistCmd(t, "run", "--archive", archive, "--out", first, "--until", "2025-01", "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("first run: %v %s", err, b)
	}
	previous := readOut(t, first)
	var killedMidway int
	// From the start of the resumed run to about its end, however fast the machine.
	for _, delay := range []time.Duration{took / 50, took / 10, took / 4, took / 2} {
		out := t.TempDir()
		if err := os.CopyFS(out, os.DirFS(first)); err != nil {
			t.Fatal(err)
		}
		cmd := ratelistCmd(t, "run", "--archive", archive, "--out", out, "--resume", "--quiet")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if err != nil {
			killedMidway++
		}
		for name, b := range readOut(t, out) {
			if name == ".ratelist.lock" {
				continue
			}
			if name == "summary.json" {
				// The killed run's own summary (resumed_from) may have landed; it must be whole.
				if !json.Valid(b) {
					t.Errorf("kill after %v: summary.json is not complete JSON", delay)
				}
				continue
			}
			if !bytes.Equal(b, previous[name]) && !bytes.Equal(b, full[name]) {
				t.Errorf("kill after %v: %s is neither the previous nor a complete new file", delay, name)
			}
		}
		if b, err := ratelistCmd(t, "run", "--archive", archive, "--out", out, "--resume", "--quiet").CombinedOutput(); err != nil {
			t.Fatalf("rerun after kill: %v %s", err, b)
		}
		after := readOut(t, out)
		for name, want := range full {
			if name == "summary.json" {
				continue // says what this run did (resumed_from), not the same as a full run's
			}
			if !bytes.Equal(after[name], want) {
				t.Errorf("kill after %v, then --resume: %s differs from a clean run", delay, name)
			}
		}
		if tmp, _ := filepath.Glob(filepath.Join(out, ".ratelist-tmp-*")); len(tmp) != 0 {
			t.Errorf("kill after %v: stale staging folders left after the rerun: %v", delay, tmp)
		}
	}
	if killedMidway == 0 {
		t.Error("no run was killed before it finished: the test proves nothing (make the archive larger)")
	}
}

// TestConcurrentRunRefused: a second run on the same --out exits 1 naming the
// first one's pid. The first run is a real process holding the lock; should it
// finish before the second starts, the attempt proves nothing and is repeated
// on a larger archive.
func TestConcurrentRunRefused(t *testing.T) {
	for attempt, games := range []string{"", "600000", "1500000"} {
		out, archive := t.TempDir(), t.TempDir()
		var so, se bytes.Buffer
		if games == "" {
			archive = bigArchive(t)
		} else if code := run(context.Background(), []string{"generate", "--players", "2000", "--games", games, "--months", "6",
			"--seed", "6", "--archive", archive}, &so, &se); code != 0 {
			t.Fatalf("generate: %s", se.String())
		}
		first := ratelistCmd(t, "run", "--archive", archive, "--out", out, "--quiet", "--workers", "1")
		startHoldingLock(t, first, out)
		se.Reset()
		code := run(context.Background(), []string{"run", "--archive", archive, "--out", out}, &so, &se)
		if code == exitFailed {
			first.Process.Kill() // its lock was all it was for
		}
		first.Wait()
		switch {
		case code == exitFailed:
			if want := fmt.Sprintf("pid %d", first.Process.Pid); !strings.Contains(se.String(), want) {
				t.Errorf("refusal does not name the holder (%s): %s", want, se.String())
			}
			return
		case code == exitOK:
			t.Logf("attempt %d: the first run finished before the second started; trying a larger archive", attempt+1)
		default:
			t.Fatalf("second run exited %d, want 1; stderr %s", code, se.String())
		}
	}
	t.Error("never caught the first run holding the lock: the test proves nothing")
}
