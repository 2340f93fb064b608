package report

import (
	"math"
	"strconv"

	"github.com/ratelist/ratelist/crosstable"
	"github.com/ratelist/ratelist/tiebreak"
)

// tourTable is a tournament's standings with each player's games, as
// crosstable builds them (the rows of the standings file in its order, or,
// without one, the players by start number), rendered as the site's table.
type tourTable struct {
	s       *site
	x       *crosstable.Table
	cols    []col
	classes string // the table's classes: its layouts (stLayouts)
	style   string // the style of its layouts the sheet lacks
}

func (s *site) newTourTable(t *tourInfo, tt *tiebreak.Tournament, st *standings) *tourTable {
	in := crosstable.Input{Tournament: tt, RoundRobin: isRoundRobin(t.System), Rated: t.Rated, Clubs: s.arch != nil}
	if st != nil {
		in.Codes, in.Entries = st.entries(tt)
	}
	in.Info = func(e *crosstable.Entry) crosstable.Info {
		var v crosstable.Info
		if pi := s.info(e.ID); pi != nil {
			v.Title, v.Federation = pi.Title, pi.Federation
		}
		v.Club = s.club(e.ID)
		if c := s.cardOf(t.ID, e.ID); c != nil {
			cardInfo(&v, c)
		}
		return v
	}
	x := crosstable.Build(in)
	classes, style := stLayouts(x.Cols)
	return &tourTable{s: s, x: x, cols: siteCols(x.Cols), classes: "list st " + classes, style: style}
}

// entries are the standings' rows as the table's, each with its player in
// tt (nil: none), and their tiebreak codes.
func (st *standings) entries(tt *tiebreak.Tournament) ([]string, []crosstable.Entry) {
	at := map[int64]int{}
	if tt != nil {
		for i, p := range tt.Players {
			at[p.ID] = i
		}
	}
	es := make([]crosstable.Entry, 0, len(st.Rows))
	for k, r := range st.Rows {
		id := st.rowID(r, k)
		e := crosstable.Entry{ID: id, Name: field(r, 3), Points: field(r, 4), Tiebreaks: r[5:], Player: -1}
		e.Rank, _ = strconv.Atoi(field(r, 0))
		e.StartNo, _ = strconv.Atoi(field(r, 1))
		if i, ok := at[id]; ok {
			e.Player = i
		}
		es = append(es, e)
	}
	return st.Header[5:], es
}

// cardInfo fills a player's rating, performance and change in a tournament
// from his card: the change summed exactly where it is rounded once per
// period (then with one decimal); none when he was not rated or had no
// rating before.
func cardInfo(v *crosstable.Info, c *card) {
	if p, ok := performance(c); ok {
		v.Perf, v.HasPerf = int(p), true
	}
	if c.Ro() == none {
		return
	}
	v.Rating = int(c.Ro())
	switch {
	case !c.PerGame:
		v.Change, v.HasChange = float64(c.Change), true
	case !math.IsNaN(c.ChangeUnrounded):
		v.Change, v.Decimals, v.HasChange = c.ChangeUnrounded, 1, true
	}
}

// siteCols are the table's columns as the site's tables head them.
func siteCols(cs []crosstable.Column) []col {
	cols := make([]col, len(cs))
	for i, c := range cs {
		cols[i] = col{head: appendEscString(c.Head), title: c.Title, bold: c.Bold, text: c.Text, extra: c.Extra}
	}
	return cols
}

func appendEscString(s string) string { return string(appendEsc(nil, s)) }

// appendTable appends the table and its legend.
func (x *tourTable) appendTable(b []byte) []byte {
	b = appendTableStart(b, "st", x.classes, tourCaption(x.x), x.cols)
	for i := range x.x.Rows {
		b = x.appendRow(b, &x.x.Rows[i])
	}
	b = appendTableEnd(b)
	return appendTourLegend(b, x.x, "../help.html#standings")
}

// tourCaption is the standings table's caption.
func tourCaption(x *crosstable.Table) string {
	switch {
	case x.Grid:
		return "Final standings and results against each player, by start number"
	case x.Paired:
		return "Final standings and results by round"
	}
	return "Final standings"
}

func (x *tourTable) appendRow(b []byte, r *crosstable.Row) []byte {
	return appendTourRow(b, x.x, r, func(id int64) bool { return id > 0 && x.s.hasPage(id) })
}

// appendTourRow appends one row of the standings table; a player's name
// links his page when linked says he has one (relative to the page's base,
// the players' folder).
func appendTourRow(b []byte, x *crosstable.Table, r *crosstable.Row, linked func(int64) bool) []byte {
	b = append(b, "<tr>"...)
	for _, c := range x.Cols {
		if c.Kind != crosstable.Name {
			b = append(b, "<td>"...)
			b = appendEsc(b, x.Cell(r, c))
			continue
		}
		b = append(b, "<th scope=row>"...)
		if linked(r.ID) {
			b = append(b, "<a href="...)
			b = strconv.AppendInt(b, r.ID, 10)
			b = append(b, ".html>"...)
			b = appendEsc(b, r.Name)
			b = append(b, "</a>"...)
		} else {
			b = appendEsc(b, r.Name)
		}
	}
	return append(b, '\n')
}

// performance is a player's rating performance in a tournament: the
// opponents' average plus the rating difference of his score (FIDE's table;
// ±800 for a full or no score).
func performance(c *card) (int32, bool) {
	if c.OppAverage == none {
		return 0, false
	}
	p, ok := crosstable.Performance(int(c.OppAverage), c.Score, int(c.Games))
	return int32(p), ok
}

// appendTourLegend explains the table, linking help's explanation when
// there is one (the site's pages, whose grid's caption says the rest).
func appendTourLegend(b []byte, x *crosstable.Table, help string) []byte {
	legend := ""
	if !x.Grid || help == "" {
		legend = x.Legend()
	}
	if legend == "" && help == "" {
		return b
	}
	b = append(b, "<p class=legend>"...)
	b = append(b, legend...)
	if help != "" {
		if legend != "" {
			b = append(b, ' ')
		}
		b = append(b, "<a href="...)
		b = append(b, help...)
		b = append(b, ">How to read the standings</a>"...)
	}
	return append(b, "</p>\n"...)
}
