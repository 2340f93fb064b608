package varbin

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkAppend writes a 200k-player column of ratings (varints), of ids
// (delta varints) and of flags (bits), as a state file holds them.
func BenchmarkAppend(b *testing.B) {
	const n = 200000
	rnd := rand.New(rand.NewPCG(1, 2))
	ratings, ids, flags := make([]int32, n), make([]int64, n), make([]bool, n)
	for i := range n {
		ratings[i], ids[i], flags[i] = 1000+int32(rnd.IntN(1800)), int64(100000+3*i+rnd.IntN(3)), rnd.IntN(2) == 0
	}
	var buf []byte
	for b.Loop() {
		buf = AppendVarints(buf[:0], ratings, false)
		buf = AppendVarints(buf, ids, true)
		buf = AppendBools(buf, flags)
	}
	b.ReportMetric(float64(len(buf)), "bytes")
}
