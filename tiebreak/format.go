package tiebreak

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ratelist/ratelist/internal/csvfield"
)

// FormatValue prints a value with '.' as decimal point, whole numbers without it,
// and undefined values as the empty string.
func FormatValue(v Value) string {
	if !v.OK {
		return ""
	}
	return formatFloat(v.V)
}

func formatFloat(f float64) string {
	if f == 0 {
		return "0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func header(codes []string) []string {
	h := []string{"rank", "start_no", "player_id", "name", "points"}
	for _, c := range codes {
		h = append(h, strings.TrimSpace(c))
	}
	return h
}

func record(r Row) []string {
	id := ""
	if r.Player.ID != 0 {
		id = strconv.FormatInt(r.Player.ID, 10)
	}
	rec := []string{strconv.Itoa(r.Rank), strconv.Itoa(r.Player.StartNo), id, r.Player.Name, formatFloat(r.Points)}
	for _, v := range r.Values {
		rec = append(rec, FormatValue(v))
	}
	return rec
}

// WriteCSV writes the standings as CSV: header rank,start_no,player_id,name,points and
// one column per code, headed by the code as requested. A player without an id
// (player_id 0) gets an empty cell. Fields are quoted as encoding/csv quotes them.
func WriteCSV(w io.Writer, codes []string, rows []Row) error {
	if _, err := w.Write(AppendCSV(nil, codes, rows)); err != nil {
		return fmt.Errorf("write standings: %w", err)
	}
	return nil
}

// AppendCSV appends the standings, as WriteCSV writes them, to dst and returns the
// extended slice (a job writing many tournaments reuses one buffer).
func AppendCSV(dst []byte, codes []string, rows []Row) []byte {
	b := append(dst, "rank,start_no,player_id,name,points"...)
	for _, c := range codes {
		b = append(b, ',')
		b = csvfield.Append(b, strings.TrimSpace(c))
	}
	b = append(b, '\n')
	for _, r := range rows {
		b = csvfield.AppendInt(b, int64(r.Rank))
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(r.Player.StartNo))
		b = append(b, ',')
		if r.Player.ID != 0 {
			b = csvfield.AppendInt(b, r.Player.ID)
		}
		b = append(b, ',')
		b = csvfield.Append(b, r.Player.Name)
		b = append(b, ',')
		b = appendFloat(b, r.Points)
		for _, v := range r.Values {
			b = append(b, ',')
			if v.OK {
				b = appendFloat(b, v.V)
			}
		}
		b = append(b, '\n')
	}
	return b
}

// appendFloat appends f as formatFloat prints it. Most values are whole, halves or
// quarters (points, BH, SB): those are printed from integers, exactly as strconv's
// shortest form prints them.
func appendFloat(b []byte, f float64) []byte {
	const limit = 1 << 50 // quarters below this are exact integers in a float64
	q := f * 4            // exact: a power of two
	n := int64(q)
	if float64(n) != q || n >= limit || n <= -limit {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	b = csvfield.AppendInt(b, n/4)
	// Three bytes cut to the fraction's length: no branch on the fraction, which
	// the processor cannot predict.
	d := &quarterDecimals[n%4]
	b = append(b, d.s[0], d.s[1], d.s[2])
	return b[:len(b)-3+d.n]
}

var quarterDecimals = [4]struct {
	s [3]byte
	n int
}{{}, {[3]byte{'.', '2', '5'}, 3}, {[3]byte{'.', '5'}, 2}, {[3]byte{'.', '7', '5'}, 3}}

// WriteText writes the standings as an aligned table for people, numbers right
// aligned.
func WriteText(w io.Writer, codes []string, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	hdr := header(codes)
	hdr[0], hdr[1], hdr[2] = "Rk", "SNo", "ID"
	line := func(cells []string) {
		// The name column is left aligned: pad it ourselves.
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	width := len("name")
	for _, r := range rows {
		width = max(width, len([]rune(r.Player.Name)))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-len([]rune(s))) }
	hdr[3] = pad("Name")
	hdr[4] = "Pts"
	line(hdr)
	for _, r := range rows {
		rec := record(r)
		rec[3] = pad(rec[3])
		line(rec)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write standings: %w", err)
	}
	return nil
}

// WriteTeamCSV writes team standings as CSV: header rank,team,name,mp,gp and one
// column per code, headed by the code as requested.
func WriteTeamCSV(w io.Writer, codes []string, rows []TeamRow) error {
	b := []byte("rank,team,name,mp,gp")
	for _, c := range codes {
		b = append(b, ',')
		b = csvfield.Append(b, strings.TrimSpace(c))
	}
	b = append(b, '\n')
	for _, r := range rows {
		b = csvfield.AppendInt(b, int64(r.Rank))
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(r.Team.Number))
		b = append(b, ',')
		b = csvfield.Append(b, r.Team.Name)
		b = append(b, ',')
		b = appendFloat(b, r.MP)
		b = append(b, ',')
		b = appendFloat(b, r.GP)
		for _, v := range r.Values {
			b = append(b, ',')
			if v.OK {
				b = appendFloat(b, v.V)
			}
		}
		b = append(b, '\n')
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write team standings: %w", err)
	}
	return nil
}

// WriteTeamText writes team standings as an aligned table for people.
func WriteTeamText(w io.Writer, codes []string, rows []TeamRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	width := len("Team")
	for _, r := range rows {
		width = max(width, len([]rune(r.Team.Name)))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-len([]rune(s))) }
	cells := []string{"Rk", "No", pad("Team"), "MP", "GP"}
	for _, c := range codes {
		cells = append(cells, strings.TrimSpace(c))
	}
	fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	for _, r := range rows {
		cells = []string{strconv.Itoa(r.Rank), strconv.Itoa(r.Team.Number), pad(r.Team.Name), formatFloat(r.MP), formatFloat(r.GP)}
		for _, v := range r.Values {
			cells = append(cells, FormatValue(v))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write team standings: %w", err)
	}
	return nil
}
