package report

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/tiebreak"
)

var funcs = template.FuncMap{
	"signed": func(n int) string { return string(appendSigned(nil, n)) },
	"sign":   signClass,
	"date":   func(d int32) string { return string(appendDate(nil, d)) },
	"title":  titleCase,
	"head":   headHTML,
	"foot":   footHTML,
}

// The player and tournament pages are the bulk of a site (one per player and
// per tournament), so they are written by hand into byte slices rather than
// through html/template, and kept small: the numbers as HTML, the chart and
// the games drawn by assets/site.js from the card table and the tournaments'
// data files.

// appendEsc appends s escaped for HTML text and attribute values.
func appendEsc(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var r string
		switch s[i] {
		case '<':
			r = "&lt;"
		case '>':
			r = "&gt;"
		case '&':
			r = "&amp;"
		case '"':
			r = "&#34;"
		case '\'':
			r = "&#39;"
		default:
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, r...)
		last = i + 1
	}
	return append(b, s[last:]...)
}

// appendJSONString appends s as a JSON string, safe inside a script file.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, s[last:i]...)
			b = append(b, '\\', c)
		case c < 0x20 || c == '<':
			b = append(b, s[last:i]...)
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		case c == 0xe2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9):
			// U+2028 and U+2029 end a line in older JavaScript.
			b = append(b, s[last:i]...)
			b = append(b, `\u202`...)
			b = append(b, "89"[s[i+2]-0xa8])
			i += 2
		default:
			continue
		}
		last = i + 1
	}
	b = append(b, s[last:]...)
	return append(b, '"')
}

// appendInts appends numbers separated by commas.
func appendInts(b []byte, ns ...int64) []byte {
	for i, n := range ns {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, n, 10)
	}
	return b
}

// appendHead appends the start of every page: head, site header, navigation.
func appendHead(b []byte, p page) []byte {
	b = append(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"...)
	b = appendEsc(b, p.Title)
	b = append(b, " · "...)
	b = appendEsc(b, p.Site)
	b = append(b, "</title>\n<link rel=\"stylesheet\" href=\""...)
	b = append(b, p.Root...)
	b = append(b, "assets/style.css\">\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to content</a>\n<header class=\"top\"><div class=\"wrap\">\n<a class=\"brand\" href=\""...)
	b = append(b, p.Root...)
	b = append(b, "index.html\">"...)
	b = appendEsc(b, p.Site)
	b = append(b, "</a>\n<nav aria-label=\"Site\"><ul>\n<li><a href=\""...)
	b = append(b, p.Root...)
	b = append(b, "index.html\""...)
	if p.Nav == "list" {
		b = append(b, " aria-current=\"page\""...)
	}
	b = append(b, ">Rating list</a></li>\n<li><a href=\""...)
	b = append(b, p.Root...)
	b = append(b, "lists.html\""...)
	if p.Nav == "lists" {
		b = append(b, " aria-current=\"page\""...)
	}
	b = append(b, ">All lists</a></li>\n<li><a href=\""...)
	b = append(b, p.Root...)
	b = append(b, "tournaments.html\""...)
	if p.Nav == "tournaments" {
		b = append(b, " aria-current=\"page\""...)
	}
	return append(b, ">Tournaments</a></li>\n</ul></nav>\n</div></header>\n<main id=\"main\" class=\"wrap\">\n"...)
}

// appendFoot appends the end of every page.
func appendFoot(b []byte) []byte {
	return append(b, "</main>\n<footer class=\"wrap foot\">Published with ratelist. Ratings as of the list period's last day.</footer>\n</body>\n</html>\n"...)
}

// headHTML and footHTML give the template pages the same head and foot.
func headHTML(site, title, root, nav string) template.HTML {
	return template.HTML(appendHead(nil, page{Site: site, Title: title, Root: root, Nav: nav}))
}

func footHTML() template.HTML { return template.HTML(appendFoot(nil)) }

func appendDate(b []byte, d int32) []byte {
	if d == 0 {
		return b
	}
	return dayTime(d).AppendFormat(b, "2006-01-02")
}

func appendOpt(b []byte, v int32) []byte {
	if v == none {
		return b
	}
	return strconv.AppendInt(b, int64(v), 10)
}

func appendF(b []byte, f float64, prec int) []byte {
	if math.IsNaN(f) {
		return b
	}
	return strconv.AppendFloat(b, f, 'f', prec, 64)
}

func appendSigned(b []byte, n int) []byte {
	switch {
	case n > 0:
		b = append(b, '+')
	case n < 0:
		b = append(b, "−"...)
		n = -n
	}
	return strconv.AppendInt(b, int64(n), 10)
}

func appendFact(b []byte, dt, dd string) []byte {
	b = append(b, "<div><dt>"...)
	b = append(b, dt...)
	b = append(b, "</dt><dd>"...)
	b = appendEsc(b, dd)
	return append(b, "</dd></div>\n"...)
}

// levelChange is a Joker level change: the level before game Game differs
// from the level before the game before it.
type levelChange struct {
	Game     int
	Day      int32
	From, To int32
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

func signClass(n int) string {
	switch {
	case n > 0:
		return "up"
	case n < 0:
		return "down"
	}
	return ""
}

// appendCard appends the rating card as compact JSON in the page, from which
// site.js draws the card table, the rating chart and the games. Each row:
// [end day (days since 1970, 0 = none), tournament id to link (0 = none),
// tournament or period text, start rating, games, score, opponents' average,
// D, expected, K, exact change, change, rating after, reason]; empty numbers
// are null. Rows of folded per-game cards (FIDE) have a null change: the
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

// resultText shows a result code: 1, ½, 0, + and − for forfeits.
func resultText(c byte) string {
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

// renderTournament returns tournament t's page and its data file, from which
// site.js draws the standings and the crosstable, and the players' pages
// their games. tt is nil when the pairings are unknown, st when the standings
// are; the page has no data file when both are.
func (s *site) renderTournament(t *tourInfo, tt *tiebreak.Tournament, st *standings) (page, data []byte, err error) {
	b := appendHead(make([]byte, 0, 4<<10), s.page(t.Name, "../", "tournaments"))
	b = append(b, "<p class=\"crumb\"><a href=\"../"...)
	b = append(b, tourListFile(t.Period)...)
	b = append(b, "\">Tournaments</a>"...)
	if t.Period != "" {
		b = append(b, " › "...)
		b = appendEsc(b, t.Period)
	}
	b = append(b, "</p>\n<h1>"...)
	b = appendEsc(b, t.Name)
	b = append(b, "</h1>\n<dl class=\"facts\">\n"...)
	if t.Start != 0 {
		d := appendDate(nil, t.Start)
		if t.End != t.Start {
			d = appendDate(append(d, " – "...), t.End)
		}
		b = appendFact(b, "Dates", string(d))
	}
	if t.Discipline != "" {
		b = appendFact(b, "Discipline", titleCase(t.Discipline))
	}
	if t.System != "" {
		b = appendFact(b, "System", t.System)
	}
	if t.Rounds != 0 {
		b = appendFact(b, "Rounds", strconv.Itoa(t.Rounds))
	}
	if t.Rated {
		b = appendFact(b, "Rated", "yes")
	} else {
		b = appendFact(b, "Rated", "no")
	}
	if tt != nil {
		b = appendFact(b, "Players", strconv.Itoa(len(tt.Players)))
	}
	b = append(b, "</dl>\n"...)
	if st != nil {
		b = append(b, "<section aria-labelledby=\"st-h\" id=\"standings\">\n<h2 id=\"st-h\">Final standings</h2>\n<noscript><p class=\"muted\">Turn on JavaScript to see the standings.</p></noscript>\n</section>\n<p class=\"muted small\">Tiebreak columns are headed by their FIDE codes, in the order they break ties.</p>\n"...)
	}
	if tt != nil {
		b = append(b, "<section aria-labelledby=\"x-h\" id=\"cross\">\n<h2 id=\"x-h\">Crosstable</h2>\n<noscript><p class=\"muted\">Turn on JavaScript to see the crosstable.</p></noscript>\n</section>\n"...)
	}
	if st != nil || tt != nil {
		b = append(b, "<script src=\""...)
		b = strconv.AppendInt(b, t.ID, 10)
		b = append(b, ".js\"></script>\n<script src=\"../assets/site.js\"></script>\n"...)
		data = s.tourData(t, tt, st)
	}
	return appendFoot(b), data, nil
}

func titleCase(s string) string {
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tourData is a tournament's data file: a script that stores the tournament
// in window.RLT[ID] as compact JSON:
//
//	id  the tournament; rt: rated (1 or 0); x: crosstable as a round-robin grid; r: rounds
//	p   players, those of the standings first and in their order: [id, name, rating or null, has a page]
//	sh  the standings columns but player_id; sr: the standings rows, the name as the index into p
//	rs  the result texts; g: games, five numbers each: round, white, black (indexes into p, -1 for none)
//	    and the white's and black's results (indexes into rs)
func (s *site) tourData(t *tourInfo, tt *tiebreak.Tournament, st *standings) []byte {
	var players []tiebreak.Player
	if tt != nil {
		players = tt.Players
	}
	type entry struct {
		id   int64
		name string
	}
	var p []entry
	at := map[int64]int{}
	add := func(id int64, name string) int {
		if i, ok := at[id]; ok {
			return i
		}
		at[id] = len(p)
		p = append(p, entry{id, name})
		return len(p) - 1
	}
	nameCol := -1
	if st != nil {
		for i, h := range st.Header {
			if h == "name" {
				nameCol = i
			}
		}
		for k, r := range st.Rows {
			add(st.rowID(r, k), field(r, nameCol))
		}
	}
	pos := make([]int, len(players))
	for i, pl := range players {
		pos[i] = add(pl.ID, pl.Name)
	}
	rounds := 0
	if tt != nil {
		rounds = tt.Rounds
		for _, g := range tt.Games {
			rounds = max(rounds, g.Round)
		}
	}
	b := make([]byte, 0, 48*len(p)+12*rounds*len(players)/2+256)
	b = append(b, "(window.RLT=window.RLT||{})["...)
	b = strconv.AppendInt(b, t.ID, 10)
	b = append(b, "]={\"rt\":"...)
	b = appendBool(b, t.Rated)
	b = append(b, ",\"x\":"...)
	b = appendBool(b, isRoundRobin(t.System) && len(players) <= 24)
	b = append(b, ",\"r\":"...)
	b = strconv.AppendInt(b, int64(rounds), 10)
	b = append(b, ",\"p\":["...)
	for k, e := range p {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, e.id, 10)
		b = append(b, ',')
		b = appendJSONString(b, e.name)
		b = append(b, ',')
		if c := s.cardOf(t.ID, e.id); c != nil && c.Ro() != none {
			b = strconv.AppendInt(b, int64(c.Ro()), 10)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, ',')
		b = appendBool(b, s.hasPage(e.id))
		b = append(b, ']')
	}
	b = append(b, ']')
	if st != nil {
		b = append(b, ",\"sh\":["...)
		first := true
		for _, h := range st.Header {
			if h == "player_id" {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendJSONString(b, h)
		}
		b = append(b, "],\"sr\":["...)
		for k, r := range st.Rows {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			first := true
			for i, h := range st.Header {
				if h == "player_id" {
					continue
				}
				if !first {
					b = append(b, ',')
				}
				first = false
				if i == nameCol {
					b = strconv.AppendInt(b, int64(at[st.rowID(r, k)]), 10)
				} else {
					b = appendCell(b, field(r, i))
				}
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	if tt != nil {
		var texts []string
		code := map[string]int{}
		res := func(c byte) int64 {
			r := resultText(c)
			i, ok := code[r]
			if !ok {
				i = len(texts)
				code[r] = i
				texts = append(texts, r)
			}
			return int64(i)
		}
		idx := func(p int) int64 {
			if p < 0 {
				return -1
			}
			return int64(pos[p])
		}
		var g []byte
		for k, gm := range tt.Games {
			if k > 0 {
				g = append(g, ',')
			}
			wr, br := res(gm.WhiteResult), int64(-1)
			if gm.Black >= 0 {
				br = res(gm.BlackResult)
			}
			if gm.White < 0 {
				wr = -1
			}
			g = appendInts(g, int64(gm.Round), idx(gm.White), idx(gm.Black), wr, br)
		}
		b = append(b, ",\"rs\":["...)
		for i, r := range texts {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, r)
		}
		b = append(b, "],\"g\":["...)
		b = append(b, g...)
		b = append(b, ']')
	}
	return append(b, "};\n"...)
}

// appendCell appends a standings cell: a number as itself when JavaScript
// prints it back the same, else a string.
func appendCell(b []byte, v string) []byte {
	if f, err := strconv.ParseFloat(v, 64); err == nil && strconv.FormatFloat(f, 'f', -1, 64) == v {
		return append(b, v...)
	}
	return appendJSONString(b, v)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, '1')
	}
	return append(b, '0')
}

func isRoundRobin(system string) bool {
	s := strings.ToLower(system)
	return strings.Contains(s, "round") || s == "rr" || s == "berger"
}
