package pqwrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// SameCells returns nil when the Parquet files a and b have the same schema
// and the same rows, cell by cell, read through parquet-go's reader; else
// what differs first. It checks that a file this package writes means what
// parquet-go's writer's does.
func SameCells(a, b []byte) error {
	fa, err := parquet.OpenFile(bytes.NewReader(a), int64(len(a)))
	if err != nil {
		return fmt.Errorf("first file: %w", err)
	}
	fb, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return fmt.Errorf("second file: %w", err)
	}
	if sa, sb := fa.Schema().String(), fb.Schema().String(); sa != sb {
		return fmt.Errorf("schemas differ:\n%s\n%s", sa, sb)
	}
	if fa.NumRows() != fb.NumRows() {
		return fmt.Errorf("%d rows and %d", fa.NumRows(), fb.NumRows())
	}
	ra, rb := parquet.NewReader(fa), parquet.NewReader(fb)
	defer ra.Close()
	defer rb.Close()
	bufA, bufB := make([]parquet.Row, 256), make([]parquet.Row, 256)
	for row := 0; ; {
		na, errA := readFull(ra, bufA)
		nb, errB := readFull(rb, bufB)
		if errA != nil || errB != nil {
			return errors.Join(errA, errB)
		}
		if na != nb {
			return fmt.Errorf("rows %d on: %d and %d", row, na, nb)
		}
		for i := range na {
			if !bufA[i].Equal(bufB[i]) {
				return fmt.Errorf("row %d: %v and %v", row+i, bufA[i], bufB[i])
			}
		}
		if na == 0 {
			return nil
		}
		row += na
	}
}

// readFull reads up to len(buf) rows; fewer only at the end.
func readFull(r *parquet.Reader, buf []parquet.Row) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.ReadRows(buf[n:])
		n += m
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
