package officer

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/csvfield"
)

// Table is a titled table of text cells, printed as aligned text or as CSV.
type Table struct {
	Title  string // printed above the text form; not in CSV
	Header []string
	Rows   [][]string
}

// Format is how a Table is printed.
type Format string

// The formats of the officer's tables.
const (
	Text Format = "text"
	CSV  Format = "csv"
)

// ParseFormat reads "text" or "csv".
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case Text, CSV:
		return f, nil
	}
	return "", fmt.Errorf("%q is neither text nor csv", s)
}

// WriteTables prints tables in format f. As CSV, tables after the first are
// separated by a blank line; each keeps its header.
func WriteTables(w io.Writer, f Format, tables ...Table) error {
	for i, t := range tables {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		t = t.safe()
		var err error
		if f == CSV {
			err = t.writeCSV(w)
		} else {
			err = t.writeText(w)
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", f, err)
		}
	}
	return nil
}

// safe is t with every cell as exports write text (archive.SafeText): no
// value can break a line or a column.
func (t Table) safe() Table {
	title := strings.Split(t.Title, "\n") // a title of several lines keeps them
	for i, l := range title {
		title[i] = archive.SafeText(l)
	}
	out := Table{Title: strings.Join(title, "\n"), Header: make([]string, len(t.Header)), Rows: make([][]string, len(t.Rows))}
	for c, h := range t.Header {
		out.Header[c] = archive.SafeText(h)
	}
	for i, r := range t.Rows {
		out.Rows[i] = make([]string, len(r))
		for c, v := range r {
			out.Rows[i][c] = archive.SafeText(v)
		}
	}
	return out
}

func (t Table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(t.Header)
	cells := make([]string, len(t.Header))
	for _, r := range t.Rows {
		cells = cells[:0]
		for _, v := range r {
			cells = append(cells, csvCell(v))
		}
		cw.Write(cells)
	}
	cw.Flush()
	return cw.Error()
}

// csvCell is v as a CSV cell: a number as it is (a change of -6 stays a
// number), text made safe for spreadsheets.
func csvCell(v string) string {
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return v
	}
	return csvfield.Text(v)
}

// writeText aligns the columns: numbers to the right, text to the left.
func (t Table) writeText(w io.Writer) error {
	width := make([]int, len(t.Header))
	numeric := make([]bool, len(t.Header))
	for c, h := range t.Header {
		width[c], numeric[c] = utf8.RuneCountInString(h), true
	}
	for _, r := range t.Rows {
		for c, v := range r {
			width[c] = max(width[c], utf8.RuneCountInString(v))
			if _, err := strconv.ParseFloat(v, 64); err != nil && v != "" {
				numeric[c] = false
			}
		}
	}
	var b strings.Builder
	if t.Title != "" {
		b.WriteString(t.Title + "\n")
	}
	line := func(cells []string) {
		var l strings.Builder
		for c, v := range cells {
			pad := strings.Repeat(" ", width[c]-utf8.RuneCountInString(v))
			if c > 0 {
				l.WriteString("  ")
			}
			if numeric[c] {
				l.WriteString(pad + v)
			} else {
				l.WriteString(v + pad)
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	line(t.Header)
	for _, r := range t.Rows {
		line(r)
	}
	if len(t.Rows) == 0 {
		b.WriteString("(none)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Cell formatting of optional and fractional numbers: empty for nil.
func i32(p *int32) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(int(*p))
}

func f64(p *float64) string {
	if p == nil {
		return ""
	}
	return num(*p)
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func itoa[T int | int32 | int64](v T) string { return strconv.FormatInt(int64(v), 10) }
