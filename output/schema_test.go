package output

import (
	"testing"

	"github.com/parquet-go/parquet-go"
)

// Each schema is its type's, so that writers take the direct path from Go
// values to columns; only the root name differs.
func TestSchemasMatchTypes(t *testing.T) {
	for _, c := range []struct {
		schema *parquet.Schema
		row    any
	}{
		{CardSchema, Card{}}, {CardGameSchema, CardGame{}}, {ListSchema, ListRow{}}, {StandingsSchema, StandingsRow{}},
		{JokerListSchema, JokerListRow{}}, {JokerCardSchema, JokerCard{}},
	} {
		if !parquet.EqualNodes(c.schema, parquet.SchemaOf(c.row)) {
			t.Errorf("%s: not the schema of %T", c.schema.Name(), c.row)
		}
	}
}
