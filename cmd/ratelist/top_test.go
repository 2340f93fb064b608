package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTop: ratelist top on the demo run: an age category holds only players
// under the age on 1 January of the list's year, best first; a club filter
// keeps its club only; a rules file's [toplists] size is the default --n;
// bad flags are usage errors.
func TestTop(t *testing.T) {
	out := demoOut(t)
	rows := func(args ...string) [][]string {
		t.Helper()
		code, stdout, stderr := officerRun(append([]string{"top", "--out", out, "--format", "csv"}, args...)...)
		if code != exitOK {
			t.Fatalf("top %v: exit %d: %s", args, code, stderr)
		}
		recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
		if err != nil || len(recs) == 0 {
			t.Fatalf("top %v: %v: %q", args, err, stdout)
		}
		return recs[1:]
	}
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	u12 := rows("--list", "u12", "--period", "2025-08")
	if len(u12) == 0 {
		t.Fatal("no U12 players in the demo's list 2025-08")
	}
	for i, r := range u12 {
		// Born 2013 is 11 on 2025-01-01; born 2012, 12.
		if by := num(r[8]); by < 2013 {
			t.Errorf("U12 row %d: born %d", i+1, by)
		}
		if i > 0 && (num(r[3]) > num(u12[i-1][3]) || num(r[0]) < num(u12[i-1][0])) {
			t.Errorf("U12 row %d (%v) before row %d (%v) is not in rating order", i+1, r, i, u12[i-1])
		}
	}
	club := rows("--club", "Belovo")
	if len(club) == 0 {
		t.Fatal("no player of Belovo")
	}
	for _, r := range club {
		if r[6] != "Belovo" {
			t.Errorf("--club Belovo: row %v", r)
		}
	}
	if open := rows("--n", "3"); len(open) < 3 || len(open) > 3 && open[3][0] != open[2][0] {
		t.Errorf("--n 3: %d rows, more than a tie at the third place: %v", len(open), open)
	}

	rules := filepath.Join(t.TempDir(), "rules.toml")
	if err := os.WriteFile(rules, []byte("[toplists]\nsize = 2\nactive_months = 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(t.TempDir(), "out")
	if code, _, stderr := officerRun("run", "--rules", rules, "--out", small, "--quiet"); code != exitOK && code != exitRejected {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := officerRun("top", "--out", small, "--format", "csv")
	if code != exitOK || strings.Count(stdout, "\n") != 3 {
		t.Errorf("size 2: exit %d, %q, %s; want a header and two rows", code, stdout, stderr)
	}

	for _, args := range [][]string{{"--list", "u13"}, {"--n", "-1"}, {"--format", "xml"}, {"--period", "2025"}} {
		if code, _, _ := officerRun(append([]string{"top", "--out", out}, args...)...); code == exitOK {
			t.Errorf("top %v: exit 0, want an error", args)
		}
	}
}

// TestTopWomenFederation: the players table's sex and federation select the
// girls' lists and a federation's players.
func TestTopWomenFederation(t *testing.T) {
	dir, out := infoArchive(t), t.TempDir()
	if code, _, stderr := officerRun("run", "--archive", dir, "--out", out, "--quiet"); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := officerRun("top", "--out", out, "--list", "girls-u14", "--federation", "ISL", "--format", "csv")
	if code != exitOK {
		t.Fatalf("top: exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("top: %v: %q; want girls U14 of ISL", err, stdout)
	}
	for _, r := range recs[1:] {
		// The list is of 2025 (the demo's last): under 14 on 2025-01-01 with
		// a birth date of 15 March is born 2011 or later.
		if by, _ := strconv.Atoi(r[8]); r[7] != "w" || r[5] != "ISL" || by < 2011 {
			t.Errorf("girls U14 of ISL: row %v", r)
		}
	}
}
