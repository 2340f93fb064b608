package output

import "github.com/ratelist/ratelist/rating/joker"

// The Joker files under their earlier names, for readers that do not yet
// take the table rule sets' files (TableCards.For, TableListCSV.For).
var (
	JokerCards       = TableCards.For(joker.Name)
	JokerListCSV     = TableListCSV.For(joker.Name)
	JokerListParquet = TableListParquet.For(joker.Name)
)

// JokerListRow and JokerCard are the Joker files' rows (rating/joker).
type (
	JokerListRow = joker.ListFileRow
	JokerCard    = joker.CardFileRow
)
