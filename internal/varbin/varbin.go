// Package varbin is the compact binary layout of the state files: integers as
// varints (optionally each the difference from the one before), booleans as
// bits eight to a byte, strings as a length and bytes. A Decoder reads them
// back; its first error sticks, so a caller checks once at the end.
package varbin

import (
	"cmp"
	"encoding/binary"
	"errors"
	"slices"
)

// ErrShort is the error of a read past the end of the data.
var ErrShort = errors.New("data ends early")

// AppendVarints appends col as varints, each the difference from the value
// before when delta is set.
func AppendVarints[T int32 | int64](b []byte, col []T, delta bool) []byte {
	const chunk = 1024 // values per growth of b, so that b is never grown to the worst case of the whole column
	var prev T
	for len(col) > 0 {
		part := col[:min(len(col), chunk)]
		col = col[len(part):]
		b = slices.Grow(b, len(part)*binary.MaxVarintLen64)
		n := len(b)
		out := b[:cap(b)]
		for _, v := range part {
			// encoding/binary's zigzag varint, written into room made above.
			d := int64(v - prev)
			x := uint64(d) << 1
			if d < 0 {
				x = ^x
			}
			if x < 1<<14 {
				// One or two bytes, most values: both written, the second kept
				// or not by the count, which a branch would mispredict.
				two := int(x>>7+0x7f) >> 7 // 1 when x ≥ 0x80, else 0
				out[n], out[n+1] = byte(x)|byte(two<<7), byte(x>>7)
				n += 1 + two
				if delta {
					prev = v
				}
				continue
			}
			for x >= 0x80 {
				out[n] = byte(x) | 0x80
				x >>= 7
				n++
			}
			out[n] = byte(x)
			n++
			if delta {
				prev = v
			}
		}
		b = out[:n]
	}
	return b
}

// AppendBools appends col as bits, eight to a byte, the first in the lowest bit.
func AppendBools(b []byte, col []bool) []byte {
	b = slices.Grow(b, (len(col)+7)/8)
	for len(col) >= 8 {
		c := col[:8]
		b = append(b, bit(c[0])|bit(c[1])<<1|bit(c[2])<<2|bit(c[3])<<3|bit(c[4])<<4|bit(c[5])<<5|bit(c[6])<<6|bit(c[7])<<7)
		col = col[8:]
	}
	if len(col) > 0 {
		var x byte
		for j, v := range col {
			x |= bit(v) << j
		}
		b = append(b, x)
	}
	return b
}

// bit is 1 for true, 0 for false, without a branch on the value.
func bit(v bool) byte {
	var x byte
	if v {
		x = 1
	}
	return x
}

// AppendString appends s as its length (a uvarint) and its bytes.
func AppendString[S string | []byte](b []byte, s S) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// Decoder reads data written with the Append functions and encoding/binary's
// AppendUvarint, AppendVarint and LittleEndian.AppendUint64.
type Decoder struct {
	b   []byte
	err error
}

// NewDecoder reads data.
func NewDecoder(data []byte) *Decoder { return &Decoder{b: data} }

// Err is the first error met, nil if none.
func (d *Decoder) Err() error { return d.err }

// Fail records err unless an earlier error is already recorded.
func (d *Decoder) Fail(err error) { d.err = cmp.Or(d.err, err) }

// Len is the number of bytes not read yet.
func (d *Decoder) Len() int { return len(d.b) }

// End records an error if data is left after what was read.
func (d *Decoder) End() {
	if len(d.b) > 0 {
		d.Fail(errors.New("data after the end"))
	}
}

// Uvarint reads a uvarint.
func (d *Decoder) Uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = ErrShort
		return 0
	}
	d.b = d.b[n:]
	return v
}

// Varint reads a varint: a uvarint holding the value zigzag-encoded, as
// encoding/binary writes it.
func (d *Decoder) Varint() int64 {
	u := d.Uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// Count reads a count of items that each take at least a byte, so that a
// damaged count allocates nothing.
func (d *Decoder) Count() int {
	v := d.Uvarint()
	if v > uint64(len(d.b)) {
		d.Fail(ErrShort)
		return 0
	}
	return int(v)
}

// Uint64 reads eight bytes, little-endian.
func (d *Decoder) Uint64() uint64 {
	if d.err != nil || len(d.b) < 8 {
		d.Fail(ErrShort)
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

// Byte reads a byte.
func (d *Decoder) Byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.Fail(ErrShort)
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

// String reads a length and that many bytes.
func (d *Decoder) String() string {
	n := d.Uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.Fail(ErrShort)
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// Bools reads len(col) bits into col.
func (d *Decoder) Bools(col []bool) {
	n := (len(col) + 7) / 8
	if d.err != nil || n > len(d.b) {
		d.Fail(ErrShort)
		return
	}
	for i := range col {
		col[i] = d.b[i/8]&(1<<(i%8)) != 0
	}
	d.b = d.b[n:]
}

// Varints reads len(col) varints into col, each the difference from the value
// before when delta is set.
func Varints[T int32 | int64](d *Decoder, col []T, delta bool) {
	var prev T
	for i := range col {
		col[i] = T(d.Varint()) + prev
		if delta {
			prev = col[i]
		}
	}
}
