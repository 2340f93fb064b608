package varbin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRoundTrip: what the Append functions write reads back the same, and
// every cut of it is refused with ErrShort instead of read as something else.
func TestRoundTrip(t *testing.T) {
	ids := []int64{10001, 10002, 10010, 9, -5}
	ratings := []int32{1500, -3, 0, 2800}
	bools := []bool{true, false, false, true, true, false, true, false, true}
	b := AppendVarints(nil, ids, true)
	b = AppendVarints(b, ratings, false)
	b = AppendBools(b, bools)
	b = AppendString(b, "ratelist")
	b = binary.AppendUvarint(b, 2)
	b = binary.LittleEndian.AppendUint64(b, 1<<63+7)
	b = append(b, 'x', 'y')

	read := func(data []byte) (*Decoder, []int64, []int32, []bool, string, int, uint64, byte) {
		d := NewDecoder(data)
		gi, gr, gb := make([]int64, len(ids)), make([]int32, len(ratings)), make([]bool, len(bools))
		Varints(d, gi, true)
		Varints(d, gr, false)
		d.Bools(gb)
		s := d.String()
		n := d.Count()
		u := d.Uint64()
		x := d.Byte()
		return d, gi, gr, gb, s, n, u, x
	}
	d, gi, gr, gb, s, n, u, x := read(b)
	if d.Err() != nil || !slices.Equal(gi, ids) || !slices.Equal(gr, ratings) || !slices.Equal(gb, bools) ||
		s != "ratelist" || n != 2 || u != 1<<63+7 || x != 'x' {
		t.Fatalf("read back %v %v %v %q %d %d %q: %v", gi, gr, gb, s, n, u, x, d.Err())
	}
	if d.Len() != 1 {
		t.Fatalf("%d bytes left, want 1", d.Len())
	}
	d.End()
	if d.Err() == nil {
		t.Error("End with a byte left: no error")
	}
	for cut := range len(b) - 1 {
		if d, _, _, _, _, _, _, _ := read(b[:cut]); !errors.Is(d.Err(), ErrShort) {
			t.Errorf("cut at %d: error %v, want ErrShort", cut, d.Err())
		}
	}
}

// TestCountTooLarge: a count larger than the bytes left is refused.
func TestCountTooLarge(t *testing.T) {
	d := NewDecoder(binary.AppendUvarint(nil, 5))
	if n := d.Count(); n != 0 || !errors.Is(d.Err(), ErrShort) {
		t.Errorf("count %d, error %v", n, d.Err())
	}
}

// TestAppendLayout: AppendVarints writes encoding/binary's varints (over more
// values than one growth of the buffer, with the extremes), AppendBools the
// lowest bit first, after what the buffer already holds.
func TestAppendLayout(t *testing.T) {
	ids := []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, 1 << 40}
	ratings := []int32{math.MinInt32, math.MaxInt32, 0, -1, 127, 128, -64, -65, 8191, 8192, -8192, -8193}
	rnd := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		ids = append(ids, rnd.Int64()>>rnd.IntN(64))
		ratings = append(ratings, int32(rnd.Uint32())>>rnd.IntN(32))
	}
	for _, delta := range []bool{false, true} {
		want := []byte{0xee}
		var prev int64
		for _, v := range ids {
			want = binary.AppendVarint(want, v-prev)
			if delta {
				prev = v
			}
		}
		if got := AppendVarints([]byte{0xee}, ids, delta); !bytes.Equal(got, want) {
			t.Errorf("int64 delta %v: %d bytes differ from encoding/binary's %d", delta, len(got), len(want))
		}
		want = []byte{0xee}
		var prev32 int32
		for _, v := range ratings {
			want = binary.AppendVarint(want, int64(v-prev32)) // the difference wraps in int32, as the reader adds it back
			if delta {
				prev32 = v
			}
		}
		if got := AppendVarints([]byte{0xee}, ratings, delta); !bytes.Equal(got, want) {
			t.Errorf("int32 delta %v: %d bytes differ from encoding/binary's %d", delta, len(got), len(want))
		}
		d := NewDecoder(AppendVarints(nil, ratings, delta))
		back := make([]int32, len(ratings))
		if Varints(d, back, delta); d.Err() != nil || !slices.Equal(back, ratings) {
			t.Errorf("int32 delta %v: read back differs (%v)", delta, d.Err())
		}
	}
	for n := range 20 {
		col := make([]bool, n)
		want := append([]byte{0xee}, make([]byte, (n+7)/8)...)
		for i := range col {
			if col[i] = rnd.IntN(2) == 0; col[i] {
				want[1+i/8] |= 1 << (i % 8)
			}
		}
		if got := AppendBools([]byte{0xee}, col); !bytes.Equal(got, want) {
			t.Errorf("%d bools: % x, want % x", n, got, want)
		}
	}
}
