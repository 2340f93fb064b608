package refelo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/oracle/oracletab"
)

// docs/school-elo.md §2, worked example 1: Ro 1500, Ra 1600, n 9, W 6, K 25 → 1569.
func TestWorkedExampleLowerRated(t *testing.T) {
	if got := PD(1500 - 1600); got != 36 {
		t.Fatalf("PD(-100) = %d/100, want 36", got)
	}
	if got := Change(1500, 1600, 9, 12, 25); got != 69 {
		t.Fatalf("change = %d, want 69", got)
	}
}

// docs/school-elo.md §2, worked example 2: Ro 2100, Ra 1700, n 7, W 6.5, K 10:
// D capped → 0.89, 2.7 → 3.
func TestWorkedExampleCapped(t *testing.T) {
	if got := PD(400); got != 89 {
		t.Fatalf("PD(400) = %d/100, want 89", got)
	}
	if got := Change(2100, 1700, 7, 13, 10); got != 3 {
		t.Fatalf("change = %d, want 3", got)
	}
}

// docs/school-elo.md §5, worked example 3: stage two newcomer, 9 games, Ra 1650.
func TestWorkedExampleStageTwo(t *testing.T) {
	if r, ok := StageTwoInitial(1650, 9, 6); !ok || r != 1525 { // W = 3
		t.Fatalf("W=3: %d %v, want 1525", r, ok)
	}
	if r, ok := StageTwoInitial(1650, 9, 12); !ok || r != 1710 { // W = 6
		t.Fatalf("W=6: %d %v, want 1710", r, ok)
	}
	if r, ok := StageTwoInitial(1650, 8, 8); !ok || r != 1650 { // exactly 50%
		t.Fatalf("50%%: %d %v, want 1650", r, ok)
	}
	if _, ok := StageTwoInitial(1650, 9, 0); ok { // 0%: undefined
		t.Fatal("0% gave a rating")
	}
	// 4 of 9 = 44.4% → 0.44 → −43; 4.5 of 9 → 50%; 5 of 9 → +20.
	for _, c := range []struct{ w2, want int }{{8, 1607}, {9, 1650}, {10, 1670}, {18, 1830}} {
		if r, _ := StageTwoInitial(1650, 9, c.w2); r != c.want {
			t.Errorf("W=%d/2: %d, want %d", c.w2, r, c.want)
		}
	}
}

func TestTablesAndRounding(t *testing.T) {
	for _, c := range []struct{ d, want int }{{0, 50}, {3, 50}, {-3, 50}, {4, 51}, {-4, 49}, {350, 89}, {-350, 11}, {-1000, 11}, {344, 88}, {345, 89}} {
		if got := PD(c.d); got != c.want {
			t.Errorf("PD(%d) = %d, want %d", c.d, got, c.want)
		}
	}
	if dp, ok := oracletab.DP(33); !ok || dp != -125 {
		t.Errorf("oracletab.DP(0.33) = %d %v", dp, ok)
	}
	if _, ok := oracletab.DP(0); ok {
		t.Error("oracletab.DP(0) defined")
	}
	if got := AverageRating([]int{1500, 1501}); got != 1501 { // 1500.5 half up
		t.Errorf("Ra = %d", got)
	}
	if got := oracletab.RoundHalfAway(-250, 100); got != -3 {
		t.Errorf("oracletab.RoundHalfAway(-2.5) = %d", got)
	}
	if got := oracletab.RoundHalfAway(-249, 100); got != -2 {
		t.Errorf("oracletab.RoundHalfAway(-2.49) = %d", got)
	}
	// A loss of 2.5 exactly: K 25, n 4, Ro = Ra: We = 2, W = 1.9? Use W 1.5: 25 × (1.5 − 2) = −12.5 → −13.
	if got := Change(1500, 1500, 4, 3, 25); got != -13 {
		t.Errorf("change = %d, want -13", got)
	}
}

func TestK(t *testing.T) {
	for _, c := range []struct{ tn, g, r, want int }{
		{0, 0, 1400, 40}, {1, 10, 1400, 40}, {2, 18, 1400, 40}, {2, 19, 1400, 25}, {3, 18, 1400, 25},
		{3, 29, 2100, 25}, {3, 30, 2000, 15}, {3, 30, 2001, 10},
	} {
		if got := K(c.tn, c.g, c.r); got != c.want {
			t.Errorf("K(%d tournaments, %d games, %d) = %d, want %d", c.tn, c.g, c.r, got, c.want)
		}
	}
}

func TestCategory(t *testing.T) {
	for r, want := range map[int]string{2200: "CM", 2199: "1", 2000: "1", 1999: "2", 1800: "2", 1600: "3", 1400: "4", 1399: ""} {
		if got := Category(r); got != want {
			t.Errorf("Category(%d) = %q, want %q", r, got, want)
		}
	}
}

// A tiny archive checked by hand: stage one, three months.
func TestListsSmall(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("players.csv", "player_id,name,birth_year,category,fide_rating,club\n"+
		"1,\"A, a\",,1,,\n2,B,,2,,\n3,C,,3,,\n4,D,,4,,\n5,E,,,,\n")
	write("tournaments.csv", "tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n"+
		"10,T1,2024-09-01,2024-09-02,round-robin,5,chess,true,\n"+
		"11,T2,2024-10-01,2024-10-02,swiss,5,scrabble,false,\n"+
		"12,T3,2024-11-01,2024-11-02,swiss,5,,,\n"+
		"13,T4,2024-12-01,2024-12-02,swiss,5,chess,false,\n")
	var g strings.Builder
	g.WriteString("tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points\n")
	// T1: every pair of 1–4 plays three games (lower id wins, draw, higher id wins):
	// everyone scores 4.5 of 9. E (no category: unrated) plays everybody.
	pairs := [][2]string{{"1", "2"}, {"3", "4"}, {"1", "3"}, {"2", "4"}, {"1", "4"}, {"2", "3"}}
	for _, p := range pairs {
		g.WriteString("10,1," + p[0] + "," + p[1] + ",1,0,,\n")
		g.WriteString("10,2," + p[1] + "," + p[0] + ",=,=,,\n")
		g.WriteString("10,3," + p[0] + "," + p[1] + ",0,1,,\n")
	}
	for _, p := range []string{"1", "2", "3", "4"} {
		g.WriteString("10,4," + p + ",5,1,0,,\n")
	}
	g.WriteString("10,5,1,,U,,,\n")
	g.WriteString("10,5,2,3,+,-,,\n")
	// T2 (Scrabble) and T4 (not rated) change nothing.
	g.WriteString("11,1,1,2,0,1,,\n13,1,1,2,0,1,,\n13,2,1,2,0,1,,\n13,3,1,2,0,1,,\n13,4,1,2,0,1,,\n")
	// T3: 1 beats 2 four times.
	for r := range 4 {
		g.WriteString("12," + string(rune('1'+r)) + ",1,2,1,0,,\n")
	}
	write("games.csv", g.String())
	lists, err := Lists(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	// T1: 1 (2000): Ra 1600, D 400 → 350 → 0.89, We 8.01, 40 × (4.5 − 8.01) = −140.4 → 1860.
	// 2 (1800): Ra 15000/9 = 1666.7 → 1667, D 133 → 0.68, We 6.12, 40 × −1.62 = −64.8 → −65 → 1735.
	// 3 (1600): Ra 1733.3 → 1733, D −133 → 0.32, We 2.88, +64.8 → +65 → 1665.
	// 4 (1400): Ra 1800, D −400 → −350 → 0.11, We 0.99, +140.4 → +140 → 1540.
	// T3: 1 (1860) vs 2 (1735): D 125 → 0.67, We 2.68, 40 × 1.32 = 52.8 → ±53: 1913 and 1682;
	// both then have 2 computed tournaments and 13 ≤ 18 games: K stays 40.
	const head = "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n"
	want := map[string]string{
		"2024-09": head + "1,1,\"A, a\",1860,,9,9,40,2,new\n2,2,B,1735,,9,9,40,3,new\n3,3,C,1665,,9,9,40,3,new\n4,4,D,1540,,9,9,40,4,new\n",
		"2024-10": head + "1,1,\"A, a\",1860,0,0,9,40,2,\n2,2,B,1735,0,0,9,40,3,\n3,3,C,1665,0,0,9,40,3,\n4,4,D,1540,0,0,9,40,4,\n",
		"2024-11": head + "1,1,\"A, a\",1913,53,4,13,40,2,\n2,2,B,1682,-53,4,13,40,3,\n3,3,C,1665,0,0,9,40,3,\n4,4,D,1540,0,0,9,40,4,\n",
	}
	if len(lists) != len(want) {
		t.Errorf("%d lists, want %d", len(lists), len(want))
	}
	for m, w := range want {
		if got := string(lists[m]); got != w {
			t.Errorf("list %s:\n%s\nwant:\n%s", m, got, w)
		}
	}
}

// Stage two pinned: nobody is rated at the start, so nobody ever plays a rated
// opponent and nobody is ever rated (the literal reading of docs/school-elo.md
// §5).
func TestStageTwoPinnedFromNothing(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "players.csv"), []byte("player_id,name,category,fide_rating\n1,A,1,2300\n2,B,2,\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tournaments.csv"), []byte("tournament_id,name,start_date,end_date,discipline,rated\n1,T,2024-01-01,2024-01-01,chess,true\n"), 0o644)
	var g strings.Builder
	g.WriteString("tournament_id,round,white_id,black_id,white_result,black_result\n")
	for range 10 {
		g.WriteString("1,1,1,2,1,0\n")
	}
	os.WriteFile(filepath.Join(dir, "games.csv"), []byte(g.String()), 0o644)
	lists, err := Lists(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(lists["2024-01"]); got != "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n" {
		t.Fatalf("got %q", got)
	}
	lists, _ = Lists(dir, 1)
	// Stage one: 1 starts at 2300 (Elo), 2 at 1800; D 500 → 350 → 0.89/0.11; n 10.
	// 1: 40 × (10 − 8.9) = 44 → 2344; 2: 40 × (0 − 1.1) = −44 → 1756. K next: 1 tournament → 40.
	want := "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n" +
		"1,1,A,2344,,10,10,40,CM,new\n2,2,B,1756,,10,10,40,3,new\n"
	if got := string(lists["2024-01"]); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
