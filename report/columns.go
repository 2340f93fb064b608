package report

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// A column chunk is read a page at a time from the page's decoded values
// (parquet.Page.Data), not through parquet.Value: a value each costs a call
// and a copy of 24 bytes, millions of times for the cards.

// typedColumns reads the columns of one row group of n rows by name into
// typed slices; a column the file lacks leaves its slice as it was.
type typedColumns struct {
	path   string
	schema *parquet.Schema
	chunks []parquet.ColumnChunk
	n      int
}

func newTypedColumns(path string, schema *parquet.Schema, g parquet.RowGroup) *typedColumns {
	return &typedColumns{path: path, schema: schema, chunks: g.ColumnChunks(), n: int(g.NumRows())}
}

// each calls fn with each page of column name and the row it starts at.
func (c *typedColumns) each(name string, fn func(p parquet.Page, at int) error) error {
	col, ok := c.schema.Lookup(name)
	if !ok {
		return nil
	}
	if err := eachPage(c.chunks[col.ColumnIndex], c.n, fn); err != nil {
		return fmt.Errorf("read %s: column %s: %w", c.path, name, err)
	}
	return nil
}

func (c *typedColumns) int64s(name string, dst []int64) error {
	return readTyped(c, name, dst, encoding.Int64, (*encoding.Values).Int64)
}

func (c *typedColumns) int32s(name string, dst []int32) error {
	return readTyped(c, name, dst, encoding.Int32, (*encoding.Values).Int32)
}

func (c *typedColumns) float64s(name string, dst []float64) error {
	return readTyped(c, name, dst, encoding.Double, (*encoding.Values).Double)
}

// readTyped reads column name, of kind want (get reads its values), into
// dst by row.
func readTyped[T any](c *typedColumns, name string, dst []T, want encoding.Kind, get func(*encoding.Values) []T) error {
	return c.each(name, func(p parquet.Page, at int) error {
		vals, err := pageValues(p, want, get)
		if err != nil {
			return err
		}
		return scatter(p, at, vals, dst)
	})
}

// texts calls fn with the row and the bytes of each value of a text
// column (valid only during the call); a dictionary's values are handed
// as the same slices each time they are used.
func (c *typedColumns) texts(name string, fn func(i int, b []byte)) error {
	return c.each(name, func(p parquet.Page, at int) error {
		v, idx, err := pageData(p, encoding.ByteArray)
		if err != nil {
			return err
		}
		data, offs := v.ByteArray()
		n := len(offs) - 1
		if idx != nil {
			n = len(idx)
		}
		if len(p.DefinitionLevels()) == 0 && n != int(p.NumValues()) {
			return fmt.Errorf("%d values in a page of %d", n, p.NumValues())
		}
		k := 0
		value := func() ([]byte, error) {
			j := k
			if idx != nil {
				j = int(idx[k])
			}
			k++
			if j < 0 || j+1 >= len(offs) || offs[j] > offs[j+1] || int(offs[j+1]) > len(data) {
				return nil, fmt.Errorf("value %d out of range", j)
			}
			return data[offs[j]:offs[j+1]], nil
		}
		levels := p.DefinitionLevels()
		if len(levels) == 0 {
			for i := range n {
				b, err := value()
				if err != nil {
					return err
				}
				fn(at+i, b)
			}
			return nil
		}
		for i, l := range levels {
			if l == 0 {
				continue
			}
			if k >= n {
				return fmt.Errorf("%d values for more levels", n)
			}
			b, err := value()
			if err != nil {
				return err
			}
			fn(at+i, b)
		}
		return nil
	})
}

// pageData returns the values of page p, of kind want: its data, or its
// dictionary's and the indexes into it that the page holds.
func pageData(p parquet.Page, want encoding.Kind) (v encoding.Values, idx []int32, err error) {
	v = p.Data()
	if d := p.Dictionary(); d != nil {
		if v.Kind() != encoding.Int32 {
			return v, nil, fmt.Errorf("dictionary indexes of kind %s", v.Kind())
		}
		idx, v = v.Int32(), d.Page().Data()
	}
	if v.Kind() != want {
		return v, nil, fmt.Errorf("values of kind %s, not %s", v.Kind(), want)
	}
	return v, idx, nil
}

// pageValues returns the values of page p, of kind want (get reads them):
// its data, or its dictionary's values looked up by the indexes it holds.
func pageValues[T any](p parquet.Page, want encoding.Kind, get func(*encoding.Values) []T) ([]T, error) {
	v, idx, err := pageData(p, want)
	if err != nil {
		return nil, err
	}
	dv := get(&v)
	if idx == nil {
		return dv, nil
	}
	vals := make([]T, len(idx))
	for i, j := range idx {
		if j < 0 || int(j) >= len(dv) {
			return nil, fmt.Errorf("dictionary index %d out of range", j)
		}
		vals[i] = dv[j]
	}
	return vals, nil
}

// scatter copies the values of page p, which starts at row at, into dst:
// the rows whose definition level says null are left as they were.
func scatter[T any](p parquet.Page, at int, vals, dst []T) error {
	levels := p.DefinitionLevels()
	if len(levels) == 0 {
		if len(vals) != int(p.NumValues()) {
			return fmt.Errorf("%d values in a page of %d", len(vals), p.NumValues())
		}
		if at+len(vals) > len(dst) {
			return fmt.Errorf("more than %d values", len(dst))
		}
		copy(dst[at:], vals)
		return nil
	}
	if at+len(levels) > len(dst) {
		return fmt.Errorf("more than %d values", len(dst))
	}
	k := 0
	for i, l := range levels {
		if l == 0 {
			continue
		}
		if k >= len(vals) {
			return fmt.Errorf("%d values for more levels", len(vals))
		}
		dst[at+i] = vals[k]
		k++
	}
	return nil
}

// eachPage calls fn with each page of cc and the row it starts at, and
// checks that the pages hold n rows.
func eachPage(cc parquet.ColumnChunk, n int, fn func(p parquet.Page, at int) error) error {
	pages := cc.Pages()
	defer pages.Close()
	at := 0
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		m := int(p.NumValues())
		if at+m > n {
			parquet.Release(p)
			return fmt.Errorf("more than %d values", n)
		}
		err = fn(p, at)
		parquet.Release(p)
		if err != nil {
			return err
		}
		at += m
	}
	if at != n {
		return fmt.Errorf("%d values in %d rows", at, n)
	}
	return nil
}
