// Package crosstable builds a tournament's standings as officers print them:
// rank (shared ranks as a range), start number, title, name, federation or
// club, rating, each round's opponent, colour and result (or, for a small
// round robin, a grid of results), points, the tiebreak columns, rating
// performance and rating change. The site's tournament pages and
// `ratelist standings` both take their rows and columns from Build, so the
// two print the same table; each only renders it (HTML, text, CSV).
package crosstable

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/rating/tables"
	"github.com/ratelist/ratelist/tiebreak"
)

// MaxGrid is the largest round robin shown as a grid of results, a column
// per player; a bigger one shows a column per round.
const MaxGrid = 24

// Info is what the table shows of a player beside his standing and games.
type Info struct {
	Title, Federation, Club string
	Rating                  int // the rating he played with; 0: none
	Perf                    int // rating performance, when HasPerf
	HasPerf                 bool
	// Change is the rating change, printed with Decimals decimals (1 where a
	// per-period rule set rounds only the period's sum), when HasChange.
	Change    float64
	Decimals  int
	HasChange bool
}

// Entry is one row of the standings, best first.
type Entry struct {
	ID        int64 // the player's id; a negative one of the row's own when unknown
	Rank      int
	StartNo   int
	Name      string
	Points    string
	Tiebreaks []string // one value per code, "" where undefined
	Player    int      // index into the tournament's players, -1 for none
}

// Input is what Build needs.
type Input struct {
	// Tournament holds the pairings; nil when they are unknown (no round cells).
	Tournament *tiebreak.Tournament
	// Entries are the standings; nil when there are none: then the rows are
	// the tournament's players in id order, numbered so, with no rank.
	Entries []Entry
	Codes   []string // the tiebreak codes, headings of Entries' Tiebreaks
	// RoundRobin asks for a grid of results (when the players are few enough).
	RoundRobin bool
	Rated      bool // rating performance and change columns
	Clubs      bool // a club column when no player has a federation
	// Info gives a row's player's title, federation, club, rating,
	// performance and change; nil for none.
	Info func(e *Entry) Info
}

// Kind says what a column holds.
type Kind int

// The kinds of columns, in the order they appear.
const (
	Rank Kind = iota
	StartNo
	Title
	Name
	Federation
	Club
	Rating
	Round // a round's cell, or a grid's column of one player
	Points
	Tiebreak
	Perf
	Change
)

// Column is one column of the table.
type Column struct {
	Kind  Kind
	Index int    // the round or grid column (0-based), or the tiebreak code's index
	Head  string // the heading, plain text
	Title string // the heading's full name, when Head abbreviates it
	Text  bool   // text, left-aligned (numbers are right-aligned)
	Bold  bool   // the column the table is about (rating, points)
	Extra bool   // hidden at phone width on the site until asked for
}

// Row is one player's row.
type Row struct {
	Entry
	RankTo int      // the last place of a shared rank
	Rounds []string // each round's cell ("12w1", "bye ½"); nil without pairings
	Grid   []string // in a grid, the results against each player by start number
	Info   Info
}

// Cells are the row's round columns as the table shows them: the grid's
// when it is one, else the rounds'.
func (r *Row) Cells(t *Table) []string {
	if t.Grid {
		return r.Grid
	}
	return r.Rounds
}

// Table is the standings as officers print them.
type Table struct {
	Paired  bool // the pairings are known: the rows have round cells
	Grid    bool // a round robin shown as a grid of results
	Rounds  int  // rounds played (columns of Row.Rounds)
	Players int  // columns of Row.Grid
	Ranked  bool // the rows have ranks
	Codes   []string
	Rows    []Row
	Cols    []Column
}

// Build makes the table of in.
func Build(in Input) *Table {
	x := &Table{Codes: in.Codes}
	tt := in.Tournament
	if tt != nil {
		x.Paired = true
		x.Rounds = tt.Rounds
		for _, g := range tt.Games {
			x.Rounds = max(x.Rounds, g.Round)
		}
		if in.RoundRobin && len(tt.Players) <= MaxGrid {
			x.Grid, x.Players = true, len(tt.Players)
		}
	}
	if in.Entries != nil {
		x.Rows = make([]Row, len(in.Entries))
		for i, e := range in.Entries {
			x.Rows[i].Entry = e
		}
		sharedRanks(x.Rows)
	} else if tt != nil {
		// The players in id order, numbered so: the pairings held over an
		// earlier site are in id order, the archive's rated again by rating.
		x.Rows = make([]Row, len(tt.Players))
		for i, p := range tt.Players {
			x.Rows[i].Entry = Entry{ID: p.ID, Name: p.Name, Player: i}
		}
		slices.SortFunc(x.Rows, func(a, b Row) int { return cmp.Compare(a.ID, b.ID) })
		for i := range x.Rows {
			x.Rows[i].StartNo = i + 1
		}
	}
	x.Ranked = len(x.Rows) > 0 && x.Rows[0].Rank != 0
	if tt != nil {
		x.fillGames(tt)
	}
	var fed, title bool
	for i := range x.Rows {
		if in.Info != nil {
			x.Rows[i].Info = in.Info(&x.Rows[i].Entry)
		}
		fed = fed || x.Rows[i].Info.Federation != ""
		title = title || x.Rows[i].Info.Title != ""
	}
	x.Cols = x.columns(title, fed, in.Clubs, in.Rated)
	return x
}

// sharedRanks sets each row's last shared place: the rows of a rank are
// consecutive.
func sharedRanks(rows []Row) {
	for i := 0; i < len(rows); {
		j := i
		for j+1 < len(rows) && rows[j+1].Rank == rows[i].Rank {
			j++
		}
		for k := i; k <= j; k++ {
			rows[k].RankTo = rows[i].Rank + j - i
		}
		i = j + 1
	}
}

// fillGames fills each row's cells: per round the opponent's start number,
// the colour and the result ("12w1"); in a grid, the results against each
// player by start number. Rows without standings count their points.
func (x *Table) fillGames(tt *tiebreak.Tournament) {
	rowOf := make([]int, len(tt.Players))
	for i := range rowOf {
		rowOf[i] = -1
	}
	sn := make([]int, len(tt.Players))
	// One array holds every row's cells, a row's capped to its own.
	w := x.Rounds
	if x.Grid {
		w += x.Players
	}
	cells := make([]string, len(x.Rows)*w)
	for r := range x.Rows {
		c := cells[r*w : (r+1)*w : (r+1)*w]
		x.Rows[r].Rounds = c[:x.Rounds:x.Rounds]
		if x.Grid {
			x.Rows[r].Grid = c[x.Rounds:]
		}
		if p := x.Rows[r].Player; p >= 0 && p < len(tt.Players) {
			rowOf[p] = r
			sn[p] = x.Rows[r].StartNo
		}
	}
	add := func(cells []string, k int, cell string) {
		if k < 0 || k >= len(cells) {
			return
		}
		if cells[k] != "" {
			cells[k] += " "
		}
		cells[k] += cell
	}
	half := make([]int, len(x.Rows))
	put := func(me, opp, round int, colour byte, res byte) {
		r := rowOf[me]
		if r < 0 {
			return
		}
		row := &x.Rows[r]
		text := ResultText(res)
		half[r] += halfPoints(text)
		if opp < 0 {
			add(row.Rounds, round-1, "bye "+text)
			return
		}
		add(row.Rounds, round-1, strconv.Itoa(sn[opp])+string(colour)+text)
		if x.Grid {
			add(row.Grid, sn[opp]-1, text)
		}
	}
	for _, g := range tt.Games {
		if g.White >= 0 {
			put(g.White, g.Black, g.Round, 'w', g.WhiteResult)
		}
		if g.Black >= 0 {
			put(g.Black, g.White, g.Round, 'b', g.BlackResult)
		}
	}
	for r := range x.Rows {
		if x.Rows[r].Rank == 0 {
			x.Rows[r].Points = HalfText(half[r])
		}
		if x.Grid {
			if k := x.Rows[r].StartNo - 1; k >= 0 && k < len(x.Rows[r].Grid) {
				x.Rows[r].Grid[k] = "■"
			}
		}
	}
}

// ResultText shows a result code: 1, ½, 0, + and − for forfeits.
func ResultText(c byte) string {
	switch c {
	case '1', 'W', 'w', 'F', 'f', 'U', 'u':
		return "1"
	case '=', 'D', 'd', 'H', 'h':
		return "½"
	case '0', 'L', 'l', 'Z', 'z':
		return "0"
	case '+':
		return "+"
	case '-':
		return "−"
	}
	return string(c)
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

// HalfText prints half-points as points: 7 → "3.5".
func HalfText(h int) string {
	if h%2 != 0 {
		return strconv.Itoa(h/2) + ".5"
	}
	return strconv.Itoa(h / 2)
}

// columns are the table's columns, as officers print them.
func (x *Table) columns(title, fed, clubs, rated bool) []Column {
	n := x.Rounds
	if x.Grid {
		n = x.Players
	}
	cols := make([]Column, 0, 8+n+len(x.Codes))
	if x.Ranked {
		cols = append(cols, Column{Kind: Rank, Head: "Rank"})
	}
	cols = append(cols, Column{Kind: StartNo, Head: "Start no.", Extra: true})
	if title {
		cols = append(cols, Column{Kind: Title, Head: "Title", Text: true, Extra: true})
	}
	cols = append(cols, Column{Kind: Name, Head: "Name", Text: true})
	switch {
	case fed:
		cols = append(cols, Column{Kind: Federation, Head: "Fed", Title: "Federation", Text: true, Extra: true})
	case clubs:
		cols = append(cols, Column{Kind: Club, Head: "Club", Text: true, Extra: true})
	}
	cols = append(cols, Column{Kind: Rating, Head: "Rating", Bold: true})
	for i := 0; i < n; i++ {
		h := strconv.Itoa(i + 1)
		if !x.Grid {
			h = "R" + h
		}
		cols = append(cols, Column{Kind: Round, Index: i, Head: h, Extra: true})
	}
	cols = append(cols, Column{Kind: Points, Head: "Pts", Title: "Points", Bold: true})
	for i, c := range x.Codes {
		cols = append(cols, Column{Kind: Tiebreak, Index: i, Head: c, Title: TiebreakName(c), Extra: true})
	}
	if rated {
		cols = append(cols, Column{Kind: Perf, Head: "Perf", Title: "Rating performance", Extra: true}, Column{Kind: Change, Head: "Change", Title: "Rating change"})
	}
	return cols
}

// Cell is row r's cell in column c, as the site and the text table print it.
func (x *Table) Cell(r *Row, c Column) string {
	switch c.Kind {
	case Rank:
		if r.Rank == 0 {
			return ""
		}
		if r.RankTo != r.Rank {
			return strconv.Itoa(r.Rank) + "–" + strconv.Itoa(r.RankTo)
		}
		return strconv.Itoa(r.Rank)
	case StartNo:
		return strconv.Itoa(r.StartNo)
	case Title:
		return r.Info.Title
	case Name:
		return r.Name
	case Federation:
		return r.Info.Federation
	case Club:
		return r.Info.Club
	case Rating:
		if r.Info.Rating == 0 {
			return ""
		}
		return strconv.Itoa(r.Info.Rating)
	case Round:
		if cells := r.Cells(x); c.Index < len(cells) {
			return cells[c.Index]
		}
		return ""
	case Points:
		return r.Points
	case Tiebreak:
		if c.Index < len(r.Tiebreaks) {
			return r.Tiebreaks[c.Index]
		}
		return ""
	case Perf:
		if !r.Info.HasPerf {
			return ""
		}
		return strconv.Itoa(r.Info.Perf)
	case Change:
		return ChangeText(r.Info)
	}
	return ""
}

// ChangeText is a rating change as officers print it: signed, a minus sign
// (−) for a loss, at its decimals; "" when there is none.
func ChangeText(in Info) string {
	if !in.HasChange {
		return ""
	}
	v := in.Change
	sign := ""
	switch {
	case v > 0:
		sign = "+"
	case v < 0:
		sign = "−"
		v = -v
	}
	return sign + strconv.FormatFloat(v, 'f', in.Decimals, 64)
}

// Performance is a rating performance: the opponents' average plus the
// rating difference of the score (FIDE's table; ±800 for a full or no
// score). score is in points, over games games.
func Performance(oppAverage int, score float64, games int) (int, bool) {
	if games <= 0 {
		return 0, false
	}
	p := int(math.Round(100 * score / float64(games)))
	switch {
	case p >= 100:
		return oppAverage + 800, true
	case p <= 0:
		return oppAverage - 800, true
	}
	dp, ok := tables.DP(p)
	if !ok {
		return 0, false
	}
	return oppAverage + dp, true
}

// tiebreakNames name the tiebreak codes' bases.
var tiebreakNames = map[string]string{
	"BH": "Buchholz", "FB": "Fore Buchholz", "SB": "Sonneborn–Berger", "AOB": "average of opponents' Buchholz",
	"KS": "Koya system", "PS": "progressive score", "DE": "direct encounter", "WIN": "wins", "WON": "games won",
	"BPG": "games with black", "BWG": "wins with black", "REP": "games played", "ARO": "average rating of opponents",
	"TPR": "tournament performance rating", "PTP": "perfect tournament performance", "APRO": "average performance of opponents",
	"APPO": "average perfect performance of opponents", "TURCAS": "TurČAS", "SPREAD": "spread", "SCORE": "game points",
}

// TiebreakBases names each tiebreak code's base ("BH": "Buchholz"): a copy,
// for a page that lists them.
func TiebreakBases() map[string]string {
	m := make(map[string]string, len(tiebreakNames))
	for c, n := range tiebreakNames {
		m[c] = n
	}
	return m
}

// TiebreakName names a tiebreak code ("BH/C1": "Buchholz, cut 1"), or "".
func TiebreakName(code string) string {
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
