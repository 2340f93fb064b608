package trf

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/tiebreak"
)

// rec builds a 001 record: start number, name, rating and round triples
// ("opp col res") placed at their columns.
func rec(sno int, name string, rating string, rounds ...string) string {
	s := []rune(strings.Repeat(" ", 91))
	put := func(col int, text string) {
		for len(s) < col-1+len([]rune(text)) {
			s = append(s, ' ')
		}
		copy(s[col-1:], []rune(text))
	}
	put(1, "001")
	put(5, padLeft(itoa(sno), 4))
	put(15, name)
	put(49, padLeft(rating, 4))
	for r, tr := range rounds {
		if tr == "" {
			continue
		}
		f := strings.SplitN(tr, " ", 3)
		c := 92 + 10*r
		put(c, padLeft(f[0], 4))
		put(c+5, f[1])
		put(c+7, f[2])
	}
	return strings.TrimRight(string(s), " ")
}

func padLeft(s string, n int) string { return strings.Repeat(" ", max(0, n-len(s))) + s }
func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestReadSwiss6(t *testing.T) {
	fh, err := os.Open("../../tiebreak/testdata/swiss6.trf")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	f, err := Read(fh, "swiss6.trf")
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "Six players, every unplayed kind" || f.Rounds != 4 || f.Start.Format("2006-01-02") != "2024-03-01" || f.End.Format("2006-01-02") != "2024-03-04" {
		t.Errorf("header %+v", f)
	}
	p := f.Players[3] // Delta: lowercase h in round 2
	if p.StartNo != 4 || p.Name != "Delta, Dan" || p.Rating != 1700 || p.FideID != 1004 || p.Points != 2 || p.Rounds[1].Result != 'H' {
		t.Errorf("player 4 %+v", p)
	}
	if len(f.Players[5].Rounds) != 3 || f.Players[5].Rating != 0 {
		t.Errorf("player 6 (short line) %+v", f.Players[5])
	}
	tour, err := f.Tournament()
	if err != nil {
		t.Fatal(err)
	}
	// 9 pairings + byes F, H, U, U (Z rounds, written or blank, are no game).
	if len(tour.Games) != 13 || tour.System != "swiss" || tour.Players[0].ID != 1001 {
		t.Errorf("games %d system %s", len(tour.Games), tour.System)
	}
	// Round 2: player 2 (White) lost to 5.
	found := false
	for _, g := range tour.Games {
		if g.Round == 2 && g.White == 1 && g.Black == 4 && g.WhiteResult == '0' && g.BlackResult == '1' {
			found = true
		}
	}
	if !found {
		t.Errorf("round 2 game 2–5 missing: %+v", tour.Games)
	}
}

func TestRoundRobinDetection(t *testing.T) {
	src := "012 rr\n" +
		rec(1, "A", "2100", "2 w 1", "3 b =") + "\n" +
		rec(2, "B", "1900", "1 b 0", "", "3 w 1") + "\n" +
		rec(3, "C", "2000", "", "1 w =", "2 b 0") + "\n"
	// C's round 1 is empty (bye, blank = Z).
	tour, err := ReadTournament(strings.NewReader(src), "rr.trf")
	if err != nil {
		t.Fatal(err)
	}
	if tour.System != "round-robin" || tour.Rounds != 3 {
		t.Errorf("system %q rounds %d", tour.System, tour.Rounds)
	}
	src2 := "092 Individual: Swiss-System\n" + src
	if tour, _ := ReadTournament(strings.NewReader(src2), "x"); tour.System != "swiss" {
		t.Errorf("092 Swiss: %q", tour.System)
	}
}

func TestTolerance(t *testing.T) {
	// CRLF, a BOM, lowercase codes, ½ for a draw, a missing opponent record round
	// (player 2's line stops early: his result is inferred).
	src := "\ufeff012 t\r\n" +
		rec(1, "Äbc, Öd", "2000", "2 w +", "2 b ½") + "\r\n" +
		rec(2, "B", "", "1 b -") + "\r\n"
	tour, err := ReadTournament(strings.NewReader(src), "t.trf")
	if err != nil {
		t.Fatal(err)
	}
	if len(tour.Games) != 2 || tour.Games[1].WhiteResult != '=' || tour.Games[1].BlackResult != '=' || tour.Players[0].Name != "Äbc, Öd" {
		t.Errorf("%+v", tour.Games)
	}
	rows, err := tiebreak.Standings(tour, []string{"BH"}, tiebreak.Options{})
	if err != nil || len(rows) != 2 {
		t.Fatalf("standings: %v", err)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		line     int
		col      int
		sentinel error
	}{
		{"start rank", "012 x\n001    x m    A", 2, 5, ErrField},
		{"rating", "001    1 m    A                                 20x0", 1, 49, ErrField},
		{"result", rec(1, "A", "", "2 w 7") + "\n" + rec(2, "B", "", "1 b 0"), 1, 99, ErrField},
		{"colour", rec(1, "A", "", "2 q 1"), 1, 97, ErrField},
		{"played without opponent", rec(1, "A", "", "0000 w 1"), 1, 99, ErrField},
		{"bye with opponent", rec(1, "A", "", "2 - U") + "\n" + rec(2, "B", ""), 1, 99, ErrField},
		{"unknown opponent", rec(1, "A", "", "9 w 1"), 1, 92, ErrUnknownOpponent},
		{"disagree", rec(1, "A", "", "2 w 1") + "\n" + rec(2, "B", "", "3 b 0") + "\n" + rec(3, "C", "", "2 w 1"), 1, 92, ErrPairing},
		{"played vs forfeit", rec(1, "A", "", "2 w 1") + "\n" + rec(2, "B", "", "1 b -"), 1, 92, ErrPairing},
		{"duplicate", rec(1, "A", "") + "\n" + rec(1, "B", ""), 2, 5, ErrDuplicatePlayer},
		{"no players", "012 empty\n", 1, 0, ErrNoPlayers},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadTournament(strings.NewReader(tt.src), "f.trf")
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, tt.sentinel) || se.Line != tt.line || se.Column != tt.col {
				t.Errorf("got %v, want line %d col %d %v", err, tt.line, tt.col, tt.sentinel)
			}
		})
	}
}

func TestDateForms(t *testing.T) {
	tests := []struct{ text, want string }{
		{"2024/12/01", "2024-12-01"},
		{"2024-12-01", "2024-12-01"},
		{"2024.12.01", "2024-12-01"},
		{"2024/8/1", "2024-08-01"},
		{"26/11/30", "2026-11-30"}, // YY/MM/DD, as record 132 writes round dates
		{"99/05/12", "1999-05-12"},
		{"28. 07. 2005", "2005-07-28"},
		{"01.08.2024", "2024-08-01"},
		{"1.8.2024", "2024-08-01"},
		{"01/08/2024", "2024-08-01"}, // day first
		{"08/31/2024", "2024-08-31"}, // month first: day first is impossible
		{"Jun 26, 2020", "2020-06-26"},
		{"June 26, 2020", "2020-06-26"},
		{"26 Jun 2020", "2020-06-26"},
		{"26. June 2020", "2020-06-26"},
	}
	for _, tt := range tests {
		for _, rec := range []string{"042", "052"} {
			f, err := Read(strings.NewReader(rec+" "+tt.text+"\n"+rec1), "d.trf")
			if err != nil {
				t.Fatalf("%s %q: %v", rec, tt.text, err)
			}
			got := f.Start
			if rec == "052" {
				got = f.End
			}
			if got.Format("2006-01-02") != tt.want || len(f.Warnings) != 0 {
				t.Errorf("%s %q: got %s, warnings %v; want %s", rec, tt.text, got.Format("2006-01-02"), f.Warnings, tt.want)
			}
		}
	}
}

// rec1 is a one-player body for header tests.
var rec1 = rec(1, "A", "2000") + "\n"

func TestDateWarnings(t *testing.T) {
	for _, text := range []string{"yesterday", "2024/13/01", "30/02/2024", "26.11.30", "2024/12/01 - 2024/12/08", "Smarch 3, 2020", "31/31/2024"} {
		src := "012 x\n042 " + text + "\n052 " + text + "\n" + rec1
		f, err := Read(strings.NewReader(src), "w.trf")
		if err != nil {
			t.Fatalf("%q: a date is never an error: %v", text, err)
		}
		if !f.Start.IsZero() || !f.End.IsZero() || len(f.Warnings) != 2 {
			t.Fatalf("%q: start %v end %v warnings %v", text, f.Start, f.End, f.Warnings)
		}
		w := f.Warnings[0]
		if !errors.Is(w, ErrStartDate) || !errors.Is(f.Warnings[1], ErrEndDate) || w.Line != 2 || w.Column != 5 || !strings.HasPrefix(w.Error(), "w.trf:2:5: ") {
			t.Errorf("%q: %v, %v", text, w, f.Warnings[1])
		}
	}
}

// FuzzRead: no input makes the reader (or the standings on what it accepts) panic.
func FuzzRead(f *testing.F) {
	f.Add("012 x\n" + rec(1, "A", "2000", "2 w 1") + "\n" + rec(2, "B", "", "1 b 0"))
	f.Add(rec(1, "A", "", "0000 - U", "2 b +") + "\n" + rec(2, "B", "", "", "1 w -"))
	f.Add("XXR 3\n042 2025/01/01\n001    1")
	for _, d := range []string{"26/11/30", "2024-12-01", "2024.12.01", "28. 07. 2005", "01.08.2024", "Jun 26, 2020", "08/31/2024", "2024/13/45"} {
		f.Add("042 " + d + "\n052 " + d + "\n" + rec(1, "A", "2000", "2 w 1") + "\n" + rec(2, "B", "", "1 b 0"))
	}
	f.Fuzz(func(t *testing.T, src string) {
		tour, err := ReadTournament(strings.NewReader(src), "fuzz")
		if err != nil {
			return
		}
		_, _ = tiebreak.Standings(tour, []string{"BH/C1", "SB", "DE", "LJV", "TPR", "PTP", "FB", "AOB", "KS", "TURCAS"}, tiebreak.Options{})
	})
}
