package glicko2

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// opponent returns a game against an opponent rated r with deviation rd.
func opponent(r, rd, score float64) Result {
	o := FromGlicko(r, rd, 0)
	return Result{Mu: o.Mu, Phi: o.Phi, Score: score}
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10g, want %.10g ± %g", what, got, want, tol)
	}
}

// TestPaperExample is the worked example of Glickman's paper: 1500/200/0.06
// against 1400/30 (won), 1550/100 (lost), 1700/300 (lost), τ = 0.5. The
// paper prints 1464.06, 151.52, 0.05999 from intermediates rounded to four
// digits; at full precision the results are 1464.0507, 151.5165, 0.0599960.
func TestPaperExample(t *testing.T) {
	games := []Result{opponent(1400, 30, 1), opponent(1550, 100, 0), opponent(1700, 300, 0)}
	after, v, delta := Update(FromGlicko(1500, 200, 0.06), games, 0.5, 0.000001)
	r, rd := after.Glicko()
	near(t, "r′", r, 1464.0507, 0.00005)
	near(t, "RD′", rd, 151.5165, 0.00005)
	near(t, "σ′", after.Sigma, 0.0599960, 0.00000005)
	// The paper's intermediates, to the digits it prints them.
	for i, want := range []struct{ g, e float64 }{{0.9955, 0.639}, {0.9531, 0.432}, {0.7242, 0.303}} {
		near(t, "g", games[i].G, want.g, 0.00005)
		near(t, "E", games[i].E, want.e, 0.0005)
	}
	// v = 1.7785 and Δ = −0.4834 in the paper come from its rounded g and E.
	near(t, "v", v, 1.7785, 0.001)
	near(t, "Δ", delta, -0.4834, 0.001)
	// Step 2 on the paper's numbers.
	p := FromGlicko(1500, 200, 0.06)
	near(t, "μ", p.Mu, 0, 0)
	near(t, "φ", p.Phi, 1.1513, 0.00005)
}

// TestIdle: a player without games keeps r and σ while φ² grows by σ² each
// period.
func TestIdle(t *testing.T) {
	p := FromGlicko(1700, 50, 0.06)
	q := p
	for k := 1; k <= 4; k++ {
		var v, d float64
		q, v, d = Update(q, nil, 0.5, 0.000001)
		if q.Mu != p.Mu || q.Sigma != p.Sigma || v != 0 || d != 0 {
			t.Fatalf("period %d: %+v v=%v Δ=%v, want μ and σ unchanged, v = Δ = 0", k, q, v, d)
		}
		near(t, "φ²", q.Phi*q.Phi, p.Phi*p.Phi+float64(k)*p.Sigma*p.Sigma, 1e-15)
	}
}

// play is a period's games for a test: white, black and white's score.
type play struct {
	w, b int32
	s    float64
}

// closeAll rates a period of games on s, returning its card rows (copied).
func closeAll(t *testing.T, pd *Period, s *State, set *Settings, first int32, games []play) []CardRow {
	t.Helper()
	for _, g := range games {
		pd.Add(g.w, g.b, g.s, 1-g.s)
	}
	var rows []CardRow
	err := pd.Close(s, set, first, func(r *CardRow) error {
		c := *r
		c.Games = append([]CardGame(nil), r.Games...)
		rows = append(rows, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestInactivePlayer: a listed player without games for several periods,
// including a period without any game at all, keeps r and σ, and φ grows
// every period; the rows name only the players who played.
func TestInactivePlayer(t *testing.T) {
	set := Defaults()
	s, pd := NewState(3), &Period{}
	closeAll(t, pd, s, &set, 0, []play{{0, 1, 1}, {1, 2, 0.5}})
	r0, rd0, sg0 := s.R[0], s.RD[0], s.Sigma[0]
	phi0 := rd0 / Scale
	for k, games := range [][]play{{{1, 2, 1}}, nil, {{2, 1, 0}}} {
		rows := closeAll(t, pd, s, &set, int32(31*(k+1)), games)
		if s.R[0] != r0 || s.Sigma[0] != sg0 {
			t.Errorf("period %d: r, σ = %v, %v, want %v, %v unchanged", k+2, s.R[0], s.Sigma[0], r0, sg0)
		}
		want := Scale * math.Sqrt(phi0*phi0+float64(k+1)*sg0*sg0)
		near(t, "RD", s.RD[0], want, 1e-9)
		for _, r := range rows {
			if r.Player == 0 {
				t.Errorf("period %d: a card row for the idle player", k+2)
			}
		}
		if !s.Listed[0] || s.First[0] != 0 {
			t.Errorf("period %d: player 0 listed %v first %d, want listed since 0", k+2, s.Listed[0], s.First[0])
		}
	}
	if s.RD[1] >= s.RD[0] {
		t.Errorf("active RD %v ≥ idle RD %v", s.RD[1], s.RD[0])
	}
}

// TestNewPlayer: a player first rated in a later period starts there from
// the initial values (no growth before), against opponents' values at the
// period's start; before it they are not listed.
func TestNewPlayer(t *testing.T) {
	set := Defaults()
	s, pd := NewState(3), &Period{}
	closeAll(t, pd, s, &set, 0, []play{{0, 1, 1}})
	closeAll(t, pd, s, &set, 31, nil)
	if s.Listed[2] {
		t.Fatal("player 2 listed before any game")
	}
	opp := s.Player(0)
	rows := closeAll(t, pd, s, &set, 59, []play{{2, 0, 0.5}})
	if len(rows) != 2 || rows[1].Player != 2 || !rows[1].New || rows[0].New {
		t.Fatalf("rows = %+v, want players 0 and 2, 2 new", rows)
	}
	init := FromGlicko(1500, 350, 0.06)
	if rows[1].Before != init {
		t.Errorf("new player's before = %+v, want the initial %+v", rows[1].Before, init)
	}
	want, _, _ := Update(init, []Result{{Mu: opp.Mu, Phi: opp.Phi, Score: 0.5}}, set.Tau, set.Epsilon)
	if got := s.Player(2); math.Abs(got.Mu-want.Mu) > 1e-12 || math.Abs(got.Phi-want.Phi) > 1e-12 || got.Sigma != want.Sigma {
		t.Errorf("new player after = %+v, want %+v", got, want)
	}
	if g := rows[1].Games[0]; g.Opponent != 0 || g.Mu != opp.Mu || g.Phi != opp.Phi || g.Score != 0.5 {
		t.Errorf("new player's game = %+v, want opponent 0 at %+v, score 0.5", g, opp)
	}
	// The opponent was rated against the new player's initial values.
	if g := rows[0].Games[0]; g.Mu != init.Mu || g.Phi != init.Phi {
		t.Errorf("opponent's game = %+v, want the new player's initial values", g)
	}
	if !s.Listed[2] || s.First[2] != 59 {
		t.Errorf("player 2: listed %v first %d, want listed, first 59", s.Listed[2], s.First[2])
	}
}

// TestAllDraws: equal players who draw keep r = 1500 exactly (E = 0.5, so
// Δ = 0) while RD falls; a draw against a stronger player gains.
func TestAllDraws(t *testing.T) {
	set := Defaults()
	s, pd := NewState(4), &Period{}
	rows := closeAll(t, pd, s, &set, 0, []play{{0, 1, 0.5}, {2, 3, 0.5}, {1, 0, 0.5}})
	for p := range int32(4) {
		if s.R[p] != 1500 || !(s.RD[p] < 350) {
			t.Errorf("player %d: r, RD = %v, %v, want 1500 and below 350", p, s.R[p], s.RD[p])
		}
	}
	for _, r := range rows {
		if r.Delta != 0 {
			t.Errorf("player %d: Δ = %v, want 0", r.Player, r.Delta)
		}
	}
	if !(s.RD[0] < s.RD[2]) {
		t.Errorf("two games' RD %v not below one game's %v", s.RD[0], s.RD[2])
	}
	closeAll(t, pd, s, &set, 31, []play{{0, 2, 1}})
	r0 := s.R[0]
	closeAll(t, pd, s, &set, 62, []play{{0, 3, 0.5}})
	if !(s.R[3] > 1500) || !(s.R[0] < r0) {
		t.Errorf("draw of the stronger (%v) and the weaker (1500): %v and %v, want the weaker to gain", r0, s.R[0], s.R[3])
	}
}

// randomPeriods is a deterministic archive: n players, some arriving late,
// some idle for periods, one period without games.
func randomPeriods(n, periods int) [][]play {
	x := uint64(42)
	next := func(m int) int { // xorshift: the same sequence everywhere
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x % uint64(m))
	}
	out := make([][]play, periods)
	for k := range periods {
		if k == 2 {
			continue // a period without games
		}
		active := min(n, n/2+k*n/periods) // newcomers arrive period by period
		for range 2 * active {
			w, b := next(active), next(active)
			if w == b || next(5) == 0 { // and some players sit out
				continue
			}
			out[k] = append(out[k], play{int32(w), int32(b), float64(next(3)) / 2})
		}
	}
	return out
}

// run rates periods on a fresh state, with the state saved and restored
// after period resumeAfter (-1: never), and returns the final encoding.
func run(t *testing.T, set Settings, n int, periods [][]play, resumeAfter int) []byte {
	t.Helper()
	s, pd := NewState(n), &Period{}
	for k, games := range periods {
		closeAll(t, pd, s, &set, int32(30*k), games)
		if k == resumeAfter {
			b, err := s.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			s, pd = &State{}, &Period{}
			if err := s.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDeterministicAndResume: the same games give byte-identical states, and
// a run saved and restored midway equals the full run byte for byte.
func TestDeterministicAndResume(t *testing.T) {
	periods := randomPeriods(60, 8)
	set := Defaults()
	full := run(t, set, 60, periods, -1)
	if again := run(t, set, 60, periods, -1); !bytes.Equal(full, again) {
		t.Error("two runs differ")
	}
	for _, k := range []int{0, 2, 5} {
		if resumed := run(t, set, 60, periods, k); !bytes.Equal(full, resumed) {
			t.Errorf("resumed after period %d differs from the full run", k)
		}
	}
}

// TestStateRoundTrip: decoding an encoding gives the same state; damaged
// encodings are refused and leave the state as it was.
func TestStateRoundTrip(t *testing.T) {
	set := Defaults()
	s, pd := NewState(40), &Period{}
	for k, games := range randomPeriods(40, 4) {
		closeAll(t, pd, s, &set, int32(7*k), games)
	}
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got State
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&got, s) {
		t.Error("decoded state differs")
	}
	bad := bytes.Clone(b)
	bad[0] = 9
	for name, data := range map[string][]byte{
		"truncated": b[:len(b)-3], "trailing": append(bytes.Clone(b), 0), "revision": bad, "empty": nil,
	} {
		keep := got
		if err := got.UnmarshalBinary(data); err == nil {
			t.Errorf("%s: no error", name)
		}
		if !reflect.DeepEqual(got, keep) {
			t.Errorf("%s: state changed on error", name)
		}
	}
}

// TestSettingsCheck: impossible settings are refused, naming the key.
func TestSettingsCheck(t *testing.T) {
	tests := []struct {
		key string
		mod func(*Settings)
	}{
		{"tau", func(s *Settings) { s.Tau = 0 }},
		{"tau", func(s *Settings) { s.Tau = -0.5 }},
		{"tau", func(s *Settings) { s.Tau = math.NaN() }},
		{"initial_rd", func(s *Settings) { s.InitialRD = -350 }},
		{"initial_rd", func(s *Settings) { s.InitialRD = 0 }},
		{"initial_volatility", func(s *Settings) { s.InitialVolatility = 0 }},
		{"epsilon", func(s *Settings) { s.Epsilon = 0 }},
		{"epsilon", func(s *Settings) { s.Epsilon = 1e-15 }},
		{"provisional_rd", func(s *Settings) { s.ProvisionalRD = -1 }},
		{"initial_rating", func(s *Settings) { s.InitialRating = math.Inf(1) }},
	}
	for _, tt := range tests {
		s := Defaults()
		tt.mod(&s)
		err := s.Check()
		if err == nil || !strings.Contains(err.Error(), "glicko2."+tt.key+" ") {
			t.Errorf("%s: Check = %v, want an error naming it", tt.key, err)
		}
	}
	s := Defaults()
	if err := s.Check(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

// TestCloseErrors: a game naming a player outside the state is an error,
// as is emit's, and neither changes the state.
func TestCloseErrors(t *testing.T) {
	set := Defaults()
	s, pd := NewState(2), &Period{}
	pd.Add(0, 5, 1, 0)
	if err := pd.Close(s, &set, 0, func(*CardRow) error { return nil }); !errors.Is(err, ErrPlayer) {
		t.Errorf("Close = %v, want ErrPlayer", err)
	}
	want := errors.New("disk full")
	s, pd = NewState(2), &Period{}
	pd.Add(0, 1, 1, 0)
	if err := pd.Close(s, &set, 0, func(*CardRow) error { return want }); err != want {
		t.Errorf("Close = %v, want emit's error", err)
	}
	if !reflect.DeepEqual(s, NewState(2)) {
		t.Error("state changed on error")
	}
}

// TestListValues: the list's values are rounded from the full ones, the
// whole rating from the printed glicko_rating, and "p" follows the printed RD.
func TestListValues(t *testing.T) {
	s := NewState(1)
	s.R[0], s.RD[0], s.Sigma[0], s.Listed[0] = 1464.4951, 110.004, 0.05999598, true
	e := s.List(0)
	if e != (ListExtra{GlickoRating: 1464.50, RD: 110.00, Volatility: 0.059996}) {
		t.Errorf("List = %+v", e)
	}
	if e.Rating() != 1465 {
		t.Errorf("Rating = %d, want 1465 (1464.50 rounded)", e.Rating())
	}
	if e.Provisional(110) || !e.Provisional(109.99) {
		t.Error("provisional flag does not follow the printed RD")
	}
}
