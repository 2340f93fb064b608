package officer

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/output"
)

// ListFormat is a shape WriteList writes a list in.
type ListFormat string

// The list shapes: FIDE's fixed-width standard list, FIDE's XML list, and CSV
// with the same fields.
const (
	FideTXT ListFormat = "fide-txt"
	FideXML ListFormat = "fide-xml"
	ListCSV ListFormat = "csv"
)

// ParseListFormat reads fide-txt, fide-xml or csv.
func ParseListFormat(s string) (ListFormat, error) {
	switch f := ListFormat(s); f {
	case FideTXT, FideXML, ListCSV:
		return f, nil
	}
	return "", fmt.Errorf("%q is not fide-txt, fide-xml or csv", s)
}

// ListRow is one player of an exported list, the fields FIDE's lists carry.
type ListRow struct {
	ID         int64
	Name       string
	Federation string
	Sex        string // M or F
	Title      string
	WTitle     string
	Rating     int32
	Games      int32
	K          int32
	NoK        bool   // K empty: a list of a rule set without K
	BirthYear  int32  // 0 = unknown
	Flag       string // i inactive, w woman, wi
}

// ListRows makes the export's rows from a list and its player columns. With
// players (nil: none), the players table fills what the list leaves empty
// (lists of runs that did not write the player columns), and its birth_year
// comes before the list's birth_date. With fideIDs, the ID is the player's
// FIDE id (0 when unknown), else his player_id.
func ListRows(list []output.ListRow, players map[int64]Player, fideIDs bool) []ListRow {
	out := make([]ListRow, len(list))
	for i, e := range list {
		p := players[e.PlayerID]
		r := ListRow{ID: e.PlayerID, Name: e.Name, Federation: cmp.Or(e.Federation, p.Federation), Title: cmp.Or(e.Title, p.Title),
			Rating: e.Rating, Games: e.GamesPeriod, K: e.K, BirthYear: p.BirthYear}
		if r.BirthYear == 0 && e.BirthDate != nil {
			r.BirthYear = int32(day.Day(*e.BirthDate).Year())
		}
		if fideIDs {
			r.ID = cmp.Or(e.FideID, p.FideID)
		}
		if strings.HasPrefix(r.Title, "W") {
			r.WTitle = r.Title
		}
		switch cmp.Or(e.Sex, p.Sex) {
		case "m":
			r.Sex = "M"
		case "w":
			r.Sex, r.Flag = "F", "w"
		}
		if hasFlag(e.Flags, "i") {
			r.Flag += "i"
		}
		out[i] = r
	}
	return out
}

// kText is the K field: empty on a list without K, where the 0 read means none.
func (r ListRow) kText() string {
	if r.NoK {
		return ""
	}
	return itoa(r.K)
}

// WriteList writes rows in format f. period is the list's label: the text
// form's rating column is headed by its last month as FIDE heads it (JUN25).
func WriteList(w io.Writer, rows []ListRow, period string, f ListFormat) error {
	var err error
	switch f {
	case FideTXT:
		err = writeFideTXT(w, rows, period)
	case FideXML:
		err = writeFideXML(w, rows)
	default:
		err = writeListCSV(w, rows)
	}
	if err != nil {
		return fmt.Errorf("write %s list: %w", f, err)
	}
	return nil
}

// fideColumns are the fixed-width columns of FIDE's standard list
// (standard_rating_list.txt): name and width in characters, text left-aligned.
var fideColumns = []struct {
	name  string
	width int
}{
	{"ID Number", 15}, {"Name", 61}, {"Fed", 4}, {"Sex", 4}, {"Tit", 5}, {"WTit", 5}, {"OTit", 15}, {"FOA", 4},
	{"", 6}, {"Gms", 4}, {"K", 3}, {"B-day", 6}, {"Flag", 4},
}

// monthCode is FIDE's rating-column heading for the period's last month.
func monthCode(period string) string {
	p, err := day.ParseLabel(period)
	if err != nil {
		return "Rtng"
	}
	_, last := p.Bounds()
	return strings.ToUpper(last.Time().Format("Jan06"))
}

func writeFideTXT(w io.Writer, rows []ListRow, period string) error {
	bw := bufio.NewWriter(w)
	line := func(cells []string, header bool) {
		var b strings.Builder
		for c, col := range fideColumns {
			v := archive.SafeText(cells[c])
			if n := utf8.RuneCountInString(v); n >= col.width && !header {
				v = string([]rune(v)[:col.width-1]) // one blank always separates the columns
			}
			b.WriteString(v + strings.Repeat(" ", max(0, col.width-utf8.RuneCountInString(v))))
		}
		bw.WriteString(b.String() + "\r\n")
	}
	head := make([]string, len(fideColumns))
	for c, col := range fideColumns {
		head[c] = col.name
	}
	head[8] = monthCode(period)
	line(head, true)
	for _, r := range rows {
		id, by := "", ""
		if r.ID > 0 {
			id = itoa(r.ID)
		}
		if r.BirthYear > 0 {
			by = itoa(r.BirthYear)
		}
		line([]string{id, r.Name, r.Federation, r.Sex, r.Title, r.WTitle, "", "", itoa(r.Rating), itoa(r.Games), r.kText(), by, r.Flag}, false)
	}
	return bw.Flush()
}

// fidePlayer is one <player> of FIDE's XML list, its elements in FIDE's order.
type fidePlayer struct {
	XMLName  xml.Name `xml:"player"`
	FideID   string   `xml:"fideid"`
	Name     string   `xml:"name"`
	Country  string   `xml:"country"`
	Sex      string   `xml:"sex"`
	Title    string   `xml:"title"`
	WTitle   string   `xml:"w_title"`
	OTitle   string   `xml:"o_title"`
	FOATitle string   `xml:"foa_title"`
	Rating   int32    `xml:"rating"`
	Games    int32    `xml:"games"`
	K        string   `xml:"k"`
	Birthday string   `xml:"birthday"`
	Flag     string   `xml:"flag"`
}

func writeFideXML(w io.Writer, rows []ListRow) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("<playerslist>\n")
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	for _, r := range rows {
		t := archive.SafeText
		p := fidePlayer{Name: t(r.Name), Country: t(r.Federation), Sex: t(r.Sex), Title: t(r.Title), WTitle: t(r.WTitle),
			Rating: r.Rating, Games: r.Games, K: r.kText(), Flag: t(r.Flag)}
		if r.ID > 0 {
			p.FideID = itoa(r.ID)
		}
		if r.BirthYear > 0 {
			p.Birthday = itoa(r.BirthYear)
		}
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	bw.WriteString("\n</playerslist>\n")
	return bw.Flush()
}

func writeListCSV(w io.Writer, rows []ListRow) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"id", "name", "federation", "sex", "title", "w_title", "rating", "games", "k", "birth_year", "flag"})
	for _, r := range rows {
		id, by := "", ""
		if r.ID > 0 {
			id = itoa(r.ID)
		}
		if r.BirthYear > 0 {
			by = itoa(r.BirthYear)
		}
		t := func(s string) string { return csvfield.Text(archive.SafeText(s)) }
		cw.Write([]string{id, t(r.Name), t(r.Federation), t(r.Sex), t(r.Title), t(r.WTitle), itoa(r.Rating), itoa(r.Games), r.kText(), by, t(r.Flag)})
	}
	cw.Flush()
	return cw.Error()
}
