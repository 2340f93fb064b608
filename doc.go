// Package ratelist holds the small archive embedded in the binary for demos
// and golden tests. The code lives in the packages docs/architecture.md
// describes: cmd/ratelist (flags and wiring), archive (the archive's schema
// and reader), pipeline (one run), rating (the rule sets), tiebreak
// (standings), norms (title norms), output (the run's Parquet records),
// officer and report (views of a run's outputs), trf and importer (other
// formats).
//
// Reading order for a newcomer: docs/architecture.md, then pipeline/doc.go.
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
