package report

import (
	"context"
	"fmt"
	"math"
	"strconv"

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

// renderPlayer appends player id's page to b.
func (s *site) renderPlayer(b []byte, id int64) []byte {
	name := s.names[id]
	b = appendHead(b, s.page(name, "../", ""))
	b = append(b, "<h1>"...)
	b = appendEsc(b, name)
	b = append(b, "</h1>\n<dl class=\"facts\">\n"...)
	b = appendFact(b, "ID", strconv.FormatInt(id, 10))
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
		b = append(b, "<div class=\"big\"><dt>Rating</dt><dd>"...)
		b = strconv.AppendInt(b, int64(r.Rating), 10)
		b = append(b, "</dd></div>\n"...)
		b = appendFact(b, "K", strconv.Itoa(r.K))
		b = appendFact(b, "Games", strconv.Itoa(r.GamesTotal))
		if r.Flags != "" {
			b = appendFact(b, "Flags", r.Flags)
		}
	}
	b = append(b, "</dl>\n"...)
	idx := s.playerCards(id)
	var pts []chartPoint
	for _, ci := range idx {
		if c := &s.cs.cards[ci]; c.RatingAfter != none && c.EndDate != 0 {
			pts = append(pts, chartPoint{Day: c.EndDate, Value: float64(c.RatingAfter)})
		}
	}
	if len(pts) > 0 {
		b = append(b, "<section aria-labelledby=\"hist-h\">\n<h2 id=\"hist-h\">Rating history</h2>\n<figure class=\"chartbox\" id=\"chart\" data-y=\"Rating\">\n<figcaption>"...)
		b = appendEsc(b, ratingAlt(name, "Rating", pts))
		b = append(b, ".</figcaption>\n</figure>\n</section>\n"...)
	}
	if len(idx) > 0 {
		b = s.appendCard(b, idx)
		b = append(b, "<section aria-labelledby=\"games-h\" id=\"games\" data-p=\""...)
		b = strconv.AppendInt(b, id, 10)
		b = append(b, "\">\n<h2 id=\"games-h\">Games</h2>\n</section>\n"...)
	}
	b = s.appendJoker(b, id, name)
	b = append(b, "<script src=\"../assets/site.js\"></script>\n"...)
	return appendFoot(b)
}

// levelChange is a Joker level change: the level before game Game differs
// from the level before the game before it.
type levelChange struct {
	Game     int
	Day      int32
	From, To int32
}

// appendCard appends the rating card as compact JSON in the page, from which
// site.js draws the card table, the rating chart and the games. Each row:
// [end day (days since 1970, 0 = none), tournament id to link (0 = none),
// tournament or period text, start rating, games, score, opponents' average,
// D, expected, K, exact change, change, rating after, reason]; empty numbers
// are null. Rows of folded per-game cards (a per-period rule set's) have a null change: the
// period's row carries it.
func (s *site) appendCard(b []byte, idx []int32) []byte {
	b = append(b, "<section aria-labelledby=\"card-h\" id=\"card\">\n<h2 id=\"card-h\">Rating card</h2>\n<p class=\"muted small\">Start: the rating the tournament was rated with. Change = K × (score − expected), rounded; expected from the rating difference D to the opponents' average.</p>\n<noscript><p class=\"muted\">Turn on JavaScript to see the rating card.</p></noscript>\n<script type=\"application/json\">["...)
	for k, ci := range idx {
		c := &s.cs.cards[ci]
		if k > 0 {
			b = append(b, ",\n"...)
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(c.EndDate), 10)
		b = append(b, ',')
		t := s.tour(c.TournamentID)
		switch {
		case t != nil:
			b = strconv.AppendInt(b, t.ID, 10)
			b = append(b, ',')
			b = appendJSONString(b, t.Name)
		case c.TournamentID != 0:
			b = append(b, '0', ',')
			b = appendJSONString(b, fmt.Sprintf("Tournament %d", c.TournamentID))
		default:
			b = append(b, '0', ',')
			b = appendJSONString(b, "Period "+s.cs.str(c.Period)+" close")
		}
		b = append(b, ',')
		b = appendNum(b, c.Ro())
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(c.Games), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, c.Score, 'f', -1, 64)
		for _, v := range []int32{c.OppAverage, c.D} {
			b = append(b, ',')
			b = appendNum(b, v)
		}
		b = append(b, ',')
		b = appendFloatNum(b, c.Expected, 3)
		b = append(b, ',')
		b = appendNum(b, c.K)
		b = append(b, ',')
		b = appendFloatNum(b, c.ChangeUnrounded, 2)
		b = append(b, ',')
		if c.PerGame {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, int64(c.Change), 10)
		}
		b = append(b, ',')
		b = appendNum(b, c.RatingAfter)
		b = append(b, ',')
		b = appendJSONString(b, s.cs.str(c.Reason))
		b = append(b, ']')
	}
	return append(b, "]</script>\n</section>\n"...)
}

// appendNum appends an optional number as JSON.
func appendNum(b []byte, v int32) []byte {
	if v == none {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// appendFloatNum appends an optional number as JSON with prec decimals,
// which site.js shows with as many.
func appendFloatNum(b []byte, f float64, prec int) []byte {
	if math.IsNaN(f) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, f, 'f', prec, 64)
}

// appendJoker appends the Joker section of a Joker player's page.
func (s *site) appendJoker(b []byte, id int64, name string) []byte {
	hist := s.joker[id]
	if len(hist) == 0 {
		return b
	}
	b = append(b, "<section aria-labelledby=\"joker-h\">\n<h2 id=\"joker-h\">Joker</h2>\n"...)
	if jc := s.jokerCards[id]; len(jc) > 0 {
		vals := make([]float64, len(jc))
		lo, hi := math.Inf(1), math.Inf(-1)
		var levels []levelChange
		for i, c := range jc {
			vals[i] = float64(c.PlayerRating)
			lo, hi = math.Min(lo, vals[i]), math.Max(hi, vals[i])
			if i > 0 && c.LevelBefore != jc[i-1].LevelBefore {
				levels = append(levels, levelChange{Game: i + 1, Day: int32(c.PlayedAt / 86_400_000_000), From: jc[i-1].LevelBefore, To: c.LevelBefore})
			}
		}
		alt := fmt.Sprintf("Joker player rating of %s after each of %d games: from %g to %g; lowest %g, highest %g",
			name, len(vals), vals[0], vals[len(vals)-1], lo, hi)
		b = append(b, "<figure class=\"chartbox\" id=\"jchart\" data-y=\"Joker player rating\" data-v=\""...)
		for i, v := range vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendFloat(b, v, 'f', -1, 64)
		}
		b = append(b, "\">\n<figcaption>"...)
		b = appendEsc(b, alt)
		b = append(b, ".</figcaption>\n</figure>\n"...)
		if len(levels) > 0 {
			b = append(b, "<h3>Level changes</h3>\n<ul class=\"levels\">"...)
			for _, l := range levels {
				b = append(b, "<li>"...)
				b = appendDate(b, l.Day)
				b = fmt.Appendf(b, ", before game %d: level %d → %d</li>\n", l.Game, l.From, l.To)
			}
			b = append(b, "</ul>\n"...)
		}
	}
	b = append(b, `<h3>Level in each Joker list</h3>
<table class="compact">
<thead><tr><th scope="col">List</th><th scope="col" class="n">Rank</th><th scope="col" class="n">Player rating</th><th scope="col" class="n">Level</th><th scope="col">Level name</th><th scope="col" class="n">Personal rating</th><th scope="col" class="n">Games</th></tr></thead>
<tbody>
`...)
	for _, h := range hist {
		b = append(b, "<tr><td><a href=\"../joker-"...)
		b = appendEsc(b, h.Period)
		b = append(b, ".html\">"...)
		b = appendEsc(b, h.Period)
		b = append(b, "</a></td><td class=\"n\">"...)
		b = strconv.AppendInt(b, int64(h.Rank), 10)
		b = append(b, "</td><td class=\"n strong\">"...)
		b = strconv.AppendInt(b, int64(h.PlayerRating), 10)
		b = append(b, "</td><td class=\"n\">"...)
		b = strconv.AppendInt(b, int64(h.Level), 10)
		b = append(b, "</td><td>"...)
		b = appendEsc(b, h.LevelName)
		b = append(b, "</td><td class=\"n\">"...)
		b = strconv.AppendInt(b, int64(h.PersonalRating), 10)
		b = append(b, "</td><td class=\"n\">"...)
		b = strconv.AppendInt(b, int64(h.GamesTotal), 10)
		b = append(b, "</td></tr>\n"...)
	}
	return append(b, "</tbody>\n</table>\n</section>\n"...)
}

// ratingAlt describes a rating chart in words, for its caption and label.
func ratingAlt(name, what string, pts []chartPoint) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = math.Min(lo, p.Value), math.Max(hi, p.Value)
	}
	first, last := pts[0], pts[len(pts)-1]
	return fmt.Sprintf("%s history of %s: %d points from %s (%g) to %s (%g); lowest %g, highest %g",
		what, name, len(pts), dayTime(first.Day).Format("2006-01-02"), first.Value,
		dayTime(last.Day).Format("2006-01-02"), last.Value, lo, hi)
}
