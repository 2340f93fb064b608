package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkFile is a TRF file of two players for check trf's tests: Leko (FIDE id
// 703303, in importer's sample of FIDE's list) beats Beta; its points, ranks
// and header are right. bad writes Beta's points wrong.
func checkFile(t *testing.T, dir, name string, bad bool) string {
	t.Helper()
	rec := func(sno, name, id, points, rank, round string) string {
		line := []rune(strings.Repeat(" ", 99))
		put := func(col int, s string) { copy(line[col-1:], []rune(s)) }
		put(1, "001")
		put(5, sno)
		put(15, name)
		put(49, "2676")
		put(54, "HUN")
		put(58, id)
		put(70, "1979/09/08")
		put(81, points)
		put(86, rank)
		put(92, round)
		return strings.TrimRight(string(line), " ")
	}
	beta := " 0.0"
	if bad {
		beta = " 0.5"
	}
	src := "012 Test Open\n022 Szeged\n032 HUN\n102 A. Arbiter\n" +
		rec("   1", "Leko, Peter", "     703303", " 1.0", "   1", "   2 w 1") + "\n" +
		rec("   2", "Beta, B", "", beta, "   2", "   1 b 0") + "\n"
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCheckTRF: check trf's exit codes (0 clean, 3 warnings, 1 errors, 2 bad
// usage), its formats, --list and --fix.
func TestCheckTRF(t *testing.T) {
	dir := t.TempDir()
	clean, bad := checkFile(t, dir, "clean.trf", false), checkFile(t, dir, "bad.trf", true)
	list := "../../importer/testdata/fidelist/players_list_foa.txt"
	warn := "../../testdata/trf-real/irish_junior_champs_2011.trf"
	check := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"check", "trf"}, args...), &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string // a line stdout holds
	}{
		{[]string{clean}, exitOK, clean + ": 0 errors, 0 warnings, 0 notes"},
		{[]string{clean, "--list", list}, exitOK, "0 errors, 0 warnings"},
		{[]string{warn}, exitRejected, "0 errors, 7 warnings, 1 notes"},
		{[]string{bad}, exitFailed, bad + ":6:81: error TRF-POINTS: starting rank 2: points column 0.5, his results make 0.0"},
		{[]string{clean, bad, "--format", "csv"}, exitFailed, "bad.trf,6,81,error,TRF-POINTS,"},
		{[]string{}, exitUsage, ""},
		{[]string{clean, "--format", "xml"}, exitUsage, ""},
		{[]string{clean, bad, "--fix", filepath.Join(dir, "x.trf")}, exitUsage, ""},
		{[]string{filepath.Join(dir, "missing.trf")}, exitFailed, ""},
	} {
		code, out, errOut := check(tc.args...)
		if code != tc.code || !strings.Contains(out, tc.out) {
			t.Errorf("check trf %q: exit %d, want %d; stdout lacks %q:\n%s%s", tc.args, code, tc.code, tc.out, out, errOut)
		}
	}

	// --list: the list's rating and birth year differ from the file's.
	other := strings.Replace(readFile(t, clean), "2676", "2700", 1)
	os.WriteFile(filepath.Join(dir, "other.trf"), []byte(other), 0o644)
	code, out, _ := check(filepath.Join(dir, "other.trf"), "--list", list, "--format", "json")
	var res struct {
		Findings []struct{ Code, Severity string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitRejected || len(res.Findings) != 1 || res.Findings[0].Code != "TRF-LIST-RATING" || res.Findings[0].Severity != "warning" {
		t.Errorf("--list: exit %d, %+v (%v):\n%s", code, res, err, out)
	}

	// --fix writes the points the results make and checks the copy.
	fixed := filepath.Join(dir, "fixed.trf")
	code, out, errOut := check("--fix", fixed, bad, "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || code != exitOK || len(rows) != 2 || rows[1][3] != "fixed" || rows[1][4] != "TRF-POINTS" {
		t.Fatalf("--fix: exit %d, rows %q (%v) %s", code, rows, err, errOut)
	}
	if got, want := readFile(t, fixed), readFile(t, clean); got != want {
		t.Errorf("--fix wrote\n%s\nwant\n%s", got, want)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
