package tiebreak

// codeDef is one tiebreak code of the catalogue: the modifiers it takes and
// how its values are computed. A new code is one entry here, its computation,
// and its rule in docs/tiebreaks.md.
type codeDef struct {
	mods string // the modifiers it accepts: c = /Cn, m = /Mn, l = /L±n (/P goes everywhere)
	// column, when set, computes the code for every player at once (column k).
	column func(e *Engine, c Code, k int)
	// value, when set, computes the code for player i.
	value func(e *Engine, c Code, i int) (Value, error)
	// group, when set, computes the code while ranking, for the tie group g
	// it has to break (from place start), and appends the ends of the groups
	// it splits g into (DE).
	group func(e *Engine, ends, g []int, start, k int, c Code) []int
}

// codeTable is the catalogue, by base acronym.
var codeTable = map[string]codeDef{
	"BH":  {mods: "cm", column: scoreColumn},
	"FB":  {mods: "cm", column: scoreColumn},
	"SB":  {mods: "cm", column: scoreColumn},
	"AOB": {value: aobValue},
	"KS": {mods: "l", value: func(e *Engine, c Code, i int) (Value, error) {
		return scaled(e.calc(e.policy, e.m.rr || c.Played, false).koya(i, c.Limit), 2), nil
	}},
	"PS": {mods: "c", value: func(e *Engine, c Code, i int) (Value, error) {
		return scaled(progressive(e.m.slots[i], c.Cut), 2), nil
	}},
	"DE":  {group: (*Engine).directEncounter},
	"WIN": {value: countValue(func(win, won, bpg, bwg, rep int) int { return win })},
	"WON": {value: countValue(func(win, won, bpg, bwg, rep int) int { return won })},
	"BPG": {value: countValue(func(win, won, bpg, bwg, rep int) int { return bpg })},
	"BWG": {value: countValue(func(win, won, bpg, bwg, rep int) int { return bwg })},
	"REP": {value: countValue(func(win, won, bpg, bwg, rep int) int { return rep })},
	"ARO": {mods: "cm", value: func(e *Engine, c Code, i int) (Value, error) {
		return e.rcalc(e.m.otb || c.Played).aro(i, c.Cut, c.Median), nil
	}},
	"TPR":    {value: func(e *Engine, c Code, i int) (Value, error) { return e.rcalc(e.m.otb || c.Played).tprOf(i), nil }},
	"PTP":    {value: func(e *Engine, c Code, i int) (Value, error) { return e.rcalc(e.m.otb || c.Played).ptpOf(i), nil }},
	"APRO":   {value: func(e *Engine, c Code, i int) (Value, error) { return e.rcalc(e.m.otb || c.Played).apro(i), nil }},
	"APPO":   {value: func(e *Engine, c Code, i int) (Value, error) { return e.rcalc(e.m.otb || c.Played).appo(i), nil }},
	"LJV":    {mods: "cm", value: ljvValue},
	"TURCAS": {value: turcasValue},
	"SPREAD": {value: func(e *Engine, c Code, i int) (Value, error) {
		_, rel, _ := scrabbleTotals(e.m.slots[i], e.opt.Scrabble.byeSpread())
		return intValue(rel), nil
	}},
	"SCORE": {value: func(e *Engine, c Code, i int) (Value, error) {
		abs, _, _ := scrabbleTotals(e.m.slots[i], e.opt.Scrabble.byeSpread())
		return intValue(abs), nil
	}},
}

// scoreColumn computes BH, FB or SB for every player, with one calc for all.
func scoreColumn(e *Engine, c Code, k int) {
	sb := c.Base == "SB"
	calc := e.calc(e.policy, e.m.rr || c.Played, c.Base == "FB")
	nc := len(e.parsed)
	// The default codes' cases from the totals, without a call per player.
	switch {
	case c.Cut == 0 && c.Median == 0:
		calc.fillItems()
		vals := e.vals[k:]
		for i, t := range calc.totals {
			if sb {
				vals[i*nc] = scaled(t.contrib, 4)
			} else {
				vals[i*nc] = scaled(t.val, 2)
			}
		}
		return
	case c.Cut == 1 && c.Median == 0 && !sb:
		calc.fillItems()
		vals := e.vals[k:]
		for i, t := range calc.totals {
			if calc.off[i+1] > calc.off[i] {
				vals[i*nc] = scaled(t.val-t.cutVal, 2)
			} else {
				vals[i*nc] = scaled(calc.buchholz(i, 1, 0), 2)
			}
		}
		return
	}
	for i := range e.m.slots {
		if sb {
			e.vals[i*nc+k] = scaled(calc.sonneborn(i, c.Cut, c.Median), 4)
		} else {
			e.vals[i*nc+k] = scaled(calc.buchholz(i, c.Cut, c.Median), 2)
		}
	}
}

func aobValue(e *Engine, c Code, i int) (Value, error) {
	h, ok := e.calc(e.policy, e.m.rr || c.Played, false).aob(i, e.m.otb || c.Played)
	if !ok {
		return Value{}, nil
	}
	return scaled(h, 100), nil
}

// countValue is a code that counts games of one kind (forfeits count as played
// for the codes defined over the board only with the option or /P).
func countValue(pick func(win, won, bpg, bwg, rep int) int) func(e *Engine, c Code, i int) (Value, error) {
	return func(e *Engine, c Code, i int) (Value, error) {
		return intValue(pick(counts(e.m.slots[i], e.m.otb || c.Played, e.m.win))), nil
	}
}

func ljvValue(e *Engine, c Code, i int) (Value, error) {
	if e.ljvOpt == nil {
		o := e.opt.LJV.withDefaults()
		e.ljvOpt = &o
		e.mult = e.calc(Fide2009, false, false).adj
	}
	return scaled(ljv(&e.m, *e.ljvOpt, e.mult, i, c.Cut, c.Median), 10), nil
}

func turcasValue(e *Engine, c Code, i int) (Value, error) {
	if e.coef == nil {
		co, err := coefficients(e.m.t, e.opt.Scrabble)
		if err != nil {
			return Value{}, err
		}
		e.coef = &co
	}
	bh := e.calc(Fide2009, e.m.rr || c.Played, false).buchholz(i, 0, 0)
	abs, rel, zac := scrabbleTotals(e.m.slots[i], e.opt.Scrabble.byeSpread())
	return Value{V: turcas(*e.coef, e.m.n, bh, abs, rel, zac), OK: true}, nil
}
