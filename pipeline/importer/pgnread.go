package importer

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// PGNGame is one game of a PGN file: its tag pairs and the termination marker of
// its movetext. The moves themselves are skipped.
type PGNGame struct {
	Line        int               // line of the game's first tag (or first movetext)
	Tags        map[string]string // tag name → value, escapes resolved
	Termination string            // "1-0", "0-1", "1/2-1/2", "*" or "" when missing
	Err         *Problem          // the first syntax problem, nil when none
}

// Limits against hostile files.
const (
	maxPGNLine = 1 << 20 // bytes in one line
	maxTags    = 256     // tag pairs in one game
)

// PGNReader reads the games of a PGN file one by one, tolerating comments ({…} and
// ;…), variations, NAGs, escape lines (%…) and missing termination markers. Its
// API is modelled on bufio.Scanner:
//
//	for r.Next() { g := r.Game() … }
//	if err := r.Err(); …
type PGNReader struct {
	sc   *bufio.Scanner
	file string
	line int

	cur, ready *PGNGame
	moves      bool // cur has movetext
	comment    int  // line where an open {…} comment started, 0 when none
	depth      int  // variation nesting
	err        error
	done       bool
}

// NewPGNReader reads r; file names it in problems.
func NewPGNReader(r io.Reader, file string) *PGNReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxPGNLine)
	return &PGNReader{sc: sc, file: file}
}

// Game returns the game read by the last Next.
func (r *PGNReader) Game() *PGNGame { return r.ready }

// Err is the error that stopped the reader (a line too long, an I/O error).
func (r *PGNReader) Err() error { return r.err }

func (r *PGNReader) bad(line int, format string, args ...any) {
	if r.cur != nil && r.cur.Err == nil {
		r.cur.Err = &Problem{File: r.file, Line: int64(line), Err: fmt.Errorf(format+": %w", append(args, ErrMalformed)...)}
	}
}

// emit hands the current game out.
func (r *PGNReader) emit() bool {
	if r.cur == nil {
		return false
	}
	if r.comment > 0 {
		r.bad(r.comment, "comment not closed")
		r.comment = 0
	}
	r.ready, r.cur, r.moves, r.depth = r.cur, nil, false, 0
	return true
}

func (r *PGNReader) start() {
	r.cur = &PGNGame{Line: r.line, Tags: map[string]string{}}
	r.moves, r.depth = false, 0
}

// Next reads the next game; false at the end of the file or on an error.
func (r *PGNReader) Next() bool {
	r.ready = nil
	for !r.done {
		if !r.sc.Scan() {
			r.done = true
			if err := r.sc.Err(); err != nil {
				if err == bufio.ErrTooLong {
					err = fmt.Errorf("line longer than %d bytes: %w", maxPGNLine, ErrMalformed)
				}
				r.err = &Problem{File: r.file, Line: int64(r.line + 1), Err: err}
				r.cur = nil
				return false
			}
			return r.emit()
		}
		r.line++
		text := r.sc.Text()
		if r.line == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		if r.comment == 0 && strings.HasPrefix(text, "%") {
			continue // escape line
		}
		if r.scanLine(text) {
			return true
		}
	}
	return false
}

// scanLine reads one line; true when a game is ready.
func (r *PGNReader) scanLine(s string) bool {
	ready := false
	i := 0
	if r.comment > 0 {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return false
		}
		r.comment, i = 0, end+1
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '{':
			end := strings.IndexByte(s[i+1:], '}')
			if end < 0 {
				r.comment = r.line
				return ready
			}
			i += end + 2
		case c == ';':
			return ready
		case c == '[' && r.depth == 0:
			if r.cur != nil && (r.moves || r.cur.Termination != "") {
				ready = r.emit()
			}
			if r.cur == nil {
				r.start()
			}
			i = r.tag(s, i)
		case c == '(':
			r.depth++
			i++
		case c == ')':
			r.depth = max(r.depth-1, 0)
			i++
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\r\f\v{};[()", rune(s[j])) {
				j++
			}
			if j == i { // a stray ']' or '[' inside a variation
				j++
			}
			tok := s[i:j]
			i = j
			if r.cur == nil {
				r.start()
			} else if r.cur.Termination != "" {
				if ready {
					continue
				}
				// Text after the termination marker: a new game without tags.
				ready = r.emit()
				r.start()
			}
			r.moves = true
			if r.depth == 0 {
				switch tok {
				case "1-0", "0-1", "1/2-1/2", "*", "½-½":
					if tok == "½-½" {
						tok = "1/2-1/2"
					}
					r.cur.Termination = tok
				}
			}
		}
	}
	return ready
}

// tag parses `[Name "value"]` at s[i] and returns where it ends. A malformed tag
// marks the game and skips the rest of the line.
func (r *PGNReader) tag(s string, i int) int {
	j := i + 1
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	k := j
	for k < len(s) && (s[k] == '_' || s[k] == '+' || s[k] == '#' || s[k] == '=' || s[k] == ':' || s[k] == '-' ||
		s[k] >= '0' && s[k] <= '9' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z') {
		k++
	}
	name := s[j:k]
	if name == "" {
		r.bad(r.line, "tag without a name")
		return len(s)
	}
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == len(s) || s[k] != '"' {
		r.bad(r.line, "tag %s: value not in quotes", name)
		return len(s)
	}
	var v strings.Builder
	k++
	for ; k < len(s) && s[k] != '"'; k++ {
		if s[k] == '\\' && k+1 < len(s) && (s[k+1] == '"' || s[k+1] == '\\') {
			k++
		}
		v.WriteByte(s[k])
	}
	if k == len(s) {
		r.bad(r.line, "tag %s: value not closed", name)
		return len(s)
	}
	k++
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == len(s) || s[k] != ']' {
		r.bad(r.line, "tag %s: no closing ]", name)
		return len(s)
	}
	if _, dup := r.cur.Tags[name]; dup {
		r.bad(r.line, "tag %s given twice", name)
	} else if len(r.cur.Tags) >= maxTags {
		r.bad(r.line, "more than %d tags", maxTags)
	} else {
		r.cur.Tags[name] = v.String()
	}
	return k + 1
}
