package pqwrite

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/plain"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/hashprobe"
)

// dictionary is a dictionary column's chunk's distinct values in the order
// they came, and their indexes: numbers in parquet-go's probing tables (a
// double by its bits, as parquet-go's: 0 and -0 differ), strings in a map.
// Only the table and slice of the column's kind are used.
type dictionary struct {
	kind parquet.Kind
	i32  *hashprobe.Int32Table
	i64  *hashprobe.Int64Table
	f64  *hashprobe.Float64Table
	str  map[string]int32
	vi32 []int32
	vi64 []int64
	vf64 []float64
	vstr []string
	seen []bool  // bounds' scratch: which values a page uses
	used []int32 // and in which order they first come
}

// maxLoad is parquet-go's dictionaries' table load.
const maxLoad = 0.85

func newDictionary(kind parquet.Kind) *dictionary {
	d := &dictionary{kind: kind}
	switch kind {
	case parquet.Int32:
		d.i32 = hashprobe.NewInt32Table(0, maxLoad)
	case parquet.Int64:
		d.i64 = hashprobe.NewInt64Table(0, maxLoad)
	case parquet.Double:
		d.f64 = hashprobe.NewFloat64Table(0, maxLoad)
	default:
		d.str = map[string]int32{}
	}
	return d
}

// reset empties d, keeping its table's size and its buffers.
func (d *dictionary) reset() {
	switch {
	case d.i32 != nil:
		d.i32.Reset()
	case d.i64 != nil:
		d.i64.Reset()
	case d.f64 != nil:
		d.f64.Reset()
	default:
		clear(d.str)
	}
	clear(d.vstr) // the strings may go
	d.vi32, d.vi64, d.vf64, d.vstr = d.vi32[:0], d.vi64[:0], d.vf64[:0], d.vstr[:0]
}

func (d *dictionary) len() int { return len(d.vi32) + len(d.vi64) + len(d.vf64) + len(d.vstr) }

// addDict appends the indexes of vals to idx, adding new values to d.
func addDict[T any](d *dictionary, idx []int32, vals []T) []int32 {
	n := len(idx)
	idx = slices.Grow(idx, len(vals))[:n+len(vals)]
	out := idx[n:]
	switch vals := any(vals).(type) {
	case []int32:
		probe(d.i32.Probe, &d.vi32, vals, out)
	case []int64:
		probe(d.i64.Probe, &d.vi64, vals, out)
	case []float64:
		probe(d.f64.Probe, &d.vf64, vals, out)
	case []string:
		index(d.str, &d.vstr, vals, out)
	case []dictIndex:
		for i, j := range vals {
			out[i] = int32(j)
		}
	}
	return idx
}

// probe sets out to the indexes of vals in a probing table, appending the
// new values to values.
func probe[T any](p func(keys []T, values []int32) int, values *[]T, vals []T, out []int32) {
	n := p(vals, out)
	if n == 0 {
		return
	}
	*values = slices.Grow(*values, n)
	for i, j := range out {
		if int(j) == len(*values) {
			*values = append(*values, vals[i])
		}
	}
}

// index sets out to the indexes of vals in m, adding new ones.
func index(m map[string]int32, values *[]string, vals []string, out []int32) {
	dict := *values
	last := -1
	for i, v := range vals {
		// Strings repeat or cycle (a tournament's tiebreak codes, a card's
		// period): the last one, the one after it and the first come before
		// the map.
		switch {
		case last >= 0 && dict[last] == v:
		case last+1 < len(dict) && dict[last+1] == v:
			last++
		case len(dict) > 0 && dict[0] == v:
			last = 0
		default:
			j, ok := m[v]
			if !ok {
				j = int32(len(dict))
				m[v] = j
				dict = append(dict, v)
			}
			last = int(j)
		}
		out[i] = int32(last)
	}
	*values = dict
}

// encodeIndexes is a page's indexes RLE_DICTIONARY-encoded as parquet-go's
// rle.DictionaryEncoding encodes them: the bit width of the greatest (kept
// as they came: page.note), then the hybrid RLE of that width.
func encodeIndexes(dst []byte, idx []int32, greatest int32) ([]byte, error) {
	w := bits.Len32(uint32(greatest))
	dst = append(dst[:0], byte(w))
	rest, err := (&rle.Encoding{BitWidth: w}).EncodeInt32(dst[1:1], idx)
	if err != nil {
		return nil, err
	}
	if cap(rest) != cap(dst)-1 { // grown into a new array: not after the width
		return append(dst, rest...), nil
	}
	return dst[:1+len(rest)], nil
}

// bounds is the least and greatest of the values at idx (not empty); ok is
// false when they are all NaN. With small (every index below 64), set is
// the indexes used (page.note): their values are the page's.
func (d *dictionary) bounds(idx []int32, set uint64, small bool) (lo, hi parquet.Value, ok bool) {
	switch {
	case small && !(d.kind == parquet.Double && d.zeros(set) > 1):
		idx = d.used[:0]
		for ; set != 0; set &= set - 1 {
			idx = append(idx, int32(bits.TrailingZeros64(set)))
		}
		d.used = idx
	case d.len() <= len(idx)/8: // values repeat in the page
		idx = d.firstUses(idx)
	}
	switch d.kind {
	case parquet.Int32:
		l, h := pick(d.vi32, idx)
		return parquet.Int32Value(l), parquet.Int32Value(h), true
	case parquet.Int64:
		l, h := pick(d.vi64, idx)
		return parquet.Int64Value(l), parquet.Int64Value(h), true
	case parquet.Double:
		l, h, ok := floatBounds(idx, func(i int32) float64 { return d.vf64[i] })
		return parquet.DoubleValue(l), parquet.DoubleValue(h), ok
	}
	l, h := pick(d.vstr, idx)
	return parquet.ByteArrayValue([]byte(l)), parquet.ByteArrayValue([]byte(h)), true
}

// zeros is how many of the values in set are 0 or -0: with both, the bound
// is the one that comes first in the page (floatBounds), not in set's order.
func (d *dictionary) zeros(set uint64) int {
	n := 0
	for ; set != 0; set &= set - 1 {
		if d.vf64[bits.TrailingZeros64(set)] == 0 {
			n++
		}
	}
	return n
}

// firstUses is the distinct indexes of idx in the order they first come: a
// page's bounds over them are its bounds over idx, ties (0 and -0) going to
// the one that comes first as well, for a few comparisons instead of one per
// row (a string comparison, for a text column).
func (d *dictionary) firstUses(idx []int32) []int32 {
	if n := d.len(); len(d.seen) < n {
		d.seen = make([]bool, n+n/4)
	}
	used := d.used[:0]
	for _, j := range idx {
		if !d.seen[j] {
			d.seen[j] = true
			used = append(used, j)
		}
	}
	for _, j := range used {
		d.seen[j] = false
	}
	d.used = used
	return used
}

func pick[T int32 | int64 | string](vals []T, idx []int32) (lo, hi T) {
	lo, hi = vals[idx[0]], vals[idx[0]]
	for _, j := range idx[1:] {
		v := vals[j]
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// floatBounds is the least and greatest of get's values at s, NaNs skipped
// as parquet-go skips them; ok is false when all are NaN.
func floatBounds[S ~[]E, E any](s S, get func(E) float64) (lo, hi float64, ok bool) {
	for _, e := range s {
		v := get(e)
		if v != v { // NaN
			continue
		}
		if !ok {
			lo, hi, ok = v, v, true
			continue
		}
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	return lo, hi, ok
}

// encode is the dictionary page's data, the values PLAIN, in dst's room.
func (d *dictionary) encode(dst []byte) ([]byte, error) {
	var e plain.Encoding
	switch d.kind {
	case parquet.Int32:
		return e.EncodeInt32(dst[:0], d.vi32)
	case parquet.Int64:
		return e.EncodeInt64(dst[:0], d.vi64)
	case parquet.Double:
		out := slices.Grow(dst[:0], 8*len(d.vf64))
		for _, v := range d.vf64 {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v))
		}
		return out, nil
	}
	out := dst[:0]
	for _, s := range d.vstr {
		out = plain.AppendByteArrayString(out, s)
	}
	return out, nil
}
