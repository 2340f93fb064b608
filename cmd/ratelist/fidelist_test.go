package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportFideList drives import fide-list on an archive made by import trf
// (whose players carry FIDE ids), with a list naming one of them, one player
// not in the archive and one line that cannot be read (exit 3).
func TestImportFideList(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "archive")
	var stdout, stderr bytes.Buffer
	if got := run(context.Background(), []string{"import", "trf", importData + "spring.trf", "--archive", dir, "--quiet"}, &stdout, &stderr); got != exitOK {
		t.Fatalf("import trf: exit %d\n%s%s", got, stdout.String(), stderr.String())
	}
	list := filepath.Join(t.TempDir(), "players_list_foa.txt")
	text := "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag\n" +
		"900001         Orlova, Anna                                                 ISL F        WIM                     2150  9   20                           2011  w\n" +
		"900777         Nobody, Known                                                ISL M                                1500  0   40                           2000\n" +
		"9OO002         Popov, Bob                                                   RUS M                                1950  0   20                           2012\n"
	if err := os.WriteFile(list, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	got := run(context.Background(), []string{"import", "fide-list", list, "--archive", dir}, &stdout, &stderr)
	for _, want := range []string{
		"import fide-list: 1 files; 2 players read = 1 matched + 1 not in the archive (0 added); 1 lines skipped",
		"players updated: federation 1, sex 1, title 1, birth_year 0, fide_rating 1",
		"wrote players.parquet",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	if got != exitRejected || !strings.Contains(stderr.String(), `players_list_foa.txt:4: ID Number "9OO002" is not a FIDE id`) {
		t.Errorf("exit %d, want %d naming line 4:\n%s", got, exitRejected, stderr.String())
	}
}
