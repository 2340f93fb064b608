package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

const importData = "../../importer/testdata/"

// TestImportThenValidate drives the import verb as a rating officer would: TRF
// files, then a PGN collection with skipped games (exit 3), then validate and run.
func TestImportThenValidate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "archive")
	steps := []struct {
		args []string
		want int
		out  string // a line stdout must hold
	}{
		{[]string{"import", "trf", importData + "spring.trf", "testdata/rr.trf", "--archive", dir}, exitOK,
			"import trf: 2 files (0 skipped whole); 14 games read = 14 imported + 0 skipped"},
		{[]string{"import", "pgn", "--archive", dir, importData + "club.pgn"}, exitRejected,
			"import pgn: 1 files (0 skipped whole); 9 games read = 6 imported + 3 skipped (1 unfinished)"},
		{[]string{"import", "trf", importData + "spring.trf", "--archive", dir, "--quiet"}, exitUsage,
			"import trf: 1 files (0 skipped whole); 8 games read = 0 imported + 8 skipped"},
		{[]string{"validate", "--archive", dir}, exitOK, "0 rejected"},
		{[]string{"run", "--archive", dir, "--out", filepath.Join(t.TempDir(), "out"), "--quiet"}, exitOK, ""},
	}
	for _, s := range steps {
		var stdout, stderr bytes.Buffer
		if got := run(context.Background(), s.args, &stdout, &stderr); got != s.want || !strings.Contains(stdout.String(), s.out) {
			t.Fatalf("%v: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", s.args, got, s.want, stdout.String(), stderr.String())
		}
		if s.args[1] == "pgn" && (!strings.Contains(stderr.String(), "club.pgn:36: unfinished game") ||
			!strings.Contains(stderr.String(), "club.pgn:26: Club Championship: Zeta, Zoe 0-1 Popov, Bob: no moves, read as a forfeit") ||
			!strings.Contains(stdout.String(), "import pgn: 1 games without moves read as forfeits") ||
			!strings.Contains(stdout.String(), "import pgn: "+importData+"club.pgn: 9 games read, 6 kept, 3 skipped (1 malformed, 1 no date, 1 unfinished); 2 events")) {
			t.Errorf("the output lacks the unfinished game, the forfeit or the file's counts:\n%s%s", stdout.String(), stderr.String())
		}
	}
}

func TestImportCSVVerb(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if got := run(context.Background(), []string{"import", "csv", "../../testdata/demo", "--archive", dir}, &stdout, &stderr); got != exitOK {
		t.Fatalf("exit %d: %s", got, stderr.String())
	}
	for _, w := range []string{"wrote players.parquet", "wrote games.parquet", "wrote tables.parquet"} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout.String())
		}
	}
}

func TestImportExitCodes(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no format", []string{"import"}, exitUsage},
		{"unknown format", []string{"import", "xls", "a.xls", "--archive", dir}, exitUsage},
		{"no archive", []string{"import", "trf", "a.trf"}, exitUsage},
		{"no sources", []string{"import", "pgn", "--archive", dir}, exitUsage},
		{"unknown flag", []string{"import", "pgn", "--frob", "--archive", dir}, exitUsage},
		{"bad --moveless", []string{"import", "pgn", importData + "club.pgn", "--archive", dir, "--moveless", "yes"}, exitUsage},
		{"csv name", []string{"import", "csv", importData + "club.pgn", "--archive", dir}, exitUsage},
		{"missing file", []string{"import", "trf", "/nonexistent.trf", "--archive", dir}, exitRejected},
		{"help", []string{"import", "-h"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(context.Background(), tt.args, &stdout, &stderr); got != tt.want {
				t.Errorf("exit %d, want %d; stderr: %s", got, tt.want, stderr.String())
			}
		})
	}
}
