package archive

import (
	"bytes"
	"encoding/csv"
)

// The CSV dialect is encoding/csv's with its defaults and any number of
// fields per record: comma-separated, fields optionally quoted with "" for a
// quote inside, quoted fields may span lines, \r\n read as \n, empty lines
// skipped, and a record with a stray quote is an error that spoils that record
// only (reading resumes at the next line). csvParser reads that dialect from
// text in memory, so that a block of records can be split and parsed without
// copying; FuzzCSVRecords holds it to encoding/csv.

// csvErr is the kind of a malformed record.
type csvErr uint8

const (
	csvOK        csvErr = iota
	csvBareQuote        // csv.ErrBareQuote: a quote inside an unquoted field
	csvQuote            // csv.ErrQuote: a quoted field not closed right
)

// kind is the reject kind of a record with this error.
func (k csvErr) kind() Kind {
	if k == csvBareQuote {
		return KindBareQuote
	}
	return KindQuote
}

func (k csvErr) err() error {
	switch k {
	case csvBareQuote:
		return csv.ErrBareQuote
	case csvQuote:
		return csv.ErrQuote
	}
	return nil
}

// csvSpan is one field: text[from:to], or buf[from:to] when it was quoted.
type csvSpan struct {
	from, to int
	quoted   bool
}

// csvParser parses one record at a time; its fields stay valid until the next.
type csvParser struct {
	n     int // fields in the record
	spans []csvSpan
	buf   []byte // the quoted fields, unescaped
}

// field is field i of the last record parsed from text.
func (ps *csvParser) field(text []byte, i int) []byte {
	s := ps.spans[i]
	if s.quoted {
		return ps.buf[s.from:s.to]
	}
	return text[s.from:s.to]
}

// csvLine is the line at text[p:]: its content without the newline and one
// \r before it (or before the end of text), whether a newline ends it, and
// where the next line starts.
func csvLine(text []byte, p int) (line []byte, nl bool, next int) {
	rest := text[p:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		line, nl, next = rest[:i], true, p+i+1
	} else {
		line, next = rest, len(text)
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nl, next
}

// record skips empty lines and parses the record at text[p:], where the end
// of text is taken as the end of the file. It returns where the next record
// starts, the record's error kind, ok = false when only empty lines were
// left, and end = the record (or the empty lines) ran to the end of text
// without a newline, so that it is whole only if the file ends there. Of a
// record without quotes only the first need fields are split out (all when
// need < 0); ps.n counts them all.
func (ps *csvParser) record(text []byte, p, need int) (next int, kind csvErr, ok, end bool) {
	ps.spans, ps.buf = ps.spans[:0], ps.buf[:0]
	var line []byte
	var nl bool
	for {
		if p >= len(text) {
			return p, csvOK, false, true
		}
		line, nl, next = csvLine(text, p)
		if len(line) > 0 {
			break
		}
		p = next
	}
	if ps.plain(line, p, need) {
		return next, csvOK, true, !nl
	}
	ps.spans = ps.spans[:0]
	next, kind, end = ps.quoted(text, line, nl, p, next)
	ps.n = len(ps.spans)
	return next, kind, true, end
}

// quoted parses a record with quotes whose first line, at text[pos:], is
// line; next is where the line after it starts.
func (ps *csvParser) quoted(text, line []byte, nl bool, pos, next int) (int, csvErr, bool) {
fields:
	for {
		if len(line) == 0 || line[0] != '"' {
			i := bytes.IndexByte(line, ',')
			field := line
			if i >= 0 {
				field = line[:i]
			}
			if bytes.IndexByte(field, '"') >= 0 {
				return next, csvBareQuote, !nl
			}
			ps.spans = append(ps.spans, csvSpan{from: pos, to: pos + len(field)})
			if i < 0 {
				return next, csvOK, !nl
			}
			line, pos = line[i+1:], pos+i+1
			continue
		}
		line, pos = line[1:], pos+1
		from := len(ps.buf)
		for {
			if i := bytes.IndexByte(line, '"'); i >= 0 {
				ps.buf = append(ps.buf, line[:i]...)
				line, pos = line[i+1:], pos+i+1
				switch {
				case len(line) > 0 && line[0] == '"':
					ps.buf = append(ps.buf, '"')
					line, pos = line[1:], pos+1
				case len(line) > 0 && line[0] == ',':
					ps.spans = append(ps.spans, csvSpan{from: from, to: len(ps.buf), quoted: true})
					line, pos = line[1:], pos+1
					continue fields
				case len(line) == 0:
					ps.spans = append(ps.spans, csvSpan{from: from, to: len(ps.buf), quoted: true})
					return next, csvOK, !nl
				default:
					return next, csvQuote, !nl
				}
				continue
			}
			if len(line) == 0 && !nl || next >= len(text) {
				// The file ends inside the quoted field.
				return next, csvQuote, true
			}
			ps.buf = append(ps.buf, line...)
			if nl {
				ps.buf = append(ps.buf, '\n')
			}
			pos = next
			line, nl, next = csvLine(text, next)
		}
	}
}

// plain splits a line without quotes (most lines) at its commas, byte by
// byte: fields are short, shorter than a call to bytes.IndexByte pays for.
// After need fields it only counts the rest. False when the line has a quote.
func (ps *csvParser) plain(line []byte, pos, need int) bool {
	from := 0
	for i, c := range line {
		if c == ',' {
			ps.spans = append(ps.spans, csvSpan{from: pos + from, to: pos + i})
			from = i + 1
			if len(ps.spans) == need {
				rest := line[from:]
				if bytes.IndexByte(rest, '"') >= 0 {
					return false
				}
				ps.n = need + 1 + bytes.Count(rest, []byte{','})
				return true
			}
		} else if c == '"' {
			return false
		}
	}
	ps.spans = append(ps.spans, csvSpan{from: pos + from, to: pos + len(line)})
	ps.n = len(ps.spans)
	return true
}

var quote = []byte{'"'}

// emptyLine tells whether a line (without its \n) holds no record.
func emptyLine(l []byte) bool { return len(l) == 0 || len(l) == 1 && l[0] == '\r' }

// cut finds the whole records of text[p:], p being the start of a record or
// of empty lines: it appends the start of each to starts, up to most records,
// and returns where it stopped. Text after that is the start of a record
// that may go on past the end of text unless atEOF. Lines without quotes are
// one record each (or empty), and so is a line with an even number of quotes;
// the record at a line with an odd number is parsed to find its end.
func (ps *csvParser) cut(text []byte, p int, atEOF bool, starts []int, most int) (int, []int) {
	for len(starts) < most && p < len(text) {
		q := bytes.IndexByte(text[p:], '"')
		if q < 0 {
			q = len(text)
		} else {
			q += p
		}
		for len(starts) < most {
			i := bytes.IndexByte(text[p:q], '\n')
			if i < 0 {
				break
			}
			if !emptyLine(text[p : p+i]) {
				starts = append(starts, p)
			}
			p += i + 1
		}
		if len(starts) == most || q == len(text) && !atEOF {
			break
		}
		if nl := bytes.IndexByte(text[q:], '\n'); nl >= 0 && bytes.Count(text[q:q+nl], quote)%2 == 0 {
			// A record goes on past its first line only inside a quoted field,
			// after an odd number of quotes on that line.
			starts = append(starts, p)
			p = q + nl + 1
			continue
		}
		next, _, ok, end := ps.record(text, p, -1)
		if end && !atEOF {
			break
		}
		if ok {
			starts = append(starts, p)
		}
		p = next
	}
	return p, starts
}
