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
	// ErrNoTournament is a tournament id the archive does not have, or whose
	// games were all rejected.
	ErrNoTournament = errors.New("not in the archive or it has no valid games")
	// ErrNoTeams is a tournament the archive's teams table has no team of.
	ErrNoTeams = errors.New("no teams in the teams table: not a team competition")
)

// OptionError is a problem with one field of Options, named as in Options
// (Period, Until, From), so that a command can name its own flag for it.
type OptionError struct {
	Option string
	Err    error
}

func (e *OptionError) Error() string { return strings.ToLower(e.Option) + ": " + e.Err.Error() }
func (e *OptionError) Unwrap() error { return e.Err }

// ConflictError is two fields of Options that contradict each other (From
// after Until, From with Resume), named as in Options.
type ConflictError struct {
	Option, With string
	Err          error
}

func (e *ConflictError) Error() string {
	return strings.ToLower(e.Option) + " contradicts " + strings.ToLower(e.With) + ": " + e.Err.Error()
}
func (e *ConflictError) Unwrap() error { return e.Err }
