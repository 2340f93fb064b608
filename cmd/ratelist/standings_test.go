package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/golden"
)

// testdata/rr.trf is the contract-check round robin. Hand calculation:
// scores 1 Alpha 2, 2 Beta 1, 3 Gamma 2.5, 4 Delta 0.5.
// BH: Alpha 1+2.5+0.5 = 4; Beta 2+0.5+2.5 = 5; Gamma 0.5+2+1 = 3.5; Delta 2.5+1+2 = 5.5.
// SB: Gamma 0.5 + 2×½ + 1 = 2.5; Alpha 1 + 2.5×½ + 0.5×½ = 2.5.
// LJV Gamma (2000): R1 Black win vs 1800: 10−2 = 8 × 0.5 = 4; R2 White draw vs 2100:
// 4+1 = 5 × 2 = 10; R3 White win vs 1900: 9−1 = 8 × 1 = 8 → 22.
func TestStandingsTRF(t *testing.T) {
	var out, errb bytes.Buffer
	rc := cmdStandings(context.Background(), []string{"--trf", "testdata/rr.trf", "--tiebreaks", "BH,BH/C1,SB,LJV", "--format", "csv"}, &out, &errb)
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	want := `rank,start_no,player_id,name,points,BH,BH/C1,SB,LJV
1,3,900003,"Gamma, Gil",2.5,3.5,3,2.5,22
2,1,900001,"Alpha, Ann",2,4,3.5,2.5,17.5
3,2,900002,"Beta, Bob",1,5,4.5,0.5,19.5
4,4,900004,"Delta, Dan",0.5,5.5,4.5,1,26.5
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	// --format text: TestGoldenCommands (standings-text).
}

func TestStandingsExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.trf")
	if err := os.WriteFile(bad, []byte("001    x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sets := filepath.Join(dir, "sets.toml")
	if err := os.WriteFile(sets, []byte("[cz]\na = 1\nb = 0.001\nc = 0.01\nd = 0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no input", nil, 2},
		{"both inputs", []string{"--trf", "x", "--archive", "y", "--tournament", "1"}, 2},
		{"archive without id", []string{"--archive", "y"}, 2},
		{"unknown flag", []string{"--nope"}, 2},
		{"bad code", []string{"--trf", "testdata/rr.trf", "--tiebreaks", "BH/Q"}, 2},
		{"bad policy", []string{"--trf", "testdata/rr.trf", "--unplayed", "fide1999"}, 2},
		{"bad format", []string{"--trf", "testdata/rr.trf", "--format", "xml"}, 2},
		{"bad turcas", []string{"--trf", "testdata/rr.trf", "--turcas", "1,2"}, 2},
		{"unknown set", []string{"--trf", "testdata/rr.trf", "--turcas", "cz"}, 2},
		{"missing file", []string{"--trf", filepath.Join(dir, "none.trf")}, 1},
		{"malformed file", []string{"--trf", bad}, 1},
		{"policy", []string{"--trf", "testdata/rr.trf", "--unplayed", "fide2009"}, 0},
		{"turcas numbers", []string{"--trf", "testdata/rr.trf", "--tiebreaks", "TURCAS", "--turcas", "1,0,0,0.5"}, 0},
		{"turcas set", []string{"--trf", "testdata/rr.trf", "--tiebreaks", "TURCAS", "--turcas-sets", sets, "--turcas", "cz"}, 0},
		{"default codes", []string{"--trf", "testdata/rr.trf"}, 0},
		{"html", []string{"--trf", "testdata/rr.trf", "--format", "html"}, 0},
		{"full text", []string{"--trf", "testdata/rr.trf", "--format", "text", "--full"}, 2},
		{"out without archive", []string{"--trf", "testdata/rr.trf", "--out", dir}, 2},
		{"team html", []string{"--trf", "testdata/teams.trf", "--team", "--format", "html"}, 2},
		{"out not a run", []string{"--archive", "../../testdata/demo", "--tournament", "1003", "--out", dir, "--format", "text"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if rc := cmdStandings(context.Background(), tt.args, &out, &errb); rc != tt.want {
				t.Errorf("exit %d, want %d (%s)", rc, tt.want, errb.String())
			}
		})
	}
}

func TestCalibrateUsage(t *testing.T) {
	tests := []struct {
		args []string
		want int
	}{
		{nil, 2},
		{[]string{"elo"}, 2},
		{[]string{"turcas"}, 2},
		{[]string{"turcas", "--archive", "x", "--from", "2024-13"}, 2},
		{[]string{"turcas", "--archive", "x", "--format", "xml"}, 2},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		if rc := cmdCalibrate(context.Background(), tt.args, &out, &errb); rc != tt.want {
			t.Errorf("%v: exit %d, want %d", tt.args, rc, tt.want)
		}
	}
}

// TestCalibrateDemo runs the calibration on the embedded demo archive (shape only).
func TestCalibrateDemo(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := cmdCalibrate(context.Background(), []string{"turcas", "--archive", "../../testdata/demo", "--format", "csv"}, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[0] != "A,B,C,D" || !strings.HasPrefix(lines[1], "1,") {
		t.Errorf("got %q", out.String())
	}
}

// An unreadable 042 date is a warning with file:line:column: without --unplayed the
// newest rules apply (the output is that of --unplayed fide2026), with it the date is
// not used.
func TestStandingsUnknownDate(t *testing.T) {
	src, err := os.ReadFile("testdata/rr.trf")
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "rr.trf")
	if err := os.WriteFile(name, bytes.Replace(src, []byte("042 2025/06/01"), []byte("042 early June"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	standings := func(args ...string) (string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		if rc := cmdStandings(context.Background(), append(args, "--tiebreaks", "BH,SB,AOB"), &out, &errb); rc != 0 {
			t.Fatalf("%v: exit %d: %s", args, rc, errb.String())
		}
		return out.String(), errb.String()
	}
	newest, _ := standings("--trf", "testdata/rr.trf", "--unplayed", "fide2026")
	got, warn := standings("--trf", name)
	if got != newest {
		t.Errorf("unknown date: got\n%s\nwant (fide2026)\n%s", got, newest)
	}
	if !strings.Contains(warn, name+`:2:5: \"early June\": start date (042) not understood`) || !strings.Contains(warn, "unplayed=fide2026") || !strings.Contains(warn, "newest rules") {
		t.Errorf("warning %q", warn)
	}
	_, warn = standings("--trf", name, "--unplayed", "fide2023")
	if !strings.Contains(warn, ":2:5:") || !strings.Contains(warn, "not used") || strings.Contains(warn, "newest") {
		t.Errorf("warning with --unplayed: %q", warn)
	}
	if _, warn = standings("--trf", "testdata/rr.trf"); warn != "" {
		t.Errorf("readable date warns: %q", warn)
	}
}

// Every tournament of FIDE's tie-break reference program reads as it is, with no
// warning, and a copy with CR-only line endings gives byte-identical standings.
func TestStandingsReferenceFilesCR(t *testing.T) {
	files, err := filepath.Glob("../../testdata/tiebreak-reference/*.trf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no reference files: %v", err)
	}
	dir := t.TempDir()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		crName := filepath.Join(dir, filepath.Base(name))
		cr := bytes.ReplaceAll(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r"))
		if bytes.Contains(cr, []byte("\n")) || bytes.Equal(cr, src) {
			t.Fatalf("%s: CR-only copy not made", name)
		}
		if err := os.WriteFile(crName, cr, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, policy := range []string{"fide2023", "fide2026", ""} {
			var want, got, errb bytes.Buffer
			args := []string{"--tiebreaks", "BH/C1,BH,SB,DE,WIN,AOB,ARO,TPR,PTP,FB,REP"}
			if policy != "" {
				args = append(args, "--unplayed", policy)
			}
			if rc := cmdStandings(context.Background(), append([]string{"--trf", name}, args...), &want, &errb); rc != 0 || errb.Len() != 0 {
				t.Fatalf("%s %s: exit %d: %s", name, policy, rc, errb.String())
			}
			if rc := cmdStandings(context.Background(), append([]string{"--trf", crName}, args...), &got, &errb); rc != 0 || errb.Len() != 0 {
				t.Fatalf("%s CR-only %s: exit %d: %s", name, policy, rc, errb.String())
			}
			if got.String() != want.String() || strings.Count(want.String(), "\n") < 5 {
				t.Errorf("%s %s: CR-only copy gives\n%s\nwant\n%s", name, policy, got.String(), want.String())
			}
		}
	}
}

// testdata/teams.trf is a league of four teams of two boards, a single round robin
// (four teams, three rounds). Hand calculation, match points 2–1–0:
// round 1 Athy–Bray 1.5–0.5, Cork–Derry 0–2 (Cork's board 2 unfielded, Derry's
// written `0000 - +`); round 2 Athy–Cork 1–1, Bray–Derry 2–0 by forfeit on both
// boards; round 3 Athy–Derry 1–1, Bray–Cork a double forfeit (0–0, both lose).
// MP/GP: Athy 4/3.5, Derry 3/3, Bray 2/2.5, Cork 1/1.
// BH:MP (a round robin: forfeits count against the scheduled team): Athy 2+1+3 = 6,
// Derry 1+2+4 = 7, Bray 4+3+1 = 8, Cork 3+4+2 = 9; BH:GP Athy 2.5+1+3 = 6.5, Derry
// 1+2.5+3.5 = 7, Bray 3.5+3+1 = 7.5, Cork 3+3.5+2.5 = 9.
// EMGSB (opponents' MP × own GP): Athy 2·1.5+1·1+3·1 = 7, Derry 1·2+2·0+4·1 = 6,
// Bray 4·0.5+3·2+1·0 = 8, Cork 3·0+4·1+2·0 = 4. WIN counts Bray's forfeit win, WON
// does not. PS: Athy 2+3+4 = 9, Derry 2+2+3 = 7, Bray 0+2+2 = 4, Cork 0+1+1 = 2.
// FB:MP (round 3 as drawn matches: fore MP Athy 4, Derry 3, Bray 3, Cork 2): Athy
// 3+2+3 = 8, Derry 2+3+4 = 9, Bray 4+3+2 = 9, Cork 3+4+3 = 10. AOB:MP over matches
// played: Athy (8+9+7)/3 = 8, Derry (9+6)/2 = 7.5, Bray 6, Cork (7+6)/2 = 6.5.
// BC (board × game points on it): Athy 1·1.5+2·2 = 5.5, Derry 1·2+2·1 = 4, Bray
// 1·1+2·1.5 = 4, Cork 1·0.5+2·0.5 = 1.5. SSSC = GP + BH:MP / ⌊2·3/2⌋: Athy 3.5+2 =
// 5.5, Derry 3+7/3 = 5.33, Bray 2.5+8/3 = 5.17, Cork 1+3 = 4.
func TestStandingsTeam(t *testing.T) {
	var out, errb bytes.Buffer
	rc := cmdStandings(context.Background(), []string{"--trf", "testdata/teams.trf", "--team", "--tiebreaks", "BH:MP,BH:GP,EMGSB,WIN,WON,PS,FB:MP,AOB:MP,BC,SSSC"}, &out, &errb)
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	want := `rank,team,name,mp,gp,BH:MP,BH:GP,EMGSB,WIN,WON,PS,FB:MP,AOB:MP,BC,SSSC
1,1,Athy,4,3.5,6,6.5,7,1,1,9,8,8,5.5,5.5
2,4,Derry,3,3,7,7,6,1,1,7,9,7.5,4,5.33
3,2,Bray,2,2.5,8,7.5,8,1,0,4,9,6,4,5.17
4,3,Cork,1,1,9,9,4,0,0,2,10,6.5,1.5,4
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	// Match points 3–1–0 change the order of nothing here but the points.
	out.Reset()
	if rc := cmdStandings(context.Background(), []string{"--trf", "testdata/teams.trf", "--team", "--match-points", "3,1,0", "--tiebreaks", "MPvGP"}, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	if !strings.Contains(out.String(), "1,1,Athy,5,3.5,3.5\n") || !strings.Contains(out.String(), "2,4,Derry,4,3,3\n") {
		t.Errorf("--match-points 3,1,0:\n%s", out.String())
	}
}

func TestStandingsTeamUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"team code unknown", []string{"--trf", "testdata/teams.trf", "--team", "--tiebreaks", "LJV"}, 2},
		{"score on a code without one", []string{"--trf", "testdata/teams.trf", "--team", "--tiebreaks", "WIN:GP"}, 2},
		{"fide2009", []string{"--trf", "testdata/teams.trf", "--team", "--unplayed", "fide2009"}, 2},
		{"bad primary", []string{"--trf", "testdata/teams.trf", "--team", "--primary", "xp"}, 2},
		{"bad match points", []string{"--trf", "testdata/teams.trf", "--team", "--match-points", "2,1"}, 2},
		{"match points without --team", []string{"--trf", "testdata/teams.trf", "--match-points", "2,1,0"}, 2},
		{"archive not there", []string{"--archive", "x", "--tournament", "1", "--team"}, 1},
		{"no teams", []string{"--trf", "testdata/rr.trf", "--team"}, 1},
		{"game points first", []string{"--trf", "testdata/teams.trf", "--team", "--primary", "gp"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if rc := cmdStandings(context.Background(), tt.args, &out, &errb); rc != tt.want {
				t.Errorf("exit %d, want %d: %s", rc, tt.want, errb.String())
			}
		})
	}
}

// TestGoldenStandingsFormats pins the officers' table that --format text and
// html and csv --full print, on a real Swiss (Bunratty 2011: titles,
// federations, byes) and a real round robin (Tata Steel 2021: the grid, and
// places 11–12 shared under --tiebreaks DE alone), and the contract's csv of
// the round robin beside them. Only stdout is compared: the TRF reader's
// warnings carry the time.
func TestGoldenStandingsFormats(t *testing.T) {
	const swiss, rr = "../../testdata/trf-real/bunratty_masters_2011.trf", "../../testdata/fide-published/tata_steel_masters_2021.trf"
	tests := []struct {
		name string
		args []string
	}{
		{"swiss.txt", []string{"--trf", swiss, "--format", "text"}},
		{"swiss-full.csv", []string{"--trf", swiss, "--format", "csv", "--full"}},
		{"swiss.html", []string{"--trf", swiss, "--format", "html"}},
		{"rr.txt", []string{"--trf", rr, "--format", "text"}},
		{"rr-full.csv", []string{"--trf", rr, "--format", "csv", "--full"}},
		{"rr.html", []string{"--trf", rr, "--format", "html"}},
		{"rr.csv", []string{"--trf", rr, "--format", "csv"}},
		{"rr-shared.txt", []string{"--trf", rr, "--tiebreaks", "DE", "--format", "text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if rc := cmdStandings(context.Background(), tt.args, &out, &errb); rc != 0 {
				t.Fatalf("exit %d: %s", rc, errb.String())
			}
			golden.Check(t, "standings/"+tt.name, out.Bytes())
		})
	}
}

// TestStandingsSameAsSite: with a run's outputs, standings --format html
// prints the table of the tournament's site page (its head and rows, but
// for the links to player pages), for a Swiss (1003) and a round robin
// (1002, the grid) of the demo.
func TestStandingsSameAsSite(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if rc := run(context.Background(), []string{"run", "--out", out, "--quiet"}, &stdout, &stderr); rc != exitOK {
		t.Fatalf("demo run: exit %d: %s", rc, stderr.String())
	}
	if rc := run(context.Background(), []string{"report", "--out", out, "--archive", "../../testdata/demo", "--quiet"}, &stdout, &stderr); rc != exitOK {
		t.Fatalf("report: exit %d: %s", rc, stderr.String())
	}
	links := regexp.MustCompile(`<a href=[^>]*>([^<]*)</a>`)
	table := func(page string) string {
		i, j := strings.Index(page, "<thead>"), strings.Index(page, "</table>")
		if i < 0 || j < i {
			t.Fatalf("no table in\n%s", page)
		}
		return links.ReplaceAllString(page[i:j], "$1")
	}
	for id, mark := range map[string]string{"1003": ">R6<", "1002": "■"} {
		site, err := os.ReadFile(filepath.Join(out, "site", "tournaments", id+".html"))
		if err != nil {
			t.Fatal(err)
		}
		var page, errb bytes.Buffer
		if rc := cmdStandings(context.Background(), []string{"--archive", "../../testdata/demo", "--tournament", id, "--out", out, "--format", "html"}, &page, &errb); rc != 0 {
			t.Fatalf("%s: exit %d: %s", id, rc, errb.String())
		}
		if !strings.Contains(page.String(), mark) {
			t.Errorf("tournament %s: no %s in the table", id, mark)
		}
		if got, want := table(page.String()), table(string(site)); got != want {
			t.Errorf("tournament %s: standings prints\n%s\nthe site shows\n%s", id, got, want)
		}
	}
}
