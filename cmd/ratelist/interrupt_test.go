package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInterruptEveryVerb: after Ctrl-C (a canceled context) every verb exits
// 130 and says "interrupted", whether it noticed the signal or ran to its end.
func TestInterruptEveryVerb(t *testing.T) {
	const demo = "../../testdata/demo"
	done := demoOut(t)
	pgn := filepath.Join(t.TempDir(), "g.pgn")
	if err := os.WriteFile(pgn, []byte("[Event \"E\"]\n[Date \"2024.05.01\"]\n[White \"A, A\"]\n[Black \"B, B\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	verbs := [][]string{
		{"run", "--archive", demo, "--out", t.TempDir()},
		{"run", "--out", t.TempDir(), "--log-format", "json"},
		{"validate", "--archive", demo},
		{"standings", "--trf", "testdata/rr.trf"},
		{"standings", "--archive", demo, "--tournament", "1001"},
		{"calibrate", "turcas", "--archive", demo},
		{"import", "trf", "testdata/rr.trf", "--archive", t.TempDir()},
		{"report", "--out", done, "--site", t.TempDir()},
		{"generate", "--players", "50", "--games", "2000", "--archive", filepath.Join(t.TempDir(), "a")},
		{"import", "pgn", pgn, "--archive", t.TempDir()},
		{"import", "csv", demo + "/players.csv", "--archive", t.TempDir()},
		{"export", "trf", "--archive", demo, "--tournament", "1043"},
		{"export", "list", "--out", done, "--period", "2025-06", "--format", "fide-txt"},
		{"diff", "--out", done},
		{"player", "--out", done, "10127"},
		{"cards", "--out", done, "--tournament", "1043"},
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range verbs {
		t.Run(strings.Join(args[:1], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := afterSignal(ctx, run(ctx, args, &stdout, &stderr), &stderr)
			if code != exitCanceled || !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("%v: exit %d, stderr %q; want %d and \"interrupted\"", args, code, stderr.String(), exitCanceled)
			}
		})
	}
}

// TestInterruptRun sends a real SIGINT to a running `ratelist run` (once it
// holds --out's lock, so its handler is in place): it exits 130, logs
// "interrupted" and leaves nothing in --out but the lock file.
func TestInterruptRun(t *testing.T) {
	archive, out := bigArchive(t), t.TempDir()
	cmd := ratelistCmd(t, "run", "--archive", archive, "--out", out, "--workers", "1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	startHoldingLock(t, cmd, out)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitCanceled {
		t.Fatalf("exit %v, want %d; stderr:\n%s", err, exitCanceled, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr does not say interrupted:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "summary.json")); err == nil {
		t.Logf("the run finished before the signal came: nothing to check in --out")
		return
	}
	if files := readOut(t, out); len(files) != 0 {
		t.Errorf("--out holds %d files after an interrupted run, want nothing", len(files))
	}
}
