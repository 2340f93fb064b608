package pipeline

import (
	"errors"
	"strings"
)

// Sentinel errors. Wrapped errors carry the file (and row) they concern; the
// archive's own (a missing table or column, an unreadable file) are in package
// archive.
var (
	// ErrUsage marks a bad option value or rules setting (exit 2).
	ErrUsage = errors.New("usage")
)

// OptionError is a problem with one field of Options, named as in Options
// (Period, Until, From), so that a command can name its own flag for it.
type OptionError struct {
	Option string
	Err    error
}

func (e *OptionError) Error() string { return strings.ToLower(e.Option) + ": " + e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }
