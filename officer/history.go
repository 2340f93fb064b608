package officer

import (
	"errors"
	"fmt"
	"time"

	"github.com/ratelist/ratelist/output"
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

func cardCells(c output.Card) []string {
	opp := ""
	if c.OpponentID != nil {
		opp = itoa(*c.OpponentID)
	}
	return []string{itoa(c.Stage), i32(c.RatingBefore), i32(c.RatingUsed), itoa(c.Games), num(c.Score), i32(c.OppAverage), i32(c.D),
		f64(c.Expected), i32(c.K), f64(c.ChangeUnrounded), itoa(c.Change), i32(c.RatingAfter), c.Reason, opp, i32(c.OpponentRating), f64(c.PD), f64(c.W)}
}

func day(d int32) string { return time.Unix(int64(d)*86400, 0).UTC().Format("2006-01-02") }

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
		rows, err := readParquet(listPath(out, l), func(e *output.ListRow) bool { return e.PlayerID == id })
		if err != nil {
			return lists, cards, err
		}
		for _, e := range rows {
			name = e.Name
			lists.Rows = append(lists.Rows, []string{l, itoa(e.Rank), itoa(e.Rating), i32(e.Change), itoa(e.GamesPeriod), itoa(e.GamesTotal), itoa(e.K), e.Category, e.Flags})
		}
	}
	cs, err := ReadCards(out, func(c *output.Card) bool { return c.PlayerID == id })
	if err != nil {
		return lists, cards, err
	}
	cards = Table{Header: append([]string{"period", "tournament_id", "end_date"}, cardHeader...)}
	for _, c := range cs {
		name = c.Name
		cards.Rows = append(cards.Rows, append([]string{c.Period, itoa(c.TournamentID), day(c.EndDate)}, cardCells(c)...))
	}
	if len(lists.Rows) == 0 && len(cards.Rows) == 0 {
		return lists, cards, fmt.Errorf("player %d: %w", id, ErrNoPlayer)
	}
	lists.Title = fmt.Sprintf("Player %d, %s: %d lists, %d cards\n\nLists", id, name, len(lists.Rows), len(cards.Rows))
	cards.Title = "Cards"
	return lists, cards, nil
}

// TournamentCards is every card of tournament id in out: each player's change
// with the numbers to check it (Ro, n, W, Ra, D, We, K, K × (W − We)).
func TournamentCards(out string, id int64) (Table, error) {
	cs, err := ReadCards(out, func(c *output.Card) bool { return c.TournamentID == id })
	if err != nil {
		return Table{}, err
	}
	if len(cs) == 0 {
		return Table{}, fmt.Errorf("tournament %d: %w", id, ErrNoCards)
	}
	t := Table{Title: fmt.Sprintf("Tournament %d, ended %s, list %s: %d cards", id, day(cs[0].EndDate), cs[0].Period, len(cs)),
		Header: append([]string{"player_id", "name"}, cardHeader...)}
	for _, c := range cs {
		t.Rows = append(t.Rows, append([]string{itoa(c.PlayerID), c.Name}, cardCells(c)...))
	}
	return t, nil
}

// DropEmptyColumns leaves out the columns that are empty in every row (the
// FIDE columns of a school run, say), for reading on a screen.
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
