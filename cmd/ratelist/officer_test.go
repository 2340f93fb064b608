package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/golden"
)

// officerRun runs a verb and returns its exit code, stdout and stderr.
func officerRun(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestGoldenOfficer: the outputs of export, diff, player and cards on the
// demo run, as docs/export.md shows them.
func TestGoldenOfficer(t *testing.T) {
	out := demoOut(t)
	files := map[string][]byte{}
	for name, args := range map[string][]string{
		"export-trf16.trf": {"export", "trf", "--tournament", "1002"},
		"export-trf26.trf": {"export", "trf", "--tournament", "1005", "--format", "trf26"},
		"export-list.txt":  {"export", "list", "--out", out, "--period", "2025-01", "--format", "fide-txt"},
		"export-list.xml":  {"export", "list", "--out", out, "--period", "2025-01", "--format", "fide-xml"},
		"export-list.csv":  {"export", "list", "--out", out, "--period", "2025-01", "--format", "csv"},
		"diff.txt":         {"diff", "--out", out, "--top", "5"},
		"diff-2024-10.csv": {"diff", "--out", out, "2024-09", "2024-10", "--format", "csv"},
		"player-10127.txt": {"player", "--out", out, "10127"},
		"player-10127.csv": {"player", "--out", out, "10127", "--format", "csv"},
		"cards-1043.txt":   {"cards", "--out", out, "--tournament", "1043"},
		"cards-1043.csv":   {"cards", "--out", out, "--tournament", "1043", "--format", "csv"},
	} {
		code, stdout, stderr := officerRun(args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		files[name] = []byte(stdout)
	}
	golden.CheckFiles(t, "officer", files)
}

// TestOfficerExitCodes: bad usage exits 2 and failures 1, each with a message
// naming what is wrong.
func TestOfficerExitCodes(t *testing.T) {
	out := demoOut(t)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"export"}, exitUsage, "give trf or list"},
		{[]string{"export", "trf"}, exitUsage, "--tournament"},
		{[]string{"export", "trf", "--tournament", "1002", "--format", "trf99"}, exitUsage, "trf99"},
		{[]string{"export", "trf", "--tournament", "1001"}, exitFailed, "chess"},
		{[]string{"export", "trf", "--tournament", "424242"}, exitFailed, "424242"},
		{[]string{"export", "trf", "--archive", "/nonexistent", "--tournament", "1"}, exitFailed, "/nonexistent"},
		{[]string{"export", "list", "--out", out, "--format", "pdf"}, exitUsage, "pdf"},
		{[]string{"export", "list", "--out", out, "--id", "fide"}, exitUsage, "--archive"},
		{[]string{"export", "list", "--out", out, "--period", "1999-01"}, exitFailed, "1999-01"},
		{[]string{"diff"}, exitUsage, "--out"},
		{[]string{"diff", "--out", out, "a", "b", "c"}, exitUsage, "\"c\""},
		{[]string{"diff", "--out", out, "2024-09"}, exitFailed, "first"},
		{[]string{"diff", "--out", out, "--format", "json"}, exitUsage, "json"},
		{[]string{"player", "--out", out}, exitUsage, "player_id"},
		{[]string{"player", "--out", out, "abc"}, exitUsage, "abc"},
		{[]string{"player", "--out", out, "99999"}, exitFailed, "99999"},
		{[]string{"cards", "--out", out}, exitUsage, "--tournament"},
		{[]string{"cards", "--out", out, "--tournament", "1001"}, exitFailed, "1001"},
		{[]string{"cards", "--out", t.TempDir(), "--tournament", "1002"}, exitFailed, "cards.parquet"},
	} {
		code, _, stderr := officerRun(tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d naming %q", strings.Join(tc.args, " "), code, stderr, tc.code, tc.msg)
		}
	}
	if code, _, _ := officerRun("diff", "-h"); code != exitOK {
		t.Errorf("diff -h: exit %d", code)
	}
}
