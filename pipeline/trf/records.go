package trf

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// standardPoints are the points ratelist scores, by point-system symbol: 162's
// W D L A P (TRF-2026) and the XXS codes of JaVaFo's TRF(x). X, 162's "unknown
// result", names no result a TRF round holds, so any value is accepted.
var standardPoints = map[string]float64{
	"W": 1, "D": 0.5, "L": 0, "A": 0, "P": 1,
	"WW": 1, "BW": 1, "WD": 0.5, "BD": 0.5, "WL": 0, "BL": 0,
	"FW": 1, "FL": 0, "ZPB": 0, "HPB": 0.5, "FPB": 1, "PAB": 1,
}

// pointEntry is one "symbol points" pair: `W 1.0` (162) or `WW=1` (XXS).
var pointEntry = regexp.MustCompile(`([A-Za-z]+) *=? *(-?[0-9]+(?:[.,][0-9]+)?)`)

// checkPoints reads a 162 or XXS record from column 5 on. The standings score a
// win 1, a draw ½, a loss 0 and each bye by its code, so a point system that gives
// other points is refused at the value that differs: the numbers would be wrong.
func checkPoints(rs []rune, bad, badPoints func(int, string, ...any) error) error {
	text := cols(rs, 5, len(rs))
	at := 0 // runes of text consumed
	for _, m := range pointEntry.FindAllStringSubmatchIndex(text, -1) {
		if gap := text[at:m[0]]; strings.TrimSpace(gap) != "" {
			return bad(5+runeLen(text[:at])+strings.IndexFunc(gap, notSpace), "point system %q", strings.TrimSpace(gap))
		}
		at = m[1]
		sym, val := strings.ToUpper(text[m[2]:m[3]]), text[m[4]:m[5]]
		valCol := 5 + runeLen(text[:m[4]])
		v, err := strconv.ParseFloat(strings.Replace(val, ",", ".", 1), 64)
		if err != nil {
			return bad(valCol, "points %q", val)
		}
		want, known := standardPoints[sym]
		switch {
		case sym == "X":
		case !known:
			return bad(5+runeLen(text[:m[2]]), "point-system symbol %q", sym)
		case v != want:
			return badPoints(valCol, "%s = %s points (ratelist scores a win 1, a draw ½, a loss 0 and byes by their code)", sym, val)
		}
	}
	if rest := text[at:]; strings.TrimSpace(rest) != "" {
		return bad(5+runeLen(text[:at])+strings.IndexFunc(rest, notSpace), "point system %q", strings.TrimSpace(rest))
	}
	return nil
}

func notSpace(r rune) bool { return r != ' ' && r != '\t' }

func runeLen(s string) int { return len([]rune(s)) }

// roundBye is a 240 record: a bye of one type for some players in one round.
type roundBye struct {
	line    int
	code    byte // 'F', 'H' or 'Z'
	round   int
	players []int // starting ranks
	columns []int // where each starting rank is written
}

// parseRoundBye reads `240 T RRR PPPP PPPP ...`: type in column 5, round in 7–9,
// starting ranks in 11–14, 16–19, and so on.
func parseRoundBye(rs []rune, line int, bad func(int, string, ...any) error) (roundBye, error) {
	b := roundBye{line: line}
	switch t := strings.ToUpper(cols(rs, 5, 5)); t {
	case "F", "H", "Z":
		b.code = t[0]
	default:
		return b, bad(5, "bye type %q", t)
	}
	s := strings.TrimSpace(cols(rs, 7, 9))
	r, err := strconv.Atoi(s)
	if err != nil || r < 1 {
		return b, bad(7, "round %q", s)
	}
	b.round = r
	for c := 11; c <= len(rs); c += 5 {
		s := strings.TrimSpace(cols(rs, c, c+3))
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return b, bad(c, "starting rank %q", s)
		}
		b.players, b.columns = append(b.players, n), append(b.columns, c)
	}
	return b, nil
}

// abnormal is a 299 record: the points a player really got in a round.
type abnormal struct {
	line    int
	kind    byte // W D L F H Z + - or ' ' (a bonus or penalty)
	points  float64
	round   int // 0 = every round
	players []int
	columns []int
}

// parseAbnormal reads `299 T  MMMM  GGGG  RRR PPPP ...`: type in column 5, match
// points (teams only, not read) in 8–11, points in 14–17, round in 20–22, starting
// ranks from 24 on, every 5 columns.
func parseAbnormal(rs []rune, line int, bad func(int, string, ...any) error) (abnormal, error) {
	a := abnormal{line: line}
	t := strings.ToUpper(cols(rs, 5, 5))
	if t == "" {
		t = " "
	}
	if len(t) != 1 || !strings.Contains("WDLFHZ+- ", t) {
		return a, bad(5, "assignment type %q", t)
	}
	a.kind = t[0]
	if s := strings.TrimSpace(cols(rs, 14, 17)); s != "" {
		v, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
		if err != nil {
			return a, bad(14, "points %q", s)
		}
		a.points = v
	}
	if s := strings.TrimSpace(cols(rs, 20, 22)); s != "" {
		r, err := strconv.Atoi(s)
		if err != nil || r < 0 {
			return a, bad(20, "round %q", s)
		}
		a.round = r
	}
	for c := 24; c <= len(rs); c += 5 {
		s := strings.TrimSpace(cols(rs, c, c+3))
		if s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return a, bad(c, "starting rank %q", s)
		}
		if n > 0 {
			a.players, a.columns = append(a.players, n), append(a.columns, c)
		}
	}
	return a, nil
}

// applyByes writes the 240 byes into the players' rounds. A bye for a round after
// the last one any 001 record shows is a request for a round not yet paired and is
// left out; one that contradicts the player's own record is an error.
func (f *File) applyByes(byes []roundBye) error {
	played := f.playedRounds()
	for _, b := range byes {
		if b.round > played {
			continue
		}
		for k, sno := range b.players {
			rd, err := f.roundOf(sno, b.round, b.line, b.columns[k])
			if err != nil {
				return err
			}
			switch {
			case rd.Result == b.code && rd.Opp == 0:
			case rd.Opp == 0 && rd.Result == 'Z':
				rd.Result = b.code
			default:
				return &SyntaxError{File: f.fileName, Line: b.line, Column: b.columns[k], Err: fmt.Errorf("player %d round %d: bye %c, but his 001 record (line %d) shows %s: %w", sno, b.round, b.code, f.player(sno).Line, describe(*rd), ErrPairing)}
			}
		}
	}
	return nil
}

// applyAbnormal writes the 299 assignments that a round's code can hold (a win,
// draw or loss kept as played or forfeited, a bye) into the players' rounds. Points
// no code carries — a bonus or penalty, a win worth ½ — are refused: the standings
// count only what the round codes score.
func (f *File) applyAbnormal(as []abnormal) error {
	for _, a := range as {
		for k, sno := range a.players {
			bad := func(format string, args ...any) error {
				return &SyntaxError{File: f.fileName, Line: a.line, Column: a.columns[k], Err: fmt.Errorf("player %d: "+format+": %w", append(append([]any{sno}, args...), ErrPoints)...)}
			}
			if a.kind == ' ' {
				if a.points != 0 {
					return bad("%g bonus or penalty points outside the round results", a.points)
				}
				continue
			}
			if a.round == 0 {
				return bad("assignment %c without a round", a.kind)
			}
			rd, err := f.roundOf(sno, a.round, a.line, a.columns[k])
			if err != nil {
				return err
			}
			code, ok := assignedCode(a.kind, a.points, *rd)
			if !ok {
				return bad("round %d: %c worth %g points, with his 001 record (line %d) showing %s", a.round, a.kind, a.points, f.player(sno).Line, describe(*rd))
			}
			rd.Result = code
		}
	}
	return nil
}

// assignedCode is the round code for a 299 assignment of kind worth points in a
// round that reads rd: played results stay rated (1 = 0) or unrated (W D L) as the
// record has them; byes need a round without an opponent.
func assignedCode(kind byte, points float64, rd Round) (byte, bool) {
	var code byte
	unrated := strings.IndexByte("WDL", rd.Result) >= 0
	switch {
	case strings.IndexByte("WDL", kind) >= 0 && rd.Opp != 0:
		code = "10="[strings.IndexByte("WLD", kind)]
		if unrated {
			code = kind
		}
	case strings.IndexByte("FHZ", kind) >= 0 && rd.Opp == 0:
		code = kind
	case kind == '+' || kind == '-':
		code = kind
	default:
		return 0, false
	}
	return code, points == resultPoints(code)
}

// resultPoints is what a round code scores.
func resultPoints(c byte) float64 {
	switch c {
	case '1', 'W', '+', 'F', 'U':
		return 1
	case '=', 'D', 'H':
		return 0.5
	}
	return 0
}

// playedRounds is the number of rounds the longest 001 record shows.
func (f *File) playedRounds() int {
	n := 0
	for _, p := range f.Players {
		n = max(n, len(p.Rounds))
	}
	return n
}

// player is the 001 record of a starting rank; the players are sorted.
func (f *File) player(sno int) *Player {
	i, found := slices.BinarySearchFunc(f.Players, sno, func(p Player, n int) int { return cmp.Compare(p.StartNo, n) })
	if !found {
		return nil
	}
	return &f.Players[i]
}

// roundOf is player sno's round r (1-based), his record extended with empty rounds
// when it is shorter.
func (f *File) roundOf(sno, r, line, col int) (*Round, error) {
	p := f.player(sno)
	if p == nil {
		return nil, &SyntaxError{File: f.fileName, Line: line, Column: col, Err: fmt.Errorf("starting rank %d: %w", sno, ErrUnknownOpponent)}
	}
	for len(p.Rounds) < r {
		p.Rounds = append(p.Rounds, Round{Result: 'Z'})
	}
	return &p.Rounds[r-1], nil
}

func describe(rd Round) string {
	if rd.Opp == 0 {
		return fmt.Sprintf("%q without an opponent", string(rd.Result))
	}
	return fmt.Sprintf("%q against %d", string(rd.Result), rd.Opp)
}
