package trf

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/tiebreak"
)

// recP is rec with the points column (81–84) filled.
func recP(sno int, name, points string, rounds ...string) string {
	rs := []rune(rec(sno, name, "", rounds...))
	for len(rs) < 84 {
		rs = append(rs, ' ')
	}
	copy(rs[80:84], []rune(padLeft(points, 4)))
	return strings.TrimRight(string(rs), " ")
}

// warningsOf are the file's warnings that wrap err.
func warningsOf(f *File, err error) []*SyntaxError {
	var ws []*SyntaxError
	for _, w := range f.Warnings {
		if errors.Is(w, err) {
			ws = append(ws, w)
		}
	}
	return ws
}

// TestEncoding: a Windows-1252 file reads as its UTF-8 twin does, columns in
// place (the rating after the name), with a note naming the first byte that is not
// UTF-8; every line ending and a BOM read the same.
func TestEncoding(t *testing.T) {
	utf := "012 Cork Open\n" + rec(1, "Ó Muireagáin, Colm", "1908", "2 w 1") + "\n" + rec(2, "Ní Mhuireagáin, Eibhia", "1752", "1 b 0") + "\n"
	want, err := Read(strings.NewReader(utf), "u.trf")
	if err != nil || len(want.Warnings) != 0 {
		t.Fatalf("%v %v", err, want.Warnings)
	}
	var cp []byte
	for _, r := range utf {
		cp = append(cp, byte(r)) // every character here is Latin-1: one byte each
	}
	for _, tt := range []struct {
		name string
		src  []byte
	}{
		{"Windows-1252", cp},
		{"Windows-1252 CRLF", bytes.ReplaceAll(cp, []byte("\n"), []byte("\r\n"))},
		{"Windows-1252 CR", toCR(cp)},
		{"Windows-1252 mixed", bytes.Replace(bytes.Replace(cp, []byte("\n"), []byte("\r"), 1), []byte("\n"), []byte("\r\n"), 1)},
		{"UTF-8 BOM CRLF", append([]byte("\ufeff"), bytes.ReplaceAll([]byte(utf), []byte("\n"), []byte("\r\n"))...)},
	} {
		got, err := Read(bytes.NewReader(tt.src), "u.trf")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !reflect.DeepEqual(got.Players, want.Players) || got.Name != want.Name {
			t.Errorf("%s: %+v\nwant %+v", tt.name, got.Players, want.Players)
		}
		notes := warningsOf(got, ErrNotUTF8)
		if strings.HasPrefix(tt.name, "UTF-8") {
			if len(got.Warnings) != 0 {
				t.Errorf("%s: %v", tt.name, got.Warnings)
			}
			continue
		}
		// Line 2, column 15: the Ó of the first name.
		if len(notes) != 1 || notes[0].Line != 2 || notes[0].Column != 15 {
			t.Errorf("%s: notes %v", tt.name, got.Warnings)
		}
	}
	if p := want.Players[0]; p.Name != "Ó Muireagáin, Colm" || p.Rating != 1908 {
		t.Errorf("%+v", p)
	}
}

// TestByeCodes: the byes TRF writers in use write without an opponent.
//
//	R1: 1 `0000 - =` (½), 2 `0000 - +` (1), 3 `0000 - -` (0), 4 `0000 - H` (½);
//	R2: 1–2 1-0, 3–4 ½-½.  Points: 1 1½, 2 1, 3 ½, 4 1.
func TestByeCodes(t *testing.T) {
	src := rec(1, "A", "", "0000 - =", "2 w 1") + "\n" + rec(2, "B", "", "0000 - +", "1 b 0") + "\n" +
		rec(3, "C", "", "0000 - -", "4 w =") + "\n" + rec(4, "D", "", "0000 - H", "3 b =") + "\n"
	f, err := Read(strings.NewReader(src), "b.trf")
	if err != nil {
		t.Fatal(err)
	}
	var codes []byte
	for _, p := range f.Players {
		codes = append(codes, p.Rounds[0].Result)
	}
	if string(codes) != "HFZH" {
		t.Errorf("round 1 codes %q, want HFZH", codes)
	}
	points, _ := standings(t, src)
	if !reflect.DeepEqual(points[1:], []float64{1.5, 1, 0.5, 1}) {
		t.Errorf("points %v", points[1:])
	}
}

// TestEmptyResults: a round without opponent and result is the bye the points
// column implies.
func TestEmptyResults(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		codes map[int]string // starting rank → round codes after reading
		notes int
	}{
		{
			// 3's round 1 is `0000 -  ` (Irish layout): points 1.5 = ½ + his R2 win.
			// 2's round 2 likewise, but his points 1 are his R1 win: a zero-point bye.
			name: "half-point bye, Irish layout",
			src: recP(1, "A", "0.0", "2 w 0", "3 b 0") + "\n" +
				recP(2, "B", "1.0", "1 b 1", "0000 -  ") + "\n" +
				recP(3, "C", "1.5", "0000 -  ", "1 w 1") + "\n",
			codes: map[int]string{2: "1", 3: "H1"},
			notes: 1,
		},
		{
			// 3's round 1 written `     -   ` (no opponent number): points 2 = 1 + 1.
			name: "full-point bye, Swiss layout",
			src: recP(1, "A", "0.0", "2 w 0", "3 b 0") + "\n" +
				recP(2, "B", "1.0", "1 b 1") + "\n" +
				recP(3, "C", "2.0", "     -  ", "1 w 1") + "\n",
			codes: map[int]string{3: "F1"},
			notes: 1,
		},
		{
			// 2's record stops after round 1: rounds 2 and 3 missing, points 2 = 1 + ½ + ½.
			name: "missing rounds, two half-point byes",
			src: recP(1, "A", "0.0", "2 w 0", "3 b 0", "3 w 0") + "\n" +
				recP(2, "B", "2.0", "1 b 1") + "\n" +
				recP(3, "C", "2.0", "", "1 w 1", "1 b 1") + "\n",
			codes: map[int]string{2: "1HH", 3: "Z11"},
			notes: 1,
		},
		{
			// Points 1.5 over two empty rounds: a full-point and a half-point bye.
			name: "unequal split, the larger first",
			src: recP(1, "A", "1.5", "0000 -  ", "0000 -  ", "2 w 0") + "\n" +
				recP(2, "B", "1.0", "", "", "1 b 1") + "\n",
			codes: map[int]string{1: "FH0", 2: "ZZ1"},
			notes: 1, // 2's points column is his result: zero-point byes, no note
		},
		{
			name:  "no points column: zero-point byes, noted",
			src:   rec(1, "A", "", "2 w 1", "0000 -  ") + "\n" + rec(2, "B", "", "1 b 0", "0000 - U") + "\n",
			codes: map[int]string{1: "1"},
			notes: 1,
		},
		{
			// Points 0.5 but the results already score 1: nothing implies a bye.
			name:  "points column below the results",
			src:   recP(1, "A", "0.5", "2 w 1", "0000 -  ") + "\n" + recP(2, "B", "1.0", "1 b 0", "0000 - U") + "\n",
			codes: map[int]string{1: "1"},
			notes: 1,
		},
		{
			// A 240 bye fills the blank round first: the points column no longer decides.
			name:  "a 240 bye",
			src:   "240 H   2    1\n" + recP(1, "A", "2.0", "2 w 1", "0000 -  ") + "\n" + recP(2, "B", "1.0", "1 b 0", "0000 - U") + "\n",
			codes: map[int]string{1: "1H"},
			notes: 0,
		},
		{
			// 2's round 2 is blank, but 1's record pairs him there: his game, not a bye.
			name:  "a round the opponent's record claims",
			src:   recP(1, "A", "2.0", "2 w 1", "2 b 1") + "\n" + recP(2, "B", "0.0", "1 b 0") + "\n",
			codes: map[int]string{2: "0"},
			notes: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Read(strings.NewReader(tt.src), "e.trf")
			if err != nil {
				t.Fatal(err)
			}
			for sno, want := range tt.codes {
				var got []byte
				for _, rd := range f.player(sno).Rounds {
					got = append(got, rd.Result)
				}
				if string(got) != want {
					t.Errorf("player %d: %q, want %q", sno, got, want)
				}
			}
			notes := warningsOf(f, ErrEmptyResult)
			if len(notes) != tt.notes {
				t.Errorf("notes %v, want %d", notes, tt.notes)
			}
			for _, n := range notes {
				if n.Line < 1 || n.Line > len(f.Players) || !strings.HasPrefix(n.Error(), "e.trf:") {
					t.Errorf("note %v does not name a player's line", n)
				}
			}
			if _, err := f.Tournament(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestAmbiguousDates: two-digit dates with dots or dashes fit YY.MM.DD and
// DD.MM.YY; the file's other dates settle them, and a note says how.
func TestAmbiguousDates(t *testing.T) {
	round132 := func(dates ...string) string {
		return "132" + strings.Repeat(" ", 88) + strings.Join(dates, "  ") + "\n"
	}
	tests := []struct {
		name, header string
		start, end   string
		notes        int
		why          string
	}{
		{"YY.MM.DD by the round dates", "042 10.09.13\n052 10.09.14\n" + round132("10/09/13", "10/09/14"), "2010-09-13", "2010-09-14", 2, "round dates"},
		{"DD.MM.YY by the round dates", "042 10.09.13\n052 11.09.13\n" + round132("13/09/10", "13/09/11"), "2013-09-10", "2013-09-11", 2, "round dates"},
		{"YY.MM.DD by the span", "042 10.09.13\n052 10.09.21\n", "2010-09-13", "2010-09-21", 2, "closest together"},
		{"DD.MM.YY by the span", "042 13.09.10\n052 21.09.10\n", "2010-09-13", "2010-09-21", 2, "closest together"},
		{"DD-MM-YY by the end date", "042 10-09-13\n052 2013-09-12\n", "2013-09-10", "2013-09-12", 1, "end date"},
		{"nothing settles it", "042 10.09.13\n", "2010-09-13", "0001-01-01", 1, "nothing in the file"},
		{"nothing settles two", "042 10.09.13\n052 10.09.13\n", "2010-09-13", "2010-09-13", 2, "nothing in the file"},
		{"a writer's one form for both", "042 25.09.13\n052 27.09.13\n", "2013-09-25", "2013-09-27", 2, "closest together"},
		{"YY/MM/DD is TRF's own form", "042 13/09/10\n", "2013-09-10", "0001-01-01", 0, ""},
		{"no 042: the round dates", "052 2013-09-11\n" + round132("13/09/10", "13/09/11"), "2013-09-10", "2013-09-11", 1, "first round date"},
		{"four-digit years are never ambiguous", "042 10.09.2013\n052 2013/09/11\n", "2013-09-10", "2013-09-11", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Read(strings.NewReader("012 d\n"+tt.header+rec1), "d.trf")
			if err != nil {
				t.Fatal(err)
			}
			notes := warningsOf(f, ErrAmbiguousDate)
			if got := f.Start.Format("2006-01-02") + " " + f.End.Format("2006-01-02"); got != tt.start+" "+tt.end || len(notes) != tt.notes || len(f.Warnings) != tt.notes {
				t.Fatalf("dates %s, notes %v; want %s %s and %d notes", got, f.Warnings, tt.start, tt.end, tt.notes)
			}
			for _, n := range notes {
				if !strings.Contains(n.Error(), tt.why) || !strings.HasPrefix(n.Error(), "d.trf:") {
					t.Errorf("note %q does not say %q", n, tt.why)
				}
			}
		})
	}
}

// TestMirror: the two records of one pairing must agree; an error names both
// lines.
func TestMirror(t *testing.T) {
	tests := []struct {
		name, a, b string
		why        string
	}{
		{"both claim the win", "2 w 1", "1 b 1", "both claim the win"},
		{"forfeit wins both", "2 w +", "1 b +", "both claim the win"},
		{"a draw against a loss", "2 w =", "1 b 0", "do not mirror"},
		{"same colour", "2 w 1", "1 w 0", "same colour"},
		{"played against forfeit", "2 w 1", "1 b -", "one played"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "012 m\n" + rec(1, "A", "", tt.a) + "\n" + rec(2, "B", "", tt.b) + "\n"
			_, err := ReadTournament(strings.NewReader(src), "m.trf")
			var se *SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, ErrPairing) || se.Line != 2 || !strings.Contains(err.Error(), "m.trf:3") || !strings.Contains(err.Error(), tt.why) {
				t.Errorf("got %v, want m.trf:2 naming m.trf:3 and %q", err, tt.why)
			}
		})
	}
	// Records that agree, a double forfeit and a double loss among them.
	for _, pair := range [][2]string{{"2 w 1", "1 b 0"}, {"2 w -", "1 b -"}, {"2 w 0", "1 b 0"}, {"2 - +", "1 - -"}, {"2 w W", "1 b L"}, {"2 w =", "1 b ="}} {
		src := rec(1, "A", "", pair[0]) + "\n" + rec(2, "B", "", pair[1]) + "\n"
		if _, err := ReadTournament(strings.NewReader(src), "m.trf"); err != nil {
			t.Errorf("%v: %v", pair, err)
		}
	}
	// The opponent's record pointing elsewhere names its line too.
	src := rec(1, "A", "", "2 w 1") + "\n" + rec(2, "B", "", "3 b 0") + "\n" + rec(3, "C", "", "2 w 1") + "\n"
	if _, err := ReadTournament(strings.NewReader(src), "m.trf"); !errors.Is(err, ErrPairing) || !strings.HasPrefix(err.Error(), "m.trf:1:") || !strings.Contains(err.Error(), "(m.trf:2)") {
		t.Errorf("pointing elsewhere: %v", err)
	}
}

// TestPairedAbsent: lichess writes `62 b Z` for a player paired who did not turn
// up; his opponent's record decides the game (a forfeit win), or, Z on both
// sides, there is none.
func TestPairedAbsent(t *testing.T) {
	src := rec(1, "A", "", "2 b Z", "3 w 1") + "\n" + rec(2, "B", "", "1 w +") + "\n" + rec(3, "C", "", "4 b Z", "1 b 0") + "\n" + rec(4, "D", "", "3 w Z") + "\n"
	tour, err := ReadTournament(strings.NewReader(src), "z.trf")
	if err != nil {
		t.Fatal(err)
	}
	var round1 []tiebreak.Game
	for _, g := range tour.Games {
		if g.Round == 1 {
			round1 = append(round1, g)
		}
	}
	if len(round1) != 1 || round1[0].White != 1 || round1[0].Black != 0 || round1[0].WhiteResult != '+' || round1[0].BlackResult != '-' {
		t.Errorf("round 1 %+v, want 2–1 +/-, and no game 3–4", round1)
	}
}

// TestTeams: 013 (TRF16) and 310 (TRF-2026) team records give each player his team
// and board; a record that does not read is noted and left out, the games read.
func TestTeams(t *testing.T) {
	body := ""
	for _, sno := range []int{1, 2, 3, 4, 5, 1000, 1001} {
		body += rec(sno, "P"+itoa(sno), "") + "\n"
	}
	name32 := "Cumann Fichille Bhaile Átha Clia" // 32 characters, 33 bytes
	// The name fills columns 5–36 and runs into starting rank 1000 without a
	// blank; board 2 of the second team is empty; the third record does not read.
	trf16 := "013 " + name32 + "1000 1001\n" +
		"013 " + padRight("Ó Team", 32) + "   4         5\n" +
		"013 " + padRight("Bad", 32) + "   x\n"
	f, err := Read(strings.NewReader(trf16+body), "t.trf")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Teams) != 2 || f.Teams[0].Name != name32 || f.Teams[1].Name != "Ó Team" || f.Teams[1].Number != 2 {
		t.Fatalf("teams %+v", f.Teams)
	}
	if p := f.player(5); p.Team != 2 || p.Board != 3 || f.player(1001).Team != 1 || f.player(1001).Board != 2 || f.player(1).Team != 0 {
		t.Errorf("players %+v", f.Players)
	}
	if w := warningsOf(f, ErrTeam); len(w) != 1 || w[0].Line != 3 {
		t.Errorf("warnings %v", f.Warnings)
	}
	// Numbers out of their columns after a name longer than 32 characters.
	f, err = Read(strings.NewReader("013 "+name32+"XYZ 1 2 5\n"+body), "t.trf")
	if err != nil || len(f.Teams) != 1 || f.Teams[0].Name != name32+"XYZ" || f.player(5).Board != 3 {
		t.Errorf("loose 013: %v %+v", err, f.Teams)
	}
	// 310: number in 5–7, name in 9–40, starting ranks from column 74.
	trf26 := "310   7 " + padRight("Seven", 32) + strings.Repeat(" ", 33) + "   3    2\n"
	f, err = Read(strings.NewReader(trf26+body), "t.trf")
	if err != nil || len(f.Teams) != 1 || f.Teams[0].Number != 7 || f.Teams[0].Name != "Seven" || f.player(2).Team != 7 || f.player(2).Board != 2 {
		t.Errorf("310: %v %+v %+v", err, f.Teams, f.Players)
	}
	// The individual games read as without the team records.
	games := rec(1, "A", "", "2 w 1") + "\n" + rec(2, "B", "", "1 b 0") + "\n"
	with, err1 := ReadTournament(strings.NewReader("013 "+padRight("T", 32)+"   1    2\n"+games), "t.trf")
	without, err2 := ReadTournament(strings.NewReader(games), "t.trf")
	if err1 != nil || err2 != nil || !reflect.DeepEqual(with.Games, without.Games) {
		t.Errorf("games with teams %v %v", err1, err2)
	}
}

func padRight(s string, n int) string { return s + strings.Repeat(" ", max(0, n-len([]rune(s)))) }
