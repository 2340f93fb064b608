package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestStandingsTRF(t *testing.T) {
	var out, errb bytes.Buffer
	rc := cmdStandings(context.Background(), []string{"--trf", "testdata/rr.trf", "--tiebreaks", "BH,BH/C1,SB,LJV", "--format", "csv"}, &out, &errb)
	if rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	t.Log(out.String())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[0] != "rank,start_no,player_id,name,points,BH,BH/C1,SB,LJV" || len(lines) != 5 {
		t.Fatalf("got\n%s", out.String())
	}
	out.Reset()
	rc = cmdStandings(context.Background(), []string{"--trf", "testdata/rr.trf", "--tiebreaks", "BH", "--format", "text"}, &out, &errb)
	if rc != 0 {
		t.Fatalf("text exit %d: %s", rc, errb.String())
	}
	t.Log(out.String())
}
