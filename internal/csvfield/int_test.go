package csvfield

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestAppendIntLikeStrconv: every digit count, both signs, the extremes and
// random numbers, appended to empty, short and roomy slices.
func TestAppendIntLikeStrconv(t *testing.T) {
	ns := []int64{0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1234, 99999, 100000, 199980,
		math.MaxInt32, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for p := int64(1); p > 0 && p <= math.MaxInt64/10; p *= 10 {
		ns = append(ns, p-1, p, p+1)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		ns = append(ns, rng.Int64()>>rng.IntN(63))
	}
	for _, n := range ns {
		for _, v := range []int64{n, -n} {
			for _, prefix := range [][]byte{nil, []byte("ab,"), make([]byte, 3, 64)} {
				want := strconv.AppendInt(append([]byte(nil), prefix...), v, 10)
				if got := AppendInt(prefix, v); string(got) != string(want) {
					t.Fatalf("AppendInt(%q, %d) = %q, want %q", prefix, v, got, want)
				}
			}
		}
	}
}

func BenchmarkAppendInt(b *testing.B) {
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = buf[:0]
		for _, n := range []int64{1, 15, 2417, -12, 199980, 1000042} {
			buf = AppendInt(buf, n)
		}
	}
}

func BenchmarkStrconvAppendInt(b *testing.B) {
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = buf[:0]
		for _, n := range []int64{1, 15, 2417, -12, 199980, 1000042} {
			buf = strconv.AppendInt(buf, n, 10)
		}
	}
}
