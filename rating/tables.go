package rating

import "github.com/ratelist/ratelist/rating/tables"

// PD returns the expected score, in hundredths, of a player whose rating exceeds
// the opponent's (or the opponents' average) by d points: Table 2's pd_high for
// d ≥ 0 and pd_low for d < 0. Callers apply any cap before calling.
func PD(d int) int32 { return int32(tables.PD(d)) }

// DP returns Table 1's rating difference for a fractional score p given in
// hundredths (0…100); ok is false where the table is undefined (0% and 100%).
func DP(p int) (dp int32, ok bool) {
	v, ok := tables.DP(p)
	return int32(v), ok
}

// Change returns K × (W − We) in hundredths of a point (exact) and rounded half
// away from zero to a whole number (docs/school-elo.md §2, FIDE's the same). w2 is the score in
// half points, we the expected score in hundredths.
func Change(k int32, w2 int32, we int64) (hundredths int64, rounded int32) {
	h := int64(k) * (int64(w2)*50 - we)
	return h, int32(RoundDiv(h, 100))
}

// RoundDiv returns n/d rounded half away from zero (d > 0). The sign is
// taken off and put back without a branch: changes are as often negative as
// positive, which a branch mispredicts half the time.
func RoundDiv(n, d int64) int64 {
	s := n >> 63 // 0 or -1
	q := ((n ^ s) - s + d/2) / d
	return (q ^ s) - s
}

// RoundHalfUp returns n/d rounded half up, toward +∞ at .5 (d > 0).
func RoundHalfUp(n, d int64) int64 {
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
