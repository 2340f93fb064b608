package officer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/pipeline"
)

// rec001 is a 001 record by TRF16's columns: rating 0 is unrated, FIDE id 0
// none; the rounds from column 92.
func rec001(sno int, name string, rating int, id int64, points string, rounds ...string) string {
	r, f := "    ", strings.Repeat(" ", 11)
	if rating > 0 {
		r = fmt.Sprintf("%4d", rating)
	}
	if id > 0 {
		f = fmt.Sprintf("%11d", id)
	}
	return fmt.Sprintf("001 %4d m    %-33s %s NED %s 1980/01/01 %4s %4d  %s\n", sno, name, r, f, points, sno, strings.Join(rounds, "  "))
}

// small is a three-round tournament: Alpha 2000 and Beta 2020 draw, Beta beats
// Delta 1600; Gamma, unrated, beats Delta, loses to Alpha by forfeit and has a
// half-point bye.
var small = "012 Small\n022 Town\n032 NED\n042 2025/03/10\n052 2025/03/12\n102 Arbiter\n" +
	rec001(1, "Alpha, A", 2000, 0, "1.5", "   2 w =", "   3 w +") +
	rec001(2, "Beta, B", 2020, 0, "1.5", "   1 b =", "   4 w 1") +
	rec001(3, "Gamma, C", 0, 0, "1.5", "   4 w 1", "   1 b -", "0000 - H") +
	rec001(4, "Delta, D", 1600, 0, "0.0", "   3 b 0", "   2 b 0")

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func rateRules(t *testing.T, name string) pipeline.Rules {
	t.Helper()
	r, err := pipeline.LoadRules(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRateTRF checks RateTRF on a hand-rated tournament (FIDE rules, K 20,
// PD from FIDE's table):
//   - Alpha: a draw with Beta, D = −20, PD 0.47: 20 × 0.03 = 0.6 → +1.
//   - Beta: the draw (PD 0.53) and a win over Delta, D = 420 capped at 400,
//     PD 0.92: 20 × (1.5 − 1.45) = 1.0 → +1.
//   - Delta: the loss to Beta, PD 0.08: 20 × −0.08 = −1.6 → −2. His loss to
//     Gamma is not rated: Gamma is unrated.
//   - Gamma: one game against a rated player (Delta, a win) toward an initial
//     rating, too few for one; his forfeit and bye rate nothing.
func TestRateTRF(t *testing.T) {
	rep, err := RateTRF(context.Background(), writeTemp(t, "small.trf", small), RateOptions{Rules: rateRules(t, "fide"), RulesName: "fide", Scratch: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.List != "2025-04" || rep.End != "2025-03-12" {
		t.Errorf("list %s, end %s", rep.List, rep.End)
	}
	players, notRated := rep.Tables()
	var got []string
	for _, r := range append(players.Rows, notRated.Rows...) {
		got = append(got, strings.Join(r, ","))
	}
	want := []string{
		// start_rank,name,fide_id,ro,k,games,opponents_rated,opponents_unrated,score,opponents_average,we,change_unrounded,change,new_rating,reason
		"1,Alpha, A,,2000,20,1,1,0,0.5,2020,0.47,0.6,1,2001,fide-period",
		"2,Beta, B,,2020,20,2,2,0,1.5,1800,1.45,1,1,2021,fide-period",
		"3,Gamma, C,,,,1,1,0,1,1600,,,0,,unrated: pool below an initial rating",
		"4,Delta, D,,1600,20,1,1,1,0,2020,0.08,-1.6,-2,1598,fide-period",
		// start_rank,round,opponent,result,why
		"1,2,3,+,forfeit",
		"3,1,4,1,player unrated: toward an initial rating",
		"3,2,1,-,forfeit",
		"3,3,,H,bye",
		"4,1,3,0,opponent unrated",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRateTRFList: FIDE's list's standard rating is Ro over the file's, for
// the player it finds by FIDE id; the others keep the file's rating.
func TestRateTRFList(t *testing.T) {
	trf := "012 Listed\n042 2025/03/10\n052 2025/03/10\n" +
		rec001(1, "Leko, Peter", 2650, 703303, "1.0", "   2 w 1") +
		rec001(2, "Other, O", 2500, 0, "0.0", "   1 b 0")
	rep, err := RateTRF(context.Background(), writeTemp(t, "listed.trf", trf),
		RateOptions{Rules: rateRules(t, "fide"), RulesName: "fide", List: "../importer/testdata/fidelist/players_list_foa.txt", Scratch: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if got := [2]string{i32(rep.Players[0].Ro), i32(rep.Players[1].Ro)}; got != [2]string{"2676", "2500"} {
		t.Errorf("Ro %v, want the list's 2676 and the file's 2500", got)
	}
	if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "1 of the file's players found, 1 ratings taken") }) {
		t.Errorf("notes %q", rep.Notes)
	}
}

// TestRateTRFPoints: a file scoring a win 3 (XXS) is rated on its results,
// with a note; ratings do not use the points.
func TestRateTRFPoints(t *testing.T) {
	trf := "012 Football\n042 2025/03/10\nXXS W=3 D=1\n" +
		rec001(1, "Alpha, A", 2000, 0, "3.0", "   2 w 1") + rec001(2, "Beta, B", 2000, 0, "0.0", "   1 b 0")
	rep, err := RateTRF(context.Background(), writeTemp(t, "football.trf", trf), RateOptions{Rules: rateRules(t, "fide"), RulesName: "fide", Scratch: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Players[0].Change != 10 || rep.Players[1].Change != -10 || !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "points other than 1-½-0") }) {
		t.Errorf("%+v", rep)
	}
}

// TestRateTRFNoGame: rated players whose only game is a forfeit keep their
// rating, Ro from the starting list.
func TestRateTRFNoGame(t *testing.T) {
	trf := "012 Forfeit\n042 2025/03/10\n" + rec001(1, "Alpha, A", 2000, 0, "1.0", "   2 w +") + rec001(2, "Beta, B", 1900, 0, "0.0", "   1 b -")
	rep, err := RateTRF(context.Background(), writeTemp(t, "forfeit.trf", trf), RateOptions{Rules: rateRules(t, "fide"), RulesName: "fide", Scratch: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"2000", "1900"} {
		if p := rep.Players[i]; i32(p.Ro) != want || i32(p.New) != want || p.Reason != "no rated game" {
			t.Errorf("%+v", p)
		}
	}
}

// TestRateTRFErrors: a file that cannot be rated says why, naming it.
func TestRateTRFErrors(t *testing.T) {
	noDate := "012 Undated\n" + rec001(1, "Alpha, A", 2000, 0, "1.0", "   2 w 1") + rec001(2, "Beta, B", 2000, 0, "0.0", "   1 b 0")
	tests := []struct{ name, text, want string }{
		{"nodate.trf", noDate, "no start date"},
		{"noplayers.trf", "012 Empty\n042 2025/03/10\n", "no player records"},
	}
	for _, tt := range tests {
		file := writeTemp(t, tt.name, tt.text)
		_, err := RateTRF(context.Background(), file, RateOptions{Rules: rateRules(t, "fide"), RulesName: "fide", Scratch: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.name) {
			t.Errorf("%s: %v, want %q naming the file", tt.name, err, tt.want)
		}
	}
	// --date gives the file without one its date.
	d := time.Date(2025, 3, 10, 0, 0, 0, 0, time.UTC)
	rep, err := RateTRF(context.Background(), writeTemp(t, "nodate.trf", noDate), RateOptions{Rules: rateRules(t, "fide"), RulesName: "fide", Date: d, Scratch: t.TempDir()})
	if err != nil || rep.End != "2025-03-10" || rep.Players[0].Change != 10 {
		t.Errorf("with a date: %v %+v", err, rep)
	}
}

// TestRateTRFPublished: the changes FIDE published for the tournaments of
// testdata/fide-published (its PROVENANCE.md), by starting rank.
func TestRateTRFPublished(t *testing.T) {
	tests := []struct {
		file    string
		changes map[int]int32
	}{
		// FIDE's March 2021 list.
		{"tata_steel_masters_2021.trf", map[int]int32{1: 30, 2: 12, 3: 24, 4: -3, 5: 10, 6: -15, 9: 7, 10: -14, 12: -11, 13: -26}},
	}
	for _, tt := range tests {
		rep, err := RateTRF(context.Background(), filepath.Join("../testdata/fide-published", tt.file), RateOptions{Rules: rateRules(t, "fide"), RulesName: "fide", Scratch: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Players {
			want, ok := tt.changes[p.StartNo]
			if ok && (p.Change != want || p.New == nil || *p.New != *p.Ro+want) {
				t.Errorf("%s: %s: change %d (new %s), FIDE published %+d", tt.file, p.Name, p.Change, i32(p.New), want)
			}
		}
	}
}
