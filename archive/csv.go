package archive

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ratelist/ratelist/day"
)

type csvSource struct {
	f      fs.File
	fields []int // column → CSV field index, -1 when absent
	colOf  []int // CSV field index (up to need) → column, -1 for none
	need   int   // fields to split out of a record: up to the last column read
	nf     int
	hdr    []string
	ps     csvParser
	ps2    csvParser // for the second half of a block
	tail   []byte    // read past the last whole record handed out
	eof    bool
	read   int   // bytes to read at first for a block; csvReadSize when 0
	size   int64 // of the file, 0 when unknown
	used   int64 // bytes of the header and records handed out
	recs   int64 // records handed out
}

// csvReadSize is how much a csvSource reads at first for one Batch.
const csvReadSize = 256 << 10

func newCSVSource(f fs.File, cols []Column) (*csvSource, error) {
	s := &csvSource{f: f}
	if st, err := f.Stat(); err == nil {
		s.size = st.Size()
	}
	text, starts, err := s.next(make([]byte, 0, 64<<10), nil, 1)
	if err != nil {
		return nil, fmt.Errorf("%w: header: %w", ErrUnreadable, err)
	}
	if len(starts) == 0 {
		return nil, fmt.Errorf("%w: empty file, no header row", ErrUnreadable)
	}
	if _, kind, _, _ := s.ps.record(text, starts[0], -1); kind != csvOK {
		// encoding/csv words the error, with its line and column.
		_, err := csv.NewReader(bytes.NewReader(text)).Read()
		return nil, fmt.Errorf("%w: header: %w", ErrUnreadable, err)
	}
	hdr := make([]string, len(s.ps.spans))
	for i := range hdr {
		hdr[i] = string(s.ps.field(text, i))
	}
	if len(hdr) > 0 {
		hdr[0] = strings.TrimPrefix(hdr[0], "\ufeff")
	}
	s.nf, s.hdr = len(hdr), hdr
	for _, sp := range cols {
		idx := -1
		for j, h := range hdr {
			if strings.TrimSpace(h) == sp.Name {
				idx = j
			}
		}
		if idx < 0 && sp.Required {
			return nil, fmt.Errorf("%w %q", ErrMissingColumn, sp.Name)
		}
		s.fields = append(s.fields, idx)
		s.need = max(s.need, idx+1)
	}
	s.colOf = slices.Repeat([]int{-1}, s.need)
	for c, f := range s.fields {
		if f >= 0 {
			s.colOf[f] = c
		}
	}
	return s, nil
}

func (s *csvSource) close() error { return s.f.Close() }

// next reads up to most whole records into buf (reusing its array), the bytes
// left over from the last call first. It returns the text of the records and
// where each starts.
func (s *csvSource) next(buf []byte, starts []int, most int) ([]byte, []int, error) {
	size := s.read
	if size == 0 {
		size = csvReadSize
	}
	if cap(buf) < len(s.tail)+size/4 {
		buf = make([]byte, 0, len(s.tail)+size)
	}
	buf = buf[:copy(buf[:len(s.tail)], s.tail)]
	s.tail = nil
	starts = starts[:0]
	p := 0
	for {
		p, starts = s.ps.cut(buf, p, s.eof, starts, most)
		if len(starts) == most || s.eof {
			break
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf))
		}
		n, err := s.f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			s.eof = true
		} else if err != nil {
			return nil, nil, err
		}
	}
	s.tail = buf[p:]
	s.used += int64(p)
	return buf[:p], starts, nil
}

// sizeHint estimates the file's records from the bytes per record so far.
func (s *csvSource) sizeHint() int64 {
	if s.used == 0 || s.size <= s.used {
		return s.recs
	}
	return int64(float64(s.recs) * float64(s.size) / float64(s.used))
}

// csvSplit is the fewest records a block must have to be parsed in two halves
// on two goroutines.
const csvSplit = 1024

func (s *csvSource) batch() int { return batchRows }

func (s *csvSource) fill(b *Batch) (int, error) {
	text, starts, err := s.next(b.text, b.starts, batchRows)
	b.text, b.starts, b.hdr = text, starts, s.hdr
	b.badSet = true // rows are noted one by one, without clearBad
	if err != nil {
		return 0, err
	}
	n := len(starts)
	s.recs += int64(n)
	if half := n / 2; half >= csvSplit/2 && runtime.GOMAXPROCS(0) > 1 {
		// Records are independent once their starts are known: parse the second
		// half on another core.
		done := make(chan struct{})
		go func() {
			s.rows(b, &s.ps2, text, starts[half:], half)
			close(done)
		}()
		s.rows(b, &s.ps, text, starts[:half], 0)
		<-done
	} else {
		s.rows(b, &s.ps, text, starts, 0)
	}
	if n < batchRows {
		return n, io.EOF
	}
	return n, nil
}

// rows parses the records at starts into rows first… of b.
func (s *csvSource) rows(b *Batch, ps *csvParser, text []byte, starts []int, first int) {
	for i, p := range starts {
		s.row(b, ps, first+i, text, p)
	}
}

// row parses the record at text[p:] into row n of b.
func (s *csvSource) row(b *Batch, ps *csvParser, n int, text []byte, p int) {
	if line, _, _ := csvLine(text, p); len(line) > 0 && s.plainRow(b, n, line) {
		return
	}
	_, kind, _, _ := ps.record(text, p, s.need)
	b.Bad[n] = Problem{}
	switch {
	case kind != csvOK:
		// A quoting error spoils only this record; reading resumes after it.
		b.Bad[n] = Problem{kind.kind(), "", "malformed CSV: " + kind.err().Error()}
	case ps.n != s.nf:
		b.Bad[n] = Problemf(KindFieldCount, "", "wrong number of fields: %d, header has %d", ps.n, s.nf)
	default:
		for c, sp := range b.cols {
			var cell []byte
			if f := s.fields[c]; f >= 0 {
				cell = ps.field(text, f)
			}
			if k, msg := parseCell(b, c, n, sp, cell); k != KindNone && b.Bad[n].Kind == KindNone {
				b.Bad[n] = Problem{k, sp.Name, sp.Name + ": " + msg}
			}
		}
		return
	}
	for c := range b.cols {
		b.Nulls[c][n] = true
	}
}

// plainRow decodes a record of one line without quotes (most records) into
// row n of b in one pass over it, integers and result codes as they are
// scanned and other cells by parseCell. It returns false, leaving the row to
// the general path, for a quote, a field count other than the header's, or a
// cell that is not plainly valid: the general path words the reject.
func (s *csvSource) plainRow(b *Batch, n int, line []byte) bool {
	i, nf := 0, 0
	for {
		if nf == len(s.colOf) {
			// Fields past the last column read are only counted.
			rest := line[i:]
			if bytes.IndexByte(rest, '"') >= 0 {
				return false
			}
			nf += 1 + bytes.Count(rest, comma)
			break
		}
		start := i
		switch c := s.colOf[nf]; {
		case c >= 0 && (b.cols[c].Type == Int || b.cols[c].Type == Int32):
			var v int64
			for i < len(line) && line[i]-'0' <= 9 {
				v = v*10 + int64(line[i]-'0')
				i++
			}
			if i-start > 18 || i < len(line) && line[i] != ',' || v > math.MaxInt32 && b.cols[c].Type == Int32 {
				return false
			}
			b.Nulls[c][n] = i == start
			b.Ints[c][n] = v
		case c >= 0 && b.cols[c].Type == Code && i < len(line) && line[i] != ',':
			code, ok := resultCode(line[i : i+1])
			if i++; !ok || i < len(line) && line[i] != ',' {
				return false
			}
			b.Nulls[c][n] = false
			b.Ints[c][n] = int64(code)
		default:
			for i < len(line) && line[i] != ',' {
				if line[i] == '"' {
					return false
				}
				i++
			}
			if c >= 0 {
				if k, _ := parseCell(b, c, n, b.cols[c], line[start:i]); k != KindNone {
					return false
				}
			}
		}
		nf++
		if i == len(line) {
			break
		}
		i++
	}
	if nf != s.nf {
		return false
	}
	for c, f := range s.fields {
		if f < 0 {
			b.Nulls[c][n] = true
		}
	}
	b.Bad[n] = Problem{}
	return true
}

var comma = []byte{','}

// csvValues renders the record at text[p:] as "header=value;…", "" when it is
// malformed.
func csvValues(hdr []string, text []byte, p int) string {
	var ps csvParser
	if _, kind, _, _ := ps.record(text, p, -1); kind != csvOK {
		return ""
	}
	var sb strings.Builder
	for i := range ps.spans {
		if i > 0 {
			sb.WriteByte(';')
		}
		if sb.Len() > 20*ExcerptBytes {
			sb.WriteString("…")
			break
		}
		if i < len(hdr) {
			sb.WriteString(Excerpt(hdr[i]))
		} else {
			sb.WriteString("?")
		}
		sb.WriteByte('=')
		sb.WriteString(Excerpt(string(ps.field(text, i))))
	}
	return sb.String()
}

// parseCell decodes one CSV cell into the Batch and returns its problem's kind
// and reason, if any.
func parseCell(b *Batch, c, i int, sp Column, cell []byte) (Kind, string) {
	if n := len(cell); n > 0 && (isSpaceOrHigh(cell[0]) || isSpaceOrHigh(cell[n-1])) {
		cell = bytes.TrimSpace(cell)
	}
	b.Nulls[c][i] = len(cell) == 0
	if len(cell) == 0 {
		return KindNone, ""
	}
	if sp.Type == String {
		if k, msg := checkText(string(cell)); k != KindNone {
			b.Nulls[c][i] = true
			return k, msg
		}
		b.Strs[c][i] = string(cell)
		return KindNone, ""
	}
	v, ok := fastCell(sp.Type, cell)
	if !ok {
		var err error
		if v, err = ParseCell(sp.Type, string(cell)); err != nil {
			b.Nulls[c][i] = true
			if errors.Is(err, errRange) {
				return KindOutOfRange, err.Error()
			}
			return malformedKind(sp.Type), err.Error()
		}
	}
	if sp.Type == Int32 && (v < math.MinInt32 || v > math.MaxInt32) {
		b.Nulls[c][i] = true
		return KindOutOfRange, fmt.Sprintf("%d does not fit int32", v)
	}
	b.Ints[c][i] = v
	return KindNone, ""
}

// isSpaceOrHigh tells whether a byte may be (part of) white space that
// bytes.TrimSpace trims: ASCII space and control bytes, and any non-ASCII byte.
func isSpaceOrHigh(c byte) bool { return c <= ' ' || c >= 0x80 }

// fastCell decodes the common forms of integers, dates and result codes
// without allocating; false leaves the cell to ParseCell.
func fastCell(t Type, cell []byte) (int64, bool) {
	switch t {
	case Int, Int32:
		return fastInt(cell)
	case Date:
		return fastDate(cell)
	case Code:
		if code, ok := resultCode(cell); ok {
			return int64(code), true
		}
	}
	return 0, false
}

// fastInt reads an optional sign and 1 to 18 digits.
func fastInt(s []byte) (int64, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// fastDate reads a valid YYYY-MM-DD as days since 1970-01-01.
func fastDate(s []byte) (int64, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	y, ok1 := fastInt(s[0:4])
	m, ok2 := fastInt(s[5:7])
	d, ok3 := fastInt(s[8:10])
	if !ok1 || !ok2 || !ok3 || s[0] == '+' || s[0] == '-' || s[5] == '+' || s[5] == '-' || s[8] == '+' || s[8] == '-' ||
		m < 1 || m > 12 || d < 1 || d > 28 && d > int64(time.Date(int(y), time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

// daysFromCivil is the number of days from 1970-01-01 to y-m-d (proleptic Gregorian).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// ParseCell decodes the text of one non-empty cell of a column of type t
// (any type but String), as a CSV file gives it, into the value a Batch
// holds: the integer, the days or microseconds since 1970-01-01, 0 or 1, or
// the result code's byte. The error says what is wrong with the cell.
func ParseCell(t Type, cell string) (int64, error) {
	switch t {
	case Int, Int32:
		v, err := strconv.ParseInt(cell, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%s %w", Excerpt(cell), errRange)
		}
		if err != nil {
			return 0, fmt.Errorf("malformed integer %q", Excerpt(cell))
		}
		return v, nil
	case Date:
		d, err := day.Parse(Excerpt(cell))
		if err != nil {
			return 0, fmt.Errorf("malformed date %q (want YYYY-MM-DD)", Excerpt(cell))
		}
		return int64(d), nil
	case Time:
		t, err := parseTime(cell)
		if err != nil {
			return 0, fmt.Errorf("malformed timestamp %q", Excerpt(cell))
		}
		return t.UnixMicro(), nil
	case Bool:
		switch strings.ToLower(cell) {
		case "true", "t", "1", "yes", "y":
			return 1, nil
		case "false", "f", "0", "no", "n":
			return 0, nil
		}
		return 0, fmt.Errorf("malformed boolean %q", Excerpt(cell))
	case Code:
		code, ok := resultCode([]byte(cell))
		if !ok {
			return 0, fmt.Errorf("invalid result code %q", Excerpt(cell))
		}
		return int64(code), nil
	}
	return 0, fmt.Errorf("%q: a text column has no value to decode", Excerpt(cell))
}

// parseTime reads a timestamp: RFC 3339, a date and time without zone (UTC)
// with T or a space between, or a date alone (its midnight UTC). The year is
// any of 0000–9999, as an ISO date may have.
func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad time %q", s)
}

// resultCode maps a TRF result code (letters in either case, ½ for =) to its byte.
func resultCode(s []byte) (byte, bool) {
	if string(s) == "½" {
		return '=', true
	}
	if len(s) != 1 {
		return 0, false
	}
	c := s[0]
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	switch c {
	case '1', '=', '0', '+', '-', 'W', 'D', 'L', 'H', 'F', 'U', 'Z':
		return c, true
	}
	return 0, false
}

// CheckText says why a text cell cannot be taken, "" when it can: the
// archive is UTF-8, and a cell in another encoding would be copied into every
// output as bytes no reader can decode; a control character (a line break, a
// tab, NUL, DEL, any of C0 and C1) would turn a name into structure in the
// files written from it (a new TRF record, a new line of a list). Every reader
// of text (the archive's, import's) asks it.
func CheckText(s string) string {
	_, why := checkText(s)
	return why
}

// checkText is CheckText with the kind of the problem (KindNone when none).
func checkText(s string) (Kind, string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if c < 0x80 {
			return KindControlChar, fmt.Sprintf("control character %U%s at byte %d", rune(c), controlName(rune(c)), i+1)
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			return KindNotUTF8, fmt.Sprintf("not valid UTF-8 text (byte %d); save the file as UTF-8", i+1)
		}
		if r <= 0x9f {
			return KindControlChar, fmt.Sprintf("control character %U%s at byte %d", r, controlName(r), i+1)
		}
		i += w - 1
	}
	return KindNone, ""
}

// IsControl tells whether r is a control character CheckText refuses: C0
// (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F).
func IsControl(r rune) bool { return r < 0x20 || r >= 0x7f && r <= 0x9f }

// controlName names the common control characters for a reject.
func controlName(r rune) string {
	switch r {
	case '\n', '\r', 0x85:
		return " (a line break)"
	case '\t':
		return " (a tab)"
	case 0:
		return " (NUL)"
	}
	return ""
}

// SafeText is s as every export writes a text field: each control character
// (IsControl) becomes a space and each byte that is not UTF-8 becomes U+FFFD,
// so that no value can break a file's lines, records or cells. It returns s
// itself when there is nothing to replace.
func SafeText(s string) string {
	if _, why := checkText(s); why == "" {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for _, r := range s { // an invalid byte comes as utf8.RuneError
		if IsControl(r) {
			r = ' '
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
