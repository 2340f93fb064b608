// Package all registers every rule set of ratelist with package rating, one
// line each, the default first, and a table rule set's row types with
// package output. A program that runs ratelist's pipeline
// imports it for its side effect:
//
//	import _ "github.com/ratelist/ratelist/rating/all"
package all

import (
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/fide"
	"github.com/ratelist/ratelist/rating/glicko2"
	"github.com/ratelist/ratelist/rating/joker"
	"github.com/ratelist/ratelist/rating/school"
)

func init() {
	rating.Register(&school.Definition) // the default
	rating.Register(&fide.Definition)
	rating.Register(&glicko2.Definition)
	rating.RegisterTables(&joker.Definition)
	output.RegisterRows[joker.ListFileRow]() // its files' rows, written the direct way
	output.RegisterRows[joker.CardFileRow]()
}
