package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/testutil"
)

// TestCorrections drives every correction verb on a CSV and a Parquet
// archive as an officer would: each change is made and logged, each refusal
// exits 2 and leaves the archive byte for byte as it was, and run and
// validate read the corrected archive.
func TestCorrections(t *testing.T) {
	for _, form := range []string{"csv", "parquet"} {
		t.Run(form, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "archive")
			err := generate.Archive(context.Background(), generate.Options{Players: 30, Games: 200, Months: 2, Seed: 3, Dir: dir, CSV: form == "csv"})
			if err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			players := filepath.Join(tmp, "players.csv")
			os.WriteFile(players, []byte("player_id,fide_rating,name\n10003,2011,\n60000,,\"New, Nina\"\n"), 0o644)
			badPlayers := filepath.Join(tmp, "bad.csv")
			os.WriteFile(badPlayers, []byte("player_id,category\n10003,9\n"), 0o644)
			spring := importData + "spring.trf"
			steps := []struct {
				args      []string
				want      int
				out, err  string // what stdout and stderr must hold
				unchanged bool   // the archive must be as it was
			}{
				{[]string{"import", "trf", spring, "--archive", dir, "--replace", "1001"}, exitOK,
					"tournament 1001 replaced", "", false},
				{[]string{"import", "trf", spring, "--archive", dir, "--replace", "1003"}, exitUsage,
					"", "has the same games as tournament 1001", true},
				{[]string{"import", "trf", spring, "--archive", dir, "--replace", "4242"}, exitUsage,
					"", "no tournament 4242", true},
				{[]string{"import", "csv", spring, "--archive", dir, "--replace", "1001"}, exitUsage, "", "with trf or pgn", true},
				{[]string{"archive", "set-player", "--archive", dir, "--player", "10001", `name=Novák, Jan`, "club="}, exitOK,
					`name: "Belyaev, Mark" → "Novák, Jan"; club: "Osinniki" → null`, "", false},
				{[]string{"archive", "set-player", "--archive", dir, "--player", "10001", "elo=2000"}, exitUsage,
					"", `unknown field "elo"`, true},
				{[]string{"archive", "set-player", "--archive", dir, "--player", "10001", "fide_rating=5000"}, exitUsage,
					"", "fide_rating=5000: out of range 0–4000", true},
				{[]string{"import", "players", players, "--archive", dir}, exitOK,
					"1 players changed, 1 new players added", "", false},
				{[]string{"import", "players", badPlayers, "--archive", dir}, exitUsage,
					"", "bad.csv row 1 column category: category=9: out of range 1–4", true},
				{[]string{"archive", "merge-players", "--archive", dir, "--keep", "10001", "--drop", "10002"}, exitUsage,
					"", "players 10001 and 10002 both play in round", true},
				{[]string{"archive", "merge-players", "--archive", dir, "--keep", "60000", "--drop", "10002"}, exitOK,
					`player 10002: "Vorobyov, Kira" → null`, "", false},
				{[]string{"archive", "remove", "--archive", dir, "--tournament", "1002"}, exitOK,
					`remove tournament 1002: tournament: "Yurga Round Robin 2024 (2024-09-16 to 2024-09-22)" → null; games: 45 → 0`, "", false},
				{[]string{"archive", "remove", "--archive", dir, "--tournament", "1002"}, exitUsage, "", "no tournament 1002", true},
				{[]string{"archive", "log", "--archive", dir}, exitOK, "merge-players player 60000", "", true},
				{[]string{"validate", "--archive", dir}, exitOK,
					"corrections.log: 6 corrections, the latest: ", "", true},
				{[]string{"run", "--archive", dir, "--out", filepath.Join(tmp, "out"), "--quiet"}, exitOK, "", "", true},
			}
			for _, s := range steps {
				before := testutil.Snapshot(t, dir)
				var stdout, stderr bytes.Buffer
				got := run(context.Background(), s.args, &stdout, &stderr)
				if got != s.want || !strings.Contains(stdout.String(), s.out) || !strings.Contains(stderr.String(), s.err) {
					t.Fatalf("%v: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", s.args[:2], got, s.want, stdout.String(), stderr.String())
				}
				if s.unchanged {
					after := testutil.Snapshot(t, dir)
					for f, b := range before {
						if after[f] != b {
							t.Errorf("%v: %s changed", s.args[:2], f)
						}
					}
					if len(after) != len(before) {
						t.Errorf("%v: %d files, were %d", s.args[:2], len(after), len(before))
					}
				}
			}
			var stdout, stderr bytes.Buffer
			run(context.Background(), []string{"archive", "log", "--archive", dir}, &stdout, &stderr)
			if lines := strings.Split(strings.TrimSpace(stdout.String()), "\n"); len(lines) != 6 ||
				!strings.Contains(lines[0], "replace tournament 1001 from spring.trf: ") || !strings.Contains(lines[0], "games: 61 → 8") {
				t.Errorf("archive log:\n%s", stdout.String())
			}
		})
	}
}

// TestDuplicateImport: importing a report already in a Parquet archive is
// refused with exit 2, naming the tournament and the way to correct it.
func TestDuplicateImport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "archive")
	var stdout, stderr bytes.Buffer
	if got := run(context.Background(), []string{"import", "trf", importData + "spring.trf", "--archive", dir}, &stdout, &stderr); got != exitOK {
		t.Fatalf("exit %d: %s", got, stderr.String())
	}
	before := testutil.Snapshot(t, dir)
	stderr.Reset()
	if got := run(context.Background(), []string{"import", "trf", importData + "spring.trf", "--archive", dir}, &stdout, &stderr); got != exitUsage ||
		!strings.Contains(stderr.String(), "has the same games as tournament 1; nothing was imported (to correct tournament 1 with it, import it with --replace 1)") {
		t.Errorf("exit %d: %s", got, stderr.String())
	}
	if after := testutil.Snapshot(t, dir); len(after) != len(before) {
		t.Errorf("%d files, were %d", len(after), len(before))
	}
	if got := run(context.Background(), []string{"import", "trf", importData + "spring.trf", "--archive", dir, "--replace", "1"}, &stdout, &stderr); got != exitOK {
		t.Errorf("--replace 1: exit %d: %s", got, stderr.String())
	}
}

// TestCorrectionHelp: every correction verb's -h exits 0 with its usage.
func TestCorrectionHelp(t *testing.T) {
	for _, args := range [][]string{
		{"archive", "-h"}, {"archive", "remove", "-h"}, {"archive", "set-player", "-h"},
		{"archive", "merge-players", "-h"}, {"archive", "log", "-h"}, {"import", "-h"},
	} {
		var stdout, stderr bytes.Buffer
		if got := run(context.Background(), args, &stdout, &stderr); got != exitOK || !strings.Contains(stderr.String(), "usage: ratelist "+strings.Join(args[:len(args)-1], " ")) ||
			!strings.Contains(stderr.String(), "--archive") {
			t.Errorf("%v: exit %d\n%s", args, got, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if got := run(context.Background(), []string{"archive", "frob"}, &stdout, &stderr); got != exitUsage {
		t.Errorf("archive frob: exit %d", got)
	}
}

// TestImportIntoCSVArchive: a TRF imported into an archive of CSV tables is
// written into those tables (the games at the end of games.csv); importing
// it again is refused, naming it; run reads the archive.
func TestImportIntoCSVArchive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "archive")
	os.MkdirAll(dir, 0o755)
	ents, err := os.ReadDir("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if b, err := os.ReadFile(filepath.Join("../../testdata/demo", e.Name())); err == nil && !e.IsDir() {
			os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
		}
	}
	games, _ := os.ReadFile(filepath.Join(dir, "games.csv"))
	steps := []struct {
		args     []string
		want     int
		out, err string
	}{
		{[]string{"import", "trf", importData + "spring.trf", "--archive", dir}, exitOK, "wrote games.csv", ""},
		{[]string{"import", "trf", importData + "spring.trf", "--archive", dir}, exitUsage, "", "has the same games as tournament "},
		{[]string{"validate", "--archive", dir}, exitOK, "0 rejected", ""},
	}
	for _, s := range steps {
		var stdout, stderr bytes.Buffer
		if got := run(context.Background(), s.args, &stdout, &stderr); got != s.want || !strings.Contains(stdout.String(), s.out) || !strings.Contains(stderr.String(), s.err) {
			t.Fatalf("%v: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", s.args[:2], got, s.want, stdout.String(), stderr.String())
		}
	}
	after, _ := os.ReadFile(filepath.Join(dir, "games.csv"))
	if !bytes.HasPrefix(after, games) || bytes.Count(after, []byte("\n"))-bytes.Count(games, []byte("\n")) != 8 {
		t.Errorf("games.csv: %d bytes, was %d: the 8 games are not appended", len(after), len(games))
	}
}
