package rating

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

// FIDE's conversion tables, as printed in the school by-law (school-elo.md §2) and
// identical to FIDE B.02 8.1.1/8.1.2. They are data, embedded from rating/tables.

//go:embed tables/dp.tsv
var dpTSV string

//go:embed tables/pd.tsv
var pdTSV string

// Tables holds Table 1 (p → dp) and Table 2 (D → expected score), both in
// integer hundredths so that no float ever enters the rating arithmetic.
type Tables struct {
	dp      [101]int32 // dp[p in hundredths]; dp[0], dp[100] undefined
	dpKnown [101]bool
	// pdHigh[d] for d = 0 … len-1 is the higher-rated player's expected score in
	// hundredths; D beyond the table uses the last entry.
	pdHigh []int32
}

var tables = mustParseTables()

func mustParseTables() *Tables {
	t, err := parseTables(dpTSV, pdTSV)
	if err != nil {
		panic(fmt.Sprintf("embedded rating tables: %v", err)) // a build defect, not user input
	}
	return t
}

func parseTables(dp, pd string) (*Tables, error) {
	t := &Tables{}
	for i, line := range strings.Split(strings.TrimSpace(dp), "\n")[1:] {
		f := strings.Split(strings.TrimSpace(line), "\t")
		if len(f) != 2 {
			return nil, fmt.Errorf("dp.tsv line %d: want 2 fields", i+2)
		}
		p, err := hundredths(f[0])
		if err != nil || p < 0 || p > 100 {
			return nil, fmt.Errorf("dp.tsv line %d: bad p %q", i+2, f[0])
		}
		if f[1] == "?" {
			continue
		}
		v, err := strconv.Atoi(f[1])
		if err != nil {
			return nil, fmt.Errorf("dp.tsv line %d: bad dp %q", i+2, f[1])
		}
		t.dp[p], t.dpKnown[p] = int32(v), true
	}
	for i, line := range strings.Split(strings.TrimSpace(pd), "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("pd.tsv line %d: want 4 fields", i+2)
		}
		lo, err := strconv.Atoi(f[0])
		if err != nil || lo != len(t.pdHigh) {
			return nil, fmt.Errorf("pd.tsv line %d: ranges not contiguous at %q", i+2, f[0])
		}
		hi := lo
		if f[1] != "" {
			if hi, err = strconv.Atoi(f[1]); err != nil || hi < lo {
				return nil, fmt.Errorf("pd.tsv line %d: bad d_max %q", i+2, f[1])
			}
		}
		h, err := hundredths(f[2])
		if err != nil {
			return nil, fmt.Errorf("pd.tsv line %d: bad pd_high %q", i+2, f[2])
		}
		l, err := hundredths(f[3])
		if err != nil || h+l != 100 {
			return nil, fmt.Errorf("pd.tsv line %d: pd_high + pd_low != 1", i+2)
		}
		for d := lo; d <= hi; d++ {
			t.pdHigh = append(t.pdHigh, int32(h))
		}
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

// PD returns the expected score, in hundredths, of a player whose rating exceeds
// the opponent's (or the opponents' average) by d points: Table 2's pd_high for
// d ≥ 0 and pd_low for d < 0. Callers apply any cap before calling.
func PD(d int) int32 {
	a := d
	if a < 0 {
		a = -a
	}
	if a >= len(tables.pdHigh) {
		a = len(tables.pdHigh) - 1
	}
	h := tables.pdHigh[a]
	if d < 0 {
		return 100 - h
	}
	return h
}

// DP returns Table 1's rating difference for a fractional score p given in
// hundredths (0…100); ok is false where the table is undefined (0% and 100%).
func DP(p int) (dp int32, ok bool) {
	if p < 0 || p > 100 || !tables.dpKnown[p] {
		return 0, false
	}
	return tables.dp[p], true
}

// roundDiv returns n/d rounded half away from zero (d > 0).
func roundDiv(n, d int64) int64 {
	if n >= 0 {
		return (n + d/2) / d
	}
	return -((-n + d/2) / d)
}

// roundHalfUp returns n/d rounded half up, toward +∞ at .5 (d > 0).
func roundHalfUp(n, d int64) int64 {
	q := n / d
	r := n % d
	if r < 0 {
		q--
		r += d
	}
	if 2*r >= d {
		q++
	}
	return q
}
