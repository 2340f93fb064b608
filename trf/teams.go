package trf

import (
	"fmt"
	"strconv"
	"strings"
)

// Team is a team record: TRF16's 013 (no number: Number is the order of its record
// among the 013 records) or TRF-2026's 310.
type Team struct {
	Line    int
	Number  int
	Name    string
	Players []int // starting ranks by board (index = board − 1); 0 = an empty board
	err     error // why the record is left out
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
