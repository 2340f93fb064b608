package pipeline

import (
	"errors"
)

// Sentinel errors. Wrapped errors carry the file (and row) they concern; the
// archive's own (a missing table or column, an unreadable file) are in package
// archive.
var (
	// ErrUsage marks a bad flag value or rules setting (exit 2).
	ErrUsage = errors.New("usage")
)
