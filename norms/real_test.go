package norms

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/trf"
)

func readTRF(t *testing.T, name string) Tournament {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	file, err := trf.Read(f, name)
	if err != nil {
		t.Fatal(err)
	}
	tt, err := FromTRF(file)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

// TestBunratty checks two players of the Bunratty Masters 2011 (6 rounds,
// Swiss) by hand.
//
// IM Collins (6, GON) is checked for GM only: he beat Doyle (2027 COR),
// Fitzsimons (2252 ELM) and GM Williams (2514 ENG), lost to GM Short (2658
// ENG) and GM Baburin (2482 KIL), drew Freeman (2072 GON). Doyle, the lowest,
// is raised to 2200: Ra 14178/6 = 2363; 3.5/6 = 58 % (dp 57), Rp 2420. Three
// GMs of 6 are half and a third; one of GON, at most 2 of a federation, four
// others. He fails the 9 games, Rp 2600 and Ra 2380.
//
// WFM Wilson (26, F, ENG) is checked for all four: 2/6 = 33 % (dp −125)
// against IM Heidenfeld 2393, Wynarczyk 2100, Duffy 1953, Courtney 1899,
// Magee 1990, O'Riordan 1935, sum 12270. WIM: no opponent is below the floor
// 1850, Ra 2045 (≥ 2030), Rp 1920; one title holder. GM: Courtney raised to
// 2200, 12571/6 = 2095.2; IM (2050): 12421/6 = 2070.2; WGM (2000): 12371/6 =
// 2061.8.
func TestBunratty(t *testing.T) {
	tt := readTRF(t, "../testdata/trf-real/bunratty_masters_2011.trf")
	if tt.Kind != Swiss || tt.Rounds != 6 {
		t.Fatalf("kind %v, %d rounds", tt.Kind, tt.Rounds)
	}
	want := map[string]string{
		"6 GM":   "no 6 2363 2420 3.5 1.4.1a;1.4.8;1.4.8a 1-6",
		"26 GM":  "no 6 2095 1970 2 1.4.1a;1.4.5a;1.4.5b;1.4.8;1.4.8a;1.4.8b 1-6",
		"26 IM":  "no 6 2070 1945 2 1.4.1a;1.4.5a;1.4.5b;1.4.8;1.4.8a;1.4.8b 1-6",
		"26 WGM": "no 6 2062 1937 2 1.4.1a;1.4.5a;1.4.5b;1.4.8;1.4.8a;1.4.8b 1-6",
		"26 WIM": "no 6 2045 1920 2 1.4.1a;1.4.5a;1.4.5b;1.4.8;1.4.8b 1-6",
	}
	seen := map[int][]string{}
	for _, r := range Check(tt) {
		seen[r.StartNo] = append(seen[r.StartNo], r.Title)
		key := strings.Join([]string{itoa(r.StartNo), r.Title}, " ")
		w, ok := want[key]
		if !ok {
			continue
		}
		got := strings.Join([]string{yesNo(r.Achieved), itoa(r.Games), itoa(r.Ra), itoa(r.Rp), formatPoints(r.Score), strings.Join(r.Fails(), ";"), RoundList(r.Rounds)}, " ")
		if got != w {
			t.Errorf("%s: got %s, want %s\n%s", key, got, w, text(r))
		}
		delete(want, key)
	}
	for k := range want {
		t.Errorf("%s not checked", k)
	}
	// GMs are checked for nothing, IMs for GM, the men for GM and IM.
	for sno, w := range map[int]string{1: "", 6: "GM", 12: "GM IM", 26: "GM IM WGM WIM"} {
		if got := strings.Join(seen[sno], " "); got != w {
			t.Errorf("player %d checked for %q, want %q", sno, got, w)
		}
	}
}

func itoa(n int) string { return formatPoints(float64(n)) }

// TestFromTRF reads a 4-player double round robin: titles as writers write
// them, sex, a forfeit and a pairing each record settles.
func TestFromTRF(t *testing.T) {
	line := func(sno int, sex, title, name string, rating int, fed string, rounds string) string {
		return fmt.Sprintf("001 %4d %1s%3s %-33s %4d %3s %11d %10s %4.1f %4d%s", sno, sex, title, name, rating, fed, 1000+sno, "", 0.0, sno, rounds)
	}
	// Rounds: 1-2 / 3-4, 1-3 / 2-4, 1-4 / 2-3, then again with colours swapped;
	// 1 beats 4 by forfeit in round 6.
	text := strings.Join([]string{
		"012 Double",
		line(1, "m", "g", "One, A", 2500, "GER", "     2 w 1     3 w =     4 w =     2 b 0     3 b 1     4 b +"),
		line(2, "w", "wm", "Two, B", 2300, "ned", "     1 b 0     4 w =     3 b 1     1 w 1     4 b =     3 w 0"),
		line(3, "", "WGM", "Three, C", 0, "FRA", "     4 w 1     1 b =     2 w 0     4 b =     1 w 0     2 b 1"),
		line(4, "m", "", "Four, D", 2100, "ESP", "     3 b 0     2 b =     1 b =     3 w =     2 w =     1 w -"),
	}, "\n") + "\n"
	f, err := trf.Read(strings.NewReader(text), "double.trf")
	if err != nil {
		t.Fatal(err)
	}
	tt, err := FromTRF(f)
	if err != nil {
		t.Fatal(err)
	}
	if tt.Kind != DoubleRoundRobin || tt.Rounds != 6 {
		t.Fatalf("kind %v, %d rounds", tt.Kind, tt.Rounds)
	}
	p := tt.Players
	got := fmt.Sprintf("%s %s %s %q %v %v %v %s", p[0].Title, p[1].Title, p[2].Title, p[3].Title, p[0].Female, p[1].Female, p[2].Female, p[1].Federation)
	if got != `GM WIM WGM "" false true true NED` {
		t.Errorf("titles, sex, federation: %s", got)
	}
	if r := tt.Players[0].Rounds[5]; r.Opp != 3 || r.Result != '+' || r.Colour != 'b' {
		t.Errorf("round 6 of One: %+v", r)
	}
	if r := tt.Players[1].Rounds[0]; r.Opp != 0 || r.Result != '0' || r.Colour != 'b' {
		t.Errorf("round 1 of Two: %+v", r)
	}
	// Two (WIM) is checked for GM, IM and WGM; One (GM) for nothing.
	var titles []string
	for _, r := range Check(tt) {
		titles = append(titles, fmt.Sprint(r.StartNo, r.Title))
	}
	if strings.Join(titles, " ") != "2GM 2IM 2WGM 3GM 3IM 4GM 4IM" {
		t.Errorf("checked %v", titles)
	}
}
