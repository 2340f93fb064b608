package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportTRFNameDateFlags: --name and --date give a TRF file without 012 and
// 042 its name and start date; without them the file is skipped naming the field
// (exit 3); a --date not YYYY-MM-DD is bad usage.
func TestImportTRFNameDateFlags(t *testing.T) {
	data, err := os.ReadFile(importData + "spring.trf")
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "bare.trf")
	if err := os.WriteFile(bare, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[2:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		want   int
		stderr string
	}{
		{[]string{"--name", "Spring"}, exitRejected, "no start date (record 042, or round dates in 132): give --date"},
		{[]string{"--date", "2025-03-08"}, exitRejected, "no tournament name (record 012): give --name"},
		{[]string{"--date", "8.3.2025", "--name", "Spring"}, exitUsage, "parsing --date"},
		{[]string{"--name", "Spring", "--date", "2025-03-08"}, exitOK, ""},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		args := append([]string{"import", "trf", bare, "--archive", filepath.Join(t.TempDir(), "a")}, tt.args...)
		if got := run(context.Background(), args, &stdout, &stderr); got != tt.want || !strings.Contains(stderr.String(), tt.stderr) {
			t.Errorf("%v: exit %d (want %d)\n%s", tt.args, got, tt.want, stderr.String())
		}
	}
}

// TestStandingsTRFWindows1252: standings --trf reads a Windows-1252 file through
// the reader import uses: the Irish names come out right, never as U+FFFD, and the
// points include the byes the points column implies (Finnegan 5, Ogintas 3).
func TestStandingsTRFWindows1252(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if got := run(context.Background(), []string{"standings", "--trf", "../../testdata/trf-real/irish_junior_champs_2011.trf"}, &stdout, &stderr); got != exitOK {
		t.Fatalf("exit %d: %s", got, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"Ó Muireagáin, Colm", "Ní Mhuireagáin, Eibhia", "McBride, Seán Patrick", "Finnegan, Mark\",5,", "Ogintas, Aligmantas\",3,"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, '\uFFFD') || !strings.Contains(stderr.String(), "read as Windows-1252") {
		t.Errorf("stdout %s\nstderr %s", out, stderr.String())
	}
}
