package archive

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// takeNaive is take row by row, the reference the run-by-run copy must match.
func takeNaive[T int32 | int64](ints []int64, nulls []bool, defs []byte, data []T, val int) int {
	for i := range ints {
		if defs != nil && defs[i] == 0 {
			nulls[i], ints[i] = true, 0
			continue
		}
		nulls[i], ints[i] = false, int64(data[val])
		val++
	}
	return val
}

// randomDefs returns n definition levels: all 1, all 0, or runs of either.
func randomDefs(rng *rand.Rand, n int) []byte {
	defs := make([]byte, n)
	switch rng.IntN(4) {
	case 0:
		return nil
	case 1:
		return defs
	case 2:
		for i := range defs {
			defs[i] = 1
		}
		return defs
	}
	d := byte(rng.IntN(2))
	for i := range defs {
		if rng.IntN(8) == 0 {
			d ^= 1
		}
		defs[i] = d
	}
	return defs
}

func checkTake[T int32 | int64](t *testing.T, rng *rand.Rand) {
	n := 1 + rng.IntN(300)
	defs := randomDefs(rng, n)
	data := make([]T, n+5)
	for i := range data {
		data[i] = T(rng.Int32() - 1<<30)
	}
	val := rng.IntN(5)
	// Leftovers of an earlier batch: take must overwrite every row.
	ints, nulls := make([]int64, n), make([]bool, n)
	for i := range ints {
		ints[i], nulls[i] = 77, i%2 == 0
	}
	wantInts, wantNulls := slices.Clone(ints), slices.Clone(nulls)
	got, want := take(ints, nulls, defs, data, val), takeNaive(wantInts, wantNulls, defs, data, val)
	if got != want || !slices.Equal(ints, wantInts) || !slices.Equal(nulls, wantNulls) {
		t.Fatalf("defs %v: val %d ints %v nulls %v, want %d %v %v", defs, got, ints, nulls, want, wantInts, wantNulls)
	}
}

// TestTake: the run-by-run copy of page values gives what copying row by row
// gives, for int32 and int64 pages with no nulls, only nulls, and runs of both.
func TestTake(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		checkTake[int32](t, rng)
		checkTake[int64](t, rng)
	}
}

// TestTakeCodes: dictionary indexes become their entries' codes, an entry that
// is no code a null noted bad at its row, nulls stay null, and an index past
// the dictionary is an error.
func TestTakeCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	dict := []int64{'1', '0', -1, '='}
	for range 2000 {
		n := 1 + rng.IntN(300)
		defs := randomDefs(rng, n)
		idx := make([]int32, n+3)
		for i := range idx {
			idx[i] = int32(rng.IntN(len(dict)))
		}
		cur := &colCursor{idx: idx, dict: dict, val: rng.IntN(3)}
		ints, nulls := make([]int64, n), make([]bool, n)
		for i := range ints {
			ints[i], nulls[i] = 5, i%3 == 0
		}
		s := &parquetSource{}
		const off, col = 100, 6
		val, err := s.takeCodes(ints, nulls, defs, cur, col, off)
		if err != nil {
			t.Fatal(err)
		}
		wantInts, wantNulls := make([]int64, n), make([]bool, n)
		wantVal := takeNaive(wantInts, wantNulls, defs, idx, cur.val)
		var wantBad []badCell
		for i := range wantInts {
			if wantNulls[i] {
				continue
			}
			if wantInts[i] = dict[wantInts[i]]; wantInts[i] < 0 {
				wantInts[i], wantNulls[i] = 0, true
				wantBad = append(wantBad, badCell{off + i, col, KindWrongType, ""})
			}
		}
		if val != wantVal || !slices.Equal(ints, wantInts) || !slices.Equal(nulls, wantNulls) || !slices.Equal(s.badCells, wantBad) {
			t.Fatalf("defs %v: val %d ints %v nulls %v bad %v, want %d %v %v %v", defs, val, ints, nulls, s.badCells, wantVal, wantInts, wantNulls, wantBad)
		}
	}
	cur := &colCursor{idx: []int32{0, 4}, dict: dict}
	if _, err := (&parquetSource{}).takeCodes(make([]int64, 2), make([]bool, 2), nil, cur, 0, 0); err == nil {
		t.Fatal("index 4 of a 4-entry dictionary: no error")
	}
}
