package pqwrite

import (
	"encoding/binary"
	"math"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/plain"
)

// dictionary is a dictionary column's chunk's distinct values in the order
// they came, and their indexes; only the slice and map of the column's kind
// are used.
type dictionary struct {
	i32  map[int32]int32
	i64  map[int64]int32
	f64  map[uint64]int32 // by bits, as parquet-go's: 0 and -0 differ
	str  map[string]int32
	vi32 []int32
	vi64 []int64
	vf64 []uint64 // float64 bits
	vstr []string
	bits []uint64 // addDict's scratch
}

func newDictionary() *dictionary {
	return &dictionary{i32: map[int32]int32{}, i64: map[int64]int32{}, f64: map[uint64]int32{}, str: map[string]int32{}}
}

func (d *dictionary) len() int { return len(d.vi32) + len(d.vi64) + len(d.vf64) + len(d.vstr) }

// addDict appends the indexes of vals to idx, adding new values to d.
func addDict[T any](d *dictionary, idx []int32, vals []T) []int32 {
	switch vals := any(vals).(type) {
	case []int32:
		return index(d.i32, &d.vi32, idx, vals)
	case []int64:
		return index(d.i64, &d.vi64, idx, vals)
	case []float64:
		d.bits = d.bits[:0]
		for _, v := range vals {
			d.bits = append(d.bits, math.Float64bits(v))
		}
		return index(d.f64, &d.vf64, idx, d.bits)
	case []string:
		return index(d.str, &d.vstr, idx, vals)
	}
	panic("pqwrite: dictionary of an unknown type")
}

func index[T comparable](m map[T]int32, values *[]T, idx []int32, vals []T) []int32 {
	dict := *values
	last := -1
	for _, v := range vals {
		// Values often repeat or cycle (a tournament's tiebreak codes): the
		// last one and the one after it come before the map.
		if last >= 0 && dict[last] == v {
			idx = append(idx, int32(last))
			continue
		}
		if next := last + 1; next < len(dict) && dict[next] == v {
			last = next
			idx = append(idx, int32(last))
			continue
		}
		if len(dict) > 0 && dict[0] == v {
			last = 0
			idx = append(idx, 0)
			continue
		}
		i, ok := m[v]
		if !ok {
			i = int32(len(dict))
			m[v] = i
			dict = append(dict, v)
		}
		idx = append(idx, i)
		last = int(i)
	}
	*values = dict
	return idx
}

// bounds is the least and greatest of the values at idx (not empty).
func (d *dictionary) bounds(typ parquet.Type, idx []int32) (lo, hi parquet.Value, ok bool) {
	switch {
	case d.vi32 != nil:
		l, h := pick(d.vi32, idx, func(a, b int32) bool { return a < b })
		return parquet.Int32Value(l), parquet.Int32Value(h), true
	case d.vi64 != nil:
		l, h := pick(d.vi64, idx, func(a, b int64) bool { return a < b })
		return parquet.Int64Value(l), parquet.Int64Value(h), true
	case d.vf64 != nil:
		vals := make([]float64, len(idx))
		for i, j := range idx {
			vals[i] = math.Float64frombits(d.vf64[j])
		}
		return parquet.DoubleValue(minFloat(vals)), parquet.DoubleValue(maxFloat(vals)), true
	}
	l, h := pick(d.vstr, idx, func(a, b string) bool { return a < b })
	return parquet.ByteArrayValue([]byte(l)), parquet.ByteArrayValue([]byte(h)), true
}

func pick[T any](vals []T, idx []int32, less func(a, b T) bool) (lo, hi T) {
	lo, hi = vals[idx[0]], vals[idx[0]]
	for _, j := range idx[1:] {
		if v := vals[j]; less(v, lo) {
			lo = v
		} else if less(hi, v) {
			hi = v
		}
	}
	return lo, hi
}

// encode is the dictionary page's data: the values PLAIN.
func (d *dictionary) encode(kind parquet.Kind) ([]byte, error) {
	var e plain.Encoding
	switch kind {
	case parquet.Int32:
		return e.EncodeInt32(nil, d.vi32)
	case parquet.Int64:
		return e.EncodeInt64(nil, d.vi64)
	case parquet.Double:
		out := make([]byte, 0, 8*len(d.vf64))
		for _, b := range d.vf64 {
			out = binary.LittleEndian.AppendUint64(out, b) // PLAIN: the bits, little-endian
		}
		return out, nil
	}
	var out []byte
	for _, s := range d.vstr {
		out = plain.AppendByteArrayString(out, s)
	}
	return out, nil
}
