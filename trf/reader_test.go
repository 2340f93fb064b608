package trf

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

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
	fh, err := os.Open("../tiebreak/testdata/swiss6.trf")
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
	// Three players, one rest round each (blank = Z): every pair met once.
	single := rec(1, "A", "2100", "2 w 1", "3 b =") + "\n" +
		rec(2, "B", "1900", "1 b 0", "", "3 w 1") + "\n" +
		rec(3, "C", "2000", "", "1 w =", "2 b 0") + "\n"
	// Four players twice over, the second cycle with a forfeit.
	double := rec(1, "A", "", "2 w 1", "3 w 1", "4 w 1", "2 b 1", "3 b 1", "4 b +") + "\n" +
		rec(2, "B", "", "1 b 0", "4 w 1", "3 w 1", "1 w 0", "4 b 1", "3 b 1") + "\n" +
		rec(3, "C", "", "4 w 1", "1 b 0", "2 b 0", "4 b 1", "1 w 0", "2 w 0") + "\n" +
		rec(4, "D", "", "3 b 0", "2 b 0", "1 b 0", "3 w 0", "2 w 0", "1 w -") + "\n"
	// Five players, a rest round written as a pairing-allocated bye.
	odd := rec(1, "A", "", "0000 - U", "2 w =", "3 b 1", "4 w 1", "5 b 0") + "\n" +
		rec(2, "B", "", "5 w -", "1 b =", "0000 - U", "3 w =", "4 b =") + "\n" +
		rec(3, "C", "", "4 w =", "5 b 1", "1 w 0", "2 b =", "0000 - U") + "\n" +
		rec(4, "D", "", "3 b =", "0000 - U", "5 w -", "1 b 0", "2 w =") + "\n" +
		rec(5, "E", "", "2 b +", "3 w 0", "4 b +", "0000 - U", "1 w 1") + "\n"
	// Four players, three rounds, 1–2 met twice and 3–4 never: a Swiss.
	swiss := rec(1, "A", "", "2 w 1", "2 b 1") + "\n" + rec(2, "B", "", "1 b 0", "1 w 0") + "\n" +
		rec(3, "C", "", "0000 - H") + "\n" + rec(4, "D", "", "0000 - H") + "\n"
	// A double round robin missing its last game is not "equally often".
	unequal := strings.Replace(strings.Replace(double, "     4 b +", "", 1), "     1 w -", "", 1)
	tests := []struct {
		name, header, body, want string
	}{
		{"single, odd, blank rest rounds", "", single, "round-robin"},
		{"double with a forfeit", "", double, "round-robin"},
		{"odd with U rest rounds", "", odd, "round-robin"},
		{"free-text 092", "092 Tournament\n", odd, "round-robin"},
		{"free-text 092, Swiss pairings", "092 Tournament\n", swiss, "swiss"},
		{"not every pair equally often", "", unequal, "swiss"},
		{"092 names Swiss", "092 Individual: Swiss-System\n", single, "swiss"},
		{"192 names Swiss", "192 FIDE_DUTCH_2026\n", double, "swiss"},
		{"092 names round robin", "092 Rundenturnier\n", swiss, "round-robin"},
		{"192 names round robin", "192 FIDE_DOUBLEROUNDROBIN\n", swiss, "round-robin"},
		{"192 wins over 092", "092 Swiss\n192 FIDE_ROUNDROBIN\n", swiss, "round-robin"},
		{"192 names neither, 092 decides", "192 CUSTOM\n092 Berger\n", swiss, "round-robin"},
		{"one player", "", rec(1, "A", "", "0000 - U") + "\n", "swiss"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tour, err := ReadTournament(strings.NewReader("012 rr\n"+tt.header+tt.body), "rr.trf")
			if err != nil {
				t.Fatal(err)
			}
			if tour.System != tt.want {
				t.Errorf("system %q, want %q", tour.System, tt.want)
			}
		})
	}
}

// TestReference reads the tournaments made by FIDE's tie-break reference program
// (TRF-2026 records, YY/MM/DD dates, 092 "Tournament") as they are: t_0111–t_0118
// are round robins (single, double, odd fields with a rest round), the rest Swiss.
func TestReference(t *testing.T) {
	files, err := filepath.Glob("../testdata/tiebreak-reference/*.trf")
	if err != nil || len(files) != 20 {
		t.Fatalf("%d files: %v", len(files), err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Read(bytes.NewReader(src), name)
		if err != nil {
			t.Fatal(err)
		}
		tour, err := f.Tournament()
		if err != nil {
			t.Fatal(err)
		}
		want := "swiss"
		if n := filepath.Base(name); n >= "t_0111" && n < "t_0119" {
			want = "round-robin"
		}
		if tour.System != want || f.Start.Format("2006-01-02") != "2026-12-01" || f.Rounds == 0 || tour.Rounds != f.Rounds || len(f.Warnings) != 0 {
			t.Errorf("%s: system %s start %v rounds %d/%d warnings %v", name, tour.System, f.Start, f.Rounds, tour.Rounds, f.Warnings)
		}
		// A CR-only copy reads the same.
		cr, err := Read(bytes.NewReader(toCR(src)), name)
		if err != nil || !reflect.DeepEqual(cr, f) {
			t.Errorf("%s: CR-only copy reads differently (%v)", name, err)
		}
	}
}

// toCR converts LF and CRLF line endings to CR alone.
func toCR(b []byte) []byte {
	return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r"))
}

func TestLineEndings(t *testing.T) {
	lines := []string{"012 t", rec(1, "A", "2000", "2 w 1"), "", rec(2, "B", "", "1 b 0"), "XXR 1"}
	want, err := Read(strings.NewReader(strings.Join(lines, "\n")), "e.trf")
	if err != nil {
		t.Fatal(err)
	}
	for _, eol := range []string{"\r\n", "\r", "\n"} {
		for _, final := range []string{"", eol} {
			src := strings.Join(lines, eol) + final
			// One byte at a time, so a CR ends the buffer before its LF arrives.
			got, err := Read(iotest.OneByteReader(strings.NewReader(src)), "e.trf")
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%q ending, final %q: %v\n%+v\nwant %+v", eol, final, err, got, want)
			}
		}
	}
	// Line numbers count CR-only lines.
	_, err = Read(strings.NewReader("012 t\r\r001    x"), "e.trf")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 3 {
		t.Errorf("CR-only line number: %v", err)
	}
}

func TestPointSystems(t *testing.T) {
	body := rec(1, "A", "", "2 w 1") + "\n" + rec(2, "B", "", "1 b 0") + "\n"
	std := tiebreak.StandardPoints()
	football := tiebreak.PointSystem{Win: 6, Draw: 2, ForfeitWin: 6, FullBye: 6, HalfBye: 2, PAB: 2}
	ok := []struct {
		header string
		want   *tiebreak.PointSystem
	}{
		{"162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0    X 0.5", &std},
		{"162  W 1.0", &std},
		{"162  X 0.0", &std}, // unknown results: none in a TRF round
		{"XXS WW=1 BW=1 WD=0.5 BD=0.5 WL=0 BL=0 ZPB=0 HPB=0.5 FPB=1 PAB=1 FW=1 FL=0 W=1 D=0.5", &std},
		{"xxs W=1.0 D=0,5", &std},
		{"162", &std},
		{"012 no point system", nil},
		// A win's points go to forfeit wins and full-point byes, a draw's to
		// half-point byes, in the order written.
		{"162  W 3.0    D 1.0    L 0.0    A 0.0    P 1.0", &football},
		{"XXS W=3 D=1 PAB=1", &football},
		{"XXS W=3 D=1 PAB=1 FW=1.5", &tiebreak.PointSystem{Win: 6, Draw: 2, ForfeitWin: 3, FullBye: 6, HalfBye: 2, PAB: 2}},
		{"XXS WW=2 BW=2 ZPB=-1", &tiebreak.PointSystem{Win: 4, Draw: 1, ForfeitWin: 2, FullBye: 2, HalfBye: 1, PAB: 2, ZeroBye: -2}},
	}
	for _, tt := range ok {
		f, err := Read(strings.NewReader(tt.header+"\n"+body), "p.trf")
		if err != nil {
			t.Errorf("%q: %v", tt.header, err)
			continue
		}
		if !reflect.DeepEqual(f.Points, tt.want) {
			t.Errorf("%q: points %+v, want %+v", tt.header, f.Points, tt.want)
		}
	}
	bad := []struct {
		header   string
		col      int
		sentinel error
	}{
		{"162  W 1.25", 8, ErrPoints},          // not a whole or half point
		{"XXS WW=3 BW=2.5", 13, ErrPoints},     // a win scored by colour
		{"XXS BD=1 W=3 WD=0.5", 17, ErrPoints}, // a draw scored by colour
		{"XXS WW=1 Q=2", 10, ErrField},
		{"162  W 1.0  D half", 13, ErrField},
	}
	for _, tt := range bad {
		_, err := ReadTournament(strings.NewReader(tt.header+"\n"+body), "p.trf")
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, tt.sentinel) || se.Line != 1 || se.Column != tt.col {
			t.Errorf("%q: got %v, want 1:%d %v", tt.header, err, tt.col, tt.sentinel)
		}
	}
}

// standings reads a TRF file and ranks it by PTS and codes under fide2023; the
// points and each code's values come back by starting rank (1-based).
func standings(t *testing.T, src string, codes ...string) (points []float64, values map[string][]string) {
	t.Helper()
	tour, err := ReadTournament(strings.NewReader(src), "s.trf")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := tiebreak.Standings(tour, codes, tiebreak.Options{Unplayed: tiebreak.Fide2023})
	if err != nil {
		t.Fatal(err)
	}
	points = make([]float64, len(rows)+1)
	values = map[string][]string{}
	for _, c := range codes {
		values[c] = make([]string, len(rows)+1)
	}
	for _, r := range rows {
		points[r.Player.StartNo] = r.Points
		for k, c := range codes {
			values[c][r.Player.StartNo] = tiebreak.FormatValue(r.Values[k])
		}
	}
	return points, values
}

// TestHalfPointPAB: XXS gives the pairing-allocated bye ½ point.
//
//	R1 1–2 1-0, 3 U;  R2 1–3 =, 2 U.  Points 1 1½, 2 ½, 3 1 (1 2, 2 1, 3 1½ with PAB 1).
//	BH 3 (fide2023): his own PAB round is a dummy with his score 1, plus 1's 1½ = 2½.
//	WIN 3: 0, the PAB is not worth a win.
func TestHalfPointPAB(t *testing.T) {
	src := "XXS PAB=0.5\n" +
		rec(1, "A", "", "2 w 1", "3 b =") + "\n" +
		rec(2, "B", "", "1 b 0", "0000 - U") + "\n" +
		rec(3, "C", "", "0000 - U", "1 w =") + "\n"
	points, v := standings(t, src, "BH", "WIN")
	if !reflect.DeepEqual(points[1:], []float64{1.5, 0.5, 1}) {
		t.Errorf("points %v, want 1.5 0.5 1", points[1:])
	}
	if v["BH"][3] != "2.5" || v["WIN"][3] != "0" {
		t.Errorf("player 3: BH %s WIN %s, want 2.5 and 0", v["BH"][3], v["WIN"][3])
	}
}

// TestFootballTRF is a 3–1–0 round robin (the tiebreak package works the same one by
// hand): R1 1–2 1-0, 3–4 =; R2 1–3 =, 2–4 1-0; R3 1–4 0-1, 2–3 1-0.
// Points 4 6 2 4; BH 12 10 14 12; SB 20 18 8 14.
func TestFootballTRF(t *testing.T) {
	src := "162  W 3.0    D 1.0    L 0.0\n" +
		rec(1, "A", "", "2 w 1", "3 w =", "4 b 0") + "\n" +
		rec(2, "B", "", "1 b 0", "4 w 1", "3 w 1") + "\n" +
		rec(3, "C", "", "4 w =", "1 b =", "2 b 0") + "\n" +
		rec(4, "D", "", "3 b =", "2 b 0", "1 w 1") + "\n"
	points, v := standings(t, src, "BH", "SB")
	if !reflect.DeepEqual(points[1:], []float64{4, 6, 2, 4}) {
		t.Errorf("points %v", points[1:])
	}
	if !reflect.DeepEqual(v["BH"][1:], []string{"12", "10", "14", "12"}) || !reflect.DeepEqual(v["SB"][1:], []string{"20", "18", "8", "14"}) {
		t.Errorf("BH %v SB %v", v["BH"][1:], v["SB"][1:])
	}
}

func TestRoundsRecords(t *testing.T) {
	body := rec(1, "A", "", "2 w 1") + "\n" + rec(2, "B", "", "1 b 0") + "\n"
	for _, h := range []string{"142 5", "XXR 5", "142   5  "} {
		tour, err := ReadTournament(strings.NewReader(h+"\n"+body), "r.trf")
		if err != nil || tour.Rounds != 5 {
			t.Errorf("%q: %v", h, err)
		}
	}
	_, err := ReadTournament(strings.NewReader("142 five\n"+body), "r.trf")
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 1 || se.Column != 5 || !errors.Is(err, ErrField) {
		t.Errorf("bad 142: %v", err)
	}
	// Records that change no number are ignored, whatever they hold.
	src := "152 B\n202 EDET/P,BH/C1\n132 whenever\n250 nonsense\n260 1 2 3\n801 x\nZZZ ?\n062 many\n" + body
	if _, err := ReadTournament(strings.NewReader(src), "r.trf"); err != nil {
		t.Errorf("irrelevant records: %v", err)
	}
}

func TestRoundByes(t *testing.T) {
	// Three rounds played; player 3's records leave rounds 2 and 3 empty.
	body := rec(1, "A", "", "2 w 1", "2 b =", "0000 - U") + "\n" +
		rec(2, "B", "", "1 b 0", "1 w =", "0000 - Z") + "\n" +
		rec(3, "C", "", "0000 - H") + "\n"
	// A bye fills a round the 001 record leaves empty or marks Z (as a blank reads).
	f, err := Read(strings.NewReader("240 H   2    3\n240 F   3    3\n240 Z   3    2\n240 H   1    3\n240 F   7    1    2\n"+body), "b.trf")
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Players[2].Rounds; len(r) != 3 || r[0].Result != 'H' || r[1].Result != 'H' || r[2].Result != 'F' || r[2].Opp != 0 {
		t.Errorf("player 3: %+v", r)
	}
	if r := f.Players[1].Rounds; len(r) != 3 || r[2].Result != 'Z' {
		t.Errorf("player 2 (round 7 is not played yet): %+v", r)
	}
	bad := []struct {
		rec      string
		col      int
		sentinel error
	}{
		{"240 H   1    1", 11, ErrPairing}, // player 1 played round 1
		{"240 F   1    3", 11, ErrPairing}, // player 3 has H, not F, in round 1
		{"240 H   2    3    9", 16, ErrUnknownOpponent},
		{"240 Q   2    3", 5, ErrField},
		{"240 H   x    3", 7, ErrField},
	}
	for _, tt := range bad {
		_, err := Read(strings.NewReader(body+tt.rec+"\n"), "b.trf")
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, tt.sentinel) || se.Line != 4 || se.Column != tt.col {
			t.Errorf("%q: got %v, want 4:%d %v", tt.rec, err, tt.col, tt.sentinel)
		}
	}
}

func TestAbnormalPoints(t *testing.T) {
	// Round 1: 1 beat 2; round 2: 3 beat 1 unrated (W/L); round 2: 2 absent.
	body := rec(1, "A", "", "2 w 1", "3 b L") + "\n" + rec(2, "B", "", "1 b 0") + "\n" + rec(3, "C", "", "", "1 w W") + "\n"
	// Both lost round 1 (double loss), 3's round-2 win is scored a loss too, 2 got a
	// full-point bye in round 2, and a zero bonus changes nothing.
	src := body + "299 L        0.0    1    1\n299 L        0.0    2    3\n299 F        1.0    2    2\n299          0.0    1    1    2\n"
	f, err := Read(strings.NewReader(src), "a.trf")
	if err != nil {
		t.Fatal(err)
	}
	p := f.Players
	if p[0].Rounds[0].Result != '0' || p[1].Rounds[0].Result != '0' || p[2].Rounds[1].Result != 'L' || p[1].Rounds[1].Result != 'F' || len(f.Adjustments) != 0 {
		t.Errorf("rounds %+v %+v %+v, adjustments %v", p[0].Rounds, p[1].Rounds, p[2].Rounds, f.Adjustments)
	}
	if _, err := f.Tournament(); err != nil {
		t.Errorf("double loss: %v", err)
	}
	bad := []struct {
		rec      string
		col      int
		sentinel error
	}{
		{"299 H        0.5    1    1", 24, ErrPoints},  // a bye in a round with an opponent
		{"299 W        1.0         1", 24, ErrPoints},  // a result in no round
		{"299          -0.5    4    1", 24, ErrPoints}, // a round after the last
		{"299          0.3    1    1", 14, ErrPoints},  // not a whole or half point
		{"299 W        1.0    1    7", 24, ErrUnknownOpponent},
		{"299          -1.0    1    7", 24, ErrUnknownOpponent},
		{"299 Q        1.0    1    1", 5, ErrField},
		{"299 W        one    1    1", 14, ErrField},
	}
	for _, tt := range bad {
		_, err := Read(strings.NewReader(body+tt.rec+"\n"), "a.trf")
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, tt.sentinel) || se.Line != 4 || se.Column != tt.col {
			t.Errorf("%q: got %v, want 4:%d %v", tt.rec, err, tt.col, tt.sentinel)
		}
	}
}

// TestAbnormalAdjustments: 299 points the results do not score.
//
//	R1 1–2 1-0, 3 U;  R2 1–3 =, 2–? 2 U.  Without 299: 1 1½, 2 1, 3 1½.
//	299 W 0.5 in round 1 for 1 (a win worth ½): 1 gets 1 in all; his PS 0.5 + 1 = 1.5.
//	299 penalty −1 in round 2 for 2: 2 gets 0; PS 0 + (0 + 1 − 1) = 0.
//	299 bonus +1 in no round (000) for 3: 3 gets 2½; his PS 1 + 1½ = 2½ leaves it out.
//	BH 1 (fide2023): 2's 0 + 3's 2½ = 2½.
func TestAbnormalAdjustments(t *testing.T) {
	src := rec(1, "A", "", "2 w 1", "3 b =") + "\n" +
		rec(2, "B", "", "1 b 0", "0000 - U") + "\n" +
		rec(3, "C", "", "0000 - U", "1 w =") + "\n" +
		"299 W        0.5    1    1\n" +
		"299          -1.0    2    2\n" +
		"299          1.0   000    3\n"
	points, v := standings(t, src, "PS", "BH")
	if !reflect.DeepEqual(points[1:], []float64{1, 0, 2.5}) {
		t.Errorf("points %v, want 1 0 2.5", points[1:])
	}
	if !reflect.DeepEqual(v["PS"][1:], []string{"1.5", "0", "2.5"}) || v["BH"][1] != "2.5" {
		t.Errorf("PS %v, BH %v", v["PS"][1:], v["BH"][1:])
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
		{"01-08-2024", "2024-08-01"},
		{"01/08/2024", "2024-08-01"}, // day first
		{"08/31/2024", "2024-08-31"}, // month first: day first is impossible
		{"Jun 26, 2020", "2020-06-26"},
		{"June 26, 2020", "2020-06-26"},
		{"26 Jun 2020", "2020-06-26"},
		{"26. June 2020", "2020-06-26"},
		{"may 29, 2020", "2020-05-29"},
		{"29-May-2020", "2020-05-29"},
		{"20200529", "2020-05-29"},
		{"25.02.2011", "2011-02-25"},
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
	for _, text := range []string{"yesterday", "2024/13/01", "30/02/2024", "26.31.30", "2024/12/01 - 2024/12/08", "Smarch 3, 2020", "31/31/2024", "2024/12-01", "0024/12/01", "2024-02-30"} {
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
	f.Add("142 3\r162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0    X 0.5\r192 FIDE_ROUNDROBIN\r" + rec(1, "A", "", "2 w 1", "0000 - U") + "\r" + rec(2, "B", "", "1 b 0") + "\r240 H   2    2\r299 L        0.0    1    1\r")
	f.Add("XXS WW=1 BW=1 W=1 D=0.5 PAB=1\r\n092 Tournament\r\n" + rec(1, "A", "", "2 w 1", "2 b 0") + "\r\n" + rec(2, "B", "", "1 b 0", "1 w 1") + "\r\n")
	// The shapes of real writers: Windows-1252, byes without opponent, empty
	// results the points column settles, ambiguous dates, lichess's Z, teams.
	f.Add("012 \xd3 Cork\r\n" + recP(1, "\xd3 Muireag\xe1in", "1.5", "0000 - =", "2 w 1") + "\r\n" + recP(2, "B", "1.0", "0000 - +", "1 b 0") + "\n")
	f.Add("042 10.09.13\n052 10.09.14\n132" + strings.Repeat(" ", 88) + "10/09/13  10/09/14\n" + recP(1, "A", "2.0", "0000 -  ", "2 w 1") + "\n" + recP(2, "B", "0.0", "     -  ", "1 b 0") + "\n")
	f.Add("042 13.09.10\n052 21.09.10\n" + recP(1, "A", "1.5", "", "", "2 w 0") + "\n" + recP(2, "B", "1.0", "", "", "1 b 1"))
	f.Add(rec(1, "A", "", "2 b Z", "3 w 1") + "\n" + rec(2, "B", "", "1 w +") + "\n" + rec(3, "C", "", "4 b Z", "1 b 0") + "\n" + rec(4, "D", "", "3 w Z"))
	f.Add("013 Cumann Fichille Bhaile \u00c1tha Clia   1    2\n310   7 Seven" + strings.Repeat(" ", 60) + "   3    4\n" + rec(1, "A", "", "2 w 1") + "\n" + rec(2, "B", "", "1 b 0") + "\n" + rec(3, "C", "") + "\n" + rec(4, "D", ""))
	for _, name := range []string{"../testdata/trf-real/irish_junior_champs_2011.trf", "../testdata/trf-real/bunratty_masters_2011.trf", "testdata/lichess-shape.trf"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, src string) {
		tour, err := ReadTournament(strings.NewReader(src), "fuzz")
		if err != nil {
			return
		}
		_, _ = tiebreak.Standings(tour, []string{"BH/C1", "SB", "DE", "LJV", "TPR", "PTP", "FB", "AOB", "KS", "TURCAS"}, tiebreak.Options{})
	})
}
