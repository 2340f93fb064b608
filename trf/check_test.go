package trf

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

// at writes text into a record from column col on, blanks filling it.
func at(line string, col int, text string) string {
	rs := []rune(line)
	for len(rs) < col-1+len([]rune(text)) {
		rs = append(rs, ' ')
	}
	copy(rs[col-1:], []rune(text))
	return strings.TrimRight(string(rs), " ")
}

// pl is a 001 record with its points (81–84) and rank (86–89).
func pl(sno int, name, points, rank string, rounds ...string) string {
	return at(at(rec(sno, name, "", rounds...), 81, padLeft(points, 4)), 86, padLeft(rank, 4))
}

// head is the header every check needs (012, 022, 032, 102).
const head = "012 Club Open\n022 Cork\n032 IRL\n102 A. Arbiter\n"

// two is a clean two-player file: 1 beats 2.
var two = head + pl(1, "Alpha, A", "1.0", "1", "2 w 1") + "\n" + pl(2, "Beta, B", "0.0", "2", "1 b 0") + "\n"

// twoRounds is a clean two-round file: 1 beats 2, then they draw.
var twoRounds = head + pl(1, "Alpha, A", "1.5", "1", "2 w 1", "2 b =") + "\n" + pl(2, "Beta, B", "0.5", "2", "1 b 0", "1 w =") + "\n"

// byBH is a two-round Swiss of four: 1 beats 2 and 4; 2 beats 3, who beats
// 4. Players 2 and 3 have 1 point each, and 2 the better Buchholz (3 against
// 1); rank2 and rank3 are their ranks, tb the tie-break record (or "").
func byBH(rank2, rank3, tb string) string {
	if tb != "" {
		tb += "\n"
	}
	return head + tb + pl(1, "Alpha, A", "2.0", "1", "2 w 1", "4 b 1") + "\n" + pl(2, "Beta, B", "1.0", rank2, "1 b 0", "3 w 1") + "\n" +
		pl(3, "Gamma, C", "1.0", rank3, "4 w 1", "2 b 0") + "\n" + pl(4, "Delta, D", "0.0", "4", "3 b 0", "1 w 0") + "\n"
}

// four is a clean file of two two-board teams' players: 1 beats 4, 2 draws 3.
var four = head + pl(1, "Alpha, A", "1.0", "1", "4 w 1") + "\n" + pl(2, "Beta, B", "0.5", "2", "3 b =") + "\n" +
	pl(3, "Gamma, C", "0.5", "2", "2 w =") + "\n" + pl(4, "Delta, D", "0.0", "4", "1 b 0") + "\n"

// team310 is a TRF-2026 310 record: number, name, match and game points, players.
func team310(n int, name, mp, gp string, players ...int) string {
	s := at(at(at(at("310", 5, padLeft(itoa(n), 3)), 9, name), 55, padLeft(mp, 6)), 62, padLeft(gp, 6))
	for k, p := range players {
		s = at(s, 74+5*k, padLeft(itoa(p), 4))
	}
	return s
}

// latin1 is s in Latin-1: each character below U+0100 one byte.
func latin1(s string) string {
	var b []byte
	for _, r := range s {
		b = append(b, byte(r))
	}
	return string(b)
}

// codesOf are a file's findings as "CODE@line".
func codesOf(t *testing.T, src string, opt CheckOptions) []string {
	t.Helper()
	var out []string
	for _, f := range Check([]byte(src), "t.trf", opt) {
		out = append(out, f.Code+"@"+itoa(f.Line))
	}
	return out
}

// TestCheck: each check with the smallest file that trips it (the findings,
// exactly) and one that passes it (no finding of that code).
func TestCheck(t *testing.T) {
	list := CheckOptions{List: map[int64]ListPlayer{
		2500035: {Name: "Alpha, A", Federation: "IRL", BirthYear: 1990, Rating: 1800},
	}}
	p1, p2 := func(rounds ...string) string { return pl(1, "Alpha, A", "1.0", "1", rounds...) }, func(rounds ...string) string { return pl(2, "Beta, B", "0.0", "2", rounds...) }
	tests := []struct {
		name       string
		trip, pass string
		opt        CheckOptions
		want       []string // the trip file's findings
	}{
		{"clean", two, two, CheckOptions{}, nil},
		{"field", head + at(p1("2 w 1"), 49, "12a4") + "\n" + p2("1 b 0"), two, CheckOptions{}, []string{"TRF-FIELD@5"}},
		{"columns", head + at(p1("2 w 1"), 15, "Alphabetical-Longname, Alexander A") + "\n" + p2("1 b 0"), two, CheckOptions{}, []string{"TRF-COLUMNS@5"}},
		{"duplicate starting rank", head + p1("2 w 1") + "\n" + p2("1 b 0") + "\n" + pl(2, "Gamma, C", "0.0", "3"), two, CheckOptions{}, []string{"TRF-DUP-START@7"}},
		{"header", "012 Club Open\n022 Cork\n032 \n" + p1("2 w 1") + "\n" + p2("1 b 0"), two, CheckOptions{}, []string{"TRF-HEADER@1", "TRF-HEADER@3"}},
		{"counts", strings.Replace(two, "102", "062 3\n072 1\n102", 1), strings.Replace(two, "102", "062 2\n072 0\n102", 1), CheckOptions{}, []string{"TRF-COUNT@4", "TRF-COUNT@5"}},
		{"mirror: both win", head + p1("2 w 1") + "\n" + pl(2, "Beta, B", "1.0", "2", "1 b 1"), two, CheckOptions{}, []string{"TRF-MIRROR@5"}},
		{"mirror: same colour", head + p1("2 w 1") + "\n" + p2("1 w 0"), two, CheckOptions{}, []string{"TRF-MIRROR@5"}},
		{"mirror: a bye against a game", head + p1("2 w 1") + "\n" + p2("0000 - Z"), two, CheckOptions{}, []string{"TRF-MIRROR@5"}},
		{"mirror missing", head + p1("2 w 1") + "\n" + p2(), two, CheckOptions{}, []string{"TRF-MIRROR-MISSING@5"}},
		{"two games in a round", head + p1("2 w 1") + "\n" + pl(2, "Beta, B", "0.0", "2", "3 b 0") + "\n" + pl(3, "Gamma, C", "1.0", "1", "2 w 1"),
			head + p1("0000 - H") + "\n" + pl(2, "Beta, B", "0.0", "3", "3 b 0") + "\n" + pl(3, "Gamma, C", "1.0", "2", "2 w 1"), CheckOptions{}, []string{"TRF-DOUBLE@5"}},
		{"unknown opponent", head + p1("5 w 1") + "\n" + p2(), two, CheckOptions{}, []string{"TRF-OPPONENT@5"}},
		{"forfeit without colour", head + p1("2 - +") + "\n" + p2("1 - -"), head + p1("2 w +") + "\n" + p2("1 b -"), CheckOptions{}, []string{"TRF-COLOUR@5", "TRF-COLOUR@6"}},
		{"two pairing-allocated byes", head + p1("0000 - U") + "\n" + pl(2, "Beta, B", "1.0", "1", "0000 - U"), head + p1("0000 - U") + "\n" + pl(2, "Beta, B", "0.5", "2", "0000 - H"), CheckOptions{}, []string{"TRF-PAB@6"}},
		{"points", head + pl(1, "Alpha, A", "0.5", "1", "2 w 1") + "\n" + p2("1 b 0"), two, CheckOptions{}, []string{"TRF-POINTS@5"}},
		{"no points", head + pl(1, "Alpha, A", "", "1", "2 w 1") + "\n" + p2("1 b 0"), two, CheckOptions{}, []string{"TRF-NO-POINTS@5"}},
		{"bye from the points column", head + pl(1, "Alpha, A", "1.5", "1", "2 w 1", "0000 -  ") + "\n" + pl(2, "Beta, B", "1.0", "2", "1 b 0", "0000 - F"),
			head + pl(1, "Alpha, A", "1.5", "1", "2 w 1", "0000 - H") + "\n" + pl(2, "Beta, B", "1.0", "2", "1 b 0", "0000 - F"), CheckOptions{}, []string{"TRF-BYE-EMPTY@5"}},
		{"ranks against points", head + pl(1, "Alpha, A", "1.0", "2", "2 w 1") + "\n" + pl(2, "Beta, B", "0.0", "1", "1 b 0"), two, CheckOptions{}, []string{"TRF-RANK@5"}},
		{"ranks against the tie-breaks of 202", byBH("3", "2", "202 BH"), byBH("2", "3", "202 BH"), CheckOptions{}, []string{"TRF-RANK@7"}},
		{"ranks against the tie-breaks of 212", byBH("3", "2", "212 BH"), byBH("3", "2", ""), CheckOptions{}, []string{"TRF-RANK@7"}},
		{"tie-breaks not known", byBH("2", "3", "202 BH,XYZ"), byBH("2", "3", "202 BH,SB"), CheckOptions{}, []string{"TRF-RANK@6"}},
		{"no ranks", head + pl(1, "Alpha, A", "1.0", "", "2 w 1") + "\n" + pl(2, "Beta, B", "0.0", "", "1 b 0"),
			head + pl(1, "Alpha, A", "0.5", "1", "2 w =") + "\n" + pl(2, "Beta, B", "0.5", "1", "1 b ="), CheckOptions{}, []string{"TRF-RANK@5"}},
		{"duplicate FIDE id", head + at(p1("2 w 1"), 58, "    2500035") + "\n" + at(p2("1 b 0"), 58, "    2500035"), head + at(p1("2 w 1"), 58, "    2500035") + "\n" + at(p2("1 b 0"), 58, "    2500036"), CheckOptions{}, []string{"TRF-DUP-ID@6"}},
		{"duplicate name", head + p1("2 w 1") + "\n" + pl(2, "alpha,  A", "0.0", "2", "1 b 0"), two, CheckOptions{}, []string{"TRF-DUP-NAME@6"}},
		{"FIDE id 0", head + at(p1("2 w 1"), 58, "          0") + "\n" + p2("1 b 0"), two, CheckOptions{}, []string{"TRF-FIDE-ID@5"}},
		{"end before start", "042 2025/03/09\n052 2025/03/08\n" + two, "042 2025/03/08\n052 2025/03/09\n" + two, CheckOptions{}, []string{"TRF-DATES@2"}},
		{"round dates", "042 2025/03/08\n052 2025/03/09\n" + at("132", 92, "25/03/10") + "\n" + two, "042 2025/03/08\n052 2025/03/09\n" + at("132", 92, "25/03/08") + "\n" + two, CheckOptions{}, []string{"TRF-ROUND-DATE@3"}},
		{"round dates against rounds", "042 2025/03/08\n052 2025/03/09\n" + at("132", 92, "25/03/08  25/03/09") + "\n" + two, "042 2025/03/08\n052 2025/03/09\n" + at("132", 92, "25/03/08") + "\n" + two, CheckOptions{}, []string{"TRF-ROUND-DATE@3"}},
		{"round date not understood", at("132", 92, "25.13.02") + "\n" + two, two, CheckOptions{}, []string{"TRF-ROUND-DATE@1"}},
		{"start date not understood", "042 early June\n" + two, "042 2025/06/01\n" + two, CheckOptions{}, []string{"TRF-DATE@1"}},
		{"ambiguous date", "042 10.09.13\n" + two, "042 2013/09/10\n" + two, CheckOptions{}, []string{"TRF-DATE@1"}},
		{"more rounds than declared", "XXR 1\n" + twoRounds, "XXR 2\n" + twoRounds, CheckOptions{}, []string{"TRF-ROUNDS@1"}},
		{"fewer rounds than declared", "142 3\n" + two, "142 1\n" + two, CheckOptions{}, []string{"TRF-ROUNDS@1"}},
		{"team: unknown player", two + "013 Cork" + strings.Repeat(" ", 28) + "   1    9\n", two + "013 Cork" + strings.Repeat(" ", 28) + "   1    2\n", CheckOptions{}, []string{"TRF-TEAM@7"}},
		{"team: a player twice", two + "013 Cork" + strings.Repeat(" ", 28) + "   1\n013 Kerry" + strings.Repeat(" ", 27) + "   1    2\n",
			two + "013 Cork" + strings.Repeat(" ", 28) + "   1\n013 Kerry" + strings.Repeat(" ", 27) + "   2\n", CheckOptions{}, []string{"TRF-TEAM@8"}},
		{"team: team-mates paired", two + "013 Cork" + strings.Repeat(" ", 28) + "   1    2\n", two + "013 Cork" + strings.Repeat(" ", 28) + "   1\n013 Kerry" + strings.Repeat(" ", 27) + "   2\n",
			CheckOptions{}, []string{"TRF-TEAM-MATCH@5", "TRF-TEAM-MATCH@6"}},
		{"team: boards out of list order", four + "013 Cork" + strings.Repeat(" ", 28) + "   1    2\n013 Kerry" + strings.Repeat(" ", 27) + "   3    4\n",
			four + "013 Cork" + strings.Repeat(" ", 28) + "   1    2\n013 Kerry" + strings.Repeat(" ", 27) + "   4    3\n", CheckOptions{}, []string{"TRF-TEAM-BOARDS@5"}},
		{"team: 310 points", four + team310(1, "Cork", "2.0", "1.0", 1, 2) + "\n" + team310(2, "Kerry", "0.0", "1.0", 4, 3) + "\n",
			four + team310(1, "Cork", "2.0", "1.5", 1, 2) + "\n" + team310(2, "Kerry", "0.0", "0.5", 4, 3) + "\n", CheckOptions{}, []string{"TRF-TEAM-SCORE@9", "TRF-TEAM-SCORE@10"}},
		{"sex, title, federation, birth", head + at(at(at(at(p1("2 w 1"), 10, "x"), 11, " XM"), 54, "C.C"), 70, "1990-01-01") + "\n" + p2("1 b 0"),
			head + at(at(at(at(p1("2 w 1"), 10, "w"), 11, "WFM"), 54, "IRL"), 70, "1990/01/01") + "\n" + p2("1 b 0"), CheckOptions{}, []string{"TRF-SEX@5", "TRF-TITLE@5", "TRF-FED@5", "TRF-BIRTH@5"}},
		{"not UTF-8", latin1(head + pl(1, "Ó Alpha", "1.0", "1", "2 w 1") + "\n" + p2("1 b 0")), two, CheckOptions{}, []string{"TRF-ENCODING@5"}},
		{"paired, no result on either record", head + pl(1, "Alpha, A", "0.0", "1", "2 w Z") + "\n" + pl(2, "Beta, B", "0.0", "1", "1 b Z"), two, CheckOptions{}, []string{"TRF-NO-RESULT@5"}},
		{"FIDE list", head + at(at(at(at(p1("2 w 1"), 58, "    2500035"), 49, "1700"), 54, "ENG"), 70, "1991") + "\n" + at(p2("1 b 0"), 58, "    2500099"),
			head + at(at(at(at(p1("2 w 1"), 58, "    2500035"), 49, "1800"), 54, "IRL"), 70, "1990/05/05") + "\n" + p2("1 b 0"), list,
			[]string{"TRF-LIST-RATING@5", "TRF-LIST-FED@5", "TRF-LIST-BIRTH@5", "TRF-LIST-ID@6"}},
		{"FIDE list: name", head + at(p1("2 w 1"), 58, "    2500035") + "\n" + p2("1 b 0"), head + at(at(p1("2 w 1"), 15, "ALPHA,A "), 58, "    2500035") + "\n" + p2("1 b 0"),
			CheckOptions{List: map[int64]ListPlayer{2500035: {Name: "Alpha, Anne"}}}, []string{"TRF-LIST-NAME@5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := codesOf(t, tt.trip, tt.opt)
			want := slices.Clone(tt.want)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("trips %v, want %v", got, want)
				for _, f := range Check([]byte(tt.trip), "t.trf", tt.opt) {
					t.Logf("%v (fix: %s)", f, f.Fix)
				}
			}
			pass := tt.opt
			if tt.name == "FIDE list: name" {
				pass.List = map[int64]ListPlayer{2500035: {Name: "Alpha, A"}}
			}
			for _, c := range codesOf(t, tt.pass, pass) {
				for _, w := range tt.want {
					if strings.SplitN(c, "@", 2)[0] == strings.SplitN(w, "@", 2)[0] {
						t.Errorf("the passing file trips %s: %v", c, Check([]byte(tt.pass), "t.trf", pass))
					}
				}
			}
		})
	}
}

// TestCheckSeverities: what FIDE would refuse is an error, what is ambiguous a
// warning, how the file was read a note.
func TestCheckSeverities(t *testing.T) {
	src := "042 10.09.13\n" + head + pl(1, "Alpha, A", "0.5", "1", "2 w 1") + "\n" + pl(2, "Beta, B", "0.0", "2", "1 b 0", "0000 -  ") + "\n" + at(rec(3, "Gamma, C", ""), 10, "x") + "\n"
	want := map[string]Severity{"TRF-POINTS": Error, "TRF-NO-POINTS": Warning, "TRF-SEX": Warning, "TRF-DATE": Note}
	for _, f := range Check([]byte(src), "t.trf", CheckOptions{}) {
		if s, ok := want[f.Code]; ok && s != f.Severity {
			t.Errorf("%v: severity %v, want %v", f, f.Severity, s)
		}
		if f.Message == "" || f.Fix == "" || f.Line < 1 || f.Column < 1 {
			t.Errorf("%+v: a finding needs its line, column, message and fix", f)
		}
	}
}

// TestCheckRealFiles: the real files check clean but for what is really wrong
// in them, verified by hand (the byes as in TestRealFiles' comment):
//
// Irish Junior Championship 2011: six rounds are written `0000 -  ` (no result,
// a zero-point bye to TRF16) where the points column counts a bye: 4 R1 ½
// (3.0 over results 2.5), 14 R4 and R5 ½ each (2.0 over 1), 19 R1 1 (2.0 over
// 1), 24 R4 1 (2.0 over 1), 31 R5 1 (1.0 over 0); Hall's birth date is
// `    .  .` (line 44); the file is Windows-1252 (note, line 38, Morgan's
// Mícheál). Its points columns otherwise equal the results, its ranks follow
// the points, 062 34 and 072 31 are its counts (three players at 0000).
//
// Bunratty Masters 2011: 032 is empty (line 3); 132's round dates `11.25.02`
// read as no date (line 13, six rounds); byes in the points column only: 16 R4
// and R5, 18 R3, 19 R1, 25 R6, 34 R1, ½ each; 24's 0.5 is his results (no
// finding); Moynihan's federation is `C.C` (line 30).
//
// lichess layout: 5 rounds declared, 4 played (note); no ranks (lichess writes
// none); 3–7 in round 4 is `Z` on both records (note).
func TestCheckRealFiles(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"../testdata/trf-real/irish_junior_champs_2011.trf", []string{"TRF-BYE-EMPTY@18:92", "TRF-BYE-EMPTY@28:122", "TRF-BYE-EMPTY@28:132", "TRF-BYE-EMPTY@33:92",
			"TRF-ENCODING@38:24", "TRF-BYE-EMPTY@38:122", "TRF-BIRTH@44:70", "TRF-BYE-EMPTY@45:132"}},
		{"../testdata/trf-real/bunratty_masters_2011.trf", []string{"TRF-HEADER@3:5", "TRF-ROUND-DATE@13:92", "TRF-ROUND-DATE@13:102", "TRF-ROUND-DATE@13:112",
			"TRF-ROUND-DATE@13:122", "TRF-ROUND-DATE@13:132", "TRF-ROUND-DATE@13:142", "TRF-BYE-EMPTY@29:122", "TRF-BYE-EMPTY@29:132", "TRF-FED@30:54",
			"TRF-BYE-EMPTY@31:112", "TRF-BYE-EMPTY@32:92", "TRF-BYE-EMPTY@38:142", "TRF-BYE-EMPTY@47:92"}},
		{"testdata/lichess-shape.trf", []string{"TRF-ROUNDS@9:5", "TRF-RANK@11:86", "TRF-NO-RESULT@13:122"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range Check(data, tt.file, CheckOptions{}) {
				got = append(got, f.Code+"@"+itoa(f.Line)+":"+itoa(f.Column))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("findings\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestFix: --fix writes the points a player's results make and the missing
// mirrored record, and leaves every other byte as it was (Windows-1252, CRLF,
// trailing blanks); what it cannot settle (a contradiction) it leaves alone.
func TestFix(t *testing.T) {
	src := latin1(head + pl(1, "Ó Alpha", "0.5", "1", "2 w 1", "3 b =") + "  \r\n" +
		pl(2, "Beta, B", "0.0", "3", "1 b 0") + "\r\n" +
		pl(3, "Gamma, C", "0.0", "2") + "\r\n" +
		pl(4, "Delta, D", "2.0", "4", "0000 - F", "5 w 1") + "\r\n" +
		pl(5, "Eps, E", "1.0", "5", "0000 - Z", "4 w 0") + "\r\n")
	fixed, changes, err := Fix([]byte(src), "t.trf")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Code+"@"+itoa(c.Line)+":"+itoa(c.Column))
	}
	// 3's round 2 gets 1's mirror; 1 has 1.5, 3 has 0.5; 4 and 5 contradict
	// each other (both white): 5's points column (1.0, his results 0) stays.
	want := []string{"TRF-POINTS@5:81", "TRF-POINTS@7:81", "TRF-MIRROR-MISSING@7:102"}
	if !slices.Equal(got, want) {
		t.Fatalf("changes %q, want %q", got, want)
	}
	wantText := latin1(head + pl(1, "Ó Alpha", "1.5", "1", "2 w 1", "3 b =") + "  \r\n" +
		pl(2, "Beta, B", "0.0", "3", "1 b 0") + "\r\n" +
		pl(3, "Gamma, C", "0.5", "2", "", "1 w =") + "\r\n" +
		pl(4, "Delta, D", "2.0", "4", "0000 - F", "5 w 1") + "\r\n" +
		pl(5, "Eps, E", "1.0", "5", "0000 - Z", "4 w 0") + "\r\n")
	if string(fixed) != wantText {
		t.Errorf("fixed file\n%q\nwant\n%q", fixed, wantText)
	}
	var left []string
	for _, f := range Check(fixed, "t.trf", CheckOptions{}) {
		left = append(left, f.Code+"@"+itoa(f.Line))
	}
	if want := []string{"TRF-ENCODING@5", "TRF-RANK@8", "TRF-MIRROR@8", "TRF-POINTS@9"}; !slices.Equal(left, want) {
		t.Errorf("after the fix: %q, want %q", left, want)
	}
	// A file with nothing to fix comes back as it was.
	if same, ch, err := Fix([]byte(two), "t.trf"); err != nil || len(ch) != 0 || !bytes.Equal(same, []byte(two)) {
		t.Errorf("clean file: %d changes, %v", len(ch), err)
	}
}

// FuzzCheck: no input makes Check or Fix panic, every finding names a line of
// the file, and what Fix writes reads.
func FuzzCheck(f *testing.F) {
	f.Add(two)
	f.Add(head + pl(1, "A", "0.5", "1", "2 w 1", "0000 -  ") + "\n" + pl(2, "A", "", "", "1 w 1", "3 b 0") + "\n013 T" + strings.Repeat(" ", 31) + "   1    1    7\n")
	f.Add("042 10.09.13\n052 09.09.13\n" + at("132", 92, "13/09/10  xx") + "\nXXR 1\n062 5\n" + two)
	f.Add(byBH("3", "2", "202 BH/C1,SB,DE,WIN"))
	f.Add(byBH("2", "3", "212 ARO,TPR,XYZ"))
	for _, name := range []string{"../testdata/trf-real/irish_junior_champs_2011.trf", "../testdata/trf-real/bunratty_masters_2011.trf", "testdata/lichess-shape.trf"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := len(textLines([]byte(src)))
		for _, fd := range Check([]byte(src), "f.trf", CheckOptions{List: map[int64]ListPlayer{}}) {
			if fd.Line < 1 || fd.Line > max(lines, 1) || fd.Column < 1 || fd.Code == "" {
				t.Fatalf("finding %v outside the file's %d lines", fd, lines)
			}
		}
		fixed, _, err := Fix([]byte(src), "f.trf")
		if err != nil {
			return
		}
		if len(fixed) < len(src) {
			t.Fatalf("the fix lost bytes: %d < %d", len(fixed), len(src))
		}
		if _, err := Read(bytes.NewReader(fixed), "fixed.trf"); err != nil {
			t.Fatalf("the fixed file does not read: %v", err)
		}
	})
}

// TestFixByes: --fix writes the bye a blank round's points column implies when
// no other byes make the same points (one blank round; or F in each), and
// leaves two blank rounds worth one point (H and H, or F and Z) alone.
func TestFixByes(t *testing.T) {
	src := head +
		pl(1, "Alpha, A", "1.5", "1", "2 w 1", "0000 -  ", "3 w 0") + "\n" +
		pl(2, "Beta, B", "1.0", "3", "1 b 0", "0000 -  ", "0000 -  ") + "\n" +
		pl(3, "Gamma, C", "3.0", "2", "0000 -  ", "0000 -  ", "1 b 1") + "\n"
	fixed, changes, err := Fix([]byte(src), "t.trf")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Code+"@"+itoa(c.Line)+":"+itoa(c.Column))
	}
	if want := []string{"TRF-BYE-EMPTY@5:102", "TRF-BYE-EMPTY@7:92", "TRF-BYE-EMPTY@7:102"}; !slices.Equal(got, want) {
		t.Fatalf("changes %q, want %q", got, want)
	}
	want := head +
		pl(1, "Alpha, A", "1.5", "1", "2 w 1", "0000 - H", "3 w 0") + "\n" +
		pl(2, "Beta, B", "1.0", "3", "1 b 0", "0000 -  ", "0000 -  ") + "\n" +
		pl(3, "Gamma, C", "3.0", "2", "0000 - F", "0000 - F", "1 b 1") + "\n"
	if string(fixed) != want {
		t.Errorf("fixed\n%s\nwant\n%s", fixed, want)
	}
}
