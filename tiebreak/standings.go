package tiebreak

import (
	"cmp"
	"fmt"
	"slices"
)

// Value is one tiebreak value. OK is false when the value is undefined (for example
// a rating-based tiebreak of an unrated player); undefined values print empty and rank
// below every defined value.
type Value struct {
	V  float64
	OK bool
}

func intValue(v int) Value { return Value{V: float64(v), OK: true} }

// scaled returns v/den as a Value.
func scaled(v, den int) Value { return Value{V: float64(v) / float64(den), OK: true} }

// Row is one line of the final standings.
type Row struct {
	Rank   int // equal for players tied on points and every tiebreak
	Index  int // index into Tournament.Players
	Player Player
	Points float64 // by the point system: wins + ½ draws by default (chess points; Scrabble wins)
	Values []Value // one per requested code, in order
}

// Standings ranks the players of t by points, then by the tiebreak codes in order,
// and returns one row per player, best first. Players tied on everything share a rank
// and are listed by starting number. t is not modified; concurrent calls are safe.
// A job that ranks many tournaments reuses memory with an Engine.
func Standings(t *Tournament, codes []string, opt Options) ([]Row, error) {
	var e Engine
	return e.Standings(t, codes, opt)
}

// Engine computes standings as Standings does and prints them as WriteCSV does,
// keeping its memory from one tournament to the next: a batch job keeps one Engine
// per worker goroutine. The zero value is ready to use. An Engine is for one
// goroutine at a time, and what its methods return (the rows with their Values, the
// CSV bytes) is valid only until its next call of the same method.
type Engine struct {
	codes  []string // the codes parsed last, their parsed form and catalogue entries
	parsed []Code
	defs   []codeDef

	m      model
	opt    Options
	policy Policy
	calcs  []*calc // calcs[:ncalc] belong to the current tournament
	ncalc  int
	rcalcs [2]*rcalc // by rr; nil until needed
	mult   []int     // LJV multipliers
	ljvOpt *LJVOptions
	coef   *Coefficients

	vals  []Value // player i's values at vals[i*len(codes):]
	order []int   // players, best first
	ends  []int   // tie groups: order[ends[k-1]:ends[k]]
	next  []int
	pos   []int // counting sort positions, by score
	de    []int // DE points of the current group's members, by player
	rows  []Row
	csv   []byte
}

// Standings is Standings (the function) with e's memory. The rows are valid until
// e's next Standings call.
func (e *Engine) Standings(t *Tournament, codes []string, opt Options) ([]Row, error) {
	if err := e.parse(codes); err != nil {
		return nil, err
	}
	if err := e.m.reset(t, opt); err != nil {
		return nil, fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	policy := PolicyAt(t.Start)
	if opt.Unplayed != "" {
		var err error
		if policy, err = ParsePolicy(string(opt.Unplayed)); err != nil {
			return nil, err
		}
	}
	e.opt, e.policy = opt, policy
	e.ncalc, e.rcalcs, e.mult, e.ljvOpt, e.coef = 0, [2]*rcalc{}, nil, nil, nil

	np, nc := len(t.Players), len(e.parsed)
	e.vals = resize(e.vals, np*nc)
	clear(e.vals)
	for k, c := range e.parsed {
		d := e.defs[k]
		switch {
		case d.column != nil:
			d.column(e, c, k)
		case d.value != nil:
			for i := 0; i < np; i++ {
				v, err := d.value(e, c, i)
				if err != nil {
					return nil, fmt.Errorf("tournament %d: %s: %w", t.ID, c.Name, err)
				}
				e.vals[i*nc+k] = v
			}
		} // else computed while ranking, within the tie groups (rank)
	}
	e.rank()

	e.rows = slices.Grow(e.rows[:0], np)[:np]
	rows, score, start := e.rows, e.m.score, 0
	for _, end := range e.ends {
		for k, i := range e.order[start:end] {
			// Field by field: a Row literal is built on the stack, then copied.
			r := &rows[start+k]
			r.Rank, r.Index, r.Player, r.Points = start+1, i, t.Players[i], float64(score[i])/2
			r.Values = e.vals[i*nc : (i+1)*nc : (i+1)*nc]
		}
		start = end
	}
	return rows, nil
}

// CSV returns the standings as WriteCSV writes them. The bytes are valid until e's
// next CSV call.
func (e *Engine) CSV(codes []string, rows []Row) []byte {
	e.csv = AppendCSV(e.csv[:0], codes, rows)
	return e.csv
}

// parse parses the codes into e.parsed, unless they are the codes of the last call.
func (e *Engine) parse(codes []string) error {
	if slices.Equal(codes, e.codes) && len(e.parsed) == len(codes) {
		return nil
	}
	e.codes, e.parsed, e.defs = e.codes[:0], e.parsed[:0], e.defs[:0]
	for _, s := range codes {
		c, err := ParseCode(s)
		if err != nil {
			e.parsed, e.defs = e.parsed[:0], e.defs[:0]
			return err
		}
		e.parsed, e.defs = append(e.parsed, c), append(e.defs, codeTable[c.Base])
	}
	e.codes = append(e.codes, codes...)
	return nil
}

// val returns player i's value of code k.
func (e *Engine) val(i, k int) Value { return e.vals[i*len(e.parsed)+k] }

// rank orders the players into e.order and cuts it into tie groups (e.ends): by
// points, then each tie group by each code in turn.
func (e *Engine) rank() {
	e.orderByScore()
	for k, c := range e.parsed {
		if len(e.ends) == len(e.order) {
			return // no ties left: the later codes (DE) have no group to break
		}
		next := e.next[:0]
		start := 0
		group := e.defs[k].group
		for _, end := range e.ends {
			if end-start < 2 {
				next = append(next, end)
				start = end
				continue
			}
			g := e.order[start:end]
			switch {
			case group != nil:
				next = group(e, next, g, start, k, c)
			default:
				e.sortGroup(g, k)
				next = e.appendGroupEnds(next, g, start, k)
			}
			start = end
		}
		e.ends, e.next = next, e.ends
	}
}

// sortGroup sorts the tie group g stably by code k, best first: by insertion when
// it is small, as tie groups mostly are.
func (e *Engine) sortGroup(g []int, k int) {
	if len(g) > 16 {
		slices.SortStableFunc(g, func(x, y int) int { return compareValues(e.val(x, k), e.val(y, k)) })
		return
	}
	for a := 1; a < len(g); a++ {
		for b := a; b > 0 && better(e.val(g[b], k), e.val(g[b-1], k)); b-- {
			g[b], g[b-1] = g[b-1], g[b]
		}
	}
}

// appendGroupEnds cuts the tie group g, sorted by code k and starting at offset
// start of e.order, where the value changes, and appends the end offsets.
func (e *Engine) appendGroupEnds(ends, g []int, start, k int) []int {
	for j := 1; j < len(g); j++ {
		if e.val(g[j], k) != e.val(g[j-1], k) {
			ends = append(ends, start+j)
		}
	}
	return append(ends, start+len(g))
}

// orderByScore puts the players into e.order by score, best first, ties by starting
// number and index, and cuts it into score groups (e.ends). When the starting
// numbers ascend with the index, as they do in the archive, that order is a
// counting sort of the index order by score.
func (e *Engine) orderByScore() {
	t, score := e.m.t, e.m.score
	e.order = resize(e.order, len(t.Players))
	lo, hi := 0, 0
	for _, s := range score {
		lo, hi = min(lo, s), max(hi, s)
	}
	if lo < 0 || !startNosAscend(t.Players) {
		e.sortByScore()
		return
	}
	// pos[hi-s] is where the next player with score s goes; pos[hi-s+1] ends its group.
	pos := resize(e.pos, hi+2)
	clear(pos)
	for _, s := range score {
		pos[hi-s+1]++
	}
	e.ends = e.ends[:0]
	for k := 1; k < len(pos); k++ {
		if pos[k] > 0 {
			e.ends = append(e.ends, pos[k-1]+pos[k])
		}
		pos[k] += pos[k-1]
	}
	for i, s := range score {
		e.order[pos[hi-s]] = i
		pos[hi-s]++
	}
	e.pos = pos
}

// sortByScore is orderByScore for any starting numbers.
func (e *Engine) sortByScore() {
	t, score := e.m.t, e.m.score
	for i := range e.order {
		e.order[i] = i
	}
	slices.SortFunc(e.order, func(a, b int) int {
		if score[a] != score[b] {
			return cmp.Compare(score[b], score[a])
		}
		if sa, sb := t.Players[a].StartNo, t.Players[b].StartNo; sa != sb {
			return cmp.Compare(sa, sb)
		}
		return cmp.Compare(a, b)
	})
	e.ends = appendEnds(e.ends[:0], e.order, 0, func(i int) Value { return intValue(score[i]) })
}

func startNosAscend(ps []Player) bool {
	for k := 1; k < len(ps); k++ {
		if ps[k].StartNo < ps[k-1].StartNo {
			return false
		}
	}
	return true
}

// directEncounter orders the tie group g, which starts at offset start of e.order,
// by DE (code k), sets the members' DE values and appends the ends of its blocks.
func (e *Engine) directEncounter(ends, g []int, start, k int, c Code) []int {
	t := e.m.t
	e.de = resize(e.de, len(t.Players))
	blocks := deBlocks(&e.m, e.m.rr || c.Played, g, e.de)
	for _, i := range g {
		e.vals[i*len(e.parsed)+k] = scaled(e.de[i], 2)
	}
	for _, b := range blocks { // copies of g's members: written back over g
		slices.SortStableFunc(b, func(x, y int) int { return cmp.Compare(t.Players[x].StartNo, t.Players[y].StartNo) })
		start += copy(e.order[start:], b)
		ends = append(ends, start)
	}
	return ends
}

// better orders values descending, undefined last.
func better(a, b Value) bool {
	if a.OK != b.OK {
		return a.OK
	}
	return a.V > b.V
}

// compareValues is better as a comparison for slices.SortStableFunc.
func compareValues(a, b Value) int {
	switch {
	case better(a, b):
		return -1
	case better(b, a):
		return 1
	}
	return 0
}

// appendEnds cuts a sorted list, which starts at offset start of the whole order,
// where key changes, and appends the end offsets of the pieces.
func appendEnds(ends, order []int, start int, key func(int) Value) []int {
	from := 0
	for k := 1; k <= len(order); k++ {
		if k == len(order) || key(order[k]) != key(order[from]) {
			ends = append(ends, start+k)
			from = k
		}
	}
	return ends
}

type calcKey struct {
	policy Policy
	rr     bool
	fore   bool
}

func (e *Engine) calc(policy Policy, rr, fore bool) *calc {
	k := calcKey{policy, rr, fore}
	for _, c := range e.calcs[:e.ncalc] {
		if c.key == k {
			return c
		}
	}
	if e.ncalc == len(e.calcs) {
		e.calcs = append(e.calcs, &calc{})
	}
	c := e.calcs[e.ncalc]
	e.ncalc++
	if fore {
		slots, score := foreSlots(&e.m)
		fm := e.m
		fm.slots, fm.score = slots, score
		c.reset(&fm, policy, rr, score)
	} else {
		c.reset(&e.m, policy, rr, e.m.score)
	}
	c.key = k
	return c
}

func (e *Engine) rcalc(otb bool) *rcalc {
	k := 0
	if otb {
		k = 1
	}
	if e.rcalcs[k] == nil {
		e.rcalcs[k] = newRCalc(&e.m, otb, e.opt.UnratedRating)
	}
	return e.rcalcs[k]
}
