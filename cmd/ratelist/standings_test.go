package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
