package smallsort

import (
	"slices"
	"testing"
)

// TestSort: both of Sort's ways sort, at and around the switch.
func TestSort(t *testing.T) {
	for _, n := range []int{0, 1, 2, 30, 64, 65, 300} {
		s := make([]int32, n)
		for i := range s {
			s[i] = int32((i * 7919) % 1009)
		}
		Sort(s)
		if !slices.IsSorted(s) {
			t.Errorf("%d elements: not sorted: %v", n, s)
		}
	}
}
