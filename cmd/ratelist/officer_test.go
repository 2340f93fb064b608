package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/golden"
	"github.com/ratelist/ratelist/internal/testutil"
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

// TestExportListFromList: the players table's player columns reach the
// lists, and export list writes the same from the list alone as it does with
// the archive's players table, in every format.
func TestExportListFromList(t *testing.T) {
	dir, out := infoArchive(t), t.TempDir()
	if code, _, stderr := officerRun("run", "--archive", dir, "--out", out, "--quiet"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"fide-txt", "fide-xml", "csv"} {
		args := []string{"export", "list", "--out", out, "--format", f, "--id", "fide"}
		code, alone, stderr := officerRun(args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		_, joined, _ := officerRun(append(args, "--archive", dir)...)
		if alone != joined {
			t.Errorf("%s: from the list alone:\n%s\nwith the archive:\n%s", f, alone, joined)
		}
		if f == "csv" && !strings.Contains(alone, ",ISL,F,WFM,WFM,") {
			t.Errorf("%s: no federation, sex and title from the list:\n%s", f, alone)
		}
	}
}

// infoArchive is the demo archive with player columns for every player:
// birth_date in the birth year, where the players table has one.
func infoArchive(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"games.csv", "tables.csv", "tournaments.csv", "rules.toml"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/demo", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	recs := testutil.ReadCSV(t, "../../testdata/demo/players.csv")
	recs[0] = append(recs[0], "fide_id", "federation", "sex", "title", "birth_date")
	for i, r := range recs[1:] {
		date := ""
		if r[2] != "" {
			date = r[2] + "-03-15"
		}
		recs[i+1] = append(r, strconv.Itoa(900000+i), []string{"ISL", "NOR"}[i%2], []string{"w", "m"}[i%2], []string{"WFM", "", "FM"}[i%3], date)
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(recs)
	if err := os.WriteFile(filepath.Join(dir, "players.csv"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
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
