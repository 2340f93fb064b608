package joker

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// ids are the player_ids of dense indexes 0, 1, …, for reasons.
var ids = []int64{101, 102, 103, 104, 105, 106}

func at(s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UnixMicro()
}

// fourRows is a valid finished game 7 of players 0–3 placed 1–4.
func fourRows() []Row {
	rows := make([]Row, 4)
	for i := range rows {
		rows[i] = Row{Game: 7, At: at("2025-03-02T10:00:00Z"), Tour: -1, Player: int32(i), Place: int32(i + 1), Score: 100, Pulka: PulkaNull}
	}
	return rows
}

// TestCheckGame: each problem of a game's rows together gives its sentinel
// and the whole reason the rows are rejected with.
func TestCheckGame(t *testing.T) {
	tests := []struct {
		name    string
		ties    bool
		partial bool
		edit    func(rows []Row) []Row
		want    error
		reason  string
	}{
		{"valid", false, false, func(r []Row) []Row { return r }, nil, ""},
		{"valid stopped with leaver", false, false, func(r []Row) []Row {
			for i := range r {
				r[i].Pulka = 2
			}
			r[3].Left = true
			return r
		}, nil, ""},
		{"another row rejected", false, true, func(r []Row) []Row { return r[:3] }, ErrSeatCount,
			"joker game must have exactly 4 seats: another row of game 7 was rejected"},
		{"three rows", false, false, func(r []Row) []Row { return r[:3] }, ErrSeatCount,
			"joker game must have exactly 4 seats: game 7 has 3 rows"},
		{"five rows", false, false, func(r []Row) []Row {
			return append(r, Row{Game: 7, At: r[0].At, Tour: -1, Player: 4, Place: 4, Pulka: PulkaNull})
		},
			ErrSeatCount, "joker game must have exactly 4 seats: game 7 has 5 rows"},
		{"played_at differs", false, false, func(r []Row) []Row { r[2].At = at("2025-03-03T00:00:00Z"); return r }, ErrPlayedAtMismatch,
			"joker seats disagree on played_at: game 7 has 2025-03-02T10:00:00Z and 2025-03-03T00:00:00Z"},
		{"tournament differs", false, false, func(r []Row) []Row { r[1].Tour = 3; return r }, ErrTournamentMismatch,
			"joker seats disagree on tournament_id: game 7"},
		{"pulka differs", false, false, func(r []Row) []Row { r[0].Pulka, r[1].Pulka = 2, 2; return r }, ErrPulkaMismatch,
			"joker seats disagree on stopped pulka: game 7 has 2 and null"},
		{"pulka negative and null", false, false, func(r []Row) []Row { r[0].Pulka = PulkaNegative; return r }, ErrPulkaMismatch,
			"joker seats disagree on stopped pulka: game 7 has a negative value and null"},
		{"pulka 5", false, false, func(r []Row) []Row {
			for i := range r {
				r[i].Pulka = 5
			}
			return r
		}, ErrStoppedPulka, "joker stopped pulka not in 1-4: game 7: stopped pulka 5 (seats: 101, 102, 103, 104)"},
		{"pulka 0", false, false, func(r []Row) []Row {
			for i := range r {
				r[i].Pulka = 0
			}
			return r
		}, ErrStoppedPulka, "joker stopped pulka not in 1-4: game 7: stopped pulka 0 (seats: 101, 102, 103, 104)"},
		{"place 5", false, false, func(r []Row) []Row { r[2].Place = 5; return r }, ErrPlace,
			"joker place not in 1-4: game 7: seat 3: place 5 (seats: 101, 102, 103, 104)"},
		{"same player twice", false, false, func(r []Row) []Row { r[1].Player = 0; return r }, ErrDuplicatePlayer,
			"joker game must have 4 distinct players: game 7: seats 1 and 2 (seats: 101, 101, 103, 104)"},
		{"tied places", false, false, func(r []Row) []Row { r[1].Place = 1; return r }, ErrTiedPlaces,
			"joker places tied: game 7: seat 1: place 1 (seats: 101, 102, 103, 104)"},
		{"tied places allowed", true, false, func(r []Row) []Row { r[1].Place, r[2].Place, r[3].Place = 1, 2, 3; return r }, ErrPlaceRanking,
			"joker places are not a ranking: game 7: seat 3: place 2 (seats: 101, 102, 103, 104)"},
		{"tie ranking allowed", true, false, func(r []Row) []Row { r[1].Place = 1; return r }, nil, ""},
		{"two leavers", false, false, func(r []Row) []Row {
			for i := range r {
				r[i].Pulka = 3
			}
			r[2].Left, r[3].Left = true, true
			return r
		}, ErrLeavers, "joker game has more than one leaver: game 7"},
		{"leaver in a finished game", false, false, func(r []Row) []Row { r[3].Left = true; return r }, ErrLeaverNotStopped,
			"joker leaver in a game played to the end: game 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := DefaultRules()
			r.AllowTiedPlaces = tt.ties
			err := r.CheckGame(tt.edit(fourRows()), tt.partial, ids)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("CheckGame = %v, want nil", err)
				}
				return
			}
			var ge *GameError
			if !errors.Is(err, tt.want) || !errors.As(err, &ge) || ge.Game != 7 {
				t.Fatalf("CheckGame = %v (%T), want a *GameError of game 7 wrapping %v", err, err, tt.want)
			}
			if err.Error() != tt.reason {
				t.Errorf("reason\n%q\nwant\n%q", err.Error(), tt.reason)
			}
			if !strings.HasPrefix(err.Error(), tt.want.Error()) {
				t.Errorf("reason %q does not start with the sentinel's text", err.Error())
			}
		})
	}
}

func TestPlaceOfPulkaOf(t *testing.T) {
	places := []struct {
		in   int64
		want int32
	}{{1, 1}, {4, 4}, {0, 0}, {-5, -1}, {400, 99}, {math.MinInt64, -1}, {math.MaxInt64, 99}}
	for _, tt := range places {
		if got := PlaceOf(tt.in); got != tt.want {
			t.Errorf("PlaceOf(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
	pulkas := []struct {
		in   int64
		null bool
		want int32
	}{{0, true, PulkaNull}, {3, true, PulkaNull}, {0, false, 0}, {4, false, 4}, {-1, false, PulkaNegative}, {1000, false, 99}}
	for _, tt := range pulkas {
		if got := PulkaOf(tt.in, tt.null); got != tt.want {
			t.Errorf("PulkaOf(%d, %v) = %d, want %d", tt.in, tt.null, got, tt.want)
		}
	}
}

func TestKey(t *testing.T) {
	tests := []struct {
		at  string
		day int32
	}{
		{"1970-01-01T00:00:00Z", 0},
		{"1970-01-01T23:59:59Z", 0},
		{"1970-01-02T00:00:00Z", 1},
		{"1969-12-31T23:00:00Z", -1}, // rounds down, not toward zero
		{"1969-12-31T00:00:00Z", -1},
		{"1900-01-01T12:00:00Z", -25567},
		{"2025-03-02T10:00:00Z", 20149},
	}
	for _, tt := range tests {
		if got := (Key{At: at(tt.at)}).Day(); got != tt.day {
			t.Errorf("Day(%s) = %d, want %d", tt.at, got, tt.day)
		}
	}
	keys := []Key{{At: 5, Game: 2}, {At: 3, Game: 9}, {At: 5, Game: 1}, {At: -1, Game: 4}}
	slices.SortFunc(keys, Key.Compare)
	if fmt.Sprint(keys) != "[{-1 4} {3 9} {5 1} {5 2}]" {
		t.Errorf("rating order %v: want played_at, then game_id", keys)
	}
	rows := []Row{{Game: 2, Player: 1}, {Game: 1, Player: 3}, {Game: 2, Player: 0}, {Game: 1, Player: 2}}
	slices.SortFunc(rows, func(a, b Row) int { return CompareSeats(&a, &b) })
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%d/%d", r.Game, r.Player))
	}
	if strings.Join(got, " ") != "1/2 1/3 2/0 2/1" {
		t.Errorf("seat order %v: want game, then player", got)
	}
}

// TestHandComputed rates four games, rows shuffled, through the package's
// steps and closes two monthly periods. The expected lists were computed by
// hand from docs/joker.md (players 0–5 are ids 101–106):
//
// Game 10 (Jan 5, finished; all level 0, so m = 1): places 1..4 give
// 1: +15 → 15, 2: +5 → 5, 3: −0 → 0, 4: −1 floored → 0. Personal: scores
// 450, 230, 0, −350 give 4, 2, 0, 0; player 3's T = 3 gives 1 to each of
// the others: 0 → 5, 1 → 3, 2 → 1, 3 → 0.
//
// Game 11 (Jan 20, stopped in pulka 2, player 4 left): leaver 4: −2
// floored → 0; 0, 1, 5 unchanged (stopped early). Personal: scores 210, 50,
// −120, 130 give 2, 0, 0, 1; player 4's T = 1 gives 0 each and the
// remainder 1 to the best placed (player 0, 1st); the bonus is 5 × 2 = 10
// for 0, 1, 5: 0 → 5+13 = 18, 1 → 3+10 = 13, 5 → 11, 4 → 0.
//
// Game 9 (Feb 3 12:00, stopped in pulka 4, player 2 left): leaver 2: −4
// floored → 0; the place table applies to the others: 3 (1st) +15 → 15,
// 4 (2nd) +5 → 5, 5 (3rd) −0 → 0. Personal: scores 100, 500, 300, 200
// give 1, 5, 3, 2, plus the bonus 20 for 3, 4, 5: 2 → 2, 3 → 25, 4 → 23,
// 5 → 33.
//
// Game 13 (Feb 3 12:00, after game 9; finished): 0 (4th) −1 → 14, 1 (3rd)
// −0 → 5, 2 (2nd) +5 → 5, 3 (1st) +15 → 30. Personal: scores −90, 10, 300,
// 600 give 0, 0, 3, 6 (player 0's T = 0 hands over nothing): 2 → 5, 3 → 31.
func TestHandComputed(t *testing.T) {
	jan5, jan20, feb3 := at("2025-01-05T10:00:00Z"), at("2025-01-20T00:00:00Z"), at("2025-02-03T12:00:00Z")
	row := func(game, at int64, player, place, score int32, left bool, pulka int32) Row {
		return Row{Game: game, At: at, Tour: -1, Player: player, Place: place, Score: score, Left: left, Pulka: pulka}
	}
	rows := []Row{
		row(13, feb3, 3, 1, 600, false, PulkaNull),
		row(10, jan5, 0, 1, 450, false, PulkaNull),
		row(10, jan5, 1, 2, 230, false, PulkaNull),
		row(9, feb3, 2, 4, 100, true, 4),
		row(9, feb3, 3, 1, 500, false, 4),
		row(11, jan20, 0, 1, 210, false, 2),
		row(11, jan20, 1, 3, 50, false, 2),
		row(13, feb3, 0, 4, -90, false, PulkaNull),
		row(11, jan20, 4, 4, -120, true, 2),
		row(11, jan20, 5, 2, 130, false, 2),
		row(10, jan5, 2, 3, 0, false, PulkaNull),
		row(10, jan5, 3, 4, -350, false, PulkaNull),
		row(9, feb3, 4, 2, 300, false, 4),
		row(9, feb3, 5, 3, 200, false, 4),
		row(13, feb3, 1, 3, 10, false, PulkaNull),
		row(13, feb3, 2, 2, 300, false, PulkaNull),
	}
	r := DefaultRules()
	slices.SortFunc(rows, func(a, b Row) int { return CompareSeats(&a, &b) })
	var games [][]Row
	for lo := 0; lo < len(rows); lo += 4 {
		g := rows[lo : lo+4]
		if err := r.CheckGame(g, false, ids); err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	slices.SortFunc(games, func(a, b []Row) int { return a[0].Key().Compare(b[0].Key()) })

	var st State
	st.Grow(len(ids))
	lists := map[string]string{}
	month := func(k Key) string { return time.UnixMicro(k.At).UTC().Format("2006-01") }
	for i, g := range games {
		cards, err := r.Rate(&st, g)
		if err != nil {
			t.Fatal(err)
		}
		for s, c := range cards {
			if c.Row != g[s] || c.Change.Player != g[s].Player {
				t.Errorf("game %d seat %d: card of row %+v, player %d", g[0].Game, s+1, c.Row, c.Change.Player)
			}
		}
		if i == len(games)-1 || month(games[i+1][0].Key()) != month(g[0].Key()) {
			var b strings.Builder
			for _, lr := range r.List(&st) {
				fmt.Fprintf(&b, "%d,%d,%d,%d,%s,%d,%d\n", lr.Rank, ids[lr.Player], lr.PlayerRating, lr.Level, lr.LevelName, lr.PersonalRating, lr.Games)
			}
			lists[month(g[0].Key())] = b.String()
		}
	}
	want := map[string]string{
		"2025-01": "1,101,15,0,Teapot,18,2\n2,102,5,0,Teapot,13,2\n3,106,0,0,Teapot,11,1\n4,103,0,0,Teapot,1,1\n5,104,0,0,Teapot,0,1\n6,105,0,0,Teapot,0,1\n",
		"2025-02": "1,104,30,0,Teapot,31,3\n2,101,14,0,Teapot,18,3\n3,105,5,0,Teapot,23,2\n4,102,5,0,Teapot,13,3\n5,103,5,0,Teapot,5,3\n6,106,0,0,Teapot,33,2\n",
	}
	for m, w := range want {
		if lists[m] != w {
			t.Errorf("list %s:\n%s\nwant:\n%s", m, lists[m], w)
		}
	}
	var order []int64
	for _, g := range games {
		order = append(order, g[0].Game)
	}
	if fmt.Sprint(order) != "[10 11 9 13]" {
		t.Errorf("rating order %v, want [10 11 9 13]", order)
	}
}

// TestList: only players with a game are listed, ranked by player rating,
// then personal rating, then index; levels and their names follow the rating.
func TestList(t *testing.T) {
	r := DefaultRules()
	st := State{
		PlayerRating:   []int32{120, 120, 500, 120, 0, 99},
		PersonalRating: []int32{7, 9, 0, 7, 50, 1},
		Games:          []int32{1, 2, 3, 4, 0, 1},
	}
	var got []string
	for _, lr := range r.List(&st) {
		got = append(got, fmt.Sprintf("%d:%d/%d/%s/%d/%d", lr.Rank, lr.Player, lr.Level, lr.LevelName, lr.PersonalRating, lr.Games))
	}
	want := "1:2/5/Joker's Father/0/3 2:1/1/Beginner/9/2 3:0/1/Beginner/7/1 4:3/1/Beginner/7/4 5:5/0/Teapot/1/1"
	if strings.Join(got, " ") != want {
		t.Errorf("List:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	if rows := r.List(&State{}); len(rows) != 0 {
		t.Errorf("empty state lists %v", rows)
	}
}

// TestRateErrors: Rate refuses rows that are not a game and leaves the state
// alone.
func TestRateErrors(t *testing.T) {
	r := DefaultRules()
	var st State
	st.Grow(4)
	tests := []struct {
		name string
		rows []Row
		want error
	}{
		{"three rows", fourRows()[:3], ErrSeatCount},
		{"place 0", func() []Row { r := fourRows(); r[0].Place = 0; return r }(), ErrPlace},
		{"pulka negative", func() []Row {
			r := fourRows()
			for i := range r {
				r[i].Pulka = PulkaNegative
			}
			return r
		}(), ErrStoppedPulka},
		{"player past the state", func() []Row { r := fourRows(); r[3].Player = 9; return r }(), ErrPlayerIndex},
	}
	for _, tt := range tests {
		if _, err := r.Rate(&st, tt.rows); !errors.Is(err, tt.want) {
			t.Errorf("%s: Rate = %v, want %v", tt.name, err, tt.want)
		}
	}
	if slices.ContainsFunc(st.Games, func(n int32) bool { return n != 0 }) {
		t.Errorf("state changed on error: %+v", st)
	}
}

// TestNoAllocs: checking and rating a valid game allocate nothing, so the
// pipeline's loop over millions of games does not feed the collector.
func TestNoAllocs(t *testing.T) {
	r := DefaultRules()
	var st State
	st.Grow(4)
	rows := fourRows()
	allocs := testing.AllocsPerRun(100, func() {
		if r.CheckGame(rows, false, ids) != nil {
			t.Fatal("valid game rejected")
		}
		if _, err := r.Rate(&st, rows); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per valid game", allocs)
	}
}
