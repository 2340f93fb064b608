package archive

import (
	"errors"
	"fmt"
)

// Sentinel errors. Wrapped errors carry the file they concern.
var (
	// ErrMissingTable is returned when a required table (players) is absent.
	ErrMissingTable = errors.New("missing table")
	// ErrMissingColumn is returned when a table lacks a required column.
	ErrMissingColumn = errors.New("missing required column")
	// ErrUnreadable wraps a file that cannot be read at all (corrupt or truncated Parquet, bad CSV header).
	ErrUnreadable = errors.New("unreadable file")
	// errRange is a CSV integer beyond int64 (ParseCell), rejected as out of range.
	errRange = errors.New("does not fit int64")
)

// RowError is a rejected row: where it was read, why, and its values as read.
type RowError struct {
	File string // relative to the archive
	Row  int64  // data-row number in File (1 = first data row)
	Problem
	Values string // Batch.Values of the row
}

func (e *RowError) Error() string { return fmt.Sprintf("%s row %d: %s", e.File, e.Row, e.Reason) }

// RowErrorAt is row i of b, rejected for p.
func RowErrorAt(b *Batch, i int, p Problem) RowError {
	return RowError{b.File, b.First + int64(i), p, b.Values(i)}
}
