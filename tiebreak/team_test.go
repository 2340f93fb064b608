package tiebreak

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

// heldTeams is the team Swiss of IA Mario Held's "Exercises in Tie-Breaking"
// (FIDE TEC, C.07-2023, rev. 2403220900, the crosstable of page 6, exercises
// 34–49): 14 teams of 4 boards, 7 rounds. Each entry is the opponent, the team's
// colour and its game points, or an unplayed round: +F (a full-point bye), -F and
// ZPB (zero-point byes), PAB, HPB. Board results are the game points as wins from
// board 1 down, then a draw, then losses; 11–14 of round 3 is W D D L.
var heldTeams = [][]string{
	{"8w2.5", "4b1.5", "7w3", "2b2.5", "5w1.5", "+F", "3b2.5"},
	{"9b3", "3w4", "5b0", "1w1.5", "13w3", "4b2.5", "10b3"},
	{"10w2.5", "2b0", "9w3", "6b2.5", "4w3", "5b3.5", "1w1.5"},
	{"11b3", "1w2.5", "13b3", "5w3.5", "3b1", "2w1.5", "9b2.5"},
	{"12w4", "6b3", "2w4", "4b0.5", "1b2.5", "3w0.5", "13b3.5"},
	{"13b2", "5w1", "8b3", "3w1.5", "11b2.5", "-F", "12w2.5"},
	{"14w2", "8b2", "1b1", "10w2.5", "9b2", "13w2", "ZPB"},
	{"1b1.5", "7w2", "6w1", "12b3.5", "10b2", "9w2", "11w3"},
	{"2w1", "12b4", "3b1", "14w3", "7w2", "8b2", "4w1.5"},
	{"3b1.5", "11w1.5", "12b2.5", "7b1.5", "8w2", "14b3", "2w1"},
	{"4w1", "10b2.5", "14w2", "13b1.5", "6w1.5", "12w2", "8b1"},
	{"5b0", "9w0", "10w1.5", "8w0.5", "PAB", "11b2", "6b1.5"},
	{"6w2", "14b2.5", "4w1", "11w2.5", "2b1", "7b2", "5w0.5"},
	{"7b2", "13w1.5", "11b2", "9b1", "HPB", "10w1", "PAB"},
}

// heldTournament builds the team tournament: team k's players are 4k+1 … 4k+4 (by
// board), the white team has White on boards 1 and 3.
func heldTournament(t *testing.T, start time.Time) *TeamTournament {
	t.Helper()
	tour := &Tournament{Rounds: 7, System: "swiss", Start: start}
	tt := &TeamTournament{Tournament: tour}
	for k := range heldTeams {
		team := Team{Number: k + 1, Name: "Team " + strconv.Itoa(k+1)}
		for b := range 4 {
			tour.Players = append(tour.Players, Player{StartNo: 4*k + b + 1})
			team.Players = append(team.Players, 4*k+b)
		}
		tt.Teams = append(tt.Teams, team)
	}
	reverse := map[byte]byte{'1': '0', '0': '1', '=': '='}
	for k, row := range heldTeams {
		for r, e := range row {
			bye, ok := map[string]byte{"+F": 'F', "-F": 'Z', "ZPB": 'Z', "PAB": 'U', "HPB": 'H'}[e]
			if ok {
				for b := range 4 {
					tour.Games = append(tour.Games, Game{Round: r + 1, White: 4*k + b, Black: -1, WhiteResult: bye})
				}
				continue
			}
			if !strings.Contains(e, "w") {
				continue // the white team's entry makes the games
			}
			opp, gpText, _ := strings.Cut(e, "w")
			o, _ := strconv.Atoi(opp)
			gp, _ := strconv.ParseFloat(gpText, 64)
			results := boardResults(gp)
			if k+1 == 11 && o == 14 {
				results = []byte{'1', '=', '=', '0'}
			}
			for b, res := range results {
				g := Game{Round: r + 1, White: 4*k + b, Black: 4*(o-1) + b, WhiteResult: res, BlackResult: reverse[res]}
				if b%2 == 1 {
					g.White, g.Black, g.WhiteResult, g.BlackResult = g.Black, g.White, g.BlackResult, g.WhiteResult
				}
				tour.Games = append(tour.Games, g)
			}
		}
	}
	return tt
}

func boardResults(gp float64) []byte {
	var out []byte
	for ; gp >= 1; gp-- {
		out = append(out, '1')
	}
	if gp > 0 {
		out = append(out, '=')
	}
	for len(out) < 4 {
		out = append(out, '0')
	}
	return out
}

// teamColumn computes one code and returns its values by team number.
func teamColumn(t *testing.T, tt *TeamTournament, code string, opt TeamOptions) map[int]string {
	t.Helper()
	rows, err := TeamStandings(tt, []string{code}, opt)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	out := map[int]string{}
	for _, r := range rows {
		out[r.Team.Number] = FormatValue(r.Values[0])
	}
	return out
}

// TestHeldTeamScores: match points (a PAB and a half-point bye worth a drawn match
// and two game points, a full-point bye a won match and four) and game points of
// the exercise's crosstable.
func TestHeldTeamScores(t *testing.T) {
	tt := heldTournament(t, time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC))
	rows, err := TeamStandings(tt, nil, TeamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mp := map[int]float64{1: 10, 2: 10, 3: 10, 4: 10, 5: 10, 6: 7, 7: 6, 8: 7, 9: 6, 10: 5, 11: 4, 12: 2, 13: 6, 14: 4}
	gp := map[int]float64{1: 17.5, 2: 17, 3: 16, 4: 17, 5: 18, 6: 12.5, 7: 11.5, 8: 15, 9: 14.5, 10: 13, 11: 11.5, 12: 7.5, 13: 11.5, 14: 11.5}
	for _, r := range rows {
		if r.MP != mp[r.Team.Number] || r.GP != gp[r.Team.Number] {
			t.Errorf("team %d: MP %v GP %v, want %v %v", r.Team.Number, r.MP, r.GP, mp[r.Team.Number], gp[r.Team.Number])
		}
	}
}

// TestHeldTeamCodes are the exercise paper's values (exercises 35–41 and 49), under
// the 2024 rules, and under the 2026 cap where team 1's full-point bye of round 6
// changes them.
func TestHeldTeamCodes(t *testing.T) {
	all := func(s string) map[int]string {
		out := map[int]string{}
		for k, v := range strings.Fields(s) {
			out[k+1] = v
		}
		return out
	}
	tests := []struct {
		exercise int
		code     string
		policy   Policy
		want     map[int]string
	}{
		{35, "BH:MP", Fide2023, all("64 57 58 56 55 46 44 41 50 44 41 41 52 36")},
		{35, "BH", Fide2023, all("64 57 58 56 55 46 44 41 50 44 41 41 52 36")},
		{36, "BH:MP/C1", Fide2023, all("57 52 53 52 53 39 38 39 48 42 39 39 48 32")},
		{37, "BH:GP", Fide2023, all("114 107.5 109.5 106 99 92 94.5 90 97.5 92 88 92 101 87")},
		{37, "BH:GP/C1", Fide2023, all("100.5 96 97 94.5 91.5 79.5 83 82.5 90 84.5 80.5 84.5 89.5 75.5")},
		{38, "EMMSB/C1", Fide2023, map[int]string{1: "74", 2: "64", 3: "66", 4: "64", 5: "66"}},
		{39, "EGMSB", Fide2023, map[int]string{1: "158", 2: "144", 3: "150", 4: "146", 5: "132"}},
		{40, "EMGSB", Fide2023, map[int]string{7: "68.5", 9: "83", 13: "73"}},
		{41, "EGGSB", Fide2023, map[int]string{6: "157.5", 8: "181.5"}},
		{49, "SSSC", Fide2023, map[int]string{1: "38.83", 2: "36", 3: "35.33", 4: "35.67", 5: "36.33", 6: "27.83", 7: "26.17", 8: "28.67", 9: "31.17", 10: "27.67", 11: "25.17", 12: "21.17", 13: "28.83", 14: "23.5"}},
		{35, "BH:MP", Fide2026, map[int]string{1: "61", 2: "57"}},
		{36, "BH:MP/C1", Fide2026, map[int]string{1: "54", 2: "52"}},
		{37, "BH:GP", Fide2026, map[int]string{1: "110.5", 2: "107.5"}},
		{38, "EMMSB/C1", Fide2026, map[int]string{1: "68", 2: "64"}},
		{39, "EGMSB", Fide2026, map[int]string{1: "151", 2: "144"}},
		{40, "EMGSB", Fide2026, map[int]string{1: "146.5", 2: "131"}},
		{41, "EGGSB", Fide2026, map[int]string{1: "269", 2: "249.75"}},
		{49, "SSSC", Fide2026, map[int]string{1: "37.83", 2: "36"}},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.exercise)+"/"+tt.code+"/"+string(tt.policy), func(t *testing.T) {
			got := teamColumn(t, heldTournament(t, time.Time{}), tt.code, TeamOptions{Unplayed: tt.policy})
			for team, want := range tt.want {
				if got[team] != want {
					t.Errorf("team %d: %s = %s, want %s", team, tt.code, got[team], want)
				}
			}
		})
	}
}

// TestHeldTeamRanking: exercise 34 (match points, then game points; game points,
// then match points) and the extended direct encounter of exercises 42–45.
func TestHeldTeamRanking(t *testing.T) {
	order := func(codes []string, opt TeamOptions) ([]int, map[int]int) {
		rows, err := TeamStandings(heldTournament(t, time.Time{}), codes, opt)
		if err != nil {
			t.Fatal(err)
		}
		var teams []int
		rank := map[int]int{}
		for _, r := range rows {
			teams = append(teams, r.Team.Number)
			rank[r.Team.Number] = r.Rank
		}
		return teams, rank
	}
	if got, _ := order([]string{"MPvGP"}, TeamOptions{}); !equalInts(got, []int{5, 1, 2, 4, 3, 8, 6, 9, 7, 13, 10, 11, 14, 12}) {
		t.Errorf("MP, GP: %v", got)
	}
	if got, _ := order([]string{"MPvGP"}, TeamOptions{GamePointsFirst: true}); !equalInts(got, []int{5, 1, 2, 4, 3, 8, 9, 10, 6, 7, 13, 11, 14, 12}) {
		t.Errorf("GP, MP: %v", got)
	}
	_, rank := order([]string{"EDE"}, TeamOptions{})
	if rank[11] != rank[14] {
		t.Errorf("exercise 42: 11 and 14 must stay tied: %v", rank)
	}
	if rank[7] != rank[9] || rank[9] != rank[13] {
		t.Errorf("exercise 44: 7, 9 and 13 must stay tied: %v", rank)
	}
	if rank[6] >= rank[8] {
		t.Errorf("exercise 43: 6 before 8: %v", rank)
	}
	if got, _ := order([]string{"EDE"}, TeamOptions{}); !equalInts(got[:5], []int{4, 2, 1, 3, 5}) {
		t.Errorf("exercise 45: %v", got[:5])
	}
	if _, rank := order([]string{"DE"}, TeamOptions{}); rank[6] >= rank[8] {
		t.Errorf("DE: 6 beat 8 in round 3: %v", rank)
	}
	for _, code := range []string{"TBR", "BBE"} {
		if _, rank := order([]string{code}, TeamOptions{}); rank[11] >= rank[14] {
			t.Errorf("%s: 11 before 14: %v", code, rank)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// smallTeams builds a competition of one-board teams: player k is team k's only
// player; games are "round white black result" as build takes them.
func smallTeams(t *testing.T, teams, rounds int, system string, games ...string) *TeamTournament {
	t.Helper()
	tour := build(t, rounds, make([]int, teams), games...)
	tour.System = system
	tt := &TeamTournament{Tournament: tour, System: system}
	for k := range teams {
		tt.Teams = append(tt.Teams, Team{Number: k + 1, Name: "T" + strconv.Itoa(k+1), Players: []int{k}})
	}
	return tt
}

// TestTeamByes: in a Swiss the one team of a round that met no team has the
// pairing-allocated bye (a drawn match, half the game points), whatever its
// players' rounds say; two such teams do not; a round robin's lone team rests.
func TestTeamByes(t *testing.T) {
	tests := []struct {
		name   string
		tt     *TeamTournament
		mp, gp []float64
		codes  [][]byte
	}{
		{"swiss, one team alone", smallTeams(t, 3, 2, "swiss", "1 1 2 1-0", "2 1 3 ="),
			[]float64{3, 1, 2}, []float64{1.5, 0.5, 1}, [][]byte{{'1', '='}, {'0', 'U'}, {'U', '='}}},
		{"swiss, two teams alone", smallTeams(t, 4, 1, "swiss", "1 1 2 1-0"),
			[]float64{2, 0, 0, 0}, []float64{1, 0, 0, 0}, [][]byte{{'1'}, {'0'}, {'Z'}, {'Z'}}},
		{"swiss, a player's U", smallTeams(t, 4, 1, "swiss", "1 1 2 1-0", "1 3 - U"),
			[]float64{2, 0, 1, 0}, []float64{1, 0, 0.5, 0}, [][]byte{{'1'}, {'0'}, {'U'}, {'Z'}}},
		{"round robin rest round", smallTeams(t, 3, 1, "round-robin", "1 1 2 ="),
			[]float64{1, 1, 0}, []float64{0.5, 0.5, 0}, [][]byte{{'='}, {'='}, {'Z'}}},
		{"round robin, a forfeit written on one side", smallTeams(t, 4, 1, "round-robin", "1 1 2 =", "1 3 - F"),
			[]float64{1, 1, 2, 0}, []float64{0.5, 0.5, 1, 0}, [][]byte{{'='}, {'='}, {'+'}, {'-'}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err := Matches(tt.tt)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := TeamStandings(tt.tt, nil, TeamOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				k := r.Index
				if r.MP != tt.mp[k] || r.GP != tt.gp[k] {
					t.Errorf("team %d: MP %v GP %v, want %v %v", k+1, r.MP, r.GP, tt.mp[k], tt.gp[k])
				}
				for rd, m := range ms[k] {
					if m.Code != tt.codes[k][rd] {
						t.Errorf("team %d round %d: %c, want %c", k+1, rd+1, m.Code, tt.codes[k][rd])
					}
				}
			}
		})
	}
}

// TestTeamMatchErrors: pairings that make no team match are refused.
func TestTeamMatchErrors(t *testing.T) {
	two := func(games ...string) *TeamTournament {
		tour := build(t, 1, make([]int, 4), games...)
		return &TeamTournament{Tournament: tour, Teams: []Team{{Number: 1, Players: []int{0, 1}}, {Number: 2, Players: []int{2}}, {Number: 3, Players: []int{3}}}}
	}
	tests := []struct {
		name string
		tt   *TeamTournament
	}{
		{"team met two teams", two("1 1 3 1-0", "1 2 4 1-0")},
		{"team-mates paired", two("1 1 2 1-0")},
		{"player in two teams", &TeamTournament{Tournament: build(t, 1, make([]int, 2), "1 1 2 ="), Teams: []Team{{Number: 1, Players: []int{0}}, {Number: 2, Players: []int{0, 1}}}}},
		{"player in no team", &TeamTournament{Tournament: build(t, 1, make([]int, 2), "1 1 2 ="), Teams: []Team{{Number: 1, Players: []int{0}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := TeamStandings(tt.tt, nil, TeamOptions{}); !errors.Is(err, ErrBadGame) {
				t.Errorf("error %v, want ErrBadGame", err)
			}
		})
	}
}

// TestTeamForfeitedMatch: a Swiss match lost by forfeit is a round against a dummy
// with the team's own score (2023), capped by the scheduled opponent's score
// (2026), and the one cut first. Teams of one board, 3 rounds: R1 T1 beats T2, T3
// draws T4; R2 T1 beats T3 by forfeit, T4 beats T2; R3 T1 draws T4, T2 beats T3.
func TestTeamForfeitedMatch(t *testing.T) {
	tt := smallTeams(t, 4, 3, "swiss", "1 1 2 1-0", "1 3 4 =", "2 1 3 +-", "2 2 4 0-1", "3 1 4 =", "3 2 3 1-0")
	// MP: T1 2+2+1 = 5, T2 0+0+2 = 2, T3 1+0+0 = 1, T4 1+2+1 = 4.
	// T3's BH:MP: T4 4 + dummy (forfeit loss: own 1; 2026: min(1, T1's 5) = 1) + T2 2 = 7.
	// T1's BH:MP: T2 2 + dummy (forfeit win: own 5; 2026 min(5, T3's 1) = 1) + T4 4 = 11 / 7.
	// /C1 drops the least: T1 2 (the dummy of a forfeit win is no voluntarily
	// unplayed round), T2 1, T4 1, but T3 its forfeit loss first: 4+2 = 6.
	// /M1 also drops the most: T1 4, T2 4, T3 2, T4 2.
	for _, tc := range []struct {
		code   string
		policy Policy
		want   []string
	}{
		{"BH:MP", Fide2023, []string{"11", "10", "7", "8"}},
		{"BH:MP", Fide2026, []string{"7", "10", "7", "8"}},
		{"BH:MP/C1", Fide2023, []string{"9", "9", "6", "7"}},
		{"BH:MP/M1", Fide2023, []string{"4", "4", "2", "2"}},
		{"DE", Fide2023, []string{"0", "0", "0", "0"}},
	} {
		got := teamColumn(t, tt, tc.code, TeamOptions{Unplayed: tc.policy})
		for k, want := range tc.want {
			if got[k+1] != want {
				t.Errorf("%s %s: team %d = %s, want %s", tc.code, tc.policy, k+1, got[k+1], want)
			}
		}
	}
}

// TestTeamStandingsShapes: every code, under both rules and both primary scores,
// on competitions of odd shapes (no rounds, an empty place in a list, a team
// without players, a double forfeit, byes) computes without an error.
func TestTeamStandingsShapes(t *testing.T) {
	all := []string{"MPvGP", "WIN", "WON", "PS/C1", "BH:GP/M1", "FB:MP", "AOB", "EMMSB/C1", "EMGSB", "EGMSB", "EGGSB", "SSSC", "BC", "DE", "EDE", "TBR", "BBE"}
	shapes := []*TeamTournament{
		{Tournament: &Tournament{}},
		{Tournament: &Tournament{Players: []Player{{StartNo: 1}}}, Teams: []Team{{Number: 1, Players: []int{-1, 0}}}},
		{Tournament: &Tournament{Rounds: 3, Players: []Player{{StartNo: 1}, {StartNo: 2}}}, Teams: []Team{{Number: 1, Players: []int{0}}, {Number: 2}}},
		smallTeams(t, 2, 2, "", "1 1 2 --", "2 1 2 +-"),
		smallTeams(t, 5, 3, "swiss", "1 1 2 1-0", "1 3 4 =", "2 5 1 0-1", "3 2 - H"),
	}
	for i, tt := range shapes {
		for _, opt := range []TeamOptions{{Unplayed: Fide2023}, {Unplayed: Fide2026, GamePointsFirst: true}} {
			rows, err := TeamStandings(tt, all, opt)
			if err != nil || len(rows) != len(tt.Teams) {
				t.Errorf("shape %d %+v: %d rows, %v", i, opt, len(rows), err)
			}
		}
	}
}
