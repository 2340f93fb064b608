package trf

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/ratelist/ratelist/tiebreak"
)

// Fix returns a corrected copy of a TRF file, for what has one correction only:
//
//  1. A missing mirrored record (a player's record names an opponent whose
//     record is blank in that round, and nobody else claims him there): the
//     opponent's round gets the opposite colour and result.
//  2. A blank round the reader read from the points column as a bye, when no
//     other byes make up the same points (certainByes): the bye's code.
//  3. A points column that is blank or disagrees with the results (after 1 and 2),
//     for a player none of whose pairings contradicts its mirror: the points his
//     results make.
//
// Everything else stays byte for byte (the encoding, line ends, other columns).
// changes are what was written, one note per field, at its line and column
// (the same in both files: no line is added).
func Fix(data []byte, fileName string) (fixed []byte, changes []Finding, err error) {
	f, err := Read(bytes.NewReader(data), fileName)
	if err != nil {
		return nil, nil, err
	}
	type edit struct {
		col  int
		text string
	}
	edits := map[int][]edit{} // line → edits
	change := func(line, col int, code, format string, args ...any) {
		changes = append(changes, Finding{File: fileName, Line: line, Column: col, Severity: Note, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	bad := f.contradicted()
	pairedBy := map[[2]int]int{}
	for _, p := range f.Players {
		for r, rd := range p.Rounds {
			if rd.Opp != 0 {
				pairedBy[[2]int{rd.Opp, r}]++
			}
		}
	}
	for _, p := range f.Players {
		for r, rd := range p.Rounds {
			q := f.player(rd.Opp)
			if rd.Opp == 0 || q == nil || q.StartNo == p.StartNo || rd.Result == 'Z' || !q.roundAt(r).blank || pairedBy[[2]int{q.StartNo, r}] > 1 {
				continue
			}
			text := mirrored(p.StartNo, rd)
			edits[q.Line] = append(edits[q.Line], edit{92 + 10*r, text})
			change(q.Line, 92+10*r, "TRF-MIRROR-MISSING", "starting rank %d, round %d: wrote %q, the mirror of starting rank %d's record (line %d)", q.StartNo, r+1, text, p.StartNo, p.Line)
		}
	}
	for _, p := range f.Players {
		for r, code := range p.certainByes(f.pointSystem()) {
			text := "0000 - " + string(code)
			edits[p.Line] = append(edits[p.Line], edit{92 + 10*r, text})
			change(p.Line, 92+10*r, "TRF-BYE-EMPTY", "starting rank %d, round %d: wrote %q, the %s his points column counts", p.StartNo, r+1, text, byeName[code])
		}
	}
	scores := f.scores()
	for i, p := range f.Players {
		got := float64(scores[i]) / 2
		if bad[p.StartNo] || (p.HasPoints && p.Points == got) {
			continue
		}
		text := pointsText(got)
		if len(text) > 4 {
			text = strconv.FormatFloat(got, 'f', 0, 64)
		}
		if len(text) > 4 {
			continue // does not fit the column
		}
		was := "blank"
		if p.HasPoints {
			was = pointsText(p.Points)
		}
		edits[p.Line] = append(edits[p.Line], edit{81, fmt.Sprintf("%4s", text)})
		change(p.Line, 81, "TRF-POINTS", "starting rank %d: points column %s → %s, as his results make", p.StartNo, was, text)
	}
	if len(edits) == 0 {
		return data, nil, nil
	}
	body, latin := data, !utf8.Valid(bytes.TrimPrefix(data, []byte("\ufeff")))
	var out bytes.Buffer
	if bytes.HasPrefix(body, []byte("\ufeff")) {
		out.WriteString("\ufeff")
		body = body[3:]
	}
	line := 0
	for len(body) > 0 {
		line++
		end := bytes.IndexAny(body, "\r\n")
		next := len(body)
		if end < 0 {
			end = len(body)
		} else {
			next = end + 1
			if body[end] == '\r' && next < len(body) && body[next] == '\n' {
				next++
			}
		}
		content := body[:end]
		for _, e := range edits[line] {
			content = putColumns(content, latin, e.col, e.text)
		}
		out.Write(content)
		out.Write(body[end:next])
		body = body[next:]
	}
	slices.SortFunc(changes, func(a, b Finding) int { return a.Line*100000 + a.Column - b.Line*100000 - b.Column })
	return out.Bytes(), changes, nil
}

// putColumns writes ASCII text into a line from column col on (characters:
// one a byte when latin, else UTF-8 runes), blanks filling a short line.
func putColumns(line []byte, latin bool, col int, text string) []byte {
	chars := [][]byte{}
	for i := 0; i < len(line); {
		n := 1
		if !latin {
			_, n = utf8.DecodeRune(line[i:])
		}
		chars = append(chars, line[i:i+n])
		i += n
	}
	for len(chars) < col-1+len(text) {
		chars = append(chars, []byte(" "))
	}
	for k := range len(text) {
		chars[col-1+k] = []byte{text[k]}
	}
	return bytes.Join(chars, nil)
}

// certainByes are the byes the reader read from a player's points column into
// his blank rounds (round, 0-based → code) when no other byes make up the same
// points: one blank round and one bye worth the difference, or every blank
// round the bye worth the most (or the least) and no other bye worth as much.
func (p *Player) certainByes(system tiebreak.PointSystem) map[int]byte {
	byes := map[int]byte{}
	for r, rd := range p.Rounds {
		if rd.implied {
			byes[r] = rd.Result
		}
	}
	worth := func(c byte) int { return system.Score(c) }
	same := func(c byte) int { // byes worth what c is
		n := 0
		for _, b := range []byte{'F', 'H', 'Z'} {
			if worth(b) == worth(c) {
				n++
			}
		}
		return n
	}
	var first byte
	for _, c := range byes {
		first = c
		break
	}
	switch {
	case len(byes) == 0:
		return nil
	case len(byes) == 1 && same(first) == 1:
		return byes
	}
	lo, hi := worth('Z'), worth('Z')
	for _, b := range []byte{'F', 'H'} {
		lo, hi = min(lo, worth(b)), max(hi, worth(b))
	}
	for _, c := range byes {
		if c != first || same(c) != 1 || (worth(c) != lo && worth(c) != hi) {
			return nil
		}
	}
	return byes
}

// pointSystem is the file's point system, else the standard one.
func (f *File) pointSystem() tiebreak.PointSystem {
	if f.Points != nil {
		return *f.Points
	}
	return tiebreak.StandardPoints()
}

// contradicted are the starting ranks one of whose pairings its opponent's
// record contradicts (or names an opponent without a record): their results are
// not sure, so Fix leaves their points as they are.
func (f *File) contradicted() map[int]bool {
	bad := map[int]bool{}
	for _, p := range f.Players {
		for r, rd := range p.Rounds {
			if rd.Opp == 0 {
				continue
			}
			q := f.player(rd.Opp)
			if q == nil || q.StartNo == p.StartNo {
				bad[p.StartNo] = true
				continue
			}
			other := q.roundAt(r)
			switch {
			case other.Opp == p.StartNo && rd.Result != 'Z' && other.Result != 'Z' && mirror(rd, other) != "":
			case other.Opp != p.StartNo && !other.blank:
			default:
				continue
			}
			bad[p.StartNo], bad[q.StartNo] = true, true
		}
	}
	return bad
}
