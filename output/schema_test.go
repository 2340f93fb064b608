package output

import (
	"bytes"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/rating"
)

// Each schema is its type's, so that writers take the direct path from Go
// values to columns; only the root name differs.
func TestSchemasMatchTypes(t *testing.T) {
	for _, c := range []struct {
		schema *parquet.Schema
		row    any
	}{
		{CardSchema, Card{}}, {CardGameSchema, CardGame{}}, {ListSchema, ListRow{}}, {StandingsSchema, StandingsRow{}},
	} {
		if !parquet.EqualNodes(c.schema, parquet.SchemaOf(c.row)) {
			t.Errorf("%s: not the schema of %T", c.schema.Name(), c.row)
		}
	}
}

// TestShapeRoundTrip: a list with a rule set's own columns writes the
// contract's columns and the added ones after flags, and reads back as a
// ListRow and, through an AddedReader, the added values.
func TestShapeRoundTrip(t *testing.T) {
	if sh := ListShape(nil, false); sh.Schema != ListSchema {
		t.Error("a list without added columns is not ListRow's")
	}
	cols := []rating.Column{{Name: "glicko_rating", Type: rating.Float64, Decimals: 2}, {Name: "games_won", Type: rating.Int64}, {Name: "note", Type: rating.String}}
	sh := ListShape(cols, false)
	var names []string
	for _, p := range sh.Schema.Columns() {
		names = append(names, p[0])
	}
	want := []string{"rank", "player_id", "name", "rating", "change", "games_period", "games_total", "k", "category", "flags",
		"glicko_rating", "games_won", "note", "federation", "sex", "title", "fide_id", "birth_date"}
	if !slices.Equal(names, want) {
		t.Fatalf("columns %v, want %v", names, want)
	}
	rows := []ListRow{{Rank: 1, PlayerID: 7, Name: "Ann", Rating: 1835, Flags: "p", Federation: "IRL"}, {Rank: 2, PlayerID: 9, Name: "Bob", Rating: 1700}}
	vals := [][]rating.Value{{{Float: 1835.52}, {Int: 3}, {Str: "a"}}, {{Float: 1700.01}, {Int: 0}, {Str: ""}}}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[any](&buf, sh.Schema)
	for i := range rows {
		if _, err := w.Write([]any{sh.Row(rows[i], vals[i])}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := bytes.NewReader(buf.Bytes())
	got := make([]ListRow, 2)
	if n, _ := parquet.NewGenericReader[ListRow](f).Read(got); n != 2 || got[0].Name != "Ann" || got[0].Federation != "IRL" || got[1].Rating != 1700 {
		t.Errorf("records read back %+v", got[:n])
	}
	ar := NewAddedReader(f, sh.Added())
	defer ar.Close()
	for i := range rows {
		v := make([]rating.Value, len(cols))
		if err := ar.Read(v); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v, vals[i]) {
			t.Errorf("row %d: added %v, want %v", i, v, vals[i])
		}
	}
}

// TestShapeNoK: a list of a rule set without K has an optional k column, all
// null, which reads back as 0 and which ListNoK finds; the other lists' k is
// required.
func TestShapeNoK(t *testing.T) {
	cols := []rating.Column{{Name: "glicko_rating", Type: rating.Float64, Decimals: 2}}
	sh := ListShape(cols, true)
	if !ListNoK(sh.Schema) || ListNoK(ListSchema) || ListNoK(ListShape(cols, false).Schema) {
		t.Fatal("ListNoK: want true for the shape without K only")
	}
	if bare := ListShape(nil, true); !ListNoK(bare.Schema) {
		t.Error("a list without K and without added columns has a required k")
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[any](&buf, sh.Schema)
	if _, err := w.Write([]any{sh.Row(ListRow{Rank: 1, PlayerID: 7, Name: "Ann", Rating: 1835, K: 20}, []rating.Value{{Float: 1835.2}})}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := bytes.NewReader(buf.Bytes())
	pf, err := parquet.OpenFile(f, f.Size())
	if err != nil {
		t.Fatal(err)
	}
	if !ListNoK(pf.Schema()) {
		t.Error("the file's k is not optional")
	}
	k, _ := pf.Schema().Lookup("k")
	if pg, err := pf.RowGroups()[0].ColumnChunks()[k.ColumnIndex].Pages().ReadPage(); err != nil || pg.NumNulls() != 1 {
		t.Errorf("k is not null (%v)", err)
	}
	got := make([]ListRow, 1)
	if n, _ := parquet.NewGenericReader[ListRow](f).Read(got); n != 1 || got[0].K != 0 || got[0].Rating != 1835 {
		t.Errorf("read back %+v", got[:n])
	}
}
