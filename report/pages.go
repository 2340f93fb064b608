package report

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
)

var funcs = template.FuncMap{
	"signed": func(n int) string {
		switch {
		case n > 0:
			return "+" + strconv.Itoa(n)
		case n < 0:
			return "−" + strconv.Itoa(-n)
		}
		return "0"
	},
	"sign": func(n int) string {
		switch {
		case n > 0:
			return "up"
		case n < 0:
			return "down"
		}
		return ""
	},
	"date": func(d int32) string {
		if d == 0 {
			return ""
		}
		return dayTime(d).Format("2006-01-02")
	},
	"num": func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) },
	"i32": func(p *int32) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(int(*p))
	},
	"f64": func(p *float64, prec int) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'f', prec, 64)
	},
	"add": func(a, b int) int { return a + b },
	"int": func(v int32) int { return int(v) },
	"title": func(s string) string {
		if s == "" {
			return ""
		}
		return strings.ToUpper(s[:1]) + s[1:]
	},
}

// cardView is one row of a player's rating card, with the games behind it.
type cardView struct {
	*card
	Tour   *tourInfo
	Played []gameView
}

// gameView is one of a player's games in a tournament.
type gameView struct {
	Round     int
	Color     string
	OppID     int64
	OppName   string
	OppRating string
	Result    string
	HasPage   bool
}

type playerPage struct {
	page
	ID         int64
	Name       string
	Club       string
	Category   string
	Listed     *listRow
	Chart      template.HTML
	ChartAlt   string
	Points     int
	Cards      []cardView
	Joker      []jokerHist
	JokerChart template.HTML
	JokerAlt   string
	JokerGames int
	Levels     []levelChange
}

// levelChange is a Joker level change: the level before game Game differs
// from the level before the game before it.
type levelChange struct {
	Game     int
	Day      int32
	From, To int32
}

func (s *site) writePlayer(dir string, id int64) error {
	pp := playerPage{ID: id, Name: s.names[id], Club: s.club(id), Listed: s.listed[id]}
	pp.page = s.page(pp.Name, "../", "")
	if s.arch != nil {
		if i := s.arch.Players.Index(id); i >= 0 && s.arch.Players.Category[i] > 0 {
			pp.Category = strconv.Itoa(int(s.arch.Players.Category[i]))
		}
	}
	var pts []chartPoint
	for _, ci := range s.byPlayer[id] {
		c := &s.cards[ci]
		cv := cardView{card: c, Tour: s.tours[c.TournamentID]}
		if cv.Tour != nil && cv.Tour.Pairings != nil {
			cv.Played = s.games(cv.Tour, id)
		}
		pp.Cards = append(pp.Cards, cv)
		if c.RatingAfter != nil {
			pts = append(pts, chartPoint{Day: c.EndDate, Value: float64(*c.RatingAfter)})
		}
	}
	if len(pts) > 0 {
		pp.Points = len(pts)
		pp.ChartAlt = ratingAlt(pp.Name, "Rating", pts)
		chart, err := timeSeries(pp.ChartAlt, "Rating", pts)
		if err != nil {
			return err
		}
		pp.Chart = chart
	}
	pp.Joker = s.joker[id]
	if jc := s.jokerCards[id]; len(jc) > 0 {
		vals := make([]float64, len(jc))
		lo, hi := math.Inf(1), math.Inf(-1)
		for i, c := range jc {
			vals[i] = float64(c.PlayerRating)
			lo, hi = math.Min(lo, vals[i]), math.Max(hi, vals[i])
			if i > 0 && c.LevelBefore != jc[i-1].LevelBefore {
				pp.Levels = append(pp.Levels, levelChange{Game: i + 1, Day: int32(c.PlayedAt / 86_400_000_000), From: jc[i-1].LevelBefore, To: c.LevelBefore})
			}
		}
		pp.JokerGames = len(vals)
		pp.JokerAlt = fmt.Sprintf("Joker player rating of %s after each of %d games: from %g to %g; lowest %g, highest %g",
			pp.Name, len(vals), vals[0], vals[len(vals)-1], lo, hi)
		chart, err := gameSeries(pp.JokerAlt, "Joker player rating", vals)
		if err != nil {
			return err
		}
		pp.JokerChart = chart
	}
	return writePage(dir, fmt.Sprintf("players/%d.html", id), "player.html", &pp)
}

// ratingAlt describes a rating chart in words, for its <title>.
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

// games lists player id's games in t, in round order.
func (s *site) games(t *tourInfo, id int64) []gameView {
	tt := t.Pairings
	gs := t.byPlayer[id]
	if len(gs) == 0 {
		return nil
	}
	out := make([]gameView, 0, len(gs))
	for _, gi := range gs {
		g := tt.Games[gi]
		var color string
		var opp int
		var res byte
		if tt.Players[g.White].ID == id {
			color, opp, res = "white", g.Black, g.WhiteResult
		} else {
			color, opp, res = "black", g.White, g.BlackResult
		}
		gv := gameView{Round: g.Round, Result: resultText(res)}
		if opp < 0 {
			gv.Color = ""
			gv.OppName = "bye"
		} else {
			gv.Color = color
			o := tt.Players[opp]
			gv.OppID, gv.OppName = o.ID, o.Name
			if c := s.cardOf(t.ID, o.ID); c != nil && c.Ro() != nil {
				gv.OppRating = strconv.Itoa(int(*c.Ro()))
			} else if t.Rated {
				gv.OppRating = "unrated"
			}
			_, gv.HasPage = s.names[o.ID]
		}
		out = append(out, gv)
	}
	return out
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

// tourPage is one tournament's page.
type tourPage struct {
	page
	T         *tourInfo
	Standings *standings
	Links     []int64 // player id of each standings row, 0 = no page
	NameCol   int
	NumCols   map[int]bool
	Cross     *crosstable
}

// crosstable shows every player's games by round (Swiss) or against every
// other player (round robin).
type crosstable struct {
	Grid   bool     // round-robin grid
	Rounds []int    // Swiss: round numbers
	Rows   []xtRow  // in standings order
	Heads  []string // grid: the column numbers
}

type xtRow struct {
	No      int
	ID      int64
	Name    string
	Rating  string
	Points  string
	HasPage bool
	Cells   []string
	Titles  []string
}

func (s *site) writeTournament(dir string, t *tourInfo) error {
	tp := tourPage{page: s.page(t.Name, "../", "tournaments"), T: t, NameCol: -1, NumCols: map[int]bool{}}
	if st := s.standings[t.ID]; st != nil {
		tp.Standings = st
		for i, h := range st.Header {
			switch h {
			case "name":
				tp.NameCol = i
			case "player_id":
			default:
				tp.NumCols[i] = true
			}
		}
		tp.Links = make([]int64, len(st.Rows))
		for i, r := range st.Rows {
			if st.idCol >= 0 {
				if id, err := strconv.ParseInt(field(r, st.idCol), 10, 64); err == nil {
					if _, ok := s.names[id]; ok {
						tp.Links[i] = id
					}
				}
			}
		}
	}
	if t.Pairings != nil {
		tp.Cross = s.crosstable(t, tp.Standings)
	}
	return writePage(dir, fmt.Sprintf("tournaments/%d.html", t.ID), "tournament.html", &tp)
}

func (s *site) crosstable(t *tourInfo, st *standings) *crosstable {
	tt := t.Pairings
	n := len(tt.Players)
	// Order: the standings order when known, else the starting order.
	order := make([]int, 0, n)
	byID := map[int64]int{}
	for i, p := range tt.Players {
		byID[p.ID] = i
	}
	seen := make([]bool, n)
	if st != nil && st.idCol >= 0 {
		for _, r := range st.Rows {
			id, _ := strconv.ParseInt(field(r, st.idCol), 10, 64)
			if i, ok := byID[id]; ok && !seen[i] {
				order = append(order, i)
				seen[i] = true
			}
		}
	}
	for i := range tt.Players {
		if !seen[i] {
			order = append(order, i)
		}
	}
	no := make([]int, n) // position in the crosstable, 1-based
	for k, i := range order {
		no[i] = k + 1
	}
	rounds := tt.Rounds
	for _, g := range tt.Games {
		rounds = max(rounds, g.Round)
	}
	x := &crosstable{Grid: isRoundRobin(t.System) && n <= 24}
	if !x.Grid {
		for r := 1; r <= rounds; r++ {
			x.Rounds = append(x.Rounds, r)
		}
	} else {
		for k := range order {
			x.Heads = append(x.Heads, strconv.Itoa(k+1))
		}
	}
	points := make([]int, n) // half-points
	cells := make([][]string, n)
	titles := make([][]string, n)
	for i := range cells {
		if x.Grid {
			cells[i] = make([]string, n)
			titles[i] = make([]string, n)
		} else {
			cells[i] = make([]string, rounds)
			titles[i] = make([]string, rounds)
		}
	}
	put := func(me, opp, round int, color string, res byte) {
		points[me] += halfPoints(res)
		txt := resultText(res)
		var title string
		if opp < 0 {
			title = fmt.Sprintf("Round %d: bye, %s", round, txt)
		} else {
			title = fmt.Sprintf("Round %d: %s with %s against %s, %s", round, tt.Players[me].Name, color, tt.Players[opp].Name, txt)
		}
		if x.Grid {
			if opp < 0 {
				return
			}
			c := &cells[me][no[opp]-1]
			if *c != "" {
				*c += " "
				titles[me][no[opp]-1] += "; "
			}
			*c += txt
			titles[me][no[opp]-1] += title
			return
		}
		if round < 1 || round > rounds {
			return
		}
		if opp < 0 {
			cells[me][round-1] = "bye " + txt
		} else {
			cells[me][round-1] = strconv.Itoa(no[opp]) + color[:1] + " " + txt
		}
		titles[me][round-1] = title
	}
	for _, g := range tt.Games {
		if g.White >= 0 {
			put(g.White, g.Black, g.Round, "white", g.WhiteResult)
		}
		if g.Black >= 0 {
			put(g.Black, g.White, g.Round, "black", g.BlackResult)
		}
	}
	for _, i := range order {
		p := tt.Players[i]
		row := xtRow{No: no[i], ID: p.ID, Name: p.Name, Points: halfText(points[i]), Cells: cells[i], Titles: titles[i]}
		if x.Grid {
			row.Cells[no[i]-1] = "■"
			row.Titles[no[i]-1] = ""
		}
		if c := s.cardOf(t.ID, p.ID); c != nil && c.Ro() != nil {
			row.Rating = strconv.Itoa(int(*c.Ro()))
		}
		_, row.HasPage = s.names[p.ID]
		x.Rows = append(x.Rows, row)
	}
	return x
}

func halfPoints(c byte) int {
	switch c {
	case '1', 'W', 'w', '+', 'F', 'f', 'U', 'u':
		return 2
	case '=', 'D', 'd', 'H', 'h':
		return 1
	}
	return 0
}

func halfText(hp int) string {
	if hp%2 == 0 {
		return strconv.Itoa(hp / 2)
	}
	return strconv.Itoa(hp/2) + ".5"
}

func isRoundRobin(system string) bool {
	s := strings.ToLower(system)
	return strings.Contains(s, "round") || s == "rr" || s == "berger"
}
