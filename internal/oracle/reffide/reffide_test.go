package reffide

import (
	"strings"
	"testing"

	"github.com/ratelist/ratelist/internal/oracle/oracletab"
	"github.com/ratelist/ratelist/internal/testutil"
)

func TestTables(t *testing.T) {
	for _, c := range []struct{ d, want int }{
		{0, 50}, {3, 50}, {-3, 50}, {4, 51}, {-4, 49}, {-20, 47}, {20, 53}, {200, 76}, {-200, 24},
		{207, 77}, {-207, 23}, {310, 86}, {-310, 14}, {400, 92}, {-400, 8}, {464, 95}, {735, 99}, {736, 100}, {-900, 0},
	} {
		if got := PD(c.d); got != c.want {
			t.Errorf("PD(%d) = %d/100, want %d", c.d, got, c.want)
		}
	}
	for _, c := range []struct{ p, want int }{{0, -800}, {1, -677}, {14, -309}, {40, -72}, {43, -50}, {50, 0}, {69, 141}, {86, 309}, {99, 677}, {100, 800}} {
		if got := DP(c.p); got != c.want {
			t.Errorf("DP(%d/100) = %d, want %d", c.p, got, c.want)
		}
	}
}

// docs/fide.md, "The list": the 400 cap, and from the October 2025 period the real difference for
// a player rated 2650 or more (the lower-rated opponent keeps the cap).
func TestCap(t *testing.T) {
	for _, c := range []struct {
		own, d int
		exempt bool
		want   int
	}{
		{2700, 476, false, 400}, {2700, 476, true, 476}, {2649, 476, true, 400},
		{2650, 500, true, 500}, {2224, -476, true, -400}, {2650, -30, true, -30}, {1500, -401, false, -400},
	} {
		if got := Cap(c.own, c.d, c.exempt); got != c.want {
			t.Errorf("Cap(%d, %d, %v) = %d, want %d", c.own, c.d, c.exempt, got, c.want)
		}
	}
}

func TestRounding(t *testing.T) {
	for _, c := range []struct{ num, want int }{{450, 5}, {-450, -5}, {449, 4}, {-449, -4}, {420, 4}, {-420, -4}, {50, 1}, {-50, -1}, {0, 0}} {
		if got := oracletab.RoundHalfAway(c.num, 100); got != c.want {
			t.Errorf("oracletab.RoundHalfAway(%d/100) = %d, want %d", c.num, got, c.want)
		}
	}
	for _, c := range []struct{ num, den, want int }{{14425, 8, 1803}, {3, 8, 0}, {4, 8, 1}, {7, 2, 4}, {11086, 7, 1584}} {
		if got := oracletab.RoundHalfUp(c.num, c.den); got != c.want {
			t.Errorf("oracletab.RoundHalfUp(%d/%d) = %d, want %d", c.num, c.den, got, c.want)
		}
	}
}

// docs/fide.md, "A worked period": one change per period, rounded once.
func TestChangeRoundedOnce(t *testing.T) {
	// Alice 2000, two draws with Bob 2020: 20 × 2 × (0.50 − 0.47) = 1.2 → +1.
	if got := Change(20, []int{1, 1}, []int{PD(-20), PD(-20)}); got != 1 {
		t.Errorf("Alice: %d, want 1", got)
	}
	if got := Change(20, []int{1, 1}, []int{PD(20), PD(20)}); got != -1 {
		t.Errorf("Bob: %d, want -1", got)
	}
	// Exactly −4.5 rounds away from zero: K 10, a draw at PD 0.95.
	if got := Change(10, []int{1}, []int{95}); got != -5 {
		t.Errorf("-4.5: %d, want -5", got)
	}
}

// docs/fide.md, "The list": K at the period's start.
func TestK(t *testing.T) {
	for _, c := range []struct {
		reached           bool
		games, rating, by int
		year, want        int
		name              string
	}{
		{true, 30, 2300, 2010, 2025, 10, "reached 2400 (permanent, even below)"},
		{false, 29, 2350, 0, 2025, 40, "fewer than 30 games"},
		{false, 30, 1800, 2007, 2025, 40, "junior: birth + 18 = period's year"},
		{false, 30, 1800, 2007, 2026, 20, "no longer junior"},
		{false, 30, 2300, 2010, 2025, 20, "junior at 2300"},
		{false, 30, 2299, 2010, 2025, 40, "junior below 2300"},
		{false, 30, 2399, 0, 2025, 20, "no birth year"},
	} {
		if got := K(c.reached, c.games, c.rating, c.by, c.year); got != c.want {
			t.Errorf("%s: K = %d, want %d", c.name, got, c.want)
		}
	}
	for _, c := range []struct{ k, n, want int }{{40, 17, 40}, {40, 18, 38}, {20, 35, 20}, {20, 36, 19}, {10, 71, 9}, {40, 0, 40}} {
		if got := KLimit(c.k, c.n); got != c.want {
			t.Errorf("KLimit(%d, %d) = %d, want %d", c.k, c.n, got, c.want)
		}
	}
}

// docs/fide.md, "Initial ratings": Ra with two 1800 draws, p half up, cap 2200.
func TestInitial(t *testing.T) {
	// Carol (docs/fide.md): 6 games, 4½ points, Σ 10820 → Ra 1803, p 0.69, Ru 1944.
	if ra, ru := Initial(10820, 6, 9); ra != 1803 || ru != 1944 {
		t.Errorf("Carol: Ra %d Ru %d, want 1803 1944", ra, ru)
	}
	// 5 wins against 2691, 2691, 2215 ×3: Ra 2232, p 6/7 → 0.86, +309 → 2541 → 2200.
	if ra, ru := Initial(2*2691+3*2215, 5, 10); ra != 2232 || ru != 2200 {
		t.Errorf("capped: Ra %d Ru %d, want 2232 2200", ra, ru)
	}
	// 0 of 5 against 1390 ×3, 1622, 1694: Ra 1584, p 1/7 → 0.14, −309 → 1275 (< 1400).
	if ra, ru := Initial(3*1390+1622+1694, 5, 0); ra != 1584 || ru != 1275 {
		t.Errorf("low: Ra %d Ru %d, want 1584 1275", ra, ru)
	}
	// p exactly on a half hundredth: 2 of 6 → 3/8 = 0.375 → 0.38 → −87.
	if _, ru := Initial(6*1600, 6, 4); ru != oracletab.RoundHalfUp(6*1600+3600, 8)-87 {
		t.Errorf("p 0.375: Ru %d", ru)
	}
}

// docs/fide.md, "Which list takes a tournament": the 3-day close.
func TestListOf(t *testing.T) {
	for _, c := range []struct{ end, want string }{
		{"2025-01-10", "2025-02"}, {"2025-01-29", "2025-02"}, {"2025-01-30", "2025-03"}, {"2025-01-31", "2025-03"},
		{"2025-02-26", "2025-03"}, {"2025-02-27", "2025-04"}, {"2024-02-27", "2024-03"}, {"2024-02-28", "2024-04"},
		{"2024-12-29", "2025-01"}, {"2024-12-30", "2025-02"},
	} {
		if got := ListOf(c.end).String(); got != c.want {
			t.Errorf("ListOf(%s) = %s, want %s", c.end, got, c.want)
		}
	}
}

func writeArchive(t *testing.T, players, tours, games string) string {
	t.Helper()
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{"players.csv": players, "tournaments.csv": tours, "games.csv": games})
	return dir
}

// The worked period of docs/fide.md, whole lists.
func TestWorkedPeriod(t *testing.T) {
	dir := writeArchive(t,
		"player_id,name,birth_year,category,fide_rating,club\n1,Alice,,,2000,\n2,Bob,,,2020,\n3,Carol,2010,,,\n4,Dan,,,1600,\n5,Eve,,,1800,\n",
		"tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n"+
			"10,A,2025-01-08,2025-01-10,swiss,4,chess,true,\n12,B,2025-01-27,2025-01-29,swiss,2,chess,true,\n11,C,2025-01-28,2025-01-30,swiss,2,chess,true,\n",
		"tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points\n"+
			"10,1,1,2,=,=,,\n10,2,3,4,1,0,,\n10,3,5,3,0,1,,\n10,4,3,1,=,=,,\n"+
			"12,1,2,1,=,=,,\n12,2,3,2,0,1,,\n11,1,3,5,1,0,,\n11,2,4,3,0,1,,\n")
	got, err := Lists(dir)
	if err != nil {
		t.Fatal(err)
	}
	const head = "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n"
	want := map[string]string{
		"2025-01": head + "1,2,Bob,2020,,0,30,20,,new\n2,1,Alice,2000,,0,30,20,,new\n3,5,Eve,1800,,0,30,20,,new\n4,4,Dan,1600,,0,30,20,,new\n",
		"2025-02": head + "1,2,Bob,2019,-1,2,32,20,,\n2,1,Alice,2001,1,2,32,20,,\n3,5,Eve,1800,0,0,30,20,,\n4,4,Dan,1600,0,0,30,20,,\n",
		"2025-03": head + "1,2,Bob,2019,0,0,32,20,,\n2,1,Alice,2001,0,0,32,20,,\n3,3,Carol,1944,,0,6,40,,new\n4,5,Eve,1800,0,0,30,20,,\n5,4,Dan,1600,0,0,30,20,,\n",
	}
	if len(got) != len(want) {
		t.Errorf("%d lists, want %d", len(got), len(want))
	}
	for m, w := range want {
		if string(got[m]) != w {
			t.Errorf("list %s:\n%s\nwant\n%s", m, got[m], w)
		}
	}
}

// rows returns a list's rows keyed by player_id, without rank.
func rows(t *testing.T, lists map[string][]byte, month string) map[string]string {
	t.Helper()
	b, ok := lists[month]
	if !ok {
		t.Fatalf("no list %s", month)
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.SplitN(line, ",", 3)
		m[f[1]] = f[2]
	}
	return m
}

// The edge archive (WriteEdgeArchive), every number by hand.
func TestEdgeArchive(t *testing.T) {
	dir := t.TempDir()
	if err := WriteEdgeArchive(dir); err != nil {
		t.Fatal(err)
	}
	lists, st, err := ListsStats(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(lists) != 31 || lists["2025-01"] == nil || lists["2027-07"] == nil {
		t.Errorf("%d lists, want 2025-01 … 2027-07 (31)", len(lists))
	}
	type check struct {
		month, id, want string // want: name,rating,change,games_period,games_total,k,category,flags; "" = not listed
		why             string
	}
	for _, c := range []check{
		{"2025-01", "3", "Idle,1400,,0,30,20,,new", "a starting rating of exactly 1400 is listed"},
		{"2025-01", "17", "", "a starting rating below 1400 is below the floor: unrated, not listed"},
		{"2025-01", "1", "Top,2700,,0,30,10,,new", "2700 at the start: reached 2400"},
		{"2025-01", "6", "Junior,1800,,0,30,40,,new", "born 2007: junior in 2025"},
		// Top 2700 loses to Climber 2390: D 310 → 0.86; 10 × −0.86 = −8.6 → −9.
		{"2025-02", "1", "Top,2691,-9,1,31,10,,", "K 10"},
		// Climber: D −310 → 0.14; 20 × 0.86 = 17.2 → +17 = 2407 (reached 2400).
		{"2025-02", "8", "Climber,2407,17,1,31,10,,", "k 10 from now on"},
		// Junior: 18 draws with Partner 1600, D 200 → 0.76; K 40 × 18 > 700 → 38;
		// 38 × 18 × (−0.26) = −177.84 → −178.
		{"2025-02", "6", "Junior,1622,-178,18,48,40,,", "K × n ≤ 700"},
		// Partner: K 20 (20 × 18 = 360); 20 × 18 × 0.26 = 93.6 → +94. Games against
		// ZeroFirst (unrated) and the forfeit are not rated games.
		{"2025-02", "7", "Partner,1694,94,18,48,20,,", "only rated games count"},
		// FloorA 1400 loses to FloorB 1400: D 0 → 0.50, 20 × ±0.5 = ±10.
		{"2025-02", "4", "", "1390: below 1400, removed"},
		{"2025-02", "5", "FloorB,1410,10,1,31,20,,", ""},
		// Climber 2407 loses to Mid 2200: D 207 → 0.77; 10 × −0.77 → −8 = 2399, K stays 10.
		{"2025-03", "8", "Climber,2399,-8,1,32,10,,", "reached 2400 is for good"},
		// Mid: 20 × 0.77 = 15.4 → +15.
		{"2025-03", "2", "Mid,2215,15,1,31,20,,", ""},
		// Tournament 3 ended 27 February 2025: list 2025-04, rated with 2025-03 (Mid 2215).
		// Strong: 5 wins vs 2691 ×2, 2215 ×3: Ra 15627/7 → 2232, p 6/7 → 0.86, +309 → 2200 cap.
		{"2025-04", "12", "Strong,2200,,0,5,40,,new", "initial rating capped at 2200"},
		// ZeroFirst: first tournament (T1) lost to Partner: disregarded. T3: 2½ of 5
		// vs 1694, 2215, 1622, 1694, 2215: Ra (9440 + 3600)/7 → 1863, p 3.5/7 = 0.50 → 1863.
		{"2025-04", "10", "ZeroFirst,1863,,0,5,40,,new", "zero-score first tournament disregarded"},
		{"2025-04", "9", "", "Newbie: 3 pooled games"},
		// OrderA: tournament 12 (ends 10 March) comes before 11 (ends 12 March): its zero
		// is disregarded; 11 gives 1694 (1), 1622 (½), 1400 (1): 3 games, unrated.
		{"2025-04", "13", "", "first tournament in rating order, not id order"},
		// April: ½ vs 1694, 0 vs 2215: 5 games, W 3, Σ 8625: Ra 12225/7 → 1746,
		// p 4/7 → 0.57, +50 → 1796.
		{"2025-05", "13", "OrderA,1796,,0,5,40,,new", ""},
		// OrderB: 14 and 13 both end 12 March; 14 starts earlier and is the first
		// (1½), so the zero in 13 counts: 1400 (1), 1694 (½), 1622, 2215, 1694 (0):
		// Σ 8625, Ra 1746, p 2.5/7 → 0.36, −102 → 1644.
		{"2025-04", "14", "OrderB,1644,,0,5,40,,new", "same end date: earlier start first"},
		// ForfeitFirst: its first tournament with a game over the board against a
		// rated opponent is 4 (the forfeit of 1 is none): 0 of 5, disregarded. Then ½
		// of 5 vs 1400 ×3, 1622, 1694: Ra 11116/7 = 1588, p 1.5/7 → 0.21, −230 →
		// 1358 < 1400, still unrated and pooling.
		{"2025-06", "11", "", "zero-score first tournament: nothing pooled"},
		{"2025-07", "11", "", "initial below 1400"},
		// + 3 wins vs 1400: Ra 15316/10 → 1532, p 4.5/10 = 0.45 → −36 → 1496; 8 games.
		{"2025-08", "11", "ForfeitFirst,1496,,0,8,40,,new", "the pool kept growing"},
		// Exact: ½ of 5 vs 1400 ×2, 1694 ×2, 1622: Ra 11410/7 = 1630, p 1.5/7 → 0.21,
		// −230 → 1400: listed.
		{"2025-07", "15", "Exact,1400,,0,5,40,,new", "Ru = 1400 is enough"},
		// JustBelow (first tournament: a draw with unrated Exact and a loss to Idle,
		// disregarded): 0 of 5 vs 1622 ×3, 1694, 1796: Ra 11956/7 = 1708, p 1/7 →
		// 0.14, −309 → 1399: not listed.
		{"2025-07", "16", "", "Ru = 1399"},
		{"2027-07", "16", "", "still unrated: the pool gives 1399 at every close"},
		{"2025-07", "3", "Idle,1400,0,0,30,20,,", "games against an unrated player change nothing"},
		// Under: a draw with unrated Newbie is no first tournament; the first is
		// August's 0 of 2 (disregarded). September: 2½ of 5 vs 1694 ×3, 1622 ×2:
		// Ra 11926/7 → 1704, p 3.5/7 = 0.50 → 1704 (with the August zeros it would be
		// 7 games, Ra 15242/9 → 1694, p 3.5/9 → 0.39, −80 → 1614). Partner and
		// Junior do not move.
		{"2025-09", "17", "", "zero-score first tournament: nothing pooled"},
		{"2025-10", "17", "Under,1704,,0,5,40,,new", "a below-floor start gets a rating like anyone unrated"},
		{"2025-10", "7", "Partner,1694,0,0,48,20,,", "games against Under are not rated games"},
		// September 2025 period: Top 2691 = Mid 2215, D 476 capped → 0.92: 10 × −0.42 → −4.
		{"2025-10", "1", "Top,2687,-4,1,32,10,,", "cap before October 2025"},
		{"2025-10", "2", "Mid,2223,8,1,32,20,,", "20 × 0.42 = 8.4"},
		// October 2025 period: Top 2687 = Mid 2223, D 464 real → 0.95: 10 × −0.45 = −4.5 → −5.
		{"2025-11", "1", "Top,2682,-5,1,33,10,,", "2650 exemption from the October 2025 period"},
		{"2025-11", "2", "Mid,2231,8,1,33,20,,", "the lower-rated player keeps the cap"},
		{"2025-12", "3", "Idle,1400,0,0,30,20,,", "11 periods without a game"},
		{"2025-12", "6", "Junior,1622,0,0,48,40,,", ""},
		{"2026-01", "3", "Idle,1400,0,0,30,20,,i", "12 periods without a rated game"},
		{"2026-01", "6", "Junior,1622,0,0,48,20,,", "no longer junior in 2026; last played January 2025"},
		{"2026-02", "6", "Junior,1622,0,0,48,20,,i", ""},
		{"2026-03", "8", "Climber,2399,0,0,32,10,,i", ""},
		{"2026-07", "11", "ForfeitFirst,1496,0,0,8,40,,", "the period that gave the rating counts"},
		{"2026-08", "11", "ForfeitFirst,1496,0,0,8,40,,i", ""},
		{"2026-10", "1", "Top,2682,0,0,33,10,,", ""},
		{"2026-11", "1", "Top,2682,0,0,33,10,,i", ""},
		// Newbie: the two games of list 2025-03 drop at 2027-05 (L − G = 26), the
		// game of 2025-04 at 2027-06: 3, then 4 games (kept one period longer,
		// 2027-05 would hold 5); at 2027-07 five: ½, ½, 0, ½, ½ vs 1694 ×3,
		// 1622 ×2: Ra 11926/7 → 1704, p 3/7 → 0.43, −50 → 1654.
		{"2027-05", "9", "", "pool of 3 after expiry"},
		{"2027-06", "9", "", "pool of 4 after expiry"},
		{"2027-07", "9", "Newbie,1654,,0,5,40,,new", ""},
	} {
		got, ok := rows(t, lists, c.month)[c.id]
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("%s player %s (%s): %q, want %q", c.month, c.id, c.why, got, c.want)
		}
	}
	if st.Expired != 3 || st.ZeroFirst != 5 || st.InitialLow == 0 || st.Exempt != 1 || st.KLimited != 1 || st.Floor != 1 || st.StartBelowFloor != 1 {
		t.Errorf("stats %+v", st)
	}
}
