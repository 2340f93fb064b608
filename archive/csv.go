package archive

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

type csvSource struct {
	f      fs.File
	r      *csv.Reader
	fields []int // column → CSV field index, -1 when absent
	nf     int
	hdr    []string
}

func newCSVSource(f fs.File, cols []Column) (*csvSource, error) {
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	hdr, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%w: empty file, no header row", ErrUnreadable)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: header: %w", ErrUnreadable, err)
	}
	hdr = append([]string(nil), hdr...)
	if len(hdr) > 0 {
		hdr[0] = strings.TrimPrefix(hdr[0], "\ufeff")
	}
	s := &csvSource{f: f, r: r, nf: len(hdr), hdr: hdr}
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
	}
	return s, nil
}

func (s *csvSource) close() error { return s.f.Close() }

func (s *csvSource) fill(b *Batch) (int, error) {
	if b.raw == nil {
		b.raw = make([]string, batchRows)
	}
	n := 0
	for n < batchRows {
		rec, err := s.r.Read()
		if err == io.EOF {
			return n, io.EOF
		}
		b.Bad[n] = ""
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && !errors.Is(err, csv.ErrFieldCount) {
				// A quoting error spoils only this record; csv.Reader resumes after it.
				b.raw[n] = ""
				b.Bad[n] = "malformed CSV: " + pe.Err.Error()
				for c := range b.cols {
					b.Nulls[c][n] = true
				}
				n++
				continue
			}
			return n, err
		}
		b.raw[n] = rawValues(s.hdr, rec)
		if len(rec) != s.nf {
			b.Bad[n] = fmt.Sprintf("wrong number of fields: %d, header has %d", len(rec), s.nf)
			for c := range b.cols {
				b.Nulls[c][n] = true
			}
			n++
			continue
		}
		for c, sp := range b.cols {
			cell := ""
			if s.fields[c] >= 0 {
				cell = rec[s.fields[c]]
			}
			if msg := parseCell(b, c, n, sp, cell); msg != "" && b.Bad[n] == "" {
				b.Bad[n] = sp.Name + ": " + msg
			}
		}
		n++
	}
	return n, nil
}

// rawValues renders a CSV row as "header=cell;…", each cell an Excerpt, and
// stops with "…" past about 20 cells' worth, however many fields the row has.
func rawValues(hdr, rec []string) string {
	var sb strings.Builder
	for i, v := range rec {
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
		sb.WriteString(Excerpt(v))
	}
	return sb.String()
}

// parseCell decodes one CSV cell into the Batch and returns a problem, if any.
func parseCell(b *Batch, c, i int, sp Column, cell string) string {
	cell = strings.TrimSpace(cell)
	b.Nulls[c][i] = cell == ""
	switch {
	case cell == "":
	case sp.Type == String:
		if msg := CheckText(cell); msg != "" {
			b.Nulls[c][i] = true
			return msg
		}
		b.Strs[c][i] = cell
	default:
		v, err := ParseCell(sp.Type, cell)
		if err != nil {
			b.Nulls[c][i] = true
			return err.Error()
		}
		b.Ints[c][i] = v
	}
	return ""
}

// CheckText says why a text cell is not valid UTF-8, "" when it is: the
// archive is UTF-8, and a cell in another encoding would be copied into every
// output as bytes no reader can decode.
func CheckText(s string) string {
	if utf8.ValidString(s) {
		return ""
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, w := utf8.DecodeRuneInString(s[i:]); w == 1 {
				return fmt.Sprintf("not valid UTF-8 text (byte %d); save the file as UTF-8", i+1)
			}
		}
	}
	return "not valid UTF-8 text"
}

// ParseCell decodes the text of one non-empty cell of a column of type t
// (any type but String), as a CSV file gives it, into the value a Batch
// holds: the integer, the days or microseconds since 1970-01-01, 0 or 1, or
// the result code's byte. The error says what is wrong with the cell.
func ParseCell(t Type, cell string) (int64, error) {
	switch t {
	case Int, Int32:
		v, err := strconv.ParseInt(cell, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("malformed integer %q", Excerpt(cell))
		}
		return v, nil
	case Date:
		d, err := time.Parse(time.DateOnly, cell)
		if err != nil {
			return 0, fmt.Errorf("malformed date %q (want YYYY-MM-DD)", Excerpt(cell))
		}
		return d.Unix() / 86400, nil
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
