package crosstable

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ratelist/ratelist/internal/csvfield"
)

// Legend says how to read the round columns, under the table; "" when it
// has none.
func (x *Table) Legend() string {
	switch {
	case x.Grid:
		return "Each column of results is the player of that start number."
	case x.Paired:
		return "Each round: the opponent's start number, the colour (w, b) and the result."
	}
	return ""
}

// WriteText writes the table for people: the site's columns and cells,
// aligned (text left, numbers right), and the legend under it.
func WriteText(w io.Writer, x *Table) error {
	cells := make([][]string, 0, len(x.Rows)+1)
	head := make([]string, len(x.Cols))
	for k, c := range x.Cols {
		head[k] = c.Head
	}
	cells = append(cells, head)
	for i := range x.Rows {
		rec := make([]string, len(x.Cols))
		for k, c := range x.Cols {
			rec[k] = x.Cell(&x.Rows[i], c)
		}
		cells = append(cells, rec)
	}
	width := make([]int, len(x.Cols))
	for _, rec := range cells {
		for k, s := range rec {
			width[k] = max(width[k], utf8.RuneCountInString(s))
		}
	}
	var b strings.Builder
	for _, rec := range cells {
		var line strings.Builder
		for k, s := range rec {
			if k > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[k]-utf8.RuneCountInString(s))
			if x.Cols[k].Text {
				line.WriteString(s + pad)
			} else {
				line.WriteString(pad + s)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	if l := x.Legend(); l != "" {
		b.WriteString("\n" + l + "\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write standings: %w", err)
	}
	return nil
}

// CSVHeader is the header of WriteCSV's table for a tournament of rounds
// rounds and the given tiebreak codes.
func CSVHeader(rounds int, codes []string) []string {
	h := []string{"rank", "start_no", "player_id", "title", "name", "federation", "club", "rating"}
	for i := 1; i <= rounds; i++ {
		h = append(h, "r"+strconv.Itoa(i))
	}
	h = append(h, "points")
	for _, c := range codes {
		h = append(h, strings.TrimSpace(c))
	}
	return append(h, "performance", "change")
}

// WriteCSV writes the table for programs: every column of CSVHeader
// whatever the tournament has (empty cells where it has nothing), one row
// per player, the rank a number (players sharing a place have the same),
// each round as its cell in the site's table ("12w1": the opponent's start
// number, the colour and the result; "bye ½"), never a grid, and the rating
// change a plain number (-3, 12, 1.5).
func WriteCSV(w io.Writer, x *Table) error {
	var b []byte
	for k, h := range CSVHeader(x.Rounds, x.Codes) {
		if k > 0 {
			b = append(b, ',')
		}
		b = csvfield.Append(b, h)
	}
	b = append(b, '\n')
	for i := range x.Rows {
		r := &x.Rows[i]
		if r.Rank != 0 {
			b = strconv.AppendInt(b, int64(r.Rank), 10)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(r.StartNo), 10)
		b = append(b, ',')
		if r.ID > 0 {
			b = strconv.AppendInt(b, r.ID, 10)
		}
		for _, s := range []string{r.Info.Title, r.Name, r.Info.Federation, r.Info.Club} {
			b = csvfield.Append(append(b, ','), s)
		}
		b = append(b, ',')
		if r.Info.Rating != 0 {
			b = strconv.AppendInt(b, int64(r.Info.Rating), 10)
		}
		for k := 0; k < x.Rounds; k++ {
			b = append(b, ',')
			if k < len(r.Rounds) {
				b = csvfield.Append(b, r.Rounds[k])
			}
		}
		b = csvfield.Append(append(b, ','), r.Points)
		for k := range x.Codes {
			b = append(b, ',')
			if k < len(r.Tiebreaks) {
				b = csvfield.Append(b, r.Tiebreaks[k])
			}
		}
		b = append(b, ',')
		if r.Info.HasPerf {
			b = strconv.AppendInt(b, int64(r.Info.Perf), 10)
		}
		b = append(b, ',')
		if r.Info.HasChange {
			b = strconv.AppendFloat(b, r.Info.Change, 'f', r.Info.Decimals, 64)
		}
		b = append(b, '\n')
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write standings: %w", err)
	}
	return nil
}
