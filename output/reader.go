package output

import (
	"io"

	"github.com/parquet-go/parquet-go"
)

// Reader reads the rows of a Parquet output in blocks sized to the file.
// parquet-go's reader reads every column once more per row a block asks past
// a row group's end (a page header allocated each time), so a block never
// asks past the file's last row, and Read ends there without asking again.
type Reader[T any] struct {
	*parquet.GenericReader[T]
	left int64
}

// NewReader returns a reader of the rows of f.
func NewReader[T any](f io.ReaderAt) *Reader[T] {
	r := parquet.NewGenericReader[T](f)
	return &Reader[T]{GenericReader: r, left: r.NumRows()}
}

// Block returns a block of at most n rows, fewer when the file has fewer
// (at least one, so that a loop over an empty file still gets io.EOF).
func (r *Reader[T]) Block(n int) []T {
	return make([]T, max(1, min(int64(n), r.left)))
}

// Read reads the next rows into rows, and io.EOF with the last of them.
func (r *Reader[T]) Read(rows []T) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n, err := r.GenericReader.Read(rows[:min(int64(len(rows)), r.left)])
	r.left -= int64(n)
	if err == nil && r.left == 0 {
		err = io.EOF
	}
	return n, err
}
