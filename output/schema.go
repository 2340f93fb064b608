package output

import (
	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/rating"
)

// The schemas the pipeline writes the files with: each type's columns under
// the root name the file has always carried, so that the files' bytes do not
// depend on what the Go type is called.
var (
	CardSchema      = parquet.NewSchema("cardRow", parquet.SchemaOf(cardFile{}))
	CardGameSchema  = parquet.NewSchema("cardGameRow", parquet.SchemaOf(cardGameFile{}))
	ListSchema      = parquet.NewSchema("listRow", parquet.SchemaOf(ListRow{}))
	StandingsSchema = parquet.NewSchema("standingsRow", parquet.SchemaOf(StandingsRow{}))
)

// TableSchema is the schema of a table rule set's file: its row's columns
// under the root name it declares.
func TableSchema(f *rating.TableFile) *parquet.Schema {
	return parquet.NewSchema(f.Schema, parquet.SchemaOf(f.Row))
}
