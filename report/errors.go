package report

import "errors"

var (
	// ErrNoRun is returned when the output folder holds no finished run
	// (no summary.json).
	ErrNoRun = errors.New("no finished run in the output folder")

	// ErrSymlink is returned when the site folder holds a symbolic link: the
	// report refuses it, writing and removing nothing.
	ErrSymlink = errors.New("the site folder holds a symbolic link; refusing to write through it (remove the link)")

	// ErrNoList is returned when the run listed no period: there is no list
	// to publish.
	ErrNoList = errors.New("the run wrote no list (no period with a rated tournament ended before its date; see run --provisional)")

	// ErrBadOutput is returned when an output file of the run lacks a column
	// the report needs.
	ErrBadOutput = errors.New("output file lacks a needed column")
)
