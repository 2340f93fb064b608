package csvfield

import (
	"fmt"
	"testing"
)

// TestAppendDigits: the last width digits, zero-padded, as fmt's %0*d prints
// u mod 10^width.
func TestAppendDigits(t *testing.T) {
	for _, u := range []uint64{0, 1, 7, 42, 99, 100, 123456, 999999, 1000000, 18446744073709551615} {
		for width := 1; width <= 15; width++ {
			mod := uint64(1)
			for range width {
				mod *= 10
			}
			want := fmt.Sprintf("x%0*d", width, u%mod)
			if got := string(AppendDigits([]byte("x"), u, width)); got != want {
				t.Fatalf("AppendDigits(%d, %d) = %q, want %q", u, width, got, want)
			}
		}
	}
}
