package output

import "github.com/parquet-go/parquet-go"

// The schemas the pipeline writes the files with: each type's columns under
// the root name the file has always carried, so that the files' bytes do not
// depend on what the Go type is called.
var (
	CardSchema      = parquet.NewSchema("cardRow", parquet.SchemaOf(cardFile{}))
	CardGameSchema  = parquet.NewSchema("cardGameRow", parquet.SchemaOf(cardGameFile{}))
	ListSchema      = parquet.NewSchema("listRow", parquet.SchemaOf(ListRow{}))
	StandingsSchema = parquet.NewSchema("standingsRow", parquet.SchemaOf(StandingsRow{}))
	JokerListSchema = parquet.NewSchema("jokerListRow", parquet.SchemaOf(JokerListRow{}))
	JokerCardSchema = parquet.NewSchema("jokerCardRow", parquet.SchemaOf(JokerCard{}))
)
