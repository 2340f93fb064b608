package rating

import "testing"

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
