// Package ratelist holds the small archive embedded in the binary for demos
// and golden tests. The code lives in library packages:
//
//   - cmd/ratelist: the command (flags and wiring only)
//   - pipeline: archive reading, validation, ordering, the worker pool, writers
//   - rating: the rule sets (school Elo, Joker), pure functions on plain values
//   - tiebreak: standings and tiebreaks, pure functions on plain values
//   - officer: exports (TRF, FIDE-shaped lists) and the officer's questions
//     (list changes, one player, one tournament) over a run's outputs
//
// Reading order for a newcomer: docs/, then pipeline/doc.go.
package ratelist

import (
	"embed"
	"io/fs"
)

//go:embed testdata/demo
var demo embed.FS

// Demo returns the embedded demo archive: a school season of chess
// tournaments (and some Scrabble and Joker) with its rules file.
func Demo() fs.FS {
	sub, err := fs.Sub(demo, "testdata/demo")
	if err != nil {
		panic(err) // the embedded path is fixed at build time
	}
	return sub
}

// DemoRules is the demo archive's rules file (TOML), used when `ratelist run`
// is given no --archive and no --rules.
func DemoRules() []byte {
	b, err := fs.ReadFile(demo, "testdata/demo/rules.toml")
	if err != nil {
		panic(err)
	}
	return b
}
