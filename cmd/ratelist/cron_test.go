package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// cronArchive is a small CSV archive that a test changes month by month:
// players, and rated six-player round robins (an unrated one too).
type cronArchive struct {
	dir     string
	players int
	tours   []cronTour
}

type cronTour struct {
	id           int
	end          string
	first        int  // players first … first+5
	rated        bool // on the approved list
	correctedRes int  // shifts the results: a corrected report
}

// write writes the archive's three tables.
func (a *cronArchive) write(t *testing.T) {
	t.Helper()
	var pl, tr, gm strings.Builder
	pl.WriteString("player_id,name,birth_year,category,fide_rating,club\n")
	for p := 1; p <= a.players; p++ {
		fmt.Fprintf(&pl, "%d,\"Player, %d\",2011,%d,,Club %d\n", p, p, 1+p%4, p%3)
	}
	tr.WriteString("tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n")
	gm.WriteString("tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points\n")
	for _, c := range a.tours {
		fmt.Fprintf(&tr, "%d,Cup %d,%s,%s,round-robin,5,chess,%t,BH\n", c.id, c.id, c.end, c.end, c.rated)
		ring := []int{1, 2, 3, 4, 5}
		for r := range 5 {
			seats := append([]int{0}, ring...)
			for g := range 3 {
				res := [3]string{"1,0", "0,1", "=,="}[(c.id+r+g+c.correctedRes)%3]
				fmt.Fprintf(&gm, "%d,%d,%d,%d,%s,,\n", c.id, r+1, c.first+seats[g], c.first+seats[5-g], res)
			}
			ring = append(ring[1:], ring[0])
		}
	}
	for name, s := range map[string]string{"players.csv": pl.String(), "tournaments.csv": tr.String(), "games.csv": gm.String()} {
		if err := os.WriteFile(filepath.Join(a.dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// cronRecipe returns the crontab line and the script of docs/operations.md's
// monthly cron job, as the page shows them.
func cronRecipe(t *testing.T) (line, script string) {
	t.Helper()
	b, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	at := strings.Index(doc, "## A monthly cron job")
	if at < 0 {
		t.Fatal("docs/operations.md has no section \"A monthly cron job\"")
	}
	doc = doc[at:]
	m := regexp.MustCompile(`(?m)^    (\S+ \S+ \S+ \S+ \S+)\s+(\S*ratelist-monthly)$`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("no crontab line running ratelist-monthly in the cron section of docs/operations.md")
	}
	start := strings.Index(doc, "```sh\n")
	end := strings.Index(doc[start+6:], "```")
	if start < 0 || end < 0 {
		t.Fatal("no ```sh script in the cron section of docs/operations.md")
	}
	return m[1], doc[start+6 : start+6+end]
}

// TestCronRecipe runs the monthly cron job of docs/operations.md as written,
// on the day of the month its crontab line says, over three simulated months:
// a late report, a corrected result and new players come in between. After
// each month, the output folder (the site included; summary.json and the
// states aside) equals a full run and a report on the same day. The clock is simulated by a `ratelist` on PATH that
// adds --as-of to every run.
func TestCronRecipe(t *testing.T) {
	line, script := cronRecipe(t)
	dom := strings.Fields(line)[2]
	if dom != "2" {
		t.Fatalf("crontab line %q: the test simulates the 2nd of the month, the doc says day %s", line, dom)
	}
	tmp := t.TempDir()
	arch := &cronArchive{dir: filepath.Join(tmp, "archive"), players: 8}
	out, logf, bin := filepath.Join(tmp, "out"), filepath.Join(tmp, "ratelist.json"), filepath.Join(tmp, "bin")
	for _, d := range []string{arch.dir, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script = strings.NewReplacer("/srv/ratings/archive", arch.dir, "/srv/ratings/out", out, "/var/log/ratelist.json", logf).Replace(script)
	if err := os.WriteFile(filepath.Join(tmp, "ratelist-monthly"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := "#!/bin/sh\nverb=$1; shift\nif [ \"$verb\" = run ]; then set -- --as-of \"$RATELIST_TEST_DAY\" \"$@\"; fi\n" +
		"exec '" + ratelistBin(t) + "' \"$verb\" \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "ratelist"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}

	arch.tours = []cronTour{
		{id: 101, end: "2024-12-14", first: 1, rated: true},
		{id: 102, end: "2025-01-11", first: 3, rated: true},
		{id: 901, end: "2025-01-20", first: 2},
		{id: 103, end: "2025-02-01", first: 1, rated: true}, // still open on 2025-02-02: waits
	}
	months := []struct {
		day      string
		change   func()
		exit     int
		lastList string
	}{
		{day: "2025-02-02", exit: exitOK, lastList: "2025-01"},
		{day: "2025-03-02", exit: exitStale, lastList: "2025-02", change: func() {
			arch.players = 10 // new players, in a February tournament
			arch.tours = append(arch.tours,
				cronTour{id: 104, end: "2025-01-25", first: 1, rated: true}, // a late report of January
				cronTour{id: 105, end: "2025-02-22", first: 5, rated: true})
		}},
		{day: "2025-04-02", exit: exitStale, lastList: "2025-03", change: func() {
			arch.tours[len(arch.tours)-1].correctedRes = 1 // February's 105 corrected
			arch.players = 12
			arch.tours = append(arch.tours,
				cronTour{id: 106, end: "2025-03-15", first: 7, rated: true},
				cronTour{id: 107, end: "2025-04-01", first: 2, rated: true}) // open on 2025-04-02
		}},
	}
	for _, m := range months {
		if m.change != nil {
			m.change()
		}
		arch.write(t)
		cmd := exec.Command("sh", filepath.Join(tmp, "ratelist-monthly"))
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "RATELIST_TEST_DAY="+m.day)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stderr, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != m.exit {
			log, _ := os.ReadFile(logf)
			t.Fatalf("%s: the recipe exited %d, want %d\n%s\nlog:\n%s", m.day, code, m.exit, stderr.String(), log)
		}
		var sum struct {
			LastList     string   `json:"last_list"`
			StalePeriods []string `json:"stale_periods"`
			Archive      string   `json:"archive"`
		}
		b, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		if sum.LastList != m.lastList || len(sum.StalePeriods) > 0 || sum.Archive != arch.dir {
			t.Errorf("%s: last list %s, stale %v, archive %s; want %s, none, %s", m.day, sum.LastList, sum.StalePeriods, sum.Archive, m.lastList, arch.dir)
		}

		full := filepath.Join(t.TempDir(), "out")
		// The same program as the recipe's: the site's manifest keys its files by it.
		for _, args := range [][]string{{"run", "--archive", arch.dir, "--out", full, "--as-of", m.day, "--quiet"}, {"report", "--out", full, "--quiet"}} {
			if b, err := ratelistCmd(t, args...).CombinedOutput(); err != nil {
				t.Fatalf("ratelist %s: %v\n%s", strings.Join(args, " "), err, b)
			}
		}
		got, want := readOut(t, out), readOut(t, full)
		for _, files := range []map[string][]byte{got, want} {
			delete(files, "summary.json")
			// A kept state holds the registry it was saved with: the players
			// added since are not a change of the past, and every state is
			// checked by the next --resume, not published.
			for name := range files {
				if strings.HasPrefix(name, "state/") {
					delete(files, name)
				}
			}
		}
		for name := range want {
			if !bytes.Equal(got[name], want[name]) {
				t.Errorf("%s: %s differs from a full run's (or is missing)", m.day, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("%s: %s is not in a full run's folder", m.day, name)
			}
		}
		if _, ok := got["site/index.html"]; !ok {
			t.Errorf("%s: no site", m.day)
		}
	}
}

// TestRunKeepsReportSite: `run --resume` keeps the site `ratelist report`
// wrote, and the report that follows updates it, writing only what changed.
func TestRunKeepsReportSite(t *testing.T) {
	arch := &cronArchive{dir: t.TempDir(), players: 8, tours: []cronTour{
		{id: 101, end: "2025-01-11", first: 1, rated: true}, {id: 102, end: "2025-02-08", first: 3, rated: true}}}
	arch.write(t)
	out := filepath.Join(t.TempDir(), "out")
	mustRun(t, exitOK, "run", "--archive", arch.dir, "--out", out, "--as-of", "2025-02-02", "--quiet")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"report", "--out", out, "--quiet"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("report: exit %d\n%s", code, stderr.String())
	}
	mustRun(t, exitOK, "run", "--archive", arch.dir, "--out", out, "--as-of", "2025-03-02", "--resume", "--quiet")
	if _, err := os.Stat(filepath.Join(out, "site", "index.html")); err != nil {
		t.Fatalf("the run removed the site: %v", err)
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"report", "--out", out, "--quiet"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("report: exit %d\n%s", code, stderr.String())
	}
	m := regexp.MustCompile(`(\d+) files written, (\d+) unchanged`).FindStringSubmatch(stdout.String())
	if m == nil || m[2] == "0" {
		t.Errorf("the report after run --resume rebuilt everything: %q", stdout.String())
	}
}

// TestReportArchive: report finds the run's archive by the absolute path
// summary.json keeps, from any directory; one that is gone is an error asking
// for --archive (never the embedded demo); an output folder without a list
// is an error, and no site is announced.
func TestReportArchive(t *testing.T) {
	tmp := t.TempDir()
	arch := &cronArchive{dir: filepath.Join(tmp, "archive"), players: 8, tours: []cronTour{{id: 101, end: "2025-01-11", first: 1, rated: true}}}
	if err := os.MkdirAll(arch.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	arch.write(t)
	t.Chdir(tmp)
	mustRun(t, exitOK, "run", "--archive", "archive", "--out", "out", "--as-of", "2025-02-02", "--quiet")
	t.Chdir(t.TempDir())
	out := filepath.Join(tmp, "out")
	mustRun(t, exitOK, "report", "--out", out, "--quiet")
	if _, err := os.Stat(filepath.Join(out, "site", "tournaments", "101.html")); err != nil {
		t.Errorf("the site lacks the archive's tournament: %v", err)
	}

	if err := os.Rename(arch.dir, arch.dir+".moved"); err != nil {
		t.Fatal(err)
	}
	stderr := mustRun(t, exitUsage, "report", "--out", out, "--quiet")
	if !strings.Contains(stderr, "--archive") || !strings.Contains(stderr, arch.dir) {
		t.Errorf("stderr %q: want the missing archive named and --archive asked for", stderr)
	}
	mustRun(t, exitOK, "report", "--out", out, "--archive", arch.dir+".moved", "--quiet")

	early := filepath.Join(tmp, "early")
	mustRun(t, exitOK, "run", "--archive", arch.dir+".moved", "--out", early, "--as-of", "2025-01-20", "--quiet")
	var stdout, se bytes.Buffer
	code := run(context.Background(), []string{"report", "--out", early}, &stdout, &se)
	if code == exitOK || !strings.Contains(se.String(), "no list") || strings.Contains(stdout.String(), "index.html") {
		t.Errorf("report with no list: exit %d, stdout %q, stderr %q; want an error and no site announced", code, stdout.String(), se.String())
	}
	if _, err := os.Stat(filepath.Join(early, "site")); err == nil {
		t.Error("report with no list wrote a site")
	}
}

// TestRunDateFlags: --as-of must be a date; a mistyped year far before the
// rest is refused with exit 2 naming the row, and --allow-gap runs it;
// --provisional lists the open period, marked in summary.json.
func TestRunDateFlags(t *testing.T) {
	arch := &cronArchive{dir: t.TempDir(), players: 8, tours: []cronTour{
		{id: 101, end: "2025-01-11", first: 1, rated: true}, {id: 102, end: "1925-02-08", first: 3, rated: true},
		{id: 103, end: "2025-02-08", first: 3, rated: true}}}
	arch.write(t)
	out := filepath.Join(t.TempDir(), "out")
	mustRun(t, exitUsage, "run", "--archive", arch.dir, "--out", out, "--as-of", "2025-02-30", "--quiet")
	stderr := mustRun(t, exitUsage, "run", "--archive", arch.dir, "--out", out, "--as-of", "2025-02-10")
	for _, want := range []string{"tournaments.csv row 2", "tournament 102", "1925-02-08", "--allow-gap"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	mustRun(t, exitUsage, "validate", "--archive", arch.dir, "--as-of", "2025-02-10")
	mustRun(t, exitOK, "run", "--archive", arch.dir, "--out", out, "--as-of", "2025-02-10", "--allow-gap", "--period", "year", "--provisional", "--quiet")
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"provisional": "2025"`)) || !bytes.Contains(b, []byte(`"first_list": "1925"`)) {
		t.Errorf("summary.json:\n%s\nwant lists from 1925 and 2025 provisional", b)
	}
}

// TestReportKeepsMemoryLimit: run --report leaves the run's --memory-limit in
// place (the report does not set its own).
func TestReportKeepsMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	arch := &cronArchive{dir: t.TempDir(), players: 8, tours: []cronTour{{id: 101, end: "2025-01-11", first: 1, rated: true}}}
	arch.write(t)
	mustRun(t, exitOK, "run", "--archive", arch.dir, "--out", filepath.Join(t.TempDir(), "out"), "--as-of", "2025-02-02",
		"--memory-limit", "200", "--report", "--quiet")
	if got := debug.SetMemoryLimit(-1); got != 200<<20 {
		t.Errorf("memory limit after run --report: %d MiB, want 200", got>>20)
	}
}

// TestReportMemoryLimit: the report verb sets its --memory-limit (768 MiB by
// default), none with 0 or GOMEMLIMIT set, and refuses a negative one.
func TestReportMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	arch := &cronArchive{dir: t.TempDir(), players: 8, tours: []cronTour{{id: 101, end: "2025-01-11", first: 1, rated: true}}}
	arch.write(t)
	out := filepath.Join(t.TempDir(), "out")
	mustRun(t, exitOK, "run", "--archive", arch.dir, "--out", out, "--as-of", "2025-02-02", "--quiet")
	const unset = 1 << 40 // a limit no verb sets
	tests := []struct {
		name, env string
		args      []string
		code      int
		want      int64
	}{
		{"default", "", nil, exitOK, 768 << 20},
		{"given", "", []string{"--memory-limit", "300"}, exitOK, 300 << 20},
		{"none", "", []string{"--memory-limit", "0"}, exitOK, unset},
		{"GOMEMLIMIT wins", "1GiB", []string{"--memory-limit", "300"}, exitOK, unset},
		{"negative", "", []string{"--memory-limit", "-1"}, exitUsage, unset},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tt.env)
			debug.SetMemoryLimit(unset)
			mustRun(t, tt.code, append([]string{"report", "--out", out, "--quiet"}, tt.args...)...)
			if got := debug.SetMemoryLimit(-1); got != tt.want {
				t.Errorf("memory limit after report: %d MiB, want %d MiB", got>>20, tt.want>>20)
			}
		})
	}
}
