package trf

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/tiebreak"
)

// Team is a team record: TRF16's 013 (no number: Number is the order of its record
// among the 013 records) or TRF-2026's 310.
type Team struct {
	Line    int
	Number  int
	Name    string
	Players []int // starting ranks by board (index = board − 1); 0 = an empty board
	// MP and GP are the match and game points a TRF-2026 310 record declares
	// (columns 55–60, 62–67), in half-points; HasScore tells they are written.
	MP, GP   int
	HasScore bool
	err      error // why the record is left out
}

// parseTeam reads a team record. 013: name in columns 5–36, then the starting
// ranks in 37–40, 42–45, … (a name filling its 32 columns runs into the first
// number without a blank; columns count characters, so UTF-8 names keep them).
// 310: team number in 5–7, name in 9–40, starting ranks from 74–77 on, every 5
// columns. A 013 whose numbers are out of their columns is read by words
// (looseTeam). A record that does not read is kept with its error (applyTeams notes
// it).
func parseTeam(rs []rune, line int) Team {
	t := Team{Line: line}
	first := 37
	if rs[0] == '3' {
		first = 74
		s := strings.TrimSpace(cols(rs, 5, 7))
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.err = fmt.Errorf("column 5: team number %q", s)
			return t
		}
		t.Number = n
		t.Name = strings.TrimSpace(cols(rs, 9, 40))
		mp, errMP := halfPoints(strings.TrimSpace(cols(rs, 55, 60)))
		gp, errGP := halfPoints(strings.TrimSpace(cols(rs, 62, 67)))
		if errMP == nil && errGP == nil && strings.TrimSpace(cols(rs, 55, 60)) != "" {
			t.MP, t.GP, t.HasScore = mp, gp, true
		}
	} else {
		t.Name = strings.TrimSpace(cols(rs, 5, 36))
	}
	for c := first; c <= len(rs); c += 5 {
		s := strings.TrimSpace(cols(rs, c, c+3))
		n := 0
		if s != "" {
			var err error
			if n, err = strconv.Atoi(s); err != nil || n < 0 {
				if rs[0] == '0' {
					if name, players, ok := looseTeam(cols(rs, 5, len(rs))); ok {
						t.Name, t.Players = name, players
						return t
					}
				}
				t.err = fmt.Errorf("column %d: starting rank %q", c, s)
				return t
			}
		}
		t.Players = append(t.Players, n)
	}
	for len(t.Players) > 0 && t.Players[len(t.Players)-1] == 0 {
		t.Players = t.Players[:len(t.Players)-1]
	}
	return t
}

// applyTeams gives every player of a team
// his team and board, and drops, with a note, a team record that does not read,
// names a starting rank without a 001 record, or names a player already in a team.
func (f *File) applyTeams() {
	var kept []Team
	for _, t := range f.Teams {
		for _, k := range kept {
			if t.err == nil && k.Number == t.Number {
				t.err = fmt.Errorf("team number %d already on line %d", t.Number, k.Line)
			}
		}
		for _, sno := range t.Players {
			switch p := f.player(sno); {
			case t.err != nil || sno == 0:
			case p == nil:
				t.err = fmt.Errorf("starting rank %d: %w", sno, ErrUnknownOpponent)
			case p.Team != 0:
				t.err = fmt.Errorf("starting rank %d is already in team %d", sno, p.Team)
			}
		}
		if t.err != nil {
			f.Warnings = append(f.Warnings, &SyntaxError{File: f.fileName, Line: t.Line, Err: fmt.Errorf("%w: %w", ErrTeam, t.err)})
			continue
		}
		for board, sno := range t.Players {
			if p := f.player(sno); p != nil {
				p.Team, p.Board = t.Number, board+1
			}
		}
		kept = append(kept, t)
	}
	f.Teams = kept
}

// looseTeam reads a 013 record whose numbers are not in their columns (a name
// longer than 32 characters, single blanks between the numbers): the name is the
// words up to the trailing numbers, the boards their order.
func looseTeam(text string) (string, []int, bool) {
	words := strings.Fields(text)
	k := len(words)
	for k > 0 {
		if n, err := strconv.Atoi(words[k-1]); err != nil || n <= 0 {
			break
		}
		k--
	}
	if k == 0 || k == len(words) {
		return "", nil, false
	}
	players := make([]int, 0, len(words)-k)
	for _, w := range words[k:] {
		n, _ := strconv.Atoi(w)
		players = append(players, n)
	}
	return strings.Join(words[:k], " "), players, true
}

// TeamPAB is a TRF-2026 320 record: the match and game points of the
// pairing-allocated team bye (half-points) and the team that had it in each round.
type TeamPAB struct {
	Line   int
	MP, GP int
	Teams  []int // by round − 1: the team number, 0 for none
}

// parseTeamPAB reads `320 MMMM GGGG TTT TTT ...`: match points in 5–8, game points
// in 10–13, then one team number a round in 15–17, 19–21, and so on.
func parseTeamPAB(rs []rune, line int, bad, badPoints func(int, string, ...any) error) (TeamPAB, error) {
	p := TeamPAB{Line: line}
	var err error
	if p.MP, err = halfPoints(strings.TrimSpace(cols(rs, 5, 8))); err != nil {
		return p, badPoints(5, "match points %q", cols(rs, 5, 8))
	}
	if p.GP, err = halfPoints(strings.TrimSpace(cols(rs, 10, 13))); err != nil {
		return p, badPoints(10, "game points %q", cols(rs, 10, 13))
	}
	for c := 15; c <= len(rs); c += 4 {
		s := strings.TrimSpace(cols(rs, c, c+2))
		n := 0
		if s != "" {
			if n, err = strconv.Atoi(s); err != nil || n < 0 {
				return p, bad(c, "team number %q", s)
			}
		}
		p.Teams = append(p.Teams, n)
	}
	return p, nil
}

// teamWarning is a team record's positional error as a note: ErrTeam, the record
// left out.
func teamWarning(err error) *SyntaxError {
	var se *SyntaxError
	if !errors.As(err, &se) {
		return &SyntaxError{Err: fmt.Errorf("%w: %w", ErrTeam, err)}
	}
	return &SyntaxError{File: se.File, Line: se.Line, Column: se.Column, Err: fmt.Errorf("%w: %w", ErrTeam, se.Err)}
}

// BoardOrder is a TRF-2026 300 record: a team's board order in one round.
type BoardOrder struct {
	Line        int
	Round, Team int
	Players     []int // starting ranks by board; 0 = an empty board
}

// parseBoardOrder reads `300 RRR TTT OOO PPPP PPPP ...`: round in 5–7, the team in
// 9–11, its opponent in 13–15, then the starting ranks by board in 17–20, 22–25,
// and so on.
func parseBoardOrder(rs []rune, line int, bad func(int, string, ...any) error) (BoardOrder, error) {
	o := BoardOrder{Line: line}
	num := func(c, to int, what string) (int, error) {
		s := strings.TrimSpace(cols(rs, c, to))
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, bad(c, "%s %q", what, s)
		}
		return n, nil
	}
	var err error
	if o.Round, err = num(5, 7, "round"); err != nil {
		return o, err
	}
	if o.Team, err = num(9, 11, "team"); err != nil {
		return o, err
	}
	for c := 17; c <= len(rs); c += 5 {
		n := 0
		if strings.TrimSpace(cols(rs, c, c+3)) != "" {
			if n, err = num(c, c+3, "starting rank"); err != nil {
				return o, err
			}
		}
		o.Players = append(o.Players, n)
	}
	return o, nil
}

// TeamTournament converts the file's teams and games to a team competition. The
// system is a round robin or a Swiss as 192 or 092 names it, else the team
// standings infer it; the 320 records' team byes and points and the 300 records'
// board orders are carried over.
func (f *File) TeamTournament() (*tiebreak.TeamTournament, error) {
	if len(f.Teams) == 0 {
		return nil, &SyntaxError{File: f.fileName, Err: ErrNoTeams}
	}
	t, err := f.Tournament()
	if err != nil {
		return nil, err
	}
	index := make(map[int]int, len(f.Players))
	for i, p := range f.Players {
		index[p.StartNo] = i
	}
	tt := &tiebreak.TeamTournament{Tournament: t}
	for _, s := range []string{f.EncodedType, f.Type} {
		if tt.System = namedSystem(s); tt.System != "" {
			break
		}
	}
	number := map[int]int{}
	for k, team := range f.Teams {
		number[team.Number] = k
		tm := tiebreak.Team{Number: team.Number, Name: team.Name}
		for _, sno := range team.Players {
			i, ok := index[sno]
			if sno == 0 || !ok {
				i = -1
			}
			tm.Players = append(tm.Players, i)
		}
		tt.Teams = append(tt.Teams, tm)
	}
	for _, bo := range f.BoardOrders {
		k, ok := number[bo.Team]
		if !ok {
			return nil, &SyntaxError{File: f.fileName, Line: bo.Line, Column: 9, Err: fmt.Errorf("team %d: %w", bo.Team, ErrTeam)}
		}
		order := tiebreak.BoardOrder{Team: k, Round: bo.Round}
		for c, sno := range bo.Players {
			i, ok := index[sno]
			switch {
			case sno == 0:
				i = -1
			case !ok:
				return nil, &SyntaxError{File: f.fileName, Line: bo.Line, Column: 17 + 5*c, Err: fmt.Errorf("starting rank %d: %w", sno, ErrUnknownOpponent)}
			}
			order.Players = append(order.Players, i)
		}
		tt.Orders = append(tt.Orders, order)
	}
	for _, pab := range f.TeamPABs {
		pts := tiebreak.StandardTeamPoints()
		pts.PAB, pts.PABGame = pab.MP, pab.GP
		tt.Points = &pts
		for r, n := range pab.Teams {
			k, ok := number[n]
			switch {
			case n == 0:
			case !ok:
				return nil, &SyntaxError{File: f.fileName, Line: pab.Line, Column: 15 + 4*r, Err: fmt.Errorf("round %d: team %d: %w", r+1, n, ErrTeam)}
			default:
				tt.Byes = append(tt.Byes, tiebreak.TeamBye{Team: k, Round: r + 1, Code: 'U'})
			}
		}
	}
	return tt, nil
}

// checkTeamMatches checks the team competition as read: the pairings make team
// matches (TRF-TEAM-MATCH: one opposing team a round, never a team-mate), the
// boards of a match meet board for board in the teams' list order
// (TRF-TEAM-BOARDS), and a 310 record's match and game points are those its
// matches make (TRF-TEAM-SCORE).
func (f *File) checkTeamMatches() []Finding {
	if len(f.Teams) == 0 {
		return nil
	}
	for _, w := range f.Warnings {
		if errors.Is(w, ErrTeam) {
			return nil // a team record left out (TRF-TEAM): its players are in no team
		}
	}
	var out []Finding
	at := func(line, col int, sev Severity, code, fix, format string, args ...any) {
		out = append(out, Finding{File: f.fileName, Line: line, Column: col, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...), Fix: fix})
	}
	rounds := 0
	for _, p := range f.Players {
		rounds = max(rounds, len(p.Rounds))
	}
	broken := false
	for r := range rounds {
		opp := map[int]int{} // team → the team it met in round r
		for _, p := range f.Players {
			if r >= len(p.Rounds) || p.Rounds[r].Opp == 0 || p.Team == 0 {
				continue
			}
			q := f.player(p.Rounds[r].Opp)
			col := 92 + 10*r
			switch prev, ok := opp[p.Team]; {
			case q == nil || q.Team == 0:
				at(p.Line, col, Warning, "TRF-TEAM-MATCH", "put every player of a team competition in a team (013)", "round %d: starting rank %d of team %d met starting rank %d, who is in no team", r+1, p.StartNo, p.Team, p.Rounds[r].Opp)
				broken = true
			case q.Team == p.Team:
				at(p.Line, col, Warning, "TRF-TEAM-MATCH", "correct the pairing or the team records", "round %d: starting ranks %d and %d of team %d met", r+1, p.StartNo, q.StartNo, p.Team)
				broken = true
			case ok && prev != q.Team:
				at(p.Line, col, Warning, "TRF-TEAM-MATCH", "correct the pairing or the team records", "round %d: team %d met teams %d and %d", r+1, p.Team, prev, q.Team)
				broken = true
			default:
				opp[p.Team] = q.Team
			}
		}
	}
	if broken {
		return out
	}
	tt, err := f.TeamTournament()
	if err != nil {
		return out
	}
	rows, err := tiebreak.TeamStandings(tt, nil, tiebreak.TeamOptions{})
	if err != nil {
		return out
	}
	ms, err := tiebreak.Matches(tt)
	if err != nil {
		return out
	}
	for k, row := range ms {
		for r, m := range row {
			if m.OutOfOrder == 0 || k > m.Opp {
				continue // one finding a match, on the lower-numbered team
			}
			p := f.Players[m.Players[m.OutOfOrder-1]]
			at(p.Line, 92+10*r, Warning, "TRF-TEAM-BOARDS", "list each team's players in board order in its team record (TRF-2026: give the round's board order in a 300 record)",
				"round %d: team %d against team %d: starting rank %d, board %d, met an opponent out of team %d's list order; the board points (BC, TBR, BBE) follow the pairings",
				r+1, tt.Teams[k].Number, tt.Teams[m.Opp].Number, p.StartNo, m.OutOfOrder, tt.Teams[m.Opp].Number)
		}
	}
	for _, row := range rows {
		t := f.Teams[row.Index]
		if !t.HasScore {
			continue
		}
		if mp := int(2 * row.MP); mp != t.MP {
			at(t.Line, 55, Warning, "TRF-TEAM-SCORE", fmt.Sprintf("write %s in 55–60, or declare the difference (a penalty) in a 299 record", formatHalf(mp)), "team %d declares %s match points, its matches make %s", t.Number, formatHalf(t.MP), formatHalf(mp))
		}
		if gp := int(2 * row.GP); gp != t.GP {
			at(t.Line, 62, Warning, "TRF-TEAM-SCORE", fmt.Sprintf("write %s in 62–67, or declare the difference in a 299 record", formatHalf(gp)), "team %d declares %s game points, its boards make %s", t.Number, formatHalf(t.GP), formatHalf(gp))
		}
	}
	return out
}

// formatHalf prints half-points as points: 7, 7.5.
func formatHalf(h int) string {
	if h%2 == 0 {
		return strconv.Itoa(h / 2)
	}
	return fmt.Sprintf("%d.5", h/2)
}
