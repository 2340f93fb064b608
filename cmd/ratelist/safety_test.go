package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateRefusesNonEmpty: generate never overwrites a folder that holds
// files unless --force; the refusal is exit 2 and leaves the files as they were.
func TestGenerateRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "players.csv")
	if err := os.WriteFile(keep, []byte("player_id,name\n1,Real Player\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"generate", "--players", "20", "--games", "50", "--months", "1", "--archive", dir}
	var so, se bytes.Buffer
	if code := run(context.Background(), args, &so, &se); code != exitUsage {
		t.Fatalf("exit %d, want %d; stderr: %s", code, exitUsage, se.String())
	}
	if !strings.Contains(se.String(), "not empty") || !strings.Contains(se.String(), "--force") {
		t.Errorf("stderr %q does not say the folder is not empty and how to overwrite", se.String())
	}
	if b, _ := os.ReadFile(keep); string(b) != "player_id,name\n1,Real Player\n" {
		t.Errorf("players.csv changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "games.parquet")); err == nil {
		t.Error("games.parquet written into a refused folder")
	}
	se.Reset()
	if code := run(context.Background(), append(args, "--force"), &so, &se); code != exitOK {
		t.Fatalf("--force: exit %d; stderr: %s", code, se.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "games.parquet")); err != nil {
		t.Errorf("--force wrote no games: %v", err)
	}
	// --force replaces every form of the tables (the old players.csv, a games/
	// folder, a Joker tables.csv the new archive lacks): the result validates.
	for f, body := range map[string]string{"games/part-0.parquet": "x", "tables.csv": "game_id\n", "players.csv": "player_id,name\n1,Real Player\n", "notes.txt": "keep"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	se.Reset()
	if code := run(context.Background(), append(args, "--force"), &so, &se); code != exitOK {
		t.Fatalf("--force over a games/ folder: exit %d; stderr: %s", code, se.String())
	}
	se.Reset()
	if code := run(context.Background(), []string{"validate", "--archive", dir}, &so, &se); code != exitOK {
		t.Errorf("validate after --force: exit %d; stderr: %s", code, se.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "keep" {
		t.Errorf("--force removed a file that is no table: %q", b)
	}
	// An absent or empty folder needs no --force.
	se.Reset()
	empty := filepath.Join(t.TempDir(), "new")
	if code := run(context.Background(), []string{"generate", "--players", "20", "--games", "50", "--months", "1", "--archive", empty}, &so, &se); code != exitOK {
		t.Fatalf("new folder: exit %d; stderr: %s", code, se.String())
	}
}

// TestRulesFileImpossibleValue: a rules file with an impossible value exits 2
// naming the key.
func TestRulesFileImpossibleValue(t *testing.T) {
	for _, tc := range []struct{ body, key string }{
		{"[school]\nk_new = -40\n", "school.k_new"},
		{"[school]\ncap = 0\n", "school.cap"},
		{"base = \"fide\"\n[fide]\nk_mid = 0\n", "fide.k_mid"},
		{"base = \"fide\"\n[fide]\ncap = -400\n", "fide.cap"},
		{"[school]\nbands = [{name = \"1\", min = 1800}, {name = \"2\", min = 2000}]\n", "school.bands"},
		{"[tiebreaks]\nunplayed = \"fide2020\"\n", "tiebreaks.unplayed"},
		{"[tiebreaks.ljv]\nbase_rating = -1\n", "tiebreaks.ljv.base_rating"},
		{"[tiebreaks.scrabble]\nset = \"nope\"\n", "tiebreaks.scrabble.set"},
	} {
		rules := filepath.Join(t.TempDir(), "rules.toml")
		if err := os.WriteFile(rules, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		var so, se bytes.Buffer
		code := run(context.Background(), []string{"run", "--out", t.TempDir(), "--rules", rules}, &so, &se)
		if code != exitUsage || !strings.Contains(se.String(), tc.key) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d naming the key", tc.key, code, se.String(), exitUsage)
		}
	}
}

// TestUnreadableGamesTableFails: a games table that is there but cannot be read
// (here a link to a share that is not mounted) fails the run with exit 1 naming
// it, and the lists of the last good run stay as they were.
func TestUnreadableGamesTableFails(t *testing.T) {
	arch, out := t.TempDir(), t.TempDir()
	for _, f := range []string{"players.csv", "tournaments.csv", "games.csv"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/demo", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(arch, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var so, se bytes.Buffer
	args := []string{"run", "--archive", arch, "--out", out, "--quiet"}
	if code := run(context.Background(), args, &so, &se); code != exitOK && code != exitRejected {
		t.Fatalf("first run: exit %d: %s", code, se.String())
	}
	before, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(string) error{
		"dangling link": func(f string) error { return os.Symlink(filepath.Join(arch, "unmounted", "games.csv"), f) },
		"folder":        func(f string) error { return os.Mkdir(f, 0o755) },
	} {
		games := filepath.Join(arch, "games.csv")
		if err := os.Remove(games); err != nil {
			t.Fatal(err)
		}
		if err := spoil(games); err != nil {
			t.Fatal(err)
		}
		se.Reset()
		if code := run(context.Background(), args, &so, &se); code != exitFailed || !strings.Contains(se.String(), "games.csv") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d naming games.csv", name, code, se.String(), exitFailed)
		}
		if after, _ := os.ReadFile(filepath.Join(out, "summary.json")); !bytes.Equal(after, before) {
			t.Errorf("%s: summary.json rewritten by a failed run", name)
		}
	}
}
