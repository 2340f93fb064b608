package norms

import (
	"slices"
	"strings"

	"github.com/ratelist/ratelist/rating/tables"
)

// Kind is the tournament's system.
type Kind int

const (
	Swiss Kind = iota
	RoundRobin
	DoubleRoundRobin
)

func (k Kind) String() string {
	switch k {
	case RoundRobin:
		return "round-robin"
	case DoubleRoundRobin:
		return "double-round-robin"
	}
	return "swiss"
}

// Tournament is one event as the title regulations need it.
type Tournament struct {
	Kind Kind
	// Rounds is the number of rounds of the event (0: the longest record).
	Rounds int
	// Predetermined marks a Swiss event whose pairings were fixed in advance
	// (Scheveningen, team events); round robins always are.
	Predetermined bool
	// Exempt marks an event of 1.4.3a–c (national championship, national team
	// championship, zonal or subzonal, one the QC approved): the federation
	// requirements 1.4.3 and 1.4.4 do not apply. A large Swiss (1.4.3d) is
	// found from the players (LargeSwiss).
	Exempt bool
	// Host is the host federation (TRF 032), for 1.4.3d; "" unknown.
	Host string
	// SevenGames marks a 7-round team event of 1.4.1b: 7 games suffice.
	SevenGames bool
	Players    []Player
}

// Player is one participant.
type Player struct {
	StartNo    int
	Name       string
	Title      string // as Title normalizes it: GM, IM, WGM, WIM, FM, WFM, CM, WCM or ""
	Federation string // FIDE's three letters; "" unknown
	Female     bool
	Rating     int // the FIDE rating at the start; 0 unrated
	FideID     int64
	Rounds     []Round // index = round − 1
}

// Round is one round of one player.
type Round struct {
	Opp    int  // index into Tournament.Players; -1 without an opponent
	Colour byte // 'w', 'b' or 0
	// Result is a TRF code: 1 = 0 W D L a played game; + - a forfeit; U the
	// pairing-allocated bye; F a full-point bye (writers write the
	// pairing-allocated bye so); H Z a half-point and a zero-point bye.
	Result byte
}

// The norm titles, strongest first.
const (
	GM  = "GM"
	IM  = "IM"
	WGM = "WGM"
	WIM = "WIM"
)

// rank orders the titles: a set of qualifying titles is always a prefix of it,
// so the stronger of two titles held is the one that counts.
var rank = []string{GM, IM, WGM, WIM, "FM", "WFM", "CM", "WCM"}

func rankOf(title string) int {
	if i := slices.Index(rank, title); i >= 0 {
		return i
	}
	return len(rank)
}

// Title normalizes a title as TRF files and FIDE's list write it (GM, g, wgm,
// WG …) to GM, IM, WGM, WIM, FM, WFM, CM, WCM, or "" for none or one not known.
func Title(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	switch s {
	case "G":
		return GM
	case "M":
		return IM
	case "F":
		return "FM"
	case "C":
		return "CM"
	case "WG":
		return WGM
	case "WM":
		return WIM
	case "WF":
		return "WFM"
	case "WC":
		return "WCM"
	}
	if rankOf(s) < len(rank) {
		return s
	}
	return ""
}

// Stronger is the stronger of two normalized titles.
func Stronger(a, b string) string {
	if rankOf(b) < rankOf(a) {
		return b
	}
	return a
}

// Titles are the norms checked for a player: those of titles stronger than the
// strongest he holds (a GM none, an IM the GM norm only), WGM and WIM for women
// only.
func Titles(p Player) []string {
	var out []string
	for _, t := range []string{GM, IM, WGM, WIM} {
		if rankOf(t) >= rankOf(p.Title) || (t == WGM || t == WIM) && !p.Female {
			continue
		}
		out = append(out, t)
	}
	return out
}

// Requirements per title: 1.4.8 (performance), 1.4.8a (average), 1.4.6 (floor).
type limits struct{ rp, ra, floor int }

var limitsOf = map[string]limits{
	GM:  {2600, 2380, 2200},
	IM:  {2450, 2230, 2050},
	WGM: {2400, 2180, 2000},
	WIM: {2250, 2030, 1850},
}

// Unrated is the rating an unrated opponent counts with (1.4.6).
const Unrated = 1400

// Result is the verdict for one player and one title.
type Result struct {
	Player   int    `json:"-"` // index into Tournament.Players
	StartNo  int    `json:"start_no"`
	Name     string `json:"name"`
	Title    string `json:"norm_title"`
	Achieved bool   `json:"achieved"`
	// Games are the games played that the figures are over; Counted adds the
	// forfeit win or bye of 1.4.1c.
	Games   int `json:"games"`
	Counted int `json:"games_counted"`
	// ByeRound is the round of the forfeit win or bye 1.4.1c counts, 0 none.
	ByeRound int     `json:"bye_round,omitempty"`
	Score    float64 `json:"score"`
	Percent  int     `json:"percent"` // p to a whole percent, .5 up
	Ra       int     `json:"ra"`
	Dp       int     `json:"dp"`
	Rp       int     `json:"rp"`
	// Rounds are the rounds counted, the 1.4.1c round included.
	Rounds       []int         `json:"rounds_used"`
	Requirements []Requirement `json:"requirements"`
	// The IT1 certificate's counts: games against each title, federations
	// met, unrated opponents; and its list of games.
	ByTitle     map[string]int `json:"games_by_title"`
	Federations int            `json:"federations"`
	Unrated     int            `json:"unrated_games"`
	Opponents   []Opponent     `json:"opponents"`
}

// Requirement is one requirement's number and whether it holds: Value ≥ Need,
// or Value ≤ Need when Max.
type Requirement struct {
	Article string  `json:"article"`
	What    string  `json:"what"`
	Value   float64 `json:"value"`
	Need    float64 `json:"need"`
	Max     bool    `json:"max,omitempty"`
	Exempt  bool    `json:"exempt,omitempty"` // lifted: Tournament.Exempt or LargeSwiss
	Holds   bool    `json:"holds"`
}

// Opponent is one counted game, as the IT1 certificate lists it.
type Opponent struct {
	Round      int     `json:"round"`
	StartNo    int     `json:"start_no"`
	Name       string  `json:"name"`
	Title      string  `json:"title"`
	Federation string  `json:"federation"`
	Rating     int     `json:"rating"`         // as listed; 0 unrated
	Counted    int     `json:"counted_rating"` // 1400 when unrated, the floor when raised
	Raised     bool    `json:"raised,omitempty"`
	Colour     string  `json:"colour"`
	Result     float64 `json:"result"`
}

// Fails are the articles of the requirements that do not hold, in order.
func (r Result) Fails() []string {
	var out []string
	for _, q := range r.Requirements {
		if !q.Holds && !slices.Contains(out, q.Article) {
			out = append(out, q.Article)
		}
	}
	return out
}

// LargeSwiss reports whether t is a Swiss event of 1.4.3d, exempt from the
// federation requirements: at least 20 FIDE-rated players not of the host
// federation, from at least 3 federations, at least 10 of them GM, IM, WGM or
// WIM. An unknown host federation is no exemption.
func LargeSwiss(t Tournament) bool {
	if t.Kind != Swiss || t.Host == "" {
		return false
	}
	foreign, titled := 0, 0
	feds := map[string]bool{}
	for _, p := range t.Players {
		f := strings.ToUpper(p.Federation)
		if p.Rating <= 0 || f == "" || f == strings.ToUpper(t.Host) {
			continue
		}
		foreign++
		feds[f] = true
		if rankOf(p.Title) <= rankOf(WIM) {
			titled++
		}
	}
	return foreign >= 20 && len(feds) >= 3 && titled >= 10
}

// Check returns the results of every player for every title Titles chooses, in
// player order and GM, IM, WGM, WIM order.
func Check(t Tournament) []Result {
	var out []Result
	for i, p := range t.Players {
		for _, title := range Titles(p) {
			out = append(out, CheckPlayer(t, i, title))
		}
	}
	return out
}

// game is one played game of the applicant.
type game struct {
	round  int // 1-based
	opp    int
	colour byte
	half   int // points won, in half-points
}

// maxDrop bounds the defeated opponents whose games are tried without: the
// lowest-rated ones, whose removal raises the average most.
const maxDrop = 8

// CheckPlayer checks player i for title.
func CheckPlayer(t Tournament, i int, title string) Result {
	p := t.Players[i]
	rounds := t.Rounds
	if rounds == 0 {
		for _, q := range t.Players {
			rounds = max(rounds, len(q.Rounds))
		}
	}
	var games []game
	bye := 0 // the round of a forfeit win or a full-point bye (1.4.1c)
	for r, rd := range p.Rounds {
		if h, ok := playedHalf(rd.Result); ok && rd.Opp >= 0 && rd.Opp < len(t.Players) {
			games = append(games, game{round: r + 1, opp: rd.Opp, colour: rd.Colour, half: h})
		} else if bye == 0 && strings.IndexByte("+UF", rd.Result) >= 0 {
			bye = r + 1
		}
	}
	m := measurer{t: t, p: i, title: title, rounds: rounds, bye: bye, exempt: t.Exempt || LargeSwiss(t)}
	best := m.measure(games)
	if best.Achieved {
		return best
	}
	// Fewer games than these cannot make a norm.
	least := 9
	switch {
	case t.SevenGames:
		least = 7
	case rounds == 9 && bye > 0:
		least = 8
	}
	dropWins := t.Kind == Swiss || mixHolds(best)
	lastK := 1
	if t.Kind != Swiss || t.Predetermined {
		lastK = rounds
	}
	found := false
	for k := rounds; k >= lastK; k-- {
		var prefix []game
		for _, g := range games {
			if g.round <= k {
				prefix = append(prefix, g)
			}
		}
		var wins []int // indexes into prefix, lowest-rated opponent first
		if dropWins {
			for j, g := range prefix {
				if g.half == 2 {
					wins = append(wins, j)
				}
			}
			slices.SortStableFunc(wins, func(a, b int) int {
				return ratingOf(t.Players[prefix[a].opp]) - ratingOf(t.Players[prefix[b].opp])
			})
			wins = wins[:min(len(wins), maxDrop)]
		}
		// Leave out d of the wins, fewest first: the first norm found at d has
		// the most games this prefix gives.
		for d := 0; d <= len(wins) && len(prefix)-d >= least; d++ {
			if found && len(prefix)-d <= best.Games {
				break
			}
			if len(prefix)-d == len(games) {
				continue // the whole event, measured already
			}
			if r, ok := firstNorm(m, k, prefix, wins, d); ok {
				best, found = r, true
				break
			}
		}
	}
	return best
}

// firstNorm measures prefix without d of the games wins indexes, choice by
// choice in lexicographic order, and returns the first that gives a norm.
func firstNorm(m measurer, k int, prefix []game, wins []int, d int) (Result, bool) {
	choice := make([]int, d) // indexes into wins, ascending
	for j := range choice {
		choice[j] = j
	}
	drop := make([]bool, len(prefix))
	sub := make([]game, 0, len(prefix))
	for {
		clear(drop)
		for _, c := range choice {
			drop[wins[c]] = true
		}
		sub = sub[:0]
		for j, g := range prefix {
			if !drop[j] {
				sub = append(sub, g)
			}
		}
		if r := m.measureUpTo(sub, k); r.Achieved {
			return r, true
		}
		// The next choice: raise the last index that can still rise.
		j := d - 1
		for j >= 0 && choice[j] == len(wins)-d+j {
			j--
		}
		if j < 0 {
			return Result{}, false
		}
		choice[j]++
		for l := j + 1; l < d; l++ {
			choice[l] = choice[l-1] + 1
		}
	}
}

// mixHolds reports whether the federation and title requirements hold: a
// round robin's condition for leaving out games against defeated opponents.
func mixHolds(r Result) bool {
	for _, q := range r.Requirements {
		if !q.Holds && (strings.HasPrefix(q.Article, "1.4.3") || strings.HasPrefix(q.Article, "1.4.4") || strings.HasPrefix(q.Article, "1.4.5")) {
			return false
		}
	}
	return true
}

// playedHalf is the points, in half-points, of a played game's result code.
func playedHalf(c byte) (int, bool) {
	switch c {
	case '1', 'W':
		return 2, true
	case '=', 'D':
		return 1, true
	case '0', 'L':
		return 0, true
	}
	return 0, false
}

func ratingOf(p Player) int {
	if p.Rating <= 0 {
		return Unrated
	}
	return p.Rating
}

type measurer struct {
	t      Tournament
	p      int
	title  string
	rounds int
	bye    int
	exempt bool // from 1.4.3 and 1.4.4
}

func (m measurer) measure(games []game) Result { return m.measureUpTo(games, m.rounds) }

// measureUpTo measures games, a set taken from the first k rounds: 1.4.1c
// applies to the whole of a 9-round event only.
func (m measurer) measureUpTo(games []game, k int) Result {
	t, p := m.t, m.t.Players[m.p]
	lim := limitsOf[m.title]
	n := len(games)
	r := Result{Player: m.p, StartNo: p.StartNo, Name: p.Name, Title: m.title, Games: n, Counted: n, Rounds: []int{}, Opponents: []Opponent{}, ByTitle: map[string]int{}}
	for _, g := range games {
		r.Rounds = append(r.Rounds, g.round)
	}

	// 1.4.1a, b, c.
	need := 9
	if t.SevenGames {
		need = 7
	}
	if m.rounds == 9 && k == 9 && n == 8 && m.bye > 0 && !t.SevenGames {
		r.Counted, r.ByeRound = 9, m.bye
		r.Rounds = append(r.Rounds, m.bye)
		slices.Sort(r.Rounds)
	}
	r.Requirements = append(r.Requirements, atLeast("1.4.1a", "games", r.Counted, need))

	// 1.4.3, 1.4.4: federations, counted per game.
	fed := strings.ToUpper(p.Federation)
	perFed := map[string]int{}
	own := 0
	for _, g := range games {
		f := strings.ToUpper(t.Players[g.opp].Federation)
		if f == "" {
			continue
		}
		perFed[f]++
		if f == fed {
			own++
		}
	}
	r.Federations = len(perFed)
	others, most := 0, 0
	for f, c := range perFed {
		if f != fed {
			others++
		}
		most = max(most, c)
	}
	fedReqs := []Requirement{
		atLeast("1.4.3", "federations other than the player's", others, 2),
		atMost("1.4.4", "opponents from the player's federation", own, 3*n/5),
		atMost("1.4.4", "opponents from one federation", most, 2*n/3),
	}
	for j := range fedReqs {
		if m.exempt {
			fedReqs[j].Exempt, fedReqs[j].Holds = true, true
		}
	}
	r.Requirements = append(r.Requirements, fedReqs...)

	// 1.4.5: title holders (CM and WCM do not count), and holders of the title
	// or a stronger one.
	holders, strong := 0, 0
	strongOpps := map[int]bool{}
	opps := map[int]bool{}
	for _, g := range games {
		if title := t.Players[g.opp].Title; title != "" {
			r.ByTitle[title]++
		}
		if t.Players[g.opp].Rating <= 0 {
			r.Unrated++
		}
		rk := rankOf(t.Players[g.opp].Title)
		if rk < rankOf("CM") {
			holders++
		}
		if rk <= rankOf(m.title) {
			strong++
			strongOpps[g.opp] = true
		}
		opps[g.opp] = true
	}
	r.Requirements = append(r.Requirements, atLeast("1.4.5a", "title holders", holders, ceilDiv(n, 2)))
	what := "opponents holding " + holdersOf(m.title)
	if t.Kind == DoubleRoundRobin {
		r.Requirements = append(r.Requirements, atLeast("1.4.5b", what+" (players)", len(strongOpps), max(3, ceilDiv(len(opps), 2))))
	} else {
		r.Requirements = append(r.Requirements, atLeast("1.4.5b", what, strong, max(3, ceilDiv(n, 3))))
	}

	// 1.4.6, 1.4.7: the average with unrated at 1400 and the lowest-rated
	// opponent (every game against him) raised to the floor.
	lowest := -1
	for _, g := range games {
		if lowest < 0 || ratingOf(t.Players[g.opp]) < ratingOf(t.Players[lowest]) {
			lowest = g.opp
		}
	}
	sum, half := 0, 0
	for _, g := range games {
		o := t.Players[g.opp]
		c := ratingOf(o)
		raised := g.opp == lowest && c < lim.floor
		if raised {
			c = lim.floor
		}
		sum += c
		half += g.half
		colour := ""
		if g.colour != 0 {
			colour = string(g.colour)
		}
		r.Opponents = append(r.Opponents, Opponent{Round: g.round, StartNo: o.StartNo, Name: o.Name, Title: o.Title, Federation: o.Federation,
			Rating: o.Rating, Counted: c, Raised: raised, Colour: colour, Result: float64(g.half) / 2})
	}
	r.Score = float64(half) / 2
	if n > 0 {
		r.Ra = (2*sum + n) / (2 * n)         // sum/n rounded, .5 up
		r.Percent = (100*half + n) / (2 * n) // 50·half/n rounded, .5 up
		r.Dp = dp(r.Percent)
		r.Rp = r.Ra + r.Dp
	}
	r.Requirements = append(r.Requirements,
		atLeast("1.4.8", "performance rating", r.Rp, lim.rp),
		atLeast("1.4.8a", "opponents' rating average", r.Ra, lim.ra))
	// 35 % of the games, to the half-point above.
	score := atLeast("1.4.8b", "score", half, ceilDiv(70*n, 100))
	score.Value, score.Need = score.Value/2, score.Need/2
	r.Requirements = append(r.Requirements, score)

	r.Achieved = n > 0
	for _, q := range r.Requirements {
		r.Achieved = r.Achieved && q.Holds
	}
	return r
}

// dp is table 8.1.1's difference for p in whole percent; the table prints none
// for 0 % and 100 %, where ±800 is used.
func dp(p int) int {
	if v, ok := tables.DP(p); ok {
		return v
	}
	if p >= 100 {
		return 800
	}
	return -800
}

func holdersOf(title string) string {
	return strings.Join(rank[:rankOf(title)+1], "/")
}

// ceilDiv is a/b rounded up, for a ≥ 0 and b > 0.
func ceilDiv(a, b int) int { return (a + b - 1) / b }

func atLeast(article, what string, v, need int) Requirement {
	return Requirement{Article: article, What: what, Value: float64(v), Need: float64(need), Holds: v >= need}
}

func atMost(article, what string, v, limit int) Requirement {
	return Requirement{Article: article, What: what, Value: float64(v), Need: float64(limit), Max: true, Holds: v <= limit}
}
