package tiebreak

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// TeamCode is one parsed team tiebreak code such as "BH:GP/C1".
type TeamCode struct {
	Code
	// Score is 'M' (match points) or 'G' (game points) for a code written with :MP
	// or :GP, 0 for the primary score.
	Score byte
}

// TeamOptions are the settings of team standings. The zero value is usable.
type TeamOptions struct {
	// Unplayed picks the rules for unplayed rounds: fide2023 (C.07 2023/2024) or
	// fide2026; "" = in force at the start date. Team tie-breaks have no 2009 rules.
	Unplayed Policy
	// GamePointsFirst ranks by game points, match points being the secondary score.
	GamePointsFirst bool
}

// TeamRow is one line of the team standings.
type TeamRow struct {
	Rank   int // equal for teams tied on the primary score and every code
	Index  int // index into TeamTournament.Teams
	Team   Team
	MP, GP float64
	Values []Value // one per code, in order
}

// teamDef is one team code of the catalogue.
type teamDef struct {
	mods   string // the modifiers it accepts, as codeDef.mods
	scored bool   // it takes :MP or :GP
	asc    bool   // lower is better
	value  func(e *teamEngine, c TeamCode, i int) Value
	// group, when set, orders the tie group g while ranking and returns its blocks,
	// best first; it sets the members' values itself.
	group func(e *teamEngine, c TeamCode, k int, g []int) [][]int
}

// teamTable is the catalogue of team codes, by base acronym.
var teamTable = map[string]teamDef{
	"MPVGP": {value: func(e *teamEngine, c TeamCode, i int) Value { return scaled(e.model(e.secondary()).score[i], 2) }},
	"WIN": {value: func(e *teamEngine, c TeamCode, i int) Value {
		m := e.model('M')
		win, _, _, _, _ := counts(m.slots[i], c.Played, m.win)
		return intValue(win)
	}},
	"WON": {value: func(e *teamEngine, c TeamCode, i int) Value {
		m := e.model('M')
		_, won, _, _, _ := counts(m.slots[i], c.Played, m.win)
		return intValue(won)
	}},
	"PS": {mods: "c", scored: true, value: func(e *teamEngine, c TeamCode, i int) Value {
		return scaled(progressive(e.model(e.score(c)).slots[i], c.Cut), 2)
	}},
	"BH": {mods: "cm", scored: true, value: func(e *teamEngine, c TeamCode, i int) Value {
		return scaled(e.calc(e.score(c), 0, c.Played, false).buchholz(i, c.Cut, c.Median), 2)
	}},
	"FB": {mods: "cm", scored: true, value: func(e *teamEngine, c TeamCode, i int) Value {
		return scaled(e.calc(e.score(c), 0, c.Played, true).buchholz(i, c.Cut, c.Median), 2)
	}},
	"AOB": {scored: true, value: func(e *teamEngine, c TeamCode, i int) Value {
		h, ok := e.calc(e.score(c), 0, c.Played, false).aob(i, c.Played)
		if !ok {
			return Value{}
		}
		return scaled(h, 100)
	}},
	"EMMSB": {mods: "c", value: sbValue('M', 'M')},
	"EMGSB": {mods: "c", value: sbValue('M', 'G')},
	"EGMSB": {mods: "c", value: sbValue('G', 'M')},
	"EGGSB": {mods: "c", value: sbValue('G', 'G')},
	"SSSC":  {value: ssscValue},
	"BC": {asc: true, value: func(e *teamEngine, c TeamCode, i int) Value {
		sum := 0
		for b, p := range e.boardPoints(i) {
			sum += (b + 1) * p
		}
		return scaled(sum, 2)
	}},
	"DE": {scored: true, group: func(e *teamEngine, c TeamCode, k int, g []int) [][]int {
		pts := make([]int, len(e.tt.Teams))
		blocks := deBlocks(e.model(e.score(c)), e.tm.roundRobin || c.Played, g, pts)
		for _, i := range g {
			e.vals[i*len(e.codes)+k] = scaled(pts[i], 2)
		}
		return blocks
	}},
	"EDE": {group: func(e *teamEngine, c TeamCode, k int, g []int) [][]int {
		return e.places(k, e.ede(g, e.tm.roundRobin || c.Played))
	}},
	"TBR": {group: func(e *teamEngine, c TeamCode, k int, g []int) [][]int {
		return e.places(k, e.lexBlocks(g, 0, e.tm.boards, func(bp []int, b int) int { return bp[b] }))
	}},
	"BBE": {group: func(e *teamEngine, c TeamCode, k int, g []int) [][]int {
		return e.places(k, e.lexBlocks(g, 0, e.tm.boards-1, func(bp []int, b int) int {
			sum := 0
			for _, p := range bp[:len(bp)-1-b] {
				sum += p
			}
			return sum
		}))
	}},
}

// ParseTeamCode parses one team code: TB[:MP|:GP][/Cn|/Mn][/P]. Letters are
// case-insensitive.
func ParseTeamCode(s string) (TeamCode, error) {
	name := strings.TrimSpace(s)
	parts := strings.Split(strings.ToUpper(name), "/")
	base, score, scored := strings.Cut(strings.TrimSpace(parts[0]), ":")
	c := TeamCode{Code: Code{Name: name, Base: strings.TrimSpace(base)}}
	def, ok := teamTable[c.Base]
	if !ok {
		return TeamCode{}, fmt.Errorf("%q: %w", name, ErrUnknownCode)
	}
	if scored {
		switch strings.TrimSpace(score) {
		case "MP":
			c.Score = 'M'
		case "GP":
			c.Score = 'G'
		default:
			return TeamCode{}, fmt.Errorf("%q: score %q (want MP or GP): %w", name, score, ErrBadModifier)
		}
		if !def.scored {
			return TeamCode{}, fmt.Errorf("%q: %s takes no :%s: %w", name, c.Base, score, ErrBadModifier)
		}
	}
	if err := c.parseModifiers(parts[1:], def.mods); err != nil {
		return TeamCode{}, err
	}
	return c, nil
}

// ParseTeamCodes parses a comma-separated list of team codes; empty items are
// skipped.
func ParseTeamCodes(list string) ([]TeamCode, error) {
	var out []TeamCode
	for _, s := range SplitCodes(list) {
		c, err := ParseTeamCode(s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// DefaultTeamCodes are the team tiebreaks used when none are asked for.
func DefaultTeamCodes() []string { return []string{"MPvGP", "EDE", "BH:MP/C1", "BH:MP"} }

// TeamPolicy is the rules team tie-breaks follow: opt.Unplayed, else those in force
// at the start date (fide2023 before 1 March 2026). C.07 has team tie-breaks from
// 2023 on only, so fide2009 is refused.
func TeamPolicy(start time.Time, opt TeamOptions) (Policy, error) {
	p, err := ParsePolicy(string(opt.Unplayed))
	switch {
	case err != nil:
		return "", err
	case p == Fide2009:
		return "", fmt.Errorf("%q: team tie-breaks follow C.07 from 2023 on (fide2023 or fide2026): %w", p, ErrUnknownPolicy)
	case p != "":
		return p, nil
	case !start.IsZero() && start.Before(fide2026Start):
		return Fide2023, nil
	}
	return Fide2026, nil
}

// TeamStandings ranks the teams of tt by their primary score (match points unless
// opt.GamePointsFirst), then by the codes in order, and returns one row per team,
// best first. Teams tied on everything share a rank and are listed by number.
func TeamStandings(tt *TeamTournament, codes []string, opt TeamOptions) ([]TeamRow, error) {
	e := &teamEngine{tt: tt, opt: opt}
	for _, s := range codes {
		c, err := ParseTeamCode(s)
		if err != nil {
			return nil, err
		}
		e.codes, e.defs = append(e.codes, c), append(e.defs, teamTable[c.Base])
	}
	var err error
	if e.policy, err = TeamPolicy(tt.Tournament.Start, opt); err != nil {
		return nil, err
	}
	if e.tm, err = matches(tt); err != nil {
		return nil, fmt.Errorf("tournament %d: %w", tt.Tournament.ID, err)
	}
	nt, nc := len(tt.Teams), len(e.codes)
	e.vals = make([]Value, nt*nc)
	for k, c := range e.codes {
		if d := e.defs[k]; d.value != nil {
			for i := range nt {
				e.vals[i*nc+k] = d.value(e, c, i)
			}
		}
	}
	order, ends := e.rank()
	mp, gp := e.model('M'), e.model('G')
	rows := make([]TeamRow, 0, nt)
	start := 0
	for _, end := range ends {
		for _, i := range order[start:end] {
			rows = append(rows, TeamRow{Rank: start + 1, Index: i, Team: tt.Teams[i], MP: float64(mp.score[i]) / 2, GP: float64(gp.score[i]) / 2, Values: e.vals[i*nc : (i+1)*nc : (i+1)*nc]})
		}
		start = end
	}
	return rows, nil
}

// teamEngine computes one team standings.
type teamEngine struct {
	tt     *TeamTournament
	tm     *teamMatches
	opt    TeamOptions
	policy Policy
	codes  []TeamCode
	defs   []teamDef
	vals   []Value // team i's values at vals[i*len(codes):]
	models [2]*model
	calcs  map[teamCalcKey]*calc
	bp     [][]int // game points by team and board, every round summed
}

type teamCalcKey struct {
	score, own byte
	played     bool
	fore       bool
}

func (e *teamEngine) primary() byte {
	if e.opt.GamePointsFirst {
		return 'G'
	}
	return 'M'
}

func (e *teamEngine) secondary() byte { return 'M' + 'G' - e.primary() }

// score is the score a code is computed on: its :MP or :GP, else the primary.
func (e *teamEngine) score(c TeamCode) byte {
	if c.Score != 0 {
		return c.Score
	}
	return e.primary()
}

// model is the teams' model in match points ('M') or game points ('G').
func (e *teamEngine) model(score byte) *model {
	k := 0
	if score == 'G' {
		k = 1
	}
	if e.models[k] == nil {
		e.models[k] = e.tm.teamModel(e.tt, k == 1)
	}
	return e.models[k]
}

// calc is the calc of the opponents' scores in score; own, when not 0, is the
// score of the results SB weighs them by.
func (e *teamEngine) calc(score, own byte, played, fore bool) *calc {
	if own == score {
		own = 0
	}
	key := teamCalcKey{score, own, played, fore}
	if c, ok := e.calcs[key]; ok {
		return c
	}
	m := e.model(score)
	rr := m.roundRobin || played
	c := &calc{}
	if fore {
		slots, total := foreSlots(m)
		fm := *m
		fm.slots, fm.score = slots, total
		c.reset(&fm, e.policy, rr, total)
	} else {
		c.reset(m, e.policy, rr, m.score)
	}
	if own != 0 {
		c.own = e.model(own)
	}
	if e.calcs == nil {
		e.calcs = map[teamCalcKey]*calc{}
	}
	e.calcs[key] = c
	return c
}

// sbValue is the team Sonneborn-Berger family: the opponents' scores in opp
// weighed by the team's own result in own (EMGSB: opponents' match points times
// the game points scored against them).
func sbValue(opp, own byte) func(e *teamEngine, c TeamCode, i int) Value {
	return func(e *teamEngine, c TeamCode, i int) Value {
		return scaled(e.calc(opp, own, c.Played, false).sonneborn(i, c.Cut, 0), 4)
	}
}

// ssscValue is the score and schedule strength combination: the secondary score
// plus the BH of the primary divided by how many secondary points a primary point
// is worth over the rounds, rounded to hundredths.
func ssscValue(e *teamEngine, c TeamCode, i int) Value {
	p := e.primary()
	m := e.model(p)
	bh := e.calc(p, 0, c.Played, false).buchholz(i, 0, 0) // half-points
	boards := max(e.tm.boards, 1)
	// divisor = floor(W·n / boards) for match points first (W in points), or
	// floor(n·boards / W) for game points first.
	divisor := m.n * e.tm.points.Win / (2 * boards)
	if p == 'G' {
		divisor = 2 * m.n * boards / max(e.tm.points.Win, 1)
	}
	divisor = max(divisor, 1)
	secondary := e.model(e.secondary()).score[i]
	// hundredths of secondary/2 + bh/(2·divisor)
	return scaled(roundDiv(100*(secondary*divisor+bh), 2*divisor), 100)
}

// boardPoints are team i's game points by board, all rounds summed.
func (e *teamEngine) boardPoints(i int) []int {
	if e.bp == nil {
		e.bp = make([][]int, len(e.tm.rounds))
		for k, row := range e.tm.rounds {
			e.bp[k] = make([]int, e.tm.boards)
			for _, mt := range row {
				for b, p := range mt.Boards {
					e.bp[k][b] += p
				}
			}
		}
	}
	return e.bp[i]
}

// ede is the extended direct encounter: direct encounter in the primary score,
// then in the secondary, on the blocks still tied, again and again until neither
// splits one.
func (e *teamEngine) ede(g []int, rr bool) [][]int {
	for _, score := range []byte{e.primary(), e.secondary()} {
		if blocks := deBlocks(e.model(score), rr, g, nil); len(blocks) > 1 {
			var out [][]int
			for _, b := range blocks {
				out = append(out, e.ede(b, rr)...)
			}
			return out
		}
	}
	return [][]int{g}
}

// lexBlocks splits g by key(board points, b) for b = from, from+1, … to−1, best
// first: each step splits only the blocks the steps before left tied.
func (e *teamEngine) lexBlocks(g []int, from, to int, key func(bp []int, b int) int) [][]int {
	if len(g) < 2 || from >= to {
		return [][]int{g}
	}
	sorted := slices.Clone(g)
	slices.SortStableFunc(sorted, func(x, y int) int { return cmp.Compare(key(e.boardPoints(y), from), key(e.boardPoints(x), from)) })
	var out [][]int
	start := 0
	for j := 1; j <= len(sorted); j++ {
		if j == len(sorted) || key(e.boardPoints(sorted[j]), from) != key(e.boardPoints(sorted[start]), from) {
			out = append(out, e.lexBlocks(sorted[start:j], from+1, to, key)...)
			start = j
		}
	}
	return out
}

// places sets the value of code k of the blocks' members to their place within
// the tie group (1 = best), or 0 when the code left the group tied, and returns
// the blocks.
func (e *teamEngine) places(k int, blocks [][]int) [][]int {
	place := 1
	for _, b := range blocks {
		for _, i := range b {
			v := 0
			if len(blocks) > 1 {
				v = place
			}
			e.vals[i*len(e.codes)+k] = intValue(v)
		}
		place += len(b)
	}
	return blocks
}

// rank orders the teams by the primary score, then each tie group by each code in
// turn, and returns the order and the ends of its tie groups.
func (e *teamEngine) rank() (order, ends []int) {
	m := e.model(e.primary())
	nt := len(e.tt.Teams)
	order = make([]int, nt)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(m.score[b], m.score[a]); c != 0 {
			return c
		}
		return cmp.Compare(e.tt.Teams[a].Number, e.tt.Teams[b].Number)
	})
	ends = appendEnds(nil, order, 0, func(i int) Value { return intValue(m.score[i]) })
	nc := len(e.codes)
	for k, c := range e.codes {
		d := e.defs[k]
		var next []int
		start := 0
		for _, end := range ends {
			g := order[start:end]
			switch {
			case len(g) < 2:
				if d.group != nil {
					e.vals[g[0]*nc+k] = intValue(0) // no tie to break
				}
				next = append(next, end)
			case d.group != nil:
				for _, b := range d.group(e, c, k, slices.Clone(g)) {
					slices.SortFunc(b, func(x, y int) int { return cmp.Compare(e.tt.Teams[x].Number, e.tt.Teams[y].Number) })
					start += copy(order[start:], b)
					next = append(next, start)
				}
			default:
				slices.SortStableFunc(g, func(x, y int) int {
					if d.asc {
						x, y = y, x
					}
					return compareValues(e.vals[x*nc+k], e.vals[y*nc+k])
				})
				next = appendEnds(next, g, start, func(i int) Value { return e.vals[i*nc+k] })
			}
			start = end
		}
		ends = next
	}
	return order, ends
}
