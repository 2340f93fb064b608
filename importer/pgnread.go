package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ratelist/ratelist/internal/cp1252"
)

// PGNGame is one game of a PGN file: its tag pairs and the termination marker of
// its movetext. The moves themselves are skipped.
type PGNGame struct {
	Line        int               // line of the game's first tag (or first movetext)
	Tags        map[string]string // tag name → value, escapes resolved, control characters dropped
	Termination string            // "1-0", "0-1", "1/2-1/2", "*" or "" when missing
	Moves       bool              // the movetext holds at least one move
	Err         *Problem          // the first syntax problem, nil when none
}

// Limits against hostile files.
const (
	maxPGNLine = 1 << 20 // bytes in one line
	maxTags    = 256     // tag pairs in one game
)

// PGNReader reads the games of a PGN file one by one, tolerating comments ({…} and
// ;…), variations, NAGs, escape lines (%…) and missing termination markers. A game
// ends where the next game's tag section starts: after its movetext, or after a
// blank line when it has none. Lines end in LF, CRLF or a lone CR, mixed as they
// come. Its API is modelled on bufio.Scanner:
//
//	for r.Next() { g := r.Game() … }
//	if err := r.Err(); …
type PGNReader struct {
	br      *bufio.Reader
	buf     []byte // the current line
	rest    []byte // what the last read returned beyond the current line
	rerr    error  // the error of the last read, returned once rest is used up
	afterCR bool   // the last line ended in CR: a LF next is part of that line end
	file    string
	line    int
	cp1252  bool // decode lines as Windows-1252
	partial bool // the current game was cut short by an I/O error

	cur, ready *PGNGame
	body       bool // cur's tag section has ended: movetext or a blank line followed it
	comment    int  // line where an open {…} comment started, 0 when none
	depth      int  // variation nesting
	err        error
	done       bool
}

// NewPGNReader reads r as UTF-8; file names it in problems.
func NewPGNReader(r io.Reader, file string) *PGNReader {
	return &PGNReader{br: bufio.NewReaderSize(r, 64<<10), file: file}
}

// DecodeWindows1252 makes the reader decode its input as Windows-1252, a superset
// of Latin-1 (ISO 8859-1), the PGN standard's character set. Call it before Next.
func (r *PGNReader) DecodeWindows1252() { r.cp1252 = true }

// Game returns the game read by the last Next.
func (r *PGNReader) Game() *PGNGame { return r.ready }

// Err is the I/O error that stopped the reader, nil at the end of the file.
func (r *PGNReader) Err() error { return r.err }

// Partial reports whether an I/O error cut a game short: Next did not return it,
// and it is not in any count the caller keeps.
func (r *PGNReader) Partial() bool { return r.partial }

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
	r.ready, r.cur, r.body, r.depth = r.cur, nil, false, 0
	return true
}

func (r *PGNReader) start() {
	r.cur = &PGNGame{Line: r.line, Tags: map[string]string{}}
	r.body, r.depth = false, 0
}

// Next reads the next game; false at the end of the file or on an error.
func (r *PGNReader) Next() bool {
	r.ready = nil
	for !r.done {
		line, long, err := r.readLine()
		if err != nil {
			r.done = true
			if err != io.EOF {
				r.err = &Problem{File: r.file, Line: int64(r.line + 1), Err: err}
				r.partial = r.cur != nil || len(bytes.TrimSpace(r.buf)) > 0
				r.cur = nil
				return false
			}
			return r.emit()
		}
		r.line++
		if long {
			r.longLine()
			continue
		}
		if r.line == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		var text string
		if r.cp1252 {
			text = cp1252.Decode(line)
		} else {
			text = string(line)
		}
		if r.comment == 0 && strings.HasPrefix(text, "%") {
			continue // escape line
		}
		if r.comment == 0 && r.cur != nil && strings.TrimSpace(text) == "" {
			r.body = true
			continue
		}
		if r.scanLine(text) {
			return true
		}
	}
	return false
}

// longLine marks the current game (or a new one) malformed. What the line held is
// unknown, so an open comment or variation is taken as closed there.
func (r *PGNReader) longLine() {
	if r.cur == nil {
		r.start()
	}
	r.bad(r.line, "line longer than %d bytes", maxPGNLine)
	r.body, r.comment, r.depth = true, 0, 0
}

// readLine returns the next line without its line end (LF, CRLF or a lone CR,
// mixed as they come); long when it had more than maxPGNLine bytes (the rest is
// read and dropped). io.EOF at the end.
func (r *PGNReader) readLine() (line []byte, long bool, err error) {
	r.buf = r.buf[:0]
	started := false // a line is being read, possibly empty so far
	for {
		if len(r.rest) == 0 {
			if r.rerr != nil {
				if started {
					return r.buf, len(r.buf) > maxPGNLine, nil
				}
				return nil, false, r.rerr
			}
			chunk, err := r.br.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull {
				r.rerr = err
			}
			r.rest = chunk
			continue
		}
		if r.afterCR {
			r.afterCR = false
			if r.rest[0] == '\n' {
				r.rest = r.rest[1:]
				continue
			}
		}
		started = true
		i := bytes.IndexAny(r.rest, "\r\n")
		end := len(r.rest)
		if i >= 0 {
			end = i
		}
		if len(r.buf) <= maxPGNLine {
			r.buf = append(r.buf, r.rest[:min(end, maxPGNLine+1-len(r.buf))]...)
		}
		if i < 0 {
			r.rest = nil
			continue
		}
		r.afterCR = r.rest[i] == '\r'
		r.rest = r.rest[i+1:]
		return r.buf, len(r.buf) > maxPGNLine, nil
	}
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
			if r.cur != nil && r.body {
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
			r.body = true
			if r.depth == 0 {
				switch tok {
				case "1-0", "0-1", "1/2-1/2", "*", "½-½":
					if tok == "½-½" {
						tok = "1/2-1/2"
					}
					r.cur.Termination = tok
				default:
					r.cur.Moves = r.cur.Moves || isMove(tok)
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
	k++
	start, escaped := k, false
	for ; k < len(s) && s[k] != '"'; k++ {
		if s[k] == '\\' && k+1 < len(s) && (s[k+1] == '"' || s[k+1] == '\\') {
			k++
			escaped = true
		}
	}
	value := s[start:min(k, len(s))]
	if escaped {
		value = unescapeTag(value)
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
		r.cur.Tags[name] = value // a control character in it is the importer's to refuse (textError)
	}
	return k + 1
}

// unescapeTag resolves the \\" and \\\\ escapes of a tag value.
func unescapeTag(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) && (v[i+1] == '"' || v[i+1] == '\\') {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// isMove reports whether a movetext token is a move: what is left after a move
// number ("12." or "12...") holds a letter (e4, Nf3, O-O, Z0) or is 0-0 castling.
// Move numbers, NAGs ($1) and evaluation glyphs (+-, !?) are not moves.
func isMove(tok string) bool {
	rest := strings.TrimLeft(tok, "0123456789")
	if rest != tok && strings.HasPrefix(rest, ".") {
		tok = strings.TrimLeft(rest, ".")
	}
	if strings.HasPrefix(tok, "0-0") {
		return true
	}
	for i := 0; i < len(tok); i++ {
		if c := tok[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

// validUTF8 reports whether all of r is UTF-8, reading it in chunks.
func validUTF8(r io.Reader) (bool, error) {
	buf := make([]byte, 64<<10)
	carry := 0 // bytes of a character cut by the previous chunk's end
	for {
		n, err := io.ReadFull(r, buf[carry:])
		b := buf[:carry+n]
		end := len(b)
		if err == nil {
			for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
				if utf8.RuneStart(b[i]) {
					if !utf8.FullRune(b[i:]) {
						end = i
					}
					break
				}
			}
		}
		if !utf8.Valid(b[:end]) {
			return false, nil
		}
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return true, nil
		case err != nil:
			return false, err
		}
		carry = copy(buf, b[end:])
	}
}
