package varbin

import (
	"encoding/binary"
	"errors"
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
