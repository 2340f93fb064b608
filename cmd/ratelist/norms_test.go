package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/norms"
)

// ../../testdata/norms/rr10.trf is a 10-player round robin: Applicant (FM,
// NED) scores 7/9 against the opponents of a GM norm, but the file leaves Leko
// (FIDE id 703303) without title, federation and rating. Unrated, he counts
// 1400 raised to the floor: GM Ra (19070+2200)/9 = 2363.3, Rp 2583, and only 2
// GMs; IM Ra (19070+2050)/9 = 2346.7, Rp 2567, a norm. FIDE's list makes him a
// GM of HUN rated 2676: Ra 21746/9 = 2416.2, Rp 2636, both norms.
const rr10 = "../../testdata/norms/rr10.trf"

func runNorms(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"norms"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestNormsCSV(t *testing.T) {
	code, out, stderr := runNorms("--trf", rr10)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(out, "\n")
	want := []string{
		"start_no,name,norm_title,achieved,games,ra,rp,score,fails,rounds_used",
		`1,"Applicant, Ann",GM,no,9,2363,2583,7,1.4.5b;1.4.8;1.4.8a,1-9`,
		`1,"Applicant, Ann",IM,yes,9,2347,2567,7,,1-9`,
	}
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Fatalf("line %d: got\n%s\nwant %s", i+1, out, w)
		}
	}
	// The header; Applicant, Leko (untitled in the file), Foxtrot and Hotel for
	// GM and IM; the IMs Delta, Echo and Golf for GM; India (WIM) for GM, IM
	// and WGM; the two GMs for nothing; the empty last line.
	if n := len(lines); n != 1+4*2+3*1+3+1 {
		t.Errorf("%d lines:\n%s", n, out)
	}

	code, out, stderr = runNorms("--trf", rr10, "--list", "../../importer/testdata/fidelist/players_list_foa.txt")
	if code != exitOK {
		t.Fatalf("--list: exit %d: %s", code, stderr)
	}
	for _, w := range []string{`1,"Applicant, Ann",GM,yes,9,2416,2636,7,,1-9`, `1,"Applicant, Ann",IM,yes,9,2416,2636,7,,1-9`} {
		if !strings.Contains(out, w+"\n") {
			t.Errorf("--list: no line %s in\n%s", w, out)
		}
	}
	if strings.Contains(out, "Leko") {
		t.Errorf("--list: Leko, a GM by the list, is checked:\n%s", out)
	}
}

func TestNormsJSON(t *testing.T) {
	code, out, stderr := runNorms("--trf", rr10, "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Kind    string `json:"kind"`
		Results []struct {
			StartNo   int            `json:"start_no"`
			Title     string         `json:"norm_title"`
			Achieved  bool           `json:"achieved"`
			Fails     []string       `json:"fails"`
			ByTitle   map[string]int `json:"games_by_title"`
			Feds      int            `json:"federations"`
			Unrated   int            `json:"unrated_games"`
			Opponents []struct {
				Name    string `json:"name"`
				Counted int    `json:"counted_rating"`
				Raised  bool   `json:"raised"`
			} `json:"opponents"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	r := doc.Results[0]
	if doc.Kind != "round-robin" || r.StartNo != 1 || r.Title != "GM" || r.Achieved || strings.Join(r.Fails, ";") != "1.4.5b;1.4.8;1.4.8a" || len(r.Opponents) != 9 {
		t.Fatalf("got %+v", doc)
	}
	// The IT1 counts: Leko untitled and unrated; ENG, FRA, NED, GER, ESP, USA.
	if fmt.Sprint(r.ByTitle) != "map[FM:2 GM:2 IM:3 WIM:1]" || r.Feds != 6 || r.Unrated != 1 {
		t.Errorf("IT1 counts %v, %d federations, %d unrated", r.ByTitle, r.Feds, r.Unrated)
	}
	for _, o := range r.Opponents {
		if (o.Name == "Leko, Peter") != o.Raised || o.Raised && o.Counted != 2200 {
			t.Errorf("opponent %+v", o)
		}
	}
}

func TestNormsExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.trf")
	if err := os.WriteFile(bad, []byte("001    x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-h"}, exitOK, ""},
		{[]string{}, exitUsage, "give --trf FILE"},
		{[]string{"--trf", rr10, "--format", "xml"}, exitUsage, "--format"},
		{[]string{"--trf", rr10, "--kind", "knockout"}, exitUsage, "--kind"},
		{[]string{"--trf", rr10, "extra"}, exitUsage, "unexpected argument"},
		{[]string{"--trf", filepath.Join(dir, "missing.trf")}, exitFailed, "missing.trf"},
		{[]string{"--trf", bad}, exitFailed, "bad.trf:1:5"},
		{[]string{"--trf", rr10, "--list", filepath.Join(dir, "nolist.txt")}, exitFailed, "nolist.txt"},
	} {
		code, _, stderr := runNorms(c.args...)
		if code != c.code || !strings.Contains(stderr, c.err) {
			t.Errorf("norms %v: exit %d, stderr %q; want %d naming %q", c.args, code, stderr, c.code, c.err)
		}
	}
}

// TestFillFromList: the list fills what the TRF leaves blank and nothing else;
// a woman by the list is checked for the women's norms.
func TestFillFromList(t *testing.T) {
	tt := norms.Tournament{Players: []norms.Player{
		{FideID: 1, Title: "", Federation: "", Rating: 0},
		{FideID: 2, Title: "FM", Federation: "NED", Rating: 2300},
		{FideID: 3},
	}}
	fillFromList(&tt, map[int64]importer.FideListPlayer{
		1: {Title: "IM", WTitle: "WGM", Federation: "hun", Sex: "F", Rating: 2450},
		2: {Title: "IM", Federation: "GER", Sex: "M", Rating: 2400},
	})
	got := fmt.Sprintf("%+v", tt.Players)
	want := "[{StartNo:0 Name: Title:IM Federation:HUN Female:true Rating:2450 FideID:1 Rounds:[]} " +
		"{StartNo:0 Name: Title:FM Federation:NED Female:false Rating:2300 FideID:2 Rounds:[]} " +
		"{StartNo:0 Name: Title: Federation: Female:false Rating:0 FideID:3 Rounds:[]}]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if ts := norms.Titles(tt.Players[0]); fmt.Sprint(ts) != "[GM]" {
		t.Errorf("an IM and WGM is checked for %v", ts)
	}
}
