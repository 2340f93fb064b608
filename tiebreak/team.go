package tiebreak

import (
	"fmt"
	"slices"
)

// Team is one team of a team competition.
type Team struct {
	// Number is the team's number: the order of its TRF16 013 record, or its
	// TRF-2026 number.
	Number int
	Name   string
	// Players are the team's players in their board order, as indexes into
	// Tournament.Players; -1 is an empty place in the list.
	Players []int
}

// TeamBye is a team's unplayed round that the file declares (TRF-2026 320, a
// pairing-allocated bye) rather than one read from the players' rounds.
type TeamBye struct {
	Team  int  // index into TeamTournament.Teams
	Round int  // 1-based
	Code  byte // 'U' pairing-allocated, 'F' full-point, 'H' half-point, 'Z' zero-point
}

// TeamPoints are the match points of a team competition, in half-points: the
// standard system is a match won 4 (2 match points), drawn 2, lost 0.
type TeamPoints struct {
	Win, Draw, Loss int
	// PAB is the match points of the pairing-allocated bye, PABBoard the game points
	// it gives on every board; PABGame, when not 0, its game points in all (a file's
	// declared bye), spread over the boards from the top.
	PAB, PABBoard, PABGame int
}

// StandardTeamPoints is 2–1–0 match points, and the pairing-allocated bye as a
// drawn match drawn on every board (FIDE TEC's worked team examples: 1 match point,
// half the game points).
func StandardTeamPoints() TeamPoints {
	return TeamPoints{Win: 4, Draw: 2, PAB: 2, PABBoard: 1}
}

// TeamTournament is a team competition: its teams and the individual games their
// players played. The matches are inferred from the games (Matches).
type TeamTournament struct {
	Tournament *Tournament
	Teams      []Team
	// System is "round-robin" or "swiss"; "" infers it from the matches: a round
	// robin when every pair of teams met equally often, or when there are as many
	// teams as rounds, or one more (a league with a match left unplayed).
	System string
	Points *TeamPoints // nil is StandardTeamPoints
	Byes   []TeamBye
	// Orders are board orders the file declares for a round (TRF-2026 300); a
	// match without one is laid out in list order (matchBoards).
	Orders []BoardOrder
}

// BoardOrder is a team's board order in one round: the player on each board (an
// index into Tournament.Players), -1 for an empty board.
type BoardOrder struct {
	Team, Round int // index into TeamTournament.Teams; 1-based
	Players     []int
}

// Match is one team's round. Points are in half-points.
type Match struct {
	Opp int // the opposing team (index into Teams), -1 for none
	// Code is '1', '=' or '0' for a match won, drawn or lost with at least one board
	// played; '+' or '-' for a match won or lost with no board played ('-' on both
	// sides for a double forfeit); 'U', 'F', 'H' or 'Z' for a round without an
	// opposing team: the pairing-allocated bye, a full-point, half-point or
	// zero-point bye (an absent team, or a round robin's rest round).
	Code   byte
	MP, GP int
	// Boards are the game points on each board, board 1 first, as many as the
	// competition has boards; Players the player on each board (an index into
	// Tournament.Players), -1 for an empty board.
	Boards  []int
	Players []int
	// OutOfOrder is the first board (1-based) whose player met an opponent out of
	// the opposing team's list order, 0 when the boards met in list order.
	OutOfOrder int
}

// played reports a match with at least one board played over the board.
func (m Match) played() bool { return m.Code == '1' || m.Code == '=' || m.Code == '0' }

// teamMatches is what Matches infers: every team's rounds, the number of boards
// and whether the competition is a round robin.
type teamMatches struct {
	rounds     [][]Match // by team, then round − 1
	boards     int
	roundRobin bool
	points     TeamPoints
}

// Matches infers each team's match of every round from the individual games: a
// team meets the team whose players its players met. A player's board is his
// place among the players of his team who took part in the round (his list order,
// those who did not take part left out). A match is won by the team with more game
// points; equal game points are a draw, or a loss for both when neither scored. A
// team that met no team plays its declared bye, else the bye its players' rounds
// show (U, F or H on any player), else no round; in a Swiss, the one team of a
// round that met no team while the others did has the pairing-allocated bye (files
// often write it as a zero-point bye on every player). In a round robin, two teams
// of a round that met no team and never met elsewhere are the pairing that was
// forfeited.
func Matches(tt *TeamTournament) ([][]Match, error) {
	tm, err := matches(tt)
	if err != nil {
		return nil, err
	}
	return tm.rounds, nil
}

func matches(tt *TeamTournament) (*teamMatches, error) {
	t := *tt.Tournament
	t.Points, t.Adjustments = nil, nil // game points are 1–½–0 whatever the individual system
	m, err := newModel(&t, Options{})
	if err != nil {
		return nil, err
	}
	nt, n := len(tt.Teams), m.n
	teamOf := make([]int, len(t.Players))
	for i := range teamOf {
		teamOf[i] = -1
	}
	for k, team := range tt.Teams {
		for _, p := range team.Players {
			if p < 0 {
				continue
			}
			if p >= len(t.Players) {
				return nil, fmt.Errorf("team %d: player index %d: %w", team.Number, p, ErrBadGame)
			}
			if teamOf[p] >= 0 {
				return nil, fmt.Errorf("player %d is in teams %d and %d: %w", t.Players[p].StartNo, tt.Teams[teamOf[p]].Number, team.Number, ErrBadGame)
			}
			teamOf[p] = k
		}
	}
	tm := &teamMatches{rounds: make([][]Match, nt), points: StandardTeamPoints()}
	if tt.Points != nil {
		tm.points = *tt.Points
	}
	opp := make([][]int, nt) // opposing team by round, -1 none
	for k, team := range tt.Teams {
		opp[k] = make([]int, n)
		for r := range n {
			opp[k][r] = -1
			fielded := 0
			for _, p := range team.Players {
				if p < 0 {
					continue
				}
				s := m.slots[p][r]
				if s.opp >= 0 || s.code != 'Z' {
					fielded++
				}
				if s.opp < 0 {
					continue
				}
				o := teamOf[s.opp]
				switch {
				case o < 0:
					return nil, fmt.Errorf("round %d: player %d of team %d met player %d, who is in no team: %w", r+1, t.Players[p].StartNo, team.Number, t.Players[s.opp].StartNo, ErrBadGame)
				case o == k:
					return nil, fmt.Errorf("round %d: players %d and %d of team %d met: %w", r+1, t.Players[p].StartNo, t.Players[s.opp].StartNo, team.Number, ErrBadGame)
				case opp[k][r] >= 0 && opp[k][r] != o:
					return nil, fmt.Errorf("round %d: team %d met teams %d and %d: %w", r+1, team.Number, tt.Teams[opp[k][r]].Number, tt.Teams[o].Number, ErrBadGame)
				}
				opp[k][r] = o
			}
			if opp[k][r] < 0 {
				tm.boards = max(tm.boards, fielded) // a bye's boards
			}
		}
	}
	tm.roundRobin = teamRoundRobin(tt.System, opp, n)
	byes := map[[2]int]byte{}
	for _, b := range tt.Byes {
		if b.Team < 0 || b.Team >= nt || b.Round < 1 {
			return nil, fmt.Errorf("team bye of team index %d, round %d: %w", b.Team, b.Round, ErrBadGame)
		}
		if b.Round <= n {
			byes[[2]int{b.Team, b.Round - 1}] = b.Code
		}
	}
	orders := map[[2]int][]int{}
	for _, bo := range tt.Orders {
		if bo.Team < 0 || bo.Team >= nt || bo.Round < 1 {
			return nil, fmt.Errorf("board order of team index %d, round %d: %w", bo.Team, bo.Round, ErrBadGame)
		}
		orders[[2]int{bo.Team, bo.Round - 1}] = bo.Players
	}
	layout := map[[2]int]boardLayout{} // {team, round} → its match's boards
	for r := range n {
		for k := range nt {
			if o := opp[k][r]; o > k {
				a, b := matchBoards(m, tt.Teams[k], tt.Teams[o], r)
				if order, ok := orders[[2]int{k, r}]; ok {
					a, b = orderedBoards(m, order, orders[[2]int{o, r}], tt.Teams[o], r)
				} else if order, ok := orders[[2]int{o, r}]; ok {
					b, a = orderedBoards(m, order, nil, tt.Teams[k], r)
				}
				layout[[2]int{k, r}], layout[[2]int{o, r}] = a, b
				tm.boards = max(tm.boards, len(a.players))
			}
		}
	}
	for r := range n {
		var alone []int // teams that met no team in round r
		for k := range nt {
			if opp[k][r] < 0 {
				alone = append(alone, k)
			}
		}
		if tm.roundRobin && len(alone) == 2 && !met(opp, alone[0], alone[1]) {
			opp[alone[0]][r], opp[alone[1]][r] = alone[1], alone[0]
			alone = nil
		}
		for k, team := range tt.Teams {
			if opp[k][r] >= 0 {
				continue
			}
			code, ok := byes[[2]int{k, r}]
			if !ok {
				code = byeOf(m, team, r)
			}
			if code == 'Z' && !tm.roundRobin && len(alone) == 1 {
				code = 'U'
			}
			tm.rounds[k] = append(tm.rounds[k], tm.bye(code))
		}
		for k, team := range tt.Teams {
			o := opp[k][r]
			if o < 0 {
				continue
			}
			if _, ok := layout[[2]int{k, r}]; !ok { // a pairing inferred above
				a, b := matchBoards(m, team, tt.Teams[o], r)
				layout[[2]int{k, r}], layout[[2]int{o, r}] = a, b
			}
			mine, theirs := layout[[2]int{k, r}].points(m, r, tm.boards), layout[[2]int{o, r}].points(m, r, tm.boards)
			mt := Match{Opp: o, Boards: mine, Players: layout[[2]int{k, r}].padded(tm.boards), OutOfOrder: layout[[2]int{k, r}].outOfOrder}
			var gpO int
			for _, b := range mine {
				mt.GP += b
			}
			for _, b := range theirs {
				gpO += b
			}
			played := fieldedOTB(m, team, r) || fieldedOTB(m, tt.Teams[o], r)
			switch {
			case mt.GP > gpO:
				mt.Code, mt.MP = '1', tm.points.Win
			case mt.GP < gpO || mt.GP == 0:
				mt.Code, mt.MP = '0', tm.points.Loss
			default:
				mt.Code, mt.MP = '=', tm.points.Draw
			}
			if !played {
				mt.Code = map[byte]byte{'1': '+', '0': '-', '=': '='}[mt.Code]
			}
			tm.rounds[k] = append(tm.rounds[k], mt)
		}
	}
	return tm, nil
}

// bye is a team's round without an opposing team.
func (tm *teamMatches) bye(code byte) Match {
	per := 0 // game points on each board
	mt := Match{Opp: -1, Code: code}
	switch code {
	case 'U':
		mt.MP, per = tm.points.PAB, tm.points.PABBoard
	case 'F':
		mt.MP, per = tm.points.Win, 2
	case 'H':
		mt.MP, per = tm.points.Draw, 1
	}
	mt.Boards = make([]int, tm.boards)
	for b := range mt.Boards {
		mt.Boards[b] = per
	}
	mt.GP = per * tm.boards
	if code == 'U' && tm.points.PABGame != 0 {
		mt.GP = tm.points.PABGame
		for b := range mt.Boards {
			mt.Boards[b] = min(2, max(0, mt.GP-2*b)) // whole points from the top board down
		}
	}
	return mt
}

// byeOf is the bye a team's players' rounds show: U, F or H on any of them, else Z.
func byeOf(m *model, team Team, r int) byte {
	best := byte('Z')
	for _, p := range team.Players {
		if p < 0 {
			continue
		}
		switch c := m.slots[p][r].code; {
		case c == 'U':
			return 'U'
		case c == 'F' || c == '+':
			best = 'F'
		case c == 'H' && best == 'Z':
			best = 'H'
		}
	}
	return best
}

// boardLayout is one team's side of a match: its player on each board (-1 for
// an empty board) and the first board met out of list order (0 for none).
type boardLayout struct {
	players    []int
	outOfOrder int
}

// matchBoards lays out a match's boards: the players of the two teams who took
// part in round r, each team in its list order, board by board. A player without
// an opponent (a forfeit written on one side only) takes a board whose other side
// is empty; a player who met an opponent out of that team's list order takes his
// opponent with him to his board, and the board is marked.
func matchBoards(m *model, ta, tb Team, r int) (a, b boardLayout) {
	la, lb := takingPart(m, ta, r), takingPart(m, tb, r)
	placed := map[int]bool{}
	mark := func(l *boardLayout) {
		if l.outOfOrder == 0 {
			l.outOfOrder = len(l.players)
		}
	}
	for {
		for len(lb) > 0 && placed[lb[0]] {
			lb = lb[1:]
		}
		switch {
		case len(la) == 0 && len(lb) == 0:
			return a, b
		case len(la) > 0 && m.slots[la[0]][r].opp < 0:
			a.players, b.players = append(a.players, la[0]), append(b.players, -1)
			la = la[1:]
		case len(lb) > 0 && m.slots[lb[0]][r].opp < 0 || len(la) == 0:
			a.players, b.players = append(a.players, -1), append(b.players, lb[0])
			lb = lb[1:]
		default:
			o := m.slots[la[0]][r].opp
			a.players, b.players = append(a.players, la[0]), append(b.players, o)
			if len(lb) == 0 || lb[0] != o {
				mark(&a)
				mark(&b)
			}
			placed[o] = true
			la = la[1:]
		}
	}
}

// orderedBoards lays out a match whose team a has a declared board order: its
// players on the boards the order gives them, the other team's as its own order
// gives them, else each opposite his opponent, and those without an opponent (a
// forfeit written on their side only) on the boards team a left empty, in list
// order.
func orderedBoards(m *model, order, other []int, tb Team, r int) (a, b boardLayout) {
	a.players = slices.Clone(order)
	if other != nil {
		b.players = slices.Clone(other)
	} else {
		b.players = make([]int, len(order))
		placed := map[int]bool{}
		for k, p := range order {
			b.players[k] = -1
			if p >= 0 && m.slots[p][r].opp >= 0 {
				b.players[k] = m.slots[p][r].opp
				placed[m.slots[p][r].opp] = true
			}
		}
		free := 0
		for _, q := range takingPart(m, tb, r) {
			if placed[q] {
				continue
			}
			for free < len(b.players) && (b.players[free] >= 0 || order[free] >= 0) {
				free++
			}
			if free == len(b.players) {
				b.players = append(b.players, q)
			} else {
				b.players[free] = q
			}
		}
	}
	for len(b.players) < len(a.players) {
		b.players = append(b.players, -1)
	}
	for len(a.players) < len(b.players) {
		a.players = append(a.players, -1)
	}
	return a, b
}

// takingPart are a team's players who took part in round r (a game, a forfeit, a
// bye result other than zero), in list order.
func takingPart(m *model, team Team, r int) []int {
	var out []int
	for _, p := range team.Players {
		if p >= 0 && (m.slots[p][r].opp >= 0 || m.slots[p][r].code != 'Z') {
			out = append(out, p)
		}
	}
	return out
}

// points are the side's game points by board, padded to the competition's boards.
func (l boardLayout) points(m *model, r, boards int) []int {
	out := make([]int, boards)
	for b, p := range l.players {
		if p >= 0 && b < boards {
			out[b] = m.slots[p][r].pts
		}
	}
	return out
}

// padded is the side's players by board, padded with empty boards.
func (l boardLayout) padded(boards int) []int {
	out := make([]int, boards)
	for b := range out {
		out[b] = -1
		if b < len(l.players) {
			out[b] = l.players[b]
		}
	}
	return out
}

// fieldedOTB reports whether a player of the team played a game over the board in
// round r.
func fieldedOTB(m *model, team Team, r int) bool {
	for _, p := range team.Players {
		if p >= 0 && m.slots[p][r].otb {
			return true
		}
	}
	return false
}

func met(opp [][]int, a, b int) bool { return slices.Contains(opp[a], b) }

// teamRoundRobin decides the system: as named, else a round robin when every pair
// of teams met equally often, or when the teams are as many as the rounds or one
// more (single or double: a league whose header says only "Team League" and
// leaves a match unplayed).
func teamRoundRobin(system string, opp [][]int, n int) bool {
	switch {
	case isRoundRobin(system):
		return true
	case system != "":
		return false
	}
	nt := len(opp)
	if nt < 2 {
		return false
	}
	count := map[[2]int]int{}
	for a := range opp {
		for _, b := range opp[a] {
			if b > a {
				count[[2]int{a, b}]++
			}
		}
	}
	if len(count) == nt*(nt-1)/2 {
		k := -1
		equal := true
		for _, c := range count {
			equal = equal && (k < 0 || c == k)
			k = c
		}
		if equal {
			return true
		}
	}
	return nt == n+1 || nt == n || 2*nt == n+2 || 2*nt == n
}

// teamModel is the model whose players are the teams and whose results are the
// matches, scored in match points (gp false) or game points.
func (tm *teamMatches) teamModel(tt *TeamTournament, gp bool) *model {
	nt := len(tm.rounds)
	n := 0
	if nt > 0 {
		n = len(tm.rounds[0])
	}
	t := &Tournament{Rounds: n, System: "swiss"}
	for _, team := range tt.Teams {
		t.Players = append(t.Players, Player{StartNo: team.Number, Name: team.Name})
	}
	m := &model{t: t, n: n, roundRobin: tm.roundRobin, rr: tm.roundRobin}
	m.win, m.draw = tm.points.Win, tm.points.Draw
	if gp {
		m.win, m.draw = 2*tm.boards, tm.boards
	}
	m.score = make([]int, nt)
	m.slots = make([][]slot, nt)
	for k, row := range tm.rounds {
		m.slots[k] = make([]slot, n)
		for r, mt := range row {
			s := slot{opp: mt.Opp, code: mt.Code, pts: mt.MP, otb: mt.played(), set: true}
			if gp {
				s.pts = mt.GP
			}
			s.forf = mt.Opp >= 0 && !s.otb
			m.slots[k][r] = s
			m.score[k] += s.pts
		}
	}
	return m
}
