package main

import "testing"

func TestNextLimit(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct{ limit, live, want int64 }{
		{320 * mib, 100 * mib, 320 * mib}, // room enough: the default stays
		{320 * mib, 160 * mib, 320 * mib},
		{320 * mib, 161 * mib, 384 * mib}, // past half: twice the live heap, in 64 MiB steps
		{320 * mib, 600 * mib, 1216 * mib},
		{1216 * mib, 500 * mib, 1216 * mib}, // never lowered
	} {
		if got := nextLimit(tc.limit, tc.live); got != tc.want {
			t.Errorf("nextLimit(%d MiB, live %d MiB) = %d MiB, want %d MiB", tc.limit/mib, tc.live/mib, got/mib, tc.want/mib)
		}
	}
}
