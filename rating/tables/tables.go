// Package tables holds FIDE's two conversion tables (rating regulations B.02
// 8.1.1, p → dp, and 8.1.2, D → PD; the school by-law prints the same two) as
// the data files dp.tsv and pd.tsv. This is their one copy: the rating rules,
// the tiebreaks and the test oracles all read it. Values are in hundredths, so
// no float enters the arithmetic.
package tables

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed dp.tsv
var dpTSV string

//go:embed pd.tsv
var pdTSV string

// PDRow is one row of table 8.1.2: a player rated Min to Max points above the
// opponent expects High hundredths of a point, the opponent Low. The last
// row has no upper end (Max = -1).
type PDRow struct {
	Min, Max  int
	High, Low int
}

type parsed struct {
	dp      [101]int // by p in hundredths
	dpKnown [101]bool
	pdRows  []PDRow
	pdHigh  []int // High by |D| from 0 to the last row's Min
}

var t = mustParse()

func mustParse() *parsed {
	p, err := parse(dpTSV, pdTSV)
	if err != nil {
		panic(fmt.Sprintf("embedded FIDE tables: %v", err)) // a build defect, not user input
	}
	return p
}

// DP is table 8.1.1: the rating difference dp for a fractional score p in
// hundredths (0 to 100). ok is false where the table prints none (p = 0.00 and
// 1.00); each rule set says what it uses there.
func DP(p int) (dp int, ok bool) {
	if p < 0 || p > 100 || !t.dpKnown[p] {
		return 0, false
	}
	return t.dp[p], true
}

// PD is table 8.1.2: the expected score, in hundredths, of a player rated d
// points above the opponent (d < 0: below). Callers apply any cap first.
func PD(d int) int {
	// Without a branch on the sign: differences are as often negative as
	// positive, which a branch mispredicts half the time.
	s := d >> 63 // 0 or -1
	v := t.pdHigh[min((d^s)-s, len(t.pdHigh)-1)]
	return v + s&(100-2*v) // 100 - v below the opponent
}

// PDRows returns the rows of table 8.1.2 in order.
func PDRows() []PDRow {
	return append([]PDRow(nil), t.pdRows...)
}

func parse(dp, pd string) (*parsed, error) {
	t := &parsed{}
	for i, line := range strings.Split(strings.TrimSpace(dp), "\n")[1:] {
		f := strings.Split(strings.TrimSpace(line), "\t")
		if len(f) != 2 {
			return nil, fmt.Errorf("dp.tsv line %d: want 2 fields", i+2)
		}
		p, err := hundredths(f[0])
		if err != nil || p < 0 || p > 100 || p != i {
			return nil, fmt.Errorf("dp.tsv line %d: bad p %q", i+2, f[0])
		}
		if f[1] == "?" {
			continue
		}
		if t.dp[p], err = strconv.Atoi(f[1]); err != nil {
			return nil, fmt.Errorf("dp.tsv line %d: bad dp %q", i+2, f[1])
		}
		t.dpKnown[p] = true
	}
	lines := strings.Split(strings.TrimSpace(pd), "\n")[1:]
	for i, line := range lines {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("pd.tsv line %d: want 4 fields", i+2)
		}
		r := PDRow{Max: -1}
		var err error
		if r.Min, err = strconv.Atoi(f[0]); err != nil || r.Min != len(t.pdHigh) {
			return nil, fmt.Errorf("pd.tsv line %d: ranges not contiguous at %q", i+2, f[0])
		}
		last := i == len(lines)-1
		if f[1] != "" || !last {
			if r.Max, err = strconv.Atoi(f[1]); err != nil || r.Max < r.Min {
				return nil, fmt.Errorf("pd.tsv line %d: bad d_max %q", i+2, f[1])
			}
		}
		if r.High, err = hundredths(f[2]); err != nil {
			return nil, fmt.Errorf("pd.tsv line %d: bad pd_high %q", i+2, f[2])
		}
		if r.Low, err = hundredths(f[3]); err != nil || r.High+r.Low != 100 {
			return nil, fmt.Errorf("pd.tsv line %d: pd_high + pd_low != 1", i+2)
		}
		t.pdRows = append(t.pdRows, r)
		for d := r.Min; d <= max(r.Min, r.Max); d++ {
			t.pdHigh = append(t.pdHigh, r.High)
		}
	}
	if len(t.pdRows) == 0 || t.pdRows[len(t.pdRows)-1].Max != -1 {
		return nil, fmt.Errorf("pd.tsv: the last row must have no d_max")
	}
	return t, nil
}

// hundredths parses "0.36" or "1.0" as 36 or 100 exactly.
func hundredths(s string) (int, error) {
	whole, frac, _ := strings.Cut(s, ".")
	w, err := strconv.Atoi(whole)
	if err != nil || len(frac) > 2 {
		return 0, fmt.Errorf("bad decimal %q", s)
	}
	f := 0
	if frac != "" {
		if f, err = strconv.Atoi((frac + "0")[:2]); err != nil {
			return 0, fmt.Errorf("bad decimal %q", s)
		}
	}
	return w*100 + f, nil
}
