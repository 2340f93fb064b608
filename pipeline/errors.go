package pipeline

import (
	"errors"
	"fmt"
)

// Sentinel errors. Wrapped errors carry the file (and row) they concern.
var (
	// ErrMissingTable is returned when a required table (players) is absent.
	ErrMissingTable = errors.New("missing table")
	// ErrMissingColumn is returned when a table lacks a required column.
	ErrMissingColumn = errors.New("missing required column")
	// ErrUnreadable wraps a file that cannot be read at all (corrupt or truncated Parquet, bad CSV header).
	ErrUnreadable = errors.New("unreadable file")
	// ErrRejected is returned by Run when it succeeded but rejected some rows (exit 3).
	ErrRejected = errors.New("some rows were rejected")
	// ErrUsage marks a bad flag value or rules setting (exit 2).
	ErrUsage = errors.New("usage")
)

// RowError is a problem with one input row: its file, the 1-based data row in that
// file, the column (when one column is at fault) and what is wrong.
type RowError struct {
	File   string
	Row    int64
	Column string
	Err    error
}

func (e *RowError) Error() string {
	if e.Column != "" {
		return fmt.Sprintf("%s:%d: %s: %v", e.File, e.Row, e.Column, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Row, e.Err)
}

func (e *RowError) Unwrap() error { return e.Err }
