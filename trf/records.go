package trf

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/tiebreak"
)

// pointFields are the results each point-system symbol sets, in 162's W D L A P
// (TRF-2026) and the XXS codes of JaVaFo's TRF(x): a win's points also go to a
// forfeit win and a full-point bye, a draw's to a half-point bye, a loss's to a
// forfeit loss. X, 162's "unknown result", names no result a TRF round holds.
var pointFields = map[string]func(*tiebreak.PointSystem) []*int{
	"W":   func(p *tiebreak.PointSystem) []*int { return []*int{&p.Win, &p.ForfeitWin, &p.FullBye} },
	"D":   func(p *tiebreak.PointSystem) []*int { return []*int{&p.Draw, &p.HalfBye} },
	"L":   func(p *tiebreak.PointSystem) []*int { return []*int{&p.Loss, &p.ForfeitLoss} },
	"A":   func(p *tiebreak.PointSystem) []*int { return []*int{&p.ZeroBye} },
	"P":   func(p *tiebreak.PointSystem) []*int { return []*int{&p.PAB} },
	"X":   func(p *tiebreak.PointSystem) []*int { return nil },
	"WW":  func(p *tiebreak.PointSystem) []*int { return []*int{&p.Win} },
	"BW":  func(p *tiebreak.PointSystem) []*int { return []*int{&p.Win} },
	"WD":  func(p *tiebreak.PointSystem) []*int { return []*int{&p.Draw} },
	"BD":  func(p *tiebreak.PointSystem) []*int { return []*int{&p.Draw} },
	"WL":  func(p *tiebreak.PointSystem) []*int { return []*int{&p.Loss} },
	"BL":  func(p *tiebreak.PointSystem) []*int { return []*int{&p.Loss} },
	"FW":  func(p *tiebreak.PointSystem) []*int { return []*int{&p.ForfeitWin} },
	"FL":  func(p *tiebreak.PointSystem) []*int { return []*int{&p.ForfeitLoss} },
	"ZPB": func(p *tiebreak.PointSystem) []*int { return []*int{&p.ZeroBye} },
	"HPB": func(p *tiebreak.PointSystem) []*int { return []*int{&p.HalfBye} },
	"FPB": func(p *tiebreak.PointSystem) []*int { return []*int{&p.FullBye} },
	"PAB": func(p *tiebreak.PointSystem) []*int { return []*int{&p.PAB} },
}

// colourPair is the other colour's symbol of XXS's colour-specific results.
var colourPair = map[string]string{"WW": "BW", "BW": "WW", "WD": "BD", "BD": "WD", "WL": "BL", "BL": "WL"}

// pointEntry is one "symbol points" pair: `W 1.0` (162) or `WW=1` (XXS).
var pointEntry = regexp.MustCompile(`([A-Za-z]+) *=? *(-?[0-9]+(?:[.,][0-9]+)?)`)

// parsePoints reads a 162 or XXS record from column 5 on into ps, entry by entry
// in the order written. Points must be whole or half points (the standings count
// half-points), and a result must score the same with White and Black.
func parsePoints(rs []rune, ps *tiebreak.PointSystem, bad, badPoints func(int, string, ...any) error) error {
	text := cols(rs, 5, len(rs))
	colour := map[string]int{} // XXS colour-specific values read so far
	at := 0                    // bytes of text consumed
	for _, m := range pointEntry.FindAllStringSubmatchIndex(text, -1) {
		if gap := text[at:m[0]]; strings.TrimSpace(gap) != "" {
			return bad(5+runeLen(text[:at])+strings.IndexFunc(gap, notSpace), "point system %q", strings.TrimSpace(gap))
		}
		at = m[1]
		sym, val := strings.ToUpper(text[m[2]:m[3]]), text[m[4]:m[5]]
		valCol := 5 + runeLen(text[:m[4]])
		fields, known := pointFields[sym]
		if !known {
			return bad(5+runeLen(text[:m[2]]), "point-system symbol %q", sym)
		}
		v, err := halfPoints(val)
		switch {
		case errors.Is(err, ErrField):
			return bad(valCol, "points %q", val)
		case err != nil:
			return badPoints(valCol, "%s = %s: %v", sym, val, err)
		}
		if other, ok := colour[colourPair[sym]]; ok && other != v {
			return badPoints(valCol, "%s = %s, but %s = %g: points that depend on the colour", sym, val, colourPair[sym], float64(other)/2)
		}
		if _, ok := colourPair[sym]; ok {
			colour[sym] = v
		}
		for _, f := range fields(ps) {
			*f = v
		}
	}
	if rest := text[at:]; strings.TrimSpace(rest) != "" {
		return bad(5+runeLen(text[:at])+strings.IndexFunc(rest, notSpace), "point system %q", strings.TrimSpace(rest))
	}
	return nil
}

// errNotHalf is a number of points that is not a whole or half point.
var errNotHalf = errors.New("not a multiple of ½ (the standings count half-points)")

// halfPoints reads a number of points (a decimal point or comma) as half-points.
func halfPoints(s string) (int, error) {
	v, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	if err != nil || math.Abs(v) > 1e6 {
		return 0, fmt.Errorf("points %q: %w", s, ErrField)
	}
	if h := 2 * v; h == math.Trunc(h) {
		return int(h), nil
	}
	return 0, errNotHalf
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
	line      int
	kind      byte // W D L F H Z + - or ' ' (a bonus or penalty)
	points    int  // half-points
	hasPoints bool // the points column is not blank
	round     int  // 0 = no round
	players   []int
	columns   []int
}

// parseAbnormal reads `299 T  MMMM  GGGG  RRR PPPP ...`: type in column 5, match
// points (teams only, not read) in 8–11, points in 14–17, round in 20–22, starting
// ranks from 24 on, every 5 columns.
func parseAbnormal(rs []rune, line int, bad, badPoints func(int, string, ...any) error) (abnormal, error) {
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
		v, err := halfPoints(s)
		switch {
		case errors.Is(err, ErrField):
			return a, bad(14, "points %q", s)
		case err != nil:
			return a, badPoints(14, "points %q: %v", s, err)
		}
		a.points, a.hasPoints = v, true
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
				rd.Result, rd.blank = b.code, false
			default:
				return &SyntaxError{File: f.fileName, Line: b.line, Column: b.columns[k], Err: fmt.Errorf("player %d round %d: bye %c, but his 001 record (line %d) shows %s: %w", sno, b.round, b.code, f.player(sno).Line, describe(*rd), ErrPairing)}
			}
		}
	}
	return nil
}

// Adjustment is points a 299 record gives a player beyond what his round's result
// scores under the point system: a bonus or penalty, or the difference between the
// points assigned and the points of the result.
type Adjustment struct {
	StartNo int
	Round   int // 0 = in no round
	Points  int // half-points
}

// applyAbnormal applies the 299 assignments: a result type (a win, draw or loss
// kept as played or forfeited, a bye) is written into the player's round, and
// points other than what that result scores, or a bonus or penalty without a
// type, become Adjustments. A type the round cannot hold is refused.
func (f *File) applyAbnormal(as []abnormal) error {
	system := tiebreak.StandardPoints()
	if f.Points != nil {
		system = *f.Points
	}
	rounds := max(f.Rounds, f.playedRounds())
	for _, a := range as {
		for k, sno := range a.players {
			bad := func(format string, args ...any) error {
				return &SyntaxError{File: f.fileName, Line: a.line, Column: a.columns[k], Err: fmt.Errorf("player %d: "+format+": %w", append(append([]any{sno}, args...), ErrPoints)...)}
			}
			if a.kind == ' ' {
				switch {
				case a.points == 0:
					continue
				case f.player(sno) == nil:
					return &SyntaxError{File: f.fileName, Line: a.line, Column: a.columns[k], Err: fmt.Errorf("starting rank %d: %w", sno, ErrUnknownOpponent)}
				case a.round > rounds:
					return bad("%g points in round %d, after the last round (%d)", float64(a.points)/2, a.round, rounds)
				}
				f.Adjustments = append(f.Adjustments, Adjustment{StartNo: sno, Round: a.round, Points: a.points})
				continue
			}
			if a.round == 0 {
				return bad("assignment %c without a round", a.kind)
			}
			rd, err := f.roundOf(sno, a.round, a.line, a.columns[k])
			if err != nil {
				return err
			}
			code, ok := assignedCode(a.kind, *rd)
			if !ok {
				return bad("round %d: %c, with his 001 record (line %d) showing %s", a.round, a.kind, f.player(sno).Line, describe(*rd))
			}
			rd.Result, rd.blank = code, false
			if d := a.points - system.Score(code); a.hasPoints && d != 0 {
				f.Adjustments = append(f.Adjustments, Adjustment{StartNo: sno, Round: a.round, Points: d})
			}
		}
	}
	return nil
}

// assignedCode is the round code for a 299 assignment of kind in a round that
// reads rd: played results stay rated (1 = 0) or unrated (W D L) as the record has
// them; byes need a round without an opponent.
func assignedCode(kind byte, rd Round) (byte, bool) {
	unrated := strings.IndexByte("WDL", rd.Result) >= 0
	switch {
	case strings.IndexByte("WDL", kind) >= 0 && rd.Opp != 0:
		if unrated {
			return kind, true
		}
		return "10="[strings.IndexByte("WLD", kind)], true
	case strings.IndexByte("FHZ", kind) >= 0 && rd.Opp == 0:
		return kind, true
	case kind == '+' || kind == '-':
		return kind, true
	}
	return 0, false
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

// roundOf is player sno's round r (1-based), his record extended when it is
// shorter.
func (f *File) roundOf(sno, r, line, col int) (*Round, error) {
	p := f.player(sno)
	if p == nil {
		return nil, &SyntaxError{File: f.fileName, Line: line, Column: col, Err: fmt.Errorf("starting rank %d: %w", sno, ErrUnknownOpponent)}
	}
	for len(p.Rounds) < r { // the triples cut off as trailing, then blanks
		next := Round{Result: 'Z', blank: true}
		if len(p.trimmed) > 0 {
			next, p.trimmed = p.trimmed[0], p.trimmed[1:]
		}
		p.Rounds = append(p.Rounds, next)
	}
	return &p.Rounds[r-1], nil
}

func describe(rd Round) string {
	if rd.Opp == 0 {
		return fmt.Sprintf("%q without an opponent", string(rd.Result))
	}
	return fmt.Sprintf("%q against %d", string(rd.Result), rd.Opp)
}
