package tiebreak

import (
	"fmt"
	"sort"
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
	Points float64 // wins + ½ draws (chess points; Scrabble wins)
	Values []Value // one per requested code, in order
}

// Standings ranks the players of t by points, then by the tiebreak codes in order,
// and returns one row per player, best first. Players tied on everything share a rank
// and are listed by starting number. t is not modified; concurrent calls are safe.
func Standings(t *Tournament, codes []string, opt Options) ([]Row, error) {
	parsed := make([]Code, len(codes))
	for k, s := range codes {
		c, err := ParseCode(s)
		if err != nil {
			return nil, err
		}
		parsed[k] = c
	}
	m, err := newModel(t, opt)
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	policy := opt.Unplayed
	if policy == "" {
		policy = PolicyAt(t.Start)
	}
	if _, err := ParsePolicy(string(policy)); err != nil {
		return nil, err
	}
	m.policy = policy
	e := &engine{m: m, opt: opt, policy: policy, calcs: map[calcKey]*calc{}, rcalcs: map[bool]*rcalc{}}
	np := len(t.Players)
	vals := make([][]Value, np)
	valsAll := make([]Value, np*len(parsed))
	for i := range vals {
		vals[i] = valsAll[i*len(parsed) : (i+1)*len(parsed) : (i+1)*len(parsed)]
	}
	for k, c := range parsed {
		if c.Base == "DE" {
			continue // depends on the tie groups; computed while ranking
		}
		for i := 0; i < np; i++ {
			v, err := e.value(c, i)
			if err != nil {
				return nil, fmt.Errorf("tournament %d: %s: %w", t.ID, c.Name, err)
			}
			vals[i][k] = v
		}
	}

	// Rank: split tie groups by points, then by each code in turn.
	order := make([]int, np)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		pa, pb := t.Players[order[a]], t.Players[order[b]]
		if m.score[order[a]] != m.score[order[b]] {
			return m.score[order[a]] > m.score[order[b]]
		}
		if pa.StartNo != pb.StartNo {
			return pa.StartNo < pb.StartNo
		}
		return order[a] < order[b]
	})
	groups := splitGroups(order, func(i int) Value { return intValue(m.score[i]) })
	for k, c := range parsed {
		var next [][]int
		for _, g := range groups {
			if len(g) < 2 {
				next = append(next, g)
				continue
			}
			if c.Base == "DE" {
				pts := map[int]int{}
				blocks := deBlocks(m, m.rr || c.Played, g, pts)
				for _, i := range g {
					vals[i][k] = scaled(pts[i], 2)
				}
				for _, b := range blocks {
					sort.SliceStable(b, func(x, y int) bool { return t.Players[b[x]].StartNo < t.Players[b[y]].StartNo })
					next = append(next, b)
				}
				continue
			}
			sort.SliceStable(g, func(x, y int) bool { return better(vals[g[x]][k], vals[g[y]][k]) })
			next = append(next, splitGroups(g, func(i int) Value { return vals[i][k] })...)
		}
		groups = next
	}
	rows := make([]Row, 0, np)
	rank := 1
	for _, g := range groups {
		for _, i := range g {
			rows = append(rows, Row{Rank: rank, Index: i, Player: t.Players[i], Points: float64(m.score[i]) / 2, Values: vals[i]})
		}
		rank += len(g)
	}
	return rows, nil
}

// better orders values descending, undefined last.
func better(a, b Value) bool {
	if a.OK != b.OK {
		return a.OK
	}
	return a.V > b.V
}

// splitGroups cuts a sorted list where key changes.
func splitGroups(order []int, key func(int) Value) [][]int {
	var out [][]int
	start := 0
	for k := 1; k <= len(order); k++ {
		if k == len(order) || key(order[k]) != key(order[start]) {
			out = append(out, order[start:k])
			start = k
		}
	}
	return out
}

type calcKey struct {
	policy Policy
	rr     bool
	fore   bool
}

// engine caches the per-tournament intermediate results of one Standings call.
type engine struct {
	m      *model
	opt    Options
	policy Policy
	calcs  map[calcKey]*calc
	rcalcs map[bool]*rcalc
	mult   []int // LJV multipliers
	ljvOpt *LJVOptions
	coef   *Coefficients
}

func (e *engine) calc(policy Policy, rr, fore bool) *calc {
	k := calcKey{policy, rr, fore}
	if c, ok := e.calcs[k]; ok {
		return c
	}
	var c *calc
	if fore {
		slots, score := foreSlots(e.m, rr)
		fm := *e.m
		fm.slots, fm.score = slots, score
		c = newCalc(&fm, policy, rr, score)
	} else {
		c = newCalc(e.m, policy, rr, e.m.score)
	}
	e.calcs[k] = c
	return c
}

func (e *engine) rcalc(rr bool) *rcalc {
	if rc, ok := e.rcalcs[rr]; ok {
		return rc
	}
	rc := newRCalc(e.m, rr, e.opt.UnratedRating)
	e.rcalcs[rr] = rc
	return rc
}

// value computes one code for player i.
func (e *engine) value(c Code, i int) (Value, error) {
	rr := e.m.rr || c.Played
	slots := e.m.slots[i]
	switch c.Base {
	case "BH":
		return scaled(e.calc(e.policy, rr, false).buchholz(i, c.Cut, c.Median), 2), nil
	case "FB":
		return scaled(e.calc(e.policy, rr, true).buchholz(i, c.Cut, c.Median), 2), nil
	case "SB":
		return scaled(e.calc(e.policy, rr, false).sonneborn(i, c.Cut, c.Median), 4), nil
	case "AOB":
		h, ok := e.calc(e.policy, rr, false).aob(i)
		if !ok {
			return Value{}, nil
		}
		return scaled(h, 100), nil
	case "KS":
		return scaled(e.calc(e.policy, rr, false).koya(i, c.Limit), 2), nil
	case "PS":
		return scaled(progressive(slots, c.Cut), 2), nil
	case "WIN", "WON", "BPG", "BWG", "REP":
		win, won, bpg, bwg, rep := counts(slots, rr)
		return intValue(map[string]int{"WIN": win, "WON": won, "BPG": bpg, "BWG": bwg, "REP": rep}[c.Base]), nil
	case "ARO":
		return e.rcalc(rr).aro(i, c.Cut, c.Median), nil
	case "TPR":
		return e.rcalc(rr).tprOf(i), nil
	case "PTP":
		return e.rcalc(rr).ptpOf(i), nil
	case "APRO":
		return e.rcalc(rr).apro(i), nil
	case "APPO":
		return e.rcalc(rr).appo(i), nil
	case "LJV":
		if e.ljvOpt == nil {
			o := e.opt.LJV.withDefaults()
			e.ljvOpt = &o
			e.mult = newCalc(e.m, Fide2009, false, e.m.score).adj
		}
		return scaled(ljv(e.m, *e.ljvOpt, e.mult, i, c.Cut, c.Median), 10), nil
	case "TURCAS":
		if e.coef == nil {
			co, err := coefficients(e.m.t, e.opt.Scrabble)
			if err != nil {
				return Value{}, err
			}
			e.coef = &co
		}
		bh := e.calc(Fide2009, rr, false).buchholz(i, 0, 0)
		abs, rel, zac := scrabbleTotals(slots, e.opt.Scrabble.byeSpread())
		return Value{V: turcas(*e.coef, e.m.n, bh, abs, rel, zac), OK: true}, nil
	case "SPREAD":
		_, rel, _ := scrabbleTotals(slots, e.opt.Scrabble.byeSpread())
		return intValue(rel), nil
	case "SCORE":
		abs, _, _ := scrabbleTotals(slots, e.opt.Scrabble.byeSpread())
		return intValue(abs), nil
	}
	return Value{}, fmt.Errorf("%q: %w", c.Name, ErrUnknownCode)
}
