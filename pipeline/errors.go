package pipeline

import (
	"errors"
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
