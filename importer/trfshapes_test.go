package importer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/day"
)

// TestImportTRFRealFiles imports the real files of testdata/trf-real and a file
// in lichess's layout: every game and bye of the trf reader becomes a row (the
// counts are derived in trf's TestRealFiles: 82 games + 6 byes, 97 + 6, 11 + 2),
// with the reader's notes, and check trf's findings counted (as `check trf`
// prints them in docs/arbiter.md and trf's TestCheckFiles), each error and
// warning a note of its own.
func TestImportTRFRealFiles(t *testing.T) {
	tests := []struct {
		file     string
		rows     int64
		start    string
		end      string
		notes    int    // the reader's
		findings [3]int // notes, warnings, errors
		noted    int    // of the findings' errors and warnings, those the reader has not noted
	}{
		{"../testdata/trf-real/irish_junior_champs_2011.trf", 88, "2011-07-02", "2011-07-03", 6, [3]int{1, 7, 0}, 1}, // not UTF-8, 5 players' byes; a birth date
		{"../testdata/trf-real/bunratty_masters_2011.trf", 103, "2011-02-25", "2011-02-27", 5, [3]int{0, 13, 1}, 8},
		{"../trf/testdata/lichess-shape.trf", 13, "2020-05-29", "2020-05-29", 0, [3]int{2, 1, 0}, 1}, // unfinished: end = start
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			a, err := Open(t.TempDir(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			st := mustStats(t)(ImportTRF(context.Background(), a, []string{tt.file}, Options{}))
			checked := 0
			for _, n := range st.Notes {
				if strings.Contains(n.Error(), ": check trf: ") {
					checked++
				}
			}
			if st.Imported != tt.rows || st.Skipped != 0 || st.Tournaments != 1 || len(st.Notes)-checked != tt.notes || checked != tt.noted {
				t.Errorf("%d reader notes, %d check notes: %+v", len(st.Notes)-checked, checked, st)
			}
			if len(st.ByFile) != 1 || st.ByFile[0].Findings != tt.findings || st.ByFile[0].Read != tt.rows || st.ByFile[0].Kept != tt.rows || st.ByFile[0].Events != 1 {
				t.Errorf("per file: %+v", st.ByFile)
			}
			tr := a.Tournaments[0]
			if int32(day.Of(mustDate(t, tt.start))) != tr.StartDate || int32(day.Of(mustDate(t, tt.end))) != tr.EndDate {
				t.Errorf("dates %d %d", tr.StartDate, tr.EndDate)
			}
			if len(newGames(t, a)) != int(tt.rows) {
				t.Errorf("rows written")
			}
		})
	}
}

func mustDate(t *testing.T, s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestImportTRFNameDate: a file without 012 or 042 needs --name or --date; the
// file's own name and date win over the options.
func TestImportTRFNameDate(t *testing.T) {
	data, err := os.ReadFile("testdata/spring.trf")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bare := filepath.Join(dir, "bare.trf") // no 012, no 042
	lines := strings.SplitAfter(string(data), "\n")
	if err := os.WriteFile(bare, []byte(strings.Join(lines[2:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	date := mustDate(t, "2025-03-08")
	tests := []struct {
		name     string
		file     string
		opt      Options
		wantErr  string
		wantName string
	}{
		{"neither", bare, Options{}, "no tournament name (record 012)", ""},
		{"name only", bare, Options{Name: "Spring"}, "no start date (record 042", ""},
		{"both", bare, Options{Name: "Spring", Date: date}, "", "Spring"},
		{"the file's own", "testdata/spring.trf", Options{Name: "Other", Date: date.AddDate(0, 1, 0)}, "", "Spring Swiss 2025"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Open(t.TempDir(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			st := mustStats(t)(ImportTRF(context.Background(), a, []string{tt.file}, tt.opt))
			if tt.wantErr != "" {
				if st.FilesSkipped != 1 || len(st.Problems) != 1 || !errors.Is(st.Problems[0], ErrMalformed) || !strings.Contains(st.Problems[0].Error(), tt.wantErr) {
					t.Errorf("%+v", st)
				}
				return
			}
			if st.Tournaments != 1 || a.Tournaments[0].Name != tt.wantName || a.Tournaments[0].StartDate != int32(day.Of(date)) {
				t.Errorf("%+v %+v", st, a.Tournaments)
			}
		})
	}
}
