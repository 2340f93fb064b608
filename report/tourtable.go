package report

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/tiebreak"
)

// maxGrid is the largest round robin shown as a grid of results, a column
// per player; a bigger one shows a column per round.
const maxGrid = 24

// tourTable is a tournament's standings with each player's games: the rows
// of the standings file in its order (or, without one, the players by start
// number), and beside them what the cards and the archive know of each.
type tourTable struct {
	s      *site
	t      *tourInfo
	tt     *tiebreak.Tournament
	grid   bool     // a round robin small enough for a grid
	rounds int      // columns of rounds (grid: of players)
	codes  []string // the tiebreak codes, in the order they break ties
	rows   []tourRow
	sn     []int // each of tt's players' start number
	cols   []col
	fed    bool // a federation column (else a club column, with the archive)
	title  bool
}

// tourRow is one player's row.
type tourRow struct {
	id      int64
	name    string
	rank    int // 0: no standings
	rankTo  int // the last place of a shared rank
	startNo int
	points  string
	tb      []string
	player  int // index into tt.Players, -1 for none
	cells   []string
}

func (s *site) newTourTable(t *tourInfo, tt *tiebreak.Tournament, st *standings) *tourTable {
	x := &tourTable{s: s, t: t, tt: tt}
	at := map[int64]int{}
	if tt != nil {
		for i, p := range tt.Players {
			at[p.ID] = i
		}
		x.rounds = tt.Rounds
		for _, g := range tt.Games {
			x.rounds = max(x.rounds, g.Round)
		}
		if isRoundRobin(t.System) && len(tt.Players) <= maxGrid {
			x.grid, x.rounds = true, len(tt.Players)
		}
	}
	if st != nil {
		x.codes = st.Header[5:]
		for k, r := range st.Rows {
			id := st.rowID(r, k)
			row := tourRow{id: id, name: field(r, 3), points: field(r, 4), tb: r[5:], player: -1}
			row.rank, _ = strconv.Atoi(field(r, 0))
			row.startNo, _ = strconv.Atoi(field(r, 1))
			if i, ok := at[id]; ok {
				row.player = i
			}
			x.rows = append(x.rows, row)
		}
		sharedRanks(x.rows)
	} else {
		// The players in id order, numbered so: the pairings held over an
		// earlier site are in id order, the archive's rated again by rating.
		for i, p := range tt.Players {
			x.rows = append(x.rows, tourRow{id: p.ID, name: p.Name, player: i})
		}
		slices.SortFunc(x.rows, func(a, b tourRow) int { return cmp.Compare(a.id, b.id) })
		for i := range x.rows {
			x.rows[i].startNo = i + 1
		}
	}
	if tt != nil {
		x.sn = make([]int, len(tt.Players))
		for _, r := range x.rows {
			if r.player >= 0 {
				x.sn[r.player] = r.startNo
			}
		}
		x.fillGames()
	}
	for i := range x.rows {
		if in := s.info(x.rows[i].id); in != nil {
			x.fed = x.fed || in.Federation != ""
			x.title = x.title || in.Title != ""
		}
	}
	x.cols = x.columns()
	return x
}

// sharedRanks sets each row's last shared place: the rows of a rank are
// consecutive.
func sharedRanks(rows []tourRow) {
	for i := 0; i < len(rows); {
		j := i
		for j+1 < len(rows) && rows[j+1].rank == rows[i].rank {
			j++
		}
		for k := i; k <= j; k++ {
			rows[k].rankTo = rows[i].rank + j - i
		}
		i = j + 1
	}
}

// fillGames fills each row's cells: per round the opponent's start number,
// the colour and the result ("12w1"); in a grid, the results against each
// player by start number. Rows without standings count their points.
func (x *tourTable) fillGames() {
	tt := x.tt
	rowOf := make([]int, len(tt.Players))
	for i := range rowOf {
		rowOf[i] = -1
	}
	for r := range x.rows {
		x.rows[r].cells = make([]string, x.rounds)
		if p := x.rows[r].player; p >= 0 {
			rowOf[p] = r
		}
	}
	half := make([]int, len(x.rows))
	put := func(me, opp, round int, colour byte, res byte) {
		r := rowOf[me]
		if r < 0 {
			return
		}
		row := &x.rows[r]
		text := resultText(res)
		half[r] += halfPoints(text)
		k := round - 1
		if x.grid {
			if opp < 0 {
				return
			}
			k = x.sn[opp] - 1
		}
		if k < 0 || k >= len(row.cells) {
			return
		}
		cell := text
		switch {
		case x.grid:
		case opp < 0:
			cell = "bye " + text
		default:
			cell = strconv.Itoa(x.sn[opp]) + string(colour) + text
		}
		if row.cells[k] != "" {
			row.cells[k] += " "
		}
		row.cells[k] += cell
	}
	for _, g := range tt.Games {
		if g.White >= 0 {
			put(g.White, g.Black, g.Round, 'w', g.WhiteResult)
		}
		if g.Black >= 0 {
			put(g.Black, g.White, g.Round, 'b', g.BlackResult)
		}
	}
	for r := range x.rows {
		if x.rows[r].rank == 0 {
			x.rows[r].points = halfText(half[r])
		}
		if x.grid {
			if k := x.rows[r].startNo - 1; k >= 0 && k < len(x.rows[r].cells) {
				x.rows[r].cells[k] = "■"
			}
		}
	}
}

func halfPoints(result string) int {
	switch result {
	case "1", "+":
		return 2
	case "½":
		return 1
	}
	return 0
}

func halfText(h int) string {
	if h%2 != 0 {
		return strconv.Itoa(h/2) + ".5"
	}
	return strconv.Itoa(h / 2)
}

// columns are the table's columns, as officers print them.
func (x *tourTable) columns() []col {
	var cols []col
	if x.rows[0].rank != 0 {
		cols = append(cols, col{head: "Rank"})
	}
	cols = append(cols, col{head: "Start no.", extra: true})
	if x.title {
		cols = append(cols, col{head: "Title", text: true, extra: true})
	}
	cols = append(cols, col{head: "Name", text: true})
	switch {
	case x.fed:
		cols = append(cols, col{head: "Fed", title: "Federation", text: true, extra: true})
	case x.s.arch != nil:
		cols = append(cols, col{head: "Club", text: true, extra: true})
	}
	cols = append(cols, col{head: "Rating", bold: true})
	for i := 1; i <= x.rounds; i++ {
		h := strconv.Itoa(i)
		if !x.grid {
			h = "R" + h
		}
		cols = append(cols, col{head: h, extra: true})
	}
	cols = append(cols, col{head: "Pts", title: "Points", bold: true})
	for _, c := range x.codes {
		cols = append(cols, col{head: appendEscString(c), title: tiebreakName(c), extra: true})
	}
	if x.t.Rated {
		cols = append(cols, col{head: "Perf", title: "Rating performance", extra: true}, col{head: "Change", title: "Rating change"})
	}
	return cols
}

func appendEscString(s string) string { return string(appendEsc(nil, s)) }

// appendTable appends the table and its legend.
func (x *tourTable) appendTable(b []byte) []byte {
	caption := "Final standings"
	if x.tt != nil {
		caption += " and results by round"
		if x.grid {
			caption = "Final standings and results against each player, by start number"
		}
	}
	b = appendTableStart(b, "st", "list st", caption, x.cols)
	for i := range x.rows {
		b = x.appendRow(b, &x.rows[i])
	}
	b = appendTableEnd(b)
	return x.appendLegend(b)
}

func (x *tourTable) appendRow(b []byte, r *tourRow) []byte {
	s := x.s
	in := s.info(r.id)
	c := s.cardOf(x.t.ID, r.id)
	b = append(b, "<tr>"...)
	if r.rank != 0 {
		b = append(b, "<td>"...)
		b = strconv.AppendInt(b, int64(r.rank), 10)
		if r.rankTo != r.rank {
			b = append(b, "–"...)
			b = strconv.AppendInt(b, int64(r.rankTo), 10)
		}
	}
	b = append(b, "<td>"...)
	b = strconv.AppendInt(b, int64(r.startNo), 10)
	if x.title {
		b = append(b, "<td>"...)
		if in != nil {
			b = appendEsc(b, in.Title)
		}
	}
	b = append(b, "<th scope=\"row\">"...)
	if r.id > 0 && s.hasPage(r.id) {
		b = append(b, "<a href=\"../players/"...)
		b = strconv.AppendInt(b, r.id, 10)
		b = append(b, ".html\">"...)
		b = appendEsc(b, r.name)
		b = append(b, "</a>"...)
	} else {
		b = appendEsc(b, r.name)
	}
	switch {
	case x.fed:
		b = append(b, "<td>"...)
		if in != nil {
			b = appendEsc(b, in.Federation)
		}
	case s.arch != nil:
		b = append(b, "<td>"...)
		b = appendEsc(b, s.club(r.id))
	}
	b = append(b, "<td>"...)
	if c != nil && c.Ro() != none {
		b = strconv.AppendInt(b, int64(c.Ro()), 10)
	}
	for k := 0; k < x.rounds; k++ {
		b = append(b, "<td>"...)
		if r.cells != nil {
			b = appendEsc(b, r.cells[k])
		}
	}
	b = append(b, "<td>"...)
	b = appendEsc(b, r.points)
	for _, v := range r.tb {
		b = append(b, "<td>"...)
		b = appendEsc(b, v)
	}
	if x.t.Rated {
		b = append(b, "<td>"...)
		if c != nil {
			if p, ok := performance(c); ok {
				b = strconv.AppendInt(b, int64(p), 10)
			}
		}
		b = appendTourChange(b, c)
	}
	return append(b, '\n')
}

// appendTourChange appends a player's rating change in the tournament: the
// card's, summed exactly where it is rounded once per period (then with one
// decimal); empty when he was not rated or had no rating before.
func appendTourChange(b []byte, c *card) []byte {
	if c == nil || c.Ro() == none {
		return append(b, "<td>"...)
	}
	if !c.PerGame {
		return appendChange(b, int(c.Change), true)
	}
	if math.IsNaN(c.ChangeUnrounded) {
		return append(b, "<td>"...)
	}
	v := c.ChangeUnrounded
	b = append(b, "<td>"...)
	switch {
	case v > 0:
		b = append(b, '+')
	case v < 0:
		b = append(b, "−"...)
		v = -v
	}
	return strconv.AppendFloat(b, v, 'f', 1, 64)
}

// performance is a player's rating performance in a tournament: the
// opponents' average plus the rating difference of his score (FIDE's table;
// ±800 for a full or no score).
func performance(c *card) (int32, bool) {
	if c.Games <= 0 || c.OppAverage == none {
		return 0, false
	}
	p := int(math.Round(100 * c.Score / float64(c.Games)))
	switch {
	case p >= 100:
		return c.OppAverage + 800, true
	case p <= 0:
		return c.OppAverage - 800, true
	}
	dp, ok := rating.DP(p)
	if !ok {
		return 0, false
	}
	return c.OppAverage + dp, true
}

// appendLegend links the help page's explanation of the table.
func (x *tourTable) appendLegend(b []byte) []byte {
	b = append(b, "<p class=\"legend\">"...)
	if x.tt != nil && !x.grid {
		b = append(b, "Each round: the opponent's start number, the colour (w, b) and the result. "...)
	}
	return append(b, "<a href=\"../help.html#standings\">How to read the standings</a></p>\n"...)
}

// tiebreakNames name the tiebreak codes' bases.
var tiebreakNames = map[string]string{
	"BH": "Buchholz", "FB": "Fore Buchholz", "SB": "Sonneborn–Berger", "AOB": "average of opponents' Buchholz",
	"KS": "Koya system", "PS": "progressive score", "DE": "direct encounter", "WIN": "wins", "WON": "games won",
	"BPG": "games with black", "BWG": "wins with black", "REP": "games played", "ARO": "average rating of opponents",
	"TPR": "tournament performance rating", "PTP": "perfect tournament performance", "APRO": "average performance of opponents",
	"APPO": "average perfect performance of opponents", "TURCAS": "TurČAS", "SPREAD": "spread", "SCORE": "game points",
}

// tiebreakName names a tiebreak code ("BH/C1": "Buchholz, cut 1"), or "".
func tiebreakName(code string) string {
	base, mods, _ := strings.Cut(code, "/")
	n := tiebreakNames[strings.ToUpper(base)]
	if n == "" {
		return ""
	}
	for _, m := range strings.Split(mods, "/") {
		switch {
		case m == "":
		case m[0] == 'C':
			n += ", cut " + m[1:]
		case m[0] == 'M':
			n += ", median " + m[1:]
		case m[0] == 'P':
			n += ", played games"
		case m[0] == 'L':
			n += ", limit " + m[1:]
		}
	}
	return n
}
