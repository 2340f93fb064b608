package trf

import (
	"fmt"
	"math"
	"strings"

	"github.com/ratelist/ratelist/tiebreak"
)

// impliedByes reads each player's empty rounds (no opponent and no result, or
// missing from a record that stops early, up to the last round any record shows;
// a round another record pairs him in is his game, not empty). When his points
// column is more than his results score, the difference is the byes of those
// rounds (full-point, half-point or zero-point: the same bye in each when one
// fits, else the larger first), with a note naming his line. When the points
// column is blank, or no split of byes makes it up, they are zero-point byes,
// with a note. When it equals his results, they are zero-point byes, as TRF reads
// a blank.
func (f *File) impliedByes() {
	system := tiebreak.StandardPoints()
	if f.Points != nil {
		system = *f.Points
	}
	n := f.playedRounds()
	claimed := map[[2]int]byte{} // {starting rank, round} → the result another record gives him
	for _, p := range f.Players {
		for r, rd := range p.Rounds {
			if rd.Opp != 0 && rd.Result != 'Z' {
				claimed[[2]int{rd.Opp, r}] = tiebreak.OppositeResult(rd.Result)
			}
		}
	}
	adjusted := map[int]int{}
	for _, a := range f.Adjustments {
		adjusted[a.StartNo] += a.Points
	}
	for i := range f.Players {
		p := &f.Players[i]
		var empty []int
		score := adjusted[p.StartNo]
		for r := range n {
			rd := p.roundAt(r)
			c, isClaimed := claimed[[2]int{p.StartNo, r}]
			switch {
			case !rd.blank && rd.Opp != 0 && rd.Result == 'Z' && isClaimed:
				score += system.Score(c)
			case !rd.blank:
				score += system.Score(rd.Result)
			case isClaimed:
				score += system.Score(c)
			default:
				empty = append(empty, r)
			}
		}
		if len(empty) == 0 {
			continue
		}
		codes, why := p.byesFor(empty, score, system)
		if codes == nil {
			f.Warnings = append(f.Warnings, &SyntaxError{File: f.fileName, Line: p.Line, Column: 92 + 10*empty[0],
				Err: fmt.Errorf("%w: starting rank %d, %s: read as zero-point byes (%s)", ErrEmptyResult, p.StartNo, roundList(empty), why)})
			continue
		}
		if strings.Trim(string(codes), "Z") == "" {
			continue // the points column agrees with zero-point byes
		}
		for k, r := range empty {
			rd, _ := f.roundOf(p.StartNo, r+1, p.Line, 0)
			rd.Result, rd.Column, rd.blank, rd.implied = codes[k], 92+10*r, false, true
		}
		f.Warnings = append(f.Warnings, &SyntaxError{File: f.fileName, Line: p.Line, Column: 92 + 10*empty[0],
			Err: fmt.Errorf("%w: starting rank %d, %s: read as %s (%s), as the points column says (%s)", ErrEmptyResult, p.StartNo, roundList(empty), byeNames(codes), string(codes), why)})
	}
}

// roundAt is round r (0-based) as the record wrote it: a trailing triple cut off
// Rounds is what it was; beyond what the record wrote, a blank.
func (p *Player) roundAt(r int) Round {
	switch {
	case r < len(p.Rounds):
		return p.Rounds[r]
	case r-len(p.Rounds) < len(p.trimmed):
		return p.trimmed[r-len(p.Rounds)]
	}
	return Round{Result: 'Z', blank: true}
}

// byesFor splits what the points column says beyond score (half-points) into byes
// for the empty rounds, in order, the largest bye that still leaves the rest
// possible first; nil with the reason when nothing implies a split.
func (p *Player) byesFor(empty []int, score int, system tiebreak.PointSystem) ([]byte, string) {
	if !p.HasPoints {
		return nil, "no points column to imply a bye"
	}
	h := 2 * p.Points
	results := fmt.Sprintf("points column %g, results %g", p.Points, float64(score)/2)
	if h != math.Trunc(h) || math.Abs(h) > 1e6 {
		return nil, results + ": not a whole or half point"
	}
	rest := int(h) - score
	byes := []byte{'F', 'H', 'Z'}
	lo, hi := system.ZeroBye, system.ZeroBye
	for _, c := range byes {
		lo, hi = min(lo, system.Score(c)), max(hi, system.Score(c))
	}
	codes := make([]byte, 0, len(empty))
	for _, c := range byes { // the same bye in every empty round, when one fits
		if rest == len(empty)*system.Score(c) {
			for range empty {
				codes = append(codes, c)
			}
			return codes, results
		}
	}
	for k := range empty {
		left := len(empty) - k - 1
		found := false
		for _, c := range byes {
			if r := rest - system.Score(c); r >= left*lo && r <= left*hi {
				codes, rest, found = append(codes, c), r, true
				break
			}
		}
		if !found {
			return nil, results + ": no byes make up the difference"
		}
	}
	return codes, results
}

func roundList(rs []int) string {
	s := make([]string, len(rs))
	for k, r := range rs {
		s[k] = fmt.Sprint(r + 1)
	}
	if len(rs) == 1 {
		return "round " + s[0]
	}
	return "rounds " + strings.Join(s, ", ")
}

func byeNames(codes []byte) string {
	names := map[byte]string{'F': "full-point bye", 'H': "half-point bye", 'Z': "zero-point bye"}
	if strings.Count(string(codes), string(codes[:1])) == len(codes) {
		if len(codes) == 1 {
			return "a " + names[codes[0]]
		}
		return names[codes[0]] + "s"
	}
	s := make([]string, len(codes))
	for k, c := range codes {
		s[k] = "a " + names[c]
	}
	return strings.Join(s, ", ")
}
