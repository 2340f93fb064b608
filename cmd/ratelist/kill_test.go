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
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as ratelist in a child process, so that a
// real run can be killed.
func TestMain(m *testing.M) {
	if os.Getenv("RATELIST_AS_MAIN") == "1" {
		os.Exit(runWithSignals(os.Args[1:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	if bigDir != "" {
		os.RemoveAll(bigDir)
	}
	os.Exit(code)
}

var (
	bigOnce sync.Once
	bigDir  string
	bigErr  error
)

// bigArchive is a generated archive large enough that a real run of it is
// still going a moment after it starts (under -race too), for the tests that
// signal or kill one; generated once per test binary, and only read. Under
// -short (make test, with -race) it is a third the size: a raced run of it
// still outlasts the first kills.
func bigArchive(t *testing.T) string {
	t.Helper()
	bigOnce.Do(func() {
		if bigDir, bigErr = os.MkdirTemp("", "ratelist-big-archive-"); bigErr != nil {
			return
		}
		games := "150000"
		if testing.Short() {
			games = "50000"
		}
		var so, se bytes.Buffer
		if code := run(context.Background(), []string{"generate", "--players", "2000", "--games", games, "--months", "10",
			"--seed", "5", "--archive", bigDir}, &so, &se); code != 0 {
			bigErr = fmt.Errorf("generate: exit %d: %s", code, se.String())
		}
	})
	if bigErr != nil {
		t.Fatal(bigErr)
	}
	return bigDir
}

// ratelistCmd is ratelist with args as a child process (the test binary, as
// TestMain lets it be).
func ratelistCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "RATELIST_AS_MAIN=1")
	return cmd
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
	if out, err := ratelistCmd("run", "--archive", archive, "--out", clean, "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("clean run: %v %s", err, out)
	}
	full := readOut(t, clean)
	// The previous run, copied before each kill: every copy is what the run left.
	first := t.TempDir()
	if b, err := ratelistCmd("run", "--archive", archive, "--out", first, "--until", "2025-01", "--quiet").CombinedOutput(); err != nil {
		t.Fatalf("first run: %v %s", err, b)
	}
	previous := readOut(t, first)
	var killedMidway int
	for _, delay := range []time.Duration{30 * time.Millisecond, 150 * time.Millisecond, 400 * time.Millisecond, 900 * time.Millisecond} {
		out := t.TempDir()
		if err := os.CopyFS(out, os.DirFS(first)); err != nil {
			t.Fatal(err)
		}
		cmd := ratelistCmd("run", "--archive", archive, "--out", out, "--resume", "--quiet")
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
		if b, err := ratelistCmd("run", "--archive", archive, "--out", out, "--resume", "--quiet").CombinedOutput(); err != nil {
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
		first := ratelistCmd("run", "--archive", archive, "--out", out, "--quiet", "--workers", "1")
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
