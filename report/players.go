package report

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/ratelist/ratelist/day"
	"golang.org/x/sync/errgroup"
)

// writePlayers writes the page of every player whose key changed, Workers at
// a time.
func (s *site) writePlayers(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.opt.Workers)
	const chunk = 512
	for from := 0; from < len(s.players); from += chunk {
		if gctx.Err() != nil {
			break
		}
		ids := s.players[from:min(from+chunk, len(s.players))]
		g.Go(func() error {
			var buf []byte
			var k keyer
			for _, id := range ids {
				rel, key := fmt.Sprintf("players/%d.html", id), s.playerKey(&k, id)
				if s.out.kept(rel, key) {
					continue
				}
				buf = s.renderPlayer(buf[:0], id)
				if err := s.out.put(rel, buf, key); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// renderPlayer appends player id's page to b: the facts, the rating history
// as a chart, the rating card as a table, and a section per table rule set
// that lists the player.
func (s *site) renderPlayer(b []byte, id int64) []byte {
	name := s.names[id]
	idx := s.playerCards(id)
	p := s.page(name, "../", "")
	p.Base, p.Self = "tournaments/", fmt.Sprintf("../players/%d.html", id) // the card links each tournament
	b = appendHead(b, p)
	b = append(b, "<h1>"...)
	b = appendEsc(b, name)
	b = append(b, "</h1>\n<dl class=facts>\n"...)
	b = appendFact(b, "ID", strconv.FormatInt(id, 10))
	if in := s.info(id); in != nil {
		if in.Title != "" {
			b = appendFact(b, "Title", in.Title)
		}
		if in.Federation != "" {
			b = appendFact(b, "Federation", in.Federation)
		}
	}
	if c := s.club(id); c != "" {
		b = appendFact(b, "Club", c)
	}
	if s.arch != nil {
		if i := s.arch.Players.Index(id); i >= 0 && s.arch.Players.Category[i] > 0 {
			b = appendFact(b, "Category", strconv.Itoa(int(s.arch.Players.Category[i])))
		}
	}
	// Only what changes when the player plays: a new list leaves the pages
	// of players who did not play as they were (rank and change are on the list).
	if li, ok := s.listed[id]; ok {
		r := &s.latest[li]
		b = append(b, "<div class=big><dt>Rating<dd>"...)
		b = strconv.AppendInt(b, int64(r.Rating), 10)
		b = append(b, "</div>\n"...)
		if !r.NoK {
			b = appendFact(b, "K", strconv.Itoa(r.K))
		}
		b = appendFact(b, "Games", strconv.Itoa(r.GamesTotal))
		if r.Flags != "" {
			b = appendFact(b, "Flags", flagsText(r.Flags))
		}
	}
	b = append(b, "</dl>\n"...)
	var xs, ys []float64
	for _, ci := range idx {
		if c := &s.cs.cards[ci]; c.RatingAfter != none && c.EndDate != 0 {
			xs, ys = append(xs, float64(c.EndDate)), append(ys, float64(c.RatingAfter))
		}
	}
	// A chart of one or two points shows nothing the card does not.
	if len(xs) >= minChartPoints {
		b = append(b, "<h2>Rating history</h2>\n<figure class=chartbox>"...)
		b = appendLineChart(b, ratingAlt(name, "Rating", xs, ys), xs, ys)
		b = append(b, "</figure>\n"...)
	}
	if len(idx) > 0 {
		b = s.appendCard(b, id, idx)
	}
	b = s.appendBoards(b, id)
	for _, t := range s.tables {
		b = t.appendSection(b, id, name)
	}
	b = append(b, "<script src=../assets/site.js></script>\n"...)
	return appendFoot(b)
}

// cardCols are the rating card's columns; assets/style.css aligns them and
// says which a phone shows (Tournament, Score, Change, After), the same on
// every page.
var cardCols = []col{
	{head: "Date", extra: true}, {head: "Tournament"}, {head: "Start", extra: true}, {head: "Games", extra: true},
	{head: "Score"}, {head: "Opp. avg", extra: true}, {head: "D", extra: true}, {head: "Exp.", extra: true},
	{head: "K", extra: true}, {head: "Exact", extra: true}, {head: "Change"}, {head: "After"}, {head: "Note", extra: true},
}

// appendCard appends the rating card of player id (cards idx) as a table, a
// row per tournament and per period close. Rows of folded per-game cards
// (FIDE) have no change: the period's row carries it; a row without a rating
// before (a newcomer's first) has none either.
func (s *site) appendCard(b []byte, id int64, idx []int32) []byte {
	b = append(b, "<h2>Rating card</h2>\n"...)
	b = appendTableStart(b, "card", "list card", "Rating card: a row per tournament, in the order rated", cardCols)
	for _, ci := range idx {
		c := &s.cs.cards[ci]
		b = append(b, "<tr><td>"...)
		b = appendDate(b, c.EndDate)
		b = append(b, "<td>"...)
		t := s.tour(c.TournamentID)
		switch {
		case t != nil:
			b = append(b, "<a href="...)
			b = strconv.AppendInt(b, t.ID, 10)
			b = append(b, ".html>"...)
			b = appendEsc(b, t.Name)
			b = append(b, "</a>"...)
		case c.TournamentID != 0:
			b = fmt.Appendf(b, "Tournament %d", c.TournamentID)
		default:
			b = append(b, "Period "...)
			b = appendEsc(b, s.cs.str(c.Period))
			b = append(b, " close"...)
		}
		b = append(b, "<td>"...)
		b = appendOpt(b, c.Ro())
		b = append(b, "<td>"...)
		b = strconv.AppendInt(b, int64(c.Games), 10)
		b = append(b, "<td>"...)
		b = strconv.AppendFloat(b, c.Score, 'f', -1, 64)
		b = append(b, "<td>"...)
		b = appendOpt(b, c.OppAverage)
		b = append(b, "<td>"...)
		b = appendOpt(b, c.D)
		b = append(b, "<td>"...)
		b = appendShortF(b, c.Expected, 3)
		b = append(b, "<td>"...)
		b = appendOpt(b, c.K)
		b = append(b, "<td>"...)
		b = appendShortF(b, c.ChangeUnrounded, 2)
		b = appendChange(b, int(c.Change), !c.PerGame && c.Ro() != none)
		b = append(b, "<td>"...)
		b = appendOpt(b, c.RatingAfter)
		b = append(b, "<td>"...)
		if r := s.cs.str(c.Reason); r != "rated" { // the usual case: no note
			b = appendEsc(b, r)
		}
		b = append(b, '\n')
	}
	b = appendTableEnd(b)
	return append(b, "<p class=legend><a href=../help.html#card>How to read the card</a></p>\n"...)
}

// ratingAlt describes a rating chart in words, for its caption and label.
func ratingAlt(name, what string, days, vals []float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	n := len(days) - 1
	return fmt.Sprintf("%s history of %s: %d points from %s (%g) to %s (%g); lowest %g, highest %g",
		what, name, len(days), day.Day(days[0]).String(), vals[0],
		day.Day(days[n]).String(), vals[n], lo, hi)
}
