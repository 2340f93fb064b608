package main

import (
	"github.com/ratelist/ratelist/pipeline"

	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/golden"
)

// runCmd runs the command in this process and returns its exit code and stderr.
func runCmd(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stderr.String()
}

// mustRun runs the command and fails the test unless it exits with want.
func mustRun(t *testing.T, want int, args ...string) string {
	t.Helper()
	code, stderr := runCmd(t, args...)
	if code != want {
		t.Fatalf("ratelist %s: exit %d, want %d; stderr:\n%s", strings.Join(args, " "), code, want, stderr)
	}
	return stderr
}

// demoArchive is a copy of the demo archive (CSV) that a test may change.
func demoArchive(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range golden.ReadTree(t, "../../testdata/demo") {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// names lists the files of a tree, sorted.
func names(files map[string][]byte) []string {
	var ns []string
	for n := range files {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns
}

// sameOut fails unless two --out folders hold the same files, byte for byte
// (summary.json aside when skipSummary: it says how the run went).
func sameOut(t *testing.T, what, want, got string, skipSummary bool) {
	t.Helper()
	w, g := readOut(t, want), readOut(t, got)
	if skipSummary {
		delete(w, "summary.json")
		delete(g, "summary.json")
	}
	if !slices.Equal(names(w), names(g)) {
		t.Errorf("%s: files differ:\n got %v\nwant %v", what, names(g), names(w))
		return
	}
	for n, b := range w {
		if !bytes.Equal(b, g[n]) {
			t.Errorf("%s: %s differs", what, n)
		}
	}
}

// TestForeignOutRefused: a non-empty folder ratelist did not write is refused
// with exit 2 and left as it was; an empty one is taken and marked.
func TestForeignOutRefused(t *testing.T) {
	out := t.TempDir()
	notes := filepath.Join(out, "notes.txt")
	os.WriteFile(notes, []byte("my notes"), 0o644)
	stderr := mustRun(t, exitUsage, "run", "--out", out, "--quiet")
	if !strings.Contains(stderr, "--out") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("stderr %q: want one line naming --out", stderr)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 1 {
		t.Errorf("the refused folder now holds %d entries", len(ents))
	}
	if b, _ := os.ReadFile(notes); string(b) != "my notes" {
		t.Errorf("notes.txt is now %q", b)
	}
	empty := t.TempDir()
	mustRun(t, exitOK, "run", "--out", empty, "--quiet")
	if _, err := os.Stat(filepath.Join(empty, ".ratelist-out")); err != nil {
		t.Errorf("no marker in --out after a run: %v", err)
	}
	mustRun(t, exitOK, "run", "--out", empty, "--quiet") // a folder with the marker is ratelist's
}

// TestOutInsideArchiveRefused: --out equal to --archive, inside it, or holding
// it is refused with exit 2 before anything is written.
func TestOutInsideArchiveRefused(t *testing.T) {
	arch := demoArchive(t)
	before := golden.ReadTree(t, arch)
	parent := filepath.Dir(arch)
	for _, out := range []string{arch, filepath.Join(arch, "out"), filepath.Join(arch, "..", filepath.Base(arch), "out"), parent} {
		stderr := mustRun(t, exitUsage, "run", "--archive", arch, "--out", out, "--quiet")
		if !strings.Contains(stderr, "--archive") {
			t.Errorf("--out %s: stderr %q does not name --archive", out, stderr)
		}
	}
	after := golden.ReadTree(t, arch)
	if !slices.Equal(names(before), names(after)) {
		t.Errorf("the archive changed: %v, was %v", names(after), names(before))
	}
}

// TestUntilOnLaterOut: run --until P on an --out that holds later lists gives
// exactly what a fresh run --until P gives (later lists, states and standings
// go with the cards after P), and the next --resume then equals a full run.
func TestUntilOnLaterOut(t *testing.T) {
	out, fresh, full := t.TempDir(), t.TempDir(), t.TempDir()
	mustRun(t, exitOK, "run", "--out", out, "--quiet")
	mustRun(t, exitOK, "run", "--out", out, "--until", "2025-01", "--quiet")
	mustRun(t, exitOK, "run", "--out", fresh, "--until", "2025-01", "--quiet")
	sameOut(t, "--until 2025-01 over a full run vs a fresh --until 2025-01", fresh, out, false)
	if _, err := os.Stat(filepath.Join(out, "lists", "2025-02.csv")); err == nil {
		t.Error("lists/2025-02.csv is still there after --until 2025-01")
	}
	mustRun(t, exitOK, "run", "--out", out, "--resume", "--quiet")
	mustRun(t, exitOK, "run", "--out", full, "--quiet")
	sameOut(t, "--until 2025-01 then --resume vs a full run", full, out, true)
}

// TestResumeUntilEarlier: --resume --until P when the last state is after P
// is what a fresh run with those flags gives: the lists up to P, and the
// standings CSVs of P's tournaments (--standings-csv last) or of every one up
// to P (all), whichever CSVs the earlier run wrote.
func TestResumeUntilEarlier(t *testing.T) {
	for _, tc := range []struct{ earlier, csv string }{{"last", "last"}, {"all", "last"}, {"none", "last"}, {"all", "all"}, {"last", "none"}} {
		out, fresh := t.TempDir(), t.TempDir()
		mustRun(t, exitOK, "run", "--out", out, "--standings-csv", tc.earlier, "--quiet")
		mustRun(t, exitOK, "run", "--out", out, "--resume", "--until", "2024-12", "--standings-csv", tc.csv, "--quiet")
		mustRun(t, exitOK, "run", "--out", fresh, "--resume", "--until", "2024-12", "--standings-csv", tc.csv, "--quiet")
		sameOut(t, "--resume --until 2024-12 --standings-csv "+tc.csv+" over a full run with "+tc.earlier+" vs fresh", fresh, out, true)
		if csvs, _ := filepath.Glob(filepath.Join(out, "standings", "*.csv")); tc.csv == "last" && len(csvs) == 0 {
			t.Errorf("--standings-csv last: no standings CSV for 2024-12")
		}
	}
	// --resume with nothing new keeps (writes again) the last period's CSVs.
	out := t.TempDir()
	mustRun(t, exitOK, "run", "--out", out, "--standings-csv", "all", "--quiet")
	before := readOut(t, out)
	mustRun(t, exitOK, "run", "--out", out, "--resume", "--quiet")
	mustRun(t, exitOK, "run", "--out", out, "--resume", "--standings-csv", "all", "--quiet")
	after := readOut(t, out)
	delete(before, "summary.json")
	delete(after, "summary.json")
	if !slices.Equal(names(before), names(after)) {
		t.Errorf("--resume --standings-csv last then all, nothing new: files %v, were %v", names(after), names(before))
	}
}

// TestResumeAddsArrow: --resume or --from with --arrow after a run without it
// writes the .arrow files of the lists it keeps too, as a fresh --arrow run does.
func TestResumeAddsArrow(t *testing.T) {
	fresh := t.TempDir()
	mustRun(t, exitOK, "run", "--out", fresh, "--arrow", "--quiet")
	for _, again := range [][]string{{"--resume"}, {"--from", "2025-01"}} {
		out := t.TempDir()
		mustRun(t, exitOK, "run", "--out", out, "--until", "2025-03", "--quiet")
		mustRun(t, exitOK, append([]string{"run", "--out", out, "--arrow", "--quiet"}, again...)...)
		sameOut(t, again[0]+" --arrow after a run without it vs a fresh --arrow run", fresh, out, true)
	}
}

// TestStaleFilesRemoved: a full rerun leaves no file of an earlier run that a
// fresh run would not write: the standings of a deleted tournament, the
// .arrow lists of a run with --arrow, a report site, stray files.
func TestStaleFilesRemoved(t *testing.T) {
	arch := demoArchive(t)
	out, fresh := t.TempDir(), t.TempDir()
	mustRun(t, exitOK, "run", "--archive", arch, "--out", out, "--arrow", "--standings-csv", "all", "--quiet")
	if _, err := os.Stat(filepath.Join(out, "standings", "1002.csv")); err != nil {
		t.Fatalf("no standings of tournament 1002: %v", err)
	}
	os.WriteFile(filepath.Join(out, "stray.txt"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(out, "site"), 0o755)
	os.WriteFile(filepath.Join(out, "site", "index.html"), []byte("old site"), 0o644)
	deleteTournament(t, arch, "1002")
	mustRun(t, exitOK, "run", "--archive", arch, "--out", out, "--standings-csv", "all", "--quiet")
	mustRun(t, exitOK, "run", "--archive", arch, "--out", fresh, "--standings-csv", "all", "--quiet")
	sameOut(t, "a rerun over an older --out vs a fresh run", fresh, out, false)
}

// deleteTournament removes a tournament and its games from a CSV archive.
func deleteTournament(t *testing.T, arch, id string) {
	t.Helper()
	for _, table := range []string{"tournaments.csv", "games.csv"} {
		p := filepath.Join(arch, table)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var keep []string
		for _, line := range strings.SplitAfter(string(b), "\n") {
			if !strings.HasPrefix(line, id+",") {
				keep = append(keep, line)
			}
		}
		if len(keep) == len(strings.SplitAfter(string(b), "\n")) {
			t.Fatalf("%s has no rows of tournament %s", table, id)
		}
		os.WriteFile(p, []byte(strings.Join(keep, "")), 0o644)
	}
}

// TestSymlinkInOut: a symlink inside --out is replaced, never written through.
func TestSymlinkInOut(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	mustRun(t, exitOK, "run", "--out", out, "--until", "2024-10", "--quiet")
	os.WriteFile(filepath.Join(elsewhere, "2024-09.csv"), []byte("precious"), 0o644)
	os.RemoveAll(filepath.Join(out, "lists"))
	if err := os.Symlink(elsewhere, filepath.Join(out, "lists")); err != nil {
		t.Fatal(err)
	}
	mustRun(t, exitOK, "run", "--out", out, "--quiet")
	if files := golden.ReadTree(t, elsewhere); len(files) != 1 || string(files["2024-09.csv"]) != "precious" {
		t.Errorf("the symlink's target now holds %v", names(files))
	}
	if fi, err := os.Lstat(filepath.Join(out, "lists")); err != nil || !fi.IsDir() {
		t.Errorf("lists is not a folder after the run (%v)", err)
	}
}

// TestContradictingFlags: flags that contradict, and periods of the wrong
// form, exit 2 with one line naming the flags, before --out is created.
func TestContradictingFlags(t *testing.T) {
	tests := []struct {
		args []string
		want []string // in the message
	}{
		{[]string{"--from", "2025-05", "--until", "2025-01"}, []string{"--from", "--until", "2025-05"}},
		{[]string{"--resume", "--from", "2025-02"}, []string{"--from", "--resume"}},
		{[]string{"--until", "2025-Q1"}, []string{"--until", "2025-Q1"}},
		{[]string{"--from", "2025-Q1"}, []string{"--from", "2025-Q1"}},
		{[]string{"--resume", "--from", "2025-Q1"}, []string{"--from", "2025-Q1"}},
		{[]string{"--period", "quarter", "--until", "2025-03"}, []string{"--until", "2025-03"}},
		{[]string{"--period", "year", "--from", "2025-01"}, []string{"--from", "2025-01"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			stderr := mustRun(t, exitUsage, append([]string{"run", "--out", out, "--quiet"}, tt.args...)...)
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("stderr has more than one line: %q", stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not name %s", stderr, w)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("the refused run created --out")
			}
		})
	}
}

// TestExitStale: a --resume that finds a late report for a period already
// listed finishes its work, names the period and the --from to run (log and
// summary.json) and exits 4; the --from it names then exits 0 and gives what
// a full run gives.
func TestExitStale(t *testing.T) {
	arch, out, full := demoArchive(t), t.TempDir(), t.TempDir()
	mustRun(t, exitOK, "run", "--archive", arch, "--out", out, "--until", "2025-02", "--quiet")
	appendLine(t, filepath.Join(arch, "tournaments.csv"), "9999,Late Cup,2024-12-10,2024-12-11,swiss,1,chess,true,")
	appendLine(t, filepath.Join(arch, "games.csv"), "9999,1,10001,10002,1,0,,")
	stderr := mustRun(t, exitStale, "run", "--archive", arch, "--out", out, "--resume")
	if !strings.Contains(stderr, "2024-12") || !strings.Contains(stderr, "--from 2024-12") {
		t.Errorf("stderr does not name the stale period and the --from to run:\n%s", stderr)
	}
	var sum struct {
		StalePeriods []string `json:"stale_periods"`
		RerunFrom    string   `json:"rerun_from"`
		LastList     string   `json:"last_list"`
	}
	b, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.StalePeriods) == 0 || sum.StalePeriods[0] != "2024-12" || sum.RerunFrom != "2024-12" || sum.LastList <= "2025-02" {
		t.Errorf("summary: stale %v, rerun_from %q, last list %q; want [2024-12], 2024-12 and the lists after 2025-02 written",
			sum.StalePeriods, sum.RerunFrom, sum.LastList)
	}
	mustRun(t, exitOK, "run", "--archive", arch, "--out", out, "--from", sum.RerunFrom, "--quiet")
	mustRun(t, exitOK, "run", "--archive", arch, "--out", full, "--quiet")
	sameOut(t, "--from the stale period vs a full run", full, out, true)
	mustRun(t, exitOK, "run", "--archive", arch, "--out", out, "--resume", "--quiet")
}

func appendLine(t *testing.T, p, line string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(b, line+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExitRerate: --resume --rerate over a late report re-rates from the stale
// period by itself, exits 4 naming the published lists that changed, and
// leaves what a full run gives.
func TestExitRerate(t *testing.T) {
	arch, out, full := demoArchive(t), t.TempDir(), t.TempDir()
	mustRun(t, exitOK, "run", "--archive", arch, "--out", out, "--until", "2025-02", "--quiet")
	// A late game between the two best players of the November list.
	b, _ := os.ReadFile(filepath.Join(out, "lists", "2024-11.csv"))
	rows := strings.Split(string(b), "\n")
	first, second := strings.Split(rows[1], ",")[1], strings.Split(rows[2], ",")[1]
	appendLine(t, filepath.Join(arch, "tournaments.csv"), "9999,Late Cup,2024-12-10,2024-12-11,swiss,1,chess,true,")
	appendLine(t, filepath.Join(arch, "games.csv"), "9999,1,"+second+","+first+",1,0,,")
	stderr := mustRun(t, exitStale, "run", "--archive", arch, "--out", out, "--resume", "--rerate")
	if !strings.Contains(stderr, "lists/2024-12.csv") {
		t.Errorf("stderr does not name the changed list:\n%s", stderr)
	}
	var sum struct {
		RerateFrom   string                 `json:"rerated_from"`
		StalePeriods []string               `json:"stale_periods"`
		ChangedLists []pipeline.ChangedList `json:"changed_lists"`
	}
	b, _ = os.ReadFile(filepath.Join(out, "summary.json"))
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.RerateFrom != "2024-12" || len(sum.StalePeriods) > 0 || len(sum.ChangedLists) == 0 || sum.ChangedLists[0].List != "lists/2024-12.csv" {
		t.Errorf("summary: rerated from %q, stale %v, changed %v; want 2024-12, none, lists/2024-12.csv first", sum.RerateFrom, sum.StalePeriods, sum.ChangedLists)
	}
	mustRun(t, exitOK, "run", "--archive", arch, "--out", full, "--quiet")
	sameOut(t, "--resume --rerate vs a full run", full, out, true)
	mustRun(t, exitOK, "run", "--archive", arch, "--out", out, "--resume", "--rerate", "--quiet")
	mustRun(t, exitUsage, "run", "--archive", arch, "--out", out, "--rerate", "--quiet")
}
