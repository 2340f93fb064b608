package rating

import (
	"math"
	"testing"
)

func TestTables(t *testing.T) {
	tests := []struct {
		d    int
		want int32
	}{
		{0, 50}, {3, 50}, {4, 51}, {-4, 49}, {100, 64}, {-100, 36}, {350, 89}, {-350, 11},
		{735, 99}, {736, 100}, {5000, 100}, {-736, 0},
	}
	for _, tt := range tests {
		if got := PD(tt.d); got != tt.want {
			t.Errorf("PD(%d) = %d, want %d", tt.d, got, tt.want)
		}
	}
	dps := []struct {
		p    int
		want int32
		ok   bool
	}{{0, 0, false}, {100, 0, false}, {33, -125, true}, {50, 0, true}, {99, 677, true}, {1, -677, true}}
	for _, tt := range dps {
		got, ok := DP(tt.p)
		if got != tt.want || ok != tt.ok {
			t.Errorf("DP(%d) = %d,%v want %d,%v", tt.p, got, ok, tt.want, tt.ok)
		}
	}
	// dp is antisymmetric: dp(1−p) = −dp(p).
	for p := 1; p < 100; p++ {
		a, _ := DP(p)
		b, _ := DP(100 - p)
		if a != -b {
			t.Errorf("dp(%d)=%d, dp(%d)=%d: not antisymmetric", p, a, 100-p, b)
		}
	}
}

// TestRoundDiv: half away from zero, as the branchy form (n ≥ 0: (n+d/2)/d,
// else the negated quotient of −n) gives it, extremes included.
func TestRoundDiv(t *testing.T) {
	want := func(n, d int64) int64 {
		if n >= 0 {
			return (n + d/2) / d
		}
		return -((-n + d/2) / d)
	}
	ns := []int64{0, 1, -1, 49, 50, 51, -49, -50, -51, 149, 150, -150, -151, 1<<62 + 7, -(1 << 62), math.MaxInt64 - 50, math.MinInt64 + 50, math.MinInt64}
	for _, n := range ns {
		for _, d := range []int64{1, 2, 3, 100, 1000, math.MaxInt64} {
			if got := RoundDiv(n, d); got != want(n, d) {
				t.Errorf("RoundDiv(%d, %d) = %d, want %d", n, d, got, want(n, d))
			}
		}
	}
	for h := int64(-100000); h <= 100000; h++ {
		if got := RoundDiv(h, 100); got != want(h, 100) {
			t.Fatalf("RoundDiv(%d, 100) = %d, want %d", h, got, want(h, 100))
		}
	}
}
