package tiebreak

import (
	"fmt"
	"strings"
)

// slot is one player's round: the opponent (or none), colour, result and game points.
type slot struct {
	opp    int   // index into Players, -1 = none
	pts    int   // points awarded, in half-points
	gp, op int32 // own and opponent's game points
	color  byte  // 'w', 'b' or 0
	code   byte  // normalized result code; 'Z' when the player had no game
	otb    bool  // a played game (1 = 0 W D L) with an opponent
	forf   bool  // a forfeit (+ or -) with a known opponent
	hasPts bool  // Scrabble game points known
	set    bool  // filled from a game (reset's check for a player twice in a round)
}

// model is a tournament indexed by player and round, scores in half-points.
type model struct {
	t     *Tournament
	n     int // rounds considered
	slots [][]slot
	score []int // final score, half-points, face value
	// win and draw are the points of a won and a drawn game, half-points.
	win, draw int
	// bonus holds each player's adjustments in no round (half-points); empty when
	// there are none.
	bonus []int
	rr    bool // forfeits count as games for DE, BH, FB, SB, KS, PS, WIN (round robin / option)
	// roundRobin: a round without an opponent is a rest round, and opponents'
	// scores are their real scores (no withdrawal tail as draws).
	roundRobin bool
	// otb: forfeits count as games for the codes defined "over the board"
	// (Options.ForfeitsPlayed; never by the round robin alone).
	otb bool

	// storage behind slots (player p in round r at p*n+r), reused by the next reset
	all []slot
	// system is the last Tournament.System seen and systemRR whether it names
	// a round robin: the next tournament mostly has the same (zero value: "", false).
	system   string
	systemRR bool
}

// resize returns s with length n, reusing its array when it is large enough. The
// elements are not cleared.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func normCode(b byte) (byte, bool) {
	if b == 0 || b == ' ' {
		return 'Z', true
	}
	if b >= 'a' && b <= 'z' {
		b -= 'a' - 'A'
	}
	switch b {
	case '1', '=', '0', '+', '-', 'W', 'D', 'L', 'H', 'F', 'U', 'Z':
		return b, true
	}
	return 0, false
}

// result is what reset needs of a result byte, looked up in results.
type result struct {
	pts    int  // halfPoints(code)
	code   byte // normalized (normCode)
	ok     bool // a valid result byte
	played bool // isPlayedCode(code)
	forf   bool // '+' or '-'
}

var results = func() (t [256]result) {
	for b := range t {
		c, ok := normCode(byte(b))
		t[b] = result{code: c, ok: ok, pts: halfPoints(c), played: isPlayedCode(c), forf: c == '+' || c == '-'}
	}
	return t
}()

// halfPoints is the score of a result code in half-points.
func halfPoints(c byte) int {
	switch c {
	case '1', 'W', '+', 'F', 'U':
		return 2
	case '=', 'D', 'H':
		return 1
	}
	return 0
}

func isPlayedCode(c byte) bool {
	switch c {
	case '1', '=', '0', 'W', 'D', 'L':
		return true
	}
	return false
}

// isRoundRobin reports whether the system string names a round robin.
func isRoundRobin(system string) bool {
	s := strings.ToLower(strings.TrimSpace(system))
	return s == "rr" || s == "berger" || strings.Contains(s, "round-robin") || strings.Contains(s, "round robin") || strings.Contains(s, "roundrobin")
}

// OppositeResult is the result code the opponent must have for code c in the
// same pairing ('1' ↔ '0', 'W' ↔ 'L', '+' ↔ '-'; '=' and 'D' are their own).
func OppositeResult(c byte) byte {
	switch c {
	case '1':
		return '0'
	case '0':
		return '1'
	case 'W':
		return 'L'
	case 'L':
		return 'W'
	case '+':
		return '-'
	case '-':
		return '+'
	}
	return c
}

// newModel validates the games and lays them out per player and round.
func newModel(t *Tournament, opt Options) (*model, error) {
	m := &model{}
	if err := m.reset(t, opt); err != nil {
		return nil, err
	}
	return m, nil
}

// reset makes m the model of t, reusing m's storage (slots, scores, marks) from the
// tournament it held before.
func (m *model) reset(t *Tournament, opt Options) error {
	np := len(t.Players)
	n := t.Rounds
	for i := range t.Games {
		n = max(n, t.Games[i].Round)
	}
	if opt.AfterRound > 0 && opt.AfterRound < n {
		n = opt.AfterRound
	}
	m.t, m.n = t, n
	if t.System != m.system {
		m.system, m.systemRR = t.System, isRoundRobin(t.System)
	}
	m.roundRobin = m.systemRR
	m.rr = opt.ForfeitsPlayed || m.roundRobin
	m.otb = opt.ForfeitsPlayed
	// One backing array for the slots, kept for the next tournament (tens of
	// thousands of tournaments per run).
	m.score = resize(m.score, np)
	clear(m.score)
	m.slots = resize(m.slots, np)
	m.all = resize(m.all, np*n)
	all, slots, score := m.all, m.slots, m.score // locals: a store through m.all could change m, as far as the compiler knows
	for k := range all {
		all[k] = slot{opp: -1, code: 'Z'}
	}
	for i := range slots {
		slots[i] = all[i*n : (i+1)*n : (i+1)*n]
	}
	for gi, g := range t.Games {
		if g.Round < 1 {
			return fmt.Errorf("game %d: round %d: %w", gi+1, g.Round, ErrBadGame)
		}
		if g.Round > n {
			continue // after Options.AfterRound
		}
		r := g.Round - 1
		if g.White < 0 || g.White >= np || g.Black >= np || g.Black < -1 || g.White == g.Black {
			return fmt.Errorf("game %d (round %d): player index out of range: %w", gi+1, g.Round, ErrBadGame)
		}
		w := results[g.WhiteResult]
		if !w.ok {
			return fmt.Errorf("game %d (round %d): result code %q: %w", gi+1, g.Round, g.WhiteResult, ErrBadGame)
		}
		ws := &all[g.White*n+r]
		if ws.set {
			return fmt.Errorf("game %d: player %d twice in round %d: %w", gi+1, t.Players[g.White].StartNo, g.Round, ErrBadGame)
		}
		if g.Black < 0 {
			if w.played {
				return fmt.Errorf("game %d (round %d): played result %q without an opponent: %w", gi+1, g.Round, w.code, ErrBadGame)
			}
			*ws = slot{opp: -1, code: w.code, pts: w.pts, set: true}
			score[g.White] += w.pts
			continue
		}
		b := results[g.BlackResult]
		if !b.ok {
			return fmt.Errorf("game %d (round %d): result code %q: %w", gi+1, g.Round, g.BlackResult, ErrBadGame)
		}
		bs := &all[g.Black*n+r]
		if bs.set {
			return fmt.Errorf("game %d: player %d twice in round %d: %w", gi+1, t.Players[g.Black].StartNo, g.Round, ErrBadGame)
		}
		if w.played != b.played {
			return fmt.Errorf("game %d (round %d): results %q and %q do not match: %w", gi+1, g.Round, w.code, b.code, ErrBadGame)
		}
		ws.fill(g.Black, 'w', w, g.HasPoints, g.WhitePoints, g.BlackPoints)
		bs.fill(g.White, 'b', b, g.HasPoints, g.BlackPoints, g.WhitePoints)
		score[g.White] += w.pts
		score[g.Black] += b.pts
	}
	if err := m.applyPoints(t); err != nil {
		return err
	}
	if t.Points == nil && len(t.Adjustments) == 0 {
		return nil // the scores summed above are the slots' points
	}
	for i := range m.slots {
		m.score[i] = m.extra(i)
		for _, s := range m.slots[i] {
			m.score[i] += s.pts
		}
	}
	return nil
}

// applyPoints scores the slots by the tournament's point system, when it has one,
// and adds its adjustments: those of a round to that round, the others to bonus.
func (m *model) applyPoints(t *Tournament) error {
	m.win, m.draw = 2, 1
	m.bonus = m.bonus[:0]
	if t.Points != nil {
		m.win, m.draw = t.Points.Win, t.Points.Draw
		for k := range m.all {
			m.all[k].pts = t.Points.Score(m.all[k].code)
		}
	}
	for k, a := range t.Adjustments {
		if a.Player < 0 || a.Player >= len(m.slots) || a.Round < 0 {
			return fmt.Errorf("adjustment %d: player %d, round %d: %w", k+1, a.Player, a.Round, ErrBadGame)
		}
		switch {
		case a.Round == 0:
			if len(m.bonus) == 0 {
				m.bonus = resize(m.bonus, len(m.slots))
				clear(m.bonus)
			}
			m.bonus[a.Player] += a.Points
		case a.Round <= m.n:
			m.slots[a.Player][a.Round-1].pts += a.Points
		}
	}
	return nil
}

// extra is player i's adjustment in no round, half-points.
func (m *model) extra(i int) int {
	if len(m.bonus) == 0 {
		return 0
	}
	return m.bonus[i]
}

// fill makes s a game against opp. It sets the fields one by one: a composite
// literal would be built on the stack and copied in reset's loop.
func (s *slot) fill(opp int, color byte, r result, hasPts bool, gp, op int32) {
	s.opp, s.pts, s.gp, s.op = opp, r.pts, gp, op
	s.color, s.code = color, r.code
	s.otb, s.forf, s.hasPts, s.set = r.played, r.forf, hasPts, true
}

// played reports whether slot s counts as a game over the board, given whether
// forfeits count as played.
func (s slot) played(forfeitsPlayed bool) bool {
	return s.otb || (forfeitsPlayed && s.forf)
}

// vur reports a voluntarily unplayed round (C.07 16.1), given whether forfeits count
// as played: half-point bye, zero-point bye or absence, forfeit loss. A full-point
// bye F is not one (16.2.1, with the PAB).
func (s slot) vur(forfeitsPlayed bool) bool {
	switch s.code {
	case 'H', 'Z':
		return true
	case '-':
		return !s.played(forfeitsPlayed)
	}
	return false
}
