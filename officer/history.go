package officer

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// ErrNoPlayer is a player on no list and in no card.
var ErrNoPlayer = errors.New("player on no list and in no card")

// ErrNoCards is a tournament with no cards (not rated, or not in the run).
var ErrNoCards = errors.New("no cards for the tournament (not rated, or not in this run)")

var listHeader = []string{"period", "rank", "rating", "change", "games_period", "games_total", "k", "category", "flags"}

// cardHeader is the cards columns as cards.parquet names them, after the
// first columns each table adds (period and tournament, or the player).
var cardHeader = []string{"stage", "rating_before", "rating_used", "games", "score", "opponents_average", "d", "expected",
	"k", "change_unrounded", "change", "rating_after", "reason", "opponent_id", "opponent_rating", "pd", "w"}

func cardCells(c *output.Card) []string {
	return []string{itoa(c.Stage), i32(c.RatingBefore), i32(c.RatingUsed), itoa(c.Games), num(c.Score), i32(c.OppAverage), i32(c.D),
		f64(c.Expected), i32(c.K), f64(c.ChangeUnrounded), itoa(c.Change), i32(c.RatingAfter), c.Reason, "", "", "", ""}
}

// periodRow is what a game of card_games.parquet takes from its period's row
// of cards.parquet: Ro and K (nil when the row is not in out).
type periodRow struct{ before, k *int32 }

// gameCells is a game of card_games.parquet in cardHeader's columns, as a
// card of one game: rating_before and, when the game was rated, k are its
// period row's.
func gameCells(g *output.CardGame, row periodRow) []string {
	k := row.k
	if g.PD == nil { // a pooled game: nothing was rated with K
		k = nil
	}
	return []string{"0", i32(row.before), "", "1", num(g.W), "", i32(g.D),
		f64(g.PD), i32(k), f64(g.ChangeUnrounded), "0", "", g.Reason, itoa(g.OpponentID), itoa(g.OpponentRating), f64(g.PD), num(g.W)}
}

// owned says whether c is the row of a period's close that the games of its
// period and player in card_games.parquet belong to.
func owned(c *output.Card) bool { return c.TournamentID == 0 }

// playerPeriod is the key that joins a game to its period's row.
type playerPeriod struct {
	period string
	player int64
}

// PlayerHistory is one player's history in out: his row of every list he is
// on, and every card of his, in rating order.
func PlayerHistory(out string, id int64) (lists, cards Table, err error) {
	labels, err := Periods(out)
	if err != nil {
		return lists, cards, err
	}
	name := ""
	lists = Table{Header: listHeader}
	for _, l := range labels {
		add := &added{own: output.ListSchema}
		rows, err := readParquet(listPath(out, l), func(e *output.ListRow) bool { return e.PlayerID == id }, add)
		if err != nil {
			return lists, cards, err
		}
		if len(lists.Header) == len(listHeader) { // the rule set's own columns, after flags
			lists.Header = append(slices.Clip(listHeader), names(add.cols)...)
		}
		for i, e := range rows {
			k := itoa(e.K)
			if add.noK { // a rule set without K
				k = ""
			}
			row := []string{l, itoa(e.Rank), itoa(e.Rating), i32(e.Change), itoa(e.GamesPeriod), itoa(e.GamesTotal), k, e.Category, e.Flags}
			if i < len(add.rows) {
				row = append(row, add.rows[i]...)
			}
			lists.Rows = append(lists.Rows, row)
			name = e.Name
		}
	}
	cadd, gadd := &added{own: output.CardSchema}, &added{own: output.CardGameSchema}
	cs, err := readParquet(output.Cards.Path(out, ""), func(c *output.Card) bool { return c.PlayerID == id }, cadd)
	if err != nil {
		return lists, cards, err
	}
	gs, err := readParquet(output.CardGames.Path(out, ""), func(g *output.CardGame) bool { return g.PlayerID == id }, gadd)
	if errors.Is(err, fs.ErrNotExist) {
		gs, err = nil, nil
	}
	if err != nil {
		return lists, cards, err
	}
	// The rule set's own columns of either file, after the others, each empty
	// in the other file's rows.
	cblank, gblank := make([]string, len(gadd.cols)), make([]string, len(cadd.cols))
	cards = Table{Header: slices.Concat([]string{"period", "tournament_id", "end_date"}, cardHeader, names(cadd.cols), names(gadd.cols))}
	game := func(i int, row periodRow) {
		g := &gs[i]
		cards.Rows = append(cards.Rows, slices.Concat([]string{g.Period, itoa(g.TournamentID), day.Day(g.EndDate).String()}, gameCells(g, row), gblank, cellsOf(gadd, i)))
	}
	gi := 0
	for i := range cs {
		c := &cs[i]
		name = c.Name
		// A period's games come right before its row, as they were rated.
		for ; owned(c) && gi < len(gs) && gs[gi].Period == c.Period; gi++ {
			game(gi, periodRow{c.RatingBefore, c.K})
		}
		cards.Rows = append(cards.Rows, slices.Concat([]string{c.Period, itoa(c.TournamentID), day.Day(c.EndDate).String()}, cardCells(c), cellsOf(cadd, i), cblank))
	}
	for ; gi < len(gs); gi++ { // games without their period's row: not from the same run
		game(gi, periodRow{})
	}
	if len(lists.Rows) == 0 && len(cards.Rows) == 0 {
		return lists, cards, fmt.Errorf("player %d: %w", id, ErrNoPlayer)
	}
	lists.Title = fmt.Sprintf("Player %d, %s: %d lists, %d cards\n\nLists", id, name, len(lists.Rows), len(cards.Rows))
	cards.Title = "Cards"
	return lists, cards, nil
}

// TournamentCards is every card of tournament id in out: each player's change
// with the numbers to check it (Ro, n, W, Ra, D, We, K, K × (W − We)), and
// under a per-period rule set each game of the tournament from
// card_games.parquet as a card of one game, with the Ro and K of its period's
// row.
// The tournament's own rows come first: they were made when it was rated, its
// games at its period's close.
func TournamentCards(out string, id int64) (Table, error) {
	cadd, gadd := &added{own: output.CardSchema}, &added{own: output.CardGameSchema}
	gs, err := readParquet(output.CardGames.Path(out, ""), func(g *output.CardGame) bool { return g.TournamentID == id }, gadd)
	if errors.Is(err, fs.ErrNotExist) {
		gs, err = nil, nil
	}
	if err != nil {
		return Table{}, err
	}
	ro := map[playerPeriod]periodRow{}
	for i := range gs {
		ro[playerPeriod{gs[i].Period, gs[i].PlayerID}] = periodRow{}
	}
	name := map[int64]string{}
	cs, err := readParquet(output.Cards.Path(out, ""), func(c *output.Card) bool {
		if c.TournamentID == id {
			return true
		}
		k := playerPeriod{c.Period, c.PlayerID}
		if _, ok := ro[k]; ok && owned(c) {
			ro[k], name[c.PlayerID] = periodRow{c.RatingBefore, c.K}, c.Name
		}
		return false
	}, cadd)
	if err != nil {
		return Table{}, err
	}
	if len(cs) == 0 && len(gs) == 0 {
		return Table{}, fmt.Errorf("tournament %d: %w", id, ErrNoCards)
	}
	// The rule set's own columns of either file, as PlayerHistory shows them.
	cblank, gblank := make([]string, len(gadd.cols)), make([]string, len(cadd.cols))
	t := Table{Header: slices.Concat([]string{"player_id", "name"}, cardHeader, names(cadd.cols), names(gadd.cols))}
	for i := range cs {
		t.Rows = append(t.Rows, slices.Concat([]string{itoa(cs[i].PlayerID), cs[i].Name}, cardCells(&cs[i]), cellsOf(cadd, i), cblank))
	}
	for i := range gs {
		g := &gs[i]
		t.Rows = append(t.Rows, slices.Concat([]string{itoa(g.PlayerID), name[g.PlayerID]}, gameCells(g, ro[playerPeriod{g.Period, g.PlayerID}]), gblank, cellsOf(gadd, i)))
	}
	end, period := int32(0), ""
	if len(cs) > 0 {
		end, period = cs[0].EndDate, cs[0].Period
	} else {
		end, period = gs[0].EndDate, gs[0].Period
	}
	t.Title = fmt.Sprintf("Tournament %d, ended %s, list %s: %d cards", id, day.Day(end).String(), period, len(t.Rows))
	return t, nil
}

// DropEmptyColumns leaves out the columns that are empty in every row (the
// per-game columns of a run without per-game cards, say), for reading on a
// screen.
func (t Table) DropEmptyColumns() Table {
	if len(t.Rows) == 0 {
		return t
	}
	keep := make([]bool, len(t.Header))
	for _, r := range t.Rows {
		for c, v := range r {
			keep[c] = keep[c] || v != ""
		}
	}
	out := Table{Title: t.Title}
	pick := func(cells []string) []string {
		var s []string
		for c, v := range cells {
			if keep[c] {
				s = append(s, v)
			}
		}
		return s
	}
	out.Header = pick(t.Header)
	for _, r := range t.Rows {
		out.Rows = append(out.Rows, pick(r))
	}
	return out
}

// cellsOf is row i's cells of a's columns, empty ones when the file had none.
func cellsOf(a *added, i int) []string {
	if i < len(a.rows) {
		return a.rows[i]
	}
	return make([]string, len(a.cols))
}

func names(cols []rating.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}
