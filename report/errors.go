package report

import "errors"

var (
	// ErrNoRun is returned when the output folder holds no finished run
	// (no summary.json).
	ErrNoRun = errors.New("no finished run in the output folder")

	// ErrBadOutput is returned when an output file of the run lacks a column
	// the report needs.
	ErrBadOutput = errors.New("output file lacks a needed column")
)
