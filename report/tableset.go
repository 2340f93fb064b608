package report

import (
	"errors"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// The pages of a table rule set (rating.TableDefinition): its lists, one
// page each, and a section on the page of each of its players, made from its
// list files' headers, its cards file's columns and its declaration
// (TableSite): the report knows no table rule set by name.

// tableListFile is the kind of file of table rule set d's lists (CSV).
func tableListFile(d *rating.TableDefinition) *output.File { return output.TableListCSV.For(d.Name) }

// tableCardsFile is table rule set d's cards file: a row per player per game.
func tableCardsFile(d *rating.TableDefinition) *output.File { return output.TableCards.For(d.Name) }

// tableSet is one table rule set's lists and cards as the site shows them.
type tableSet struct {
	def     *rating.TableDefinition
	periods []string              // its lists, sorted
	heads   [][]string            // each list's header, by index into periods
	hist    map[int64][]tableHist // each player's row in each list, in list order
	cards   map[int64][]tableCard // each player's games, in file order
}

// tableHist is one player's row in one list of a table rule set.
type tableHist struct {
	list int      // index into periods
	row  []string // the list file's record
}

// tableCard is the part of a cards row a player's page shows, kept compact: a
// big run has a row per player per game.
type tableCard struct {
	day            int32   // the game's day (played_at)
	chart, changes float64 // the declared Chart and Changes columns (0 when undeclared)
}

// file is the page of list period.
func (t *tableSet) file(period string) string { return t.def.Name + "-" + period + ".html" }

// title is the page title of list period.
func (t *tableSet) title(period string) string { return t.def.Title + " list " + period }

// shown are the positions in head of the columns a page shows after the
// rank and the name: every column but the contract's rank, player_id and
// name, in the file's order.
func shown(head []string) []int {
	var at []int
	for j, h := range head {
		if h != "rank" && h != "player_id" && h != "name" {
			at = append(at, j)
		}
	}
	return at
}

// loadTables finds every registered table rule set's lists in out.
func loadTables(out string) ([]*tableSet, error) {
	var ts []*tableSet
	for _, d := range rating.TableDefinitions() {
		ps, err := periods(out, tableListFile(d))
		if err != nil {
			return nil, err
		}
		ts = append(ts, &tableSet{def: d, periods: ps})
	}
	return ts, nil
}

// read reads the set's lists and cards, and adds to names the players it
// lists that names lacks.
func (t *tableSet) read(out string, names map[int64]string) error {
	t.hist = map[int64][]tableHist{}
	t.heads = make([][]string, len(t.periods))
	for i, p := range t.periods {
		head, recs, idAt, err := readTableList(tableListFile(t.def).Path(out, p))
		if err != nil {
			return err
		}
		t.heads[i] = head
		nameAt := slices.Index(head, "name")
		for _, rec := range recs {
			id, _ := strconv.ParseInt(rec[idAt], 10, 64)
			t.hist[id] = append(t.hist[id], tableHist{list: i, row: rec})
			if _, ok := names[id]; !ok {
				names[id] = field(rec, nameAt)
			}
		}
	}
	t.cards = map[int64][]tableCard{}
	if p := tableCardsFile(t.def).Path(out, ""); exists(p) {
		return readTableCards(p, &t.def.Site, t.cards)
	}
	return nil
}

// readTableList reads a table rule set's list: its header, its records and
// the position of player_id, which every record holds as a number.
func readTableList(path string) (head []string, recs [][]string, idAt int, err error) {
	head, recs, err = csvRecords(path)
	if err != nil {
		return nil, nil, 0, err
	}
	if idAt = slices.Index(head, "player_id"); idAt < 0 {
		return nil, nil, 0, fmt.Errorf("read %s: %w", path, ErrBadOutput)
	}
	for i, rec := range recs {
		if _, err := strconv.ParseInt(field(rec, idAt), 10, 64); err != nil {
			return nil, nil, 0, fmt.Errorf("read %s row %d: player_id: %w", path, i+1, err)
		}
	}
	return head, recs, idAt, nil
}

// readTableCards reads a table rule set's cards file column by column, a row
// group at a time, into each player's games: the contract's player_id and
// played_at (a timestamp in microseconds), and the columns site charts and
// lists the changes of, which must be numbers.
func readTableCards(path string, site *rating.TableSite, cards map[int64][]tableCard) error {
	f, pf, err := openParquet(path)
	if err != nil {
		return err
	}
	defer f.Close()
	schema := pf.Schema()
	for _, c := range []struct {
		name  string
		kinds []parquet.Kind
	}{
		{"player_id", []parquet.Kind{parquet.Int64}},
		{"played_at", []parquet.Kind{parquet.Int64}},
		{site.Chart, numberKinds},
		{site.Changes, numberKinds},
	} {
		if c.name == "" {
			continue
		}
		l, ok := schema.Lookup(c.name)
		if !ok {
			return fmt.Errorf("read %s: no column %s: %w", path, c.name, ErrBadOutput)
		}
		if k := l.Node.Type().Kind(); !slices.Contains(c.kinds, k) {
			return fmt.Errorf("read %s: column %s is %s, not a number: %w", path, c.name, k, ErrBadOutput)
		}
	}
	var ids []int64
	var rows []tableCard
	for _, g := range pf.RowGroups() {
		n := int(g.NumRows())
		ids, rows = resize(ids[:0], n, 0), resize(rows[:0], n, tableCard{})
		read := columnReader(path, schema, g.ColumnChunks(), n)
		opt := func(name string, fn func(int, parquet.Value)) error {
			if name == "" {
				return nil
			}
			return read(name, fn)
		}
		err := errors.Join(
			read("player_id", func(i int, v parquet.Value) { ids[i] = v.Int64() }),
			read("played_at", func(i int, v parquet.Value) { rows[i].day = int32(v.Int64() / 86_400_000_000) }),
			opt(site.Chart, func(i int, v parquet.Value) { rows[i].chart = number(v) }),
			opt(site.Changes, func(i int, v parquet.Value) { rows[i].changes = number(v) }),
		)
		if err != nil {
			return err
		}
		for i, id := range ids {
			cards[id] = append(cards[id], rows[i])
		}
	}
	return nil
}

// numberKinds are the kinds of a column a page charts.
var numberKinds = []parquet.Kind{parquet.Int32, parquet.Int64, parquet.Float, parquet.Double}

// number is a value of a column of numberKinds; an empty one is 0.
func number(v parquet.Value) float64 {
	switch v.Kind() {
	case parquet.Int32:
		return float64(v.Int32())
	case parquet.Int64:
		return float64(v.Int64())
	case parquet.Float:
		return float64(v.Float())
	case parquet.Double:
		return v.Double()
	}
	return 0
}

// listCols are the columns of a list page whose file's header is head, and
// the positions in head of the columns after rank, name and club.
func (t *tableSet) listCols(head []string) ([]col, []int) {
	cols := []col{
		{head: "Rank", key: "rank"},
		{head: "Name", key: "name", text: true},
		{head: "Club", key: "club", text: true, extra: true},
	}
	at := shown(head)
	for _, j := range at {
		c := t.def.Site.Column(head[j])
		cols = append(cols, col{head: appendEscString(c.Head()), key: c.Name, text: c.Text, bold: c.Name == t.def.Site.RankBy, extra: !c.Phone})
	}
	return cols, at
}

// writeTableList writes the page of table rule set t's list period (its
// file's header and records).
func (s *site) writeTableList(t *tableSet, period string, head []string, recs [][]string, idAt int, pageKey uint64) error {
	clubs := map[string]bool{}
	cols, at := t.listCols(head)
	rankAt, nameAt := slices.Index(head, "rank"), slices.Index(head, "name")
	b := appendTableStart(make([]byte, 0, 110*len(recs)+1024), listTableID, "list", t.title(period)+": select a column heading to sort", cols)
	for _, rec := range recs {
		id, _ := strconv.ParseInt(rec[idAt], 10, 64)
		club := s.club(id)
		if club != "" {
			clubs[club] = true
		}
		b = append(b, "<tr><td>"...)
		b = appendEsc(b, field(rec, rankAt))
		b = appendNameCell(b, "", id, field(rec, nameAt))
		b = append(b, "<td>"...)
		b = appendEsc(b, club)
		for _, j := range at {
			b = append(b, "<td>"...)
			b = appendEsc(b, field(rec, j))
		}
		b = append(b, '\n')
	}
	b = appendTableEnd(b)
	lp := listPage{page: s.page(t.title(period), "", t.def.Name), Kind: "table", Period: period,
		Count: len(recs), Clubs: sortedKeys(clubs), Set: t.def.Title, RankedBy: t.rankedBy()}
	lp.Style = tableCSS(listTableID, cols)
	lp.Table = template.HTML(b)
	lp.Links = navOf(t.periods, period, t.file)
	lp.Provisional = period == s.sum.Provisional
	return s.putPage(t.file(period), "list.html", &lp, pageKey)
}

// rankedBy names the column that ranks the lists, lower case ("" none).
func (t *tableSet) rankedBy() string {
	if t.def.Site.RankBy == "" {
		return ""
	}
	c := t.def.Site.Column(t.def.Site.RankBy)
	return lowerFirst(c.Head())
}

func lowerFirst(s string) string {
	if s != "" && s[0] >= 'A' && s[0] <= 'Z' {
		return string(s[0]+'a'-'A') + s[1:]
	}
	return s
}

func upperFirst(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// valueChange is a change of the Changes column: its value before game Game
// differs from its value before the game before it.
type valueChange struct {
	Game     int
	Day      int32
	From, To float64
}

// appendSection appends the section of player id (name) on his page: the
// chart of his games and the changes of the declared columns, and his row
// in each list; nothing for a player on none of the lists.
func (t *tableSet) appendSection(b []byte, id int64, name string) []byte {
	hist := t.hist[id]
	if len(hist) == 0 {
		return b
	}
	site, title := &t.def.Site, t.def.Title
	b = append(b, "<section aria-labelledby=\""...)
	b = appendEsc(b, t.def.Name)
	b = append(b, "-h\">\n<h2 id=\""...)
	b = appendEsc(b, t.def.Name)
	b = append(b, "-h\">"...)
	b = appendEsc(b, title)
	b = append(b, "</h2>\n"...)
	if jc := t.cards[id]; len(jc) > 0 && site.Chart != "" {
		vals := make([]float64, len(jc))
		lo, hi := math.Inf(1), math.Inf(-1)
		for i, c := range jc {
			vals[i] = c.chart
			lo, hi = math.Min(lo, vals[i]), math.Max(hi, vals[i])
		}
		alt := fmt.Sprintf("%s %s of %s after each of %d games: from %g to %g; lowest %g, highest %g",
			title, site.ChartLabel, name, len(vals), vals[0], vals[len(vals)-1], lo, hi)
		xs := make([]float64, len(vals))
		for i := range xs {
			xs[i] = float64(i + 1)
		}
		b = append(b, "<figure class=\"chartbox\">\n"...)
		b = appendLineChart(b, alt, xs, vals)
		b = append(b, "<figcaption>"...)
		b = appendEsc(b, alt)
		b = append(b, ".</figcaption>\n</figure>\n"...)
	}
	if jc := t.cards[id]; len(jc) > 0 && site.Changes != "" {
		var changes []valueChange
		for i := 1; i < len(jc); i++ {
			if jc[i].changes != jc[i-1].changes {
				changes = append(changes, valueChange{Game: i + 1, Day: jc[i].day, From: jc[i-1].changes, To: jc[i].changes})
			}
		}
		if len(changes) > 0 {
			b = append(b, "<h3>"...)
			b = appendEsc(b, upperFirst(site.ChangesLabel))
			b = append(b, " changes</h3>\n<ul class=\"levels\">"...)
			for _, c := range changes {
				b = append(b, "<li>"...)
				b = appendDate(b, c.Day)
				b = fmt.Appendf(b, ", before game %d: ", c.Game)
				b = appendEsc(b, site.ChangesLabel)
				b = append(b, ' ')
				b = strconv.AppendFloat(b, c.From, 'f', -1, 64)
				b = append(b, " → "...)
				b = strconv.AppendFloat(b, c.To, 'f', -1, 64)
				b = append(b, "</li>\n"...)
			}
			b = append(b, "</ul>\n"...)
		}
	}
	return append(t.appendHistory(b, hist), "</section>\n"...)
}

// appendHistory appends the table of a player's row in each list (hist),
// the columns of the latest list.
func (t *tableSet) appendHistory(b []byte, hist []tableHist) []byte {
	site := &t.def.Site
	head := t.heads[len(t.heads)-1]
	b = append(b, "<h3>"...)
	if site.ChangesLabel != "" {
		b = appendEsc(b, upperFirst(site.ChangesLabel)+" in each "+t.def.Title+" list")
	} else {
		b = appendEsc(b, "Each "+t.def.Title+" list")
	}
	b = append(b, `</h3>
<div class="scroll"><table class="compact">
<thead><tr><th scope="col">List</th><th scope="col" class="n">Rank</th>`...)
	at := shown(head)
	names := make([]string, len(at))
	cls := make([]string, len(at))
	for i, j := range at {
		c := site.Column(head[j])
		names[i] = c.Name
		switch {
		case c.Name == site.RankBy:
			cls[i] = "n strong"
		case !c.Text:
			cls[i] = "n"
		}
		b = append(b, "<th scope=\"col\""...)
		if !c.Text {
			b = append(b, " class=\"n\""...)
		}
		b = append(b, '>')
		b = appendEsc(b, c.Head())
		b = append(b, "</th>"...)
	}
	b = append(b, "</tr></thead>\n<tbody>\n"...)
	for _, h := range hist {
		lh, p := t.heads[h.list], t.periods[h.list]
		b = append(b, "<tr><td><a href=\"../"...)
		b = appendEsc(b, t.file(p))
		b = append(b, "\">"...)
		b = appendEsc(b, p)
		b = append(b, "</a></td><td class=\"n\">"...)
		b = appendEsc(b, field(h.row, slices.Index(lh, "rank")))
		for i, n := range names {
			b = append(b, "</td><td"...)
			if cls[i] != "" {
				b = append(b, " class=\""+cls[i]+"\""...)
			}
			b = append(b, '>')
			b = appendEsc(b, field(h.row, slices.Index(lh, n)))
		}
		b = append(b, "</td></tr>\n"...)
	}
	return append(b, "</tbody>\n</table></div>\n"...)
}

// key adds to k what player id's section shows.
func (t *tableSet) key(k *keyer, id int64) {
	for _, h := range t.hist[id] {
		k.str(t.periods[h.list])
		k.ints(int64(len(h.row)))
		for _, f := range h.row {
			k.str(f)
		}
	}
	for _, c := range t.cards[id] {
		k.ints(int64(c.day))
		k.float(c.chart)
		k.float(c.changes)
	}
}
