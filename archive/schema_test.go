package archive

import (
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// TestRowsFollowSchema: the Row types write exactly the schema's columns, in
// order, with the schema's types, required columns as Parquet REQUIRED and
// optional ones as OPTIONAL.
func TestRowsFollowSchema(t *testing.T) {
	for _, tc := range []struct {
		row  any
		cols []Column
	}{
		{PlayerRow{}, append(append([]Column(nil), PlayerColumns...), FideID)},
		{TournamentRow{}, TournamentColumns},
		{GameRow{}, GameColumns},
		{TableRow{}, TableColumns},
	} {
		fields := parquet.SchemaOf(tc.row).Fields()
		name := reflect.TypeOf(tc.row).Name()
		if len(fields) != len(tc.cols) {
			t.Fatalf("%s: %d columns, the schema has %d", name, len(fields), len(tc.cols))
		}
		for i, f := range fields {
			c := tc.cols[i]
			if f.Name() != c.Name || f.Optional() == c.Required {
				t.Errorf("%s column %d: %s optional=%v, want %s required=%v", name, i, f.Name(), f.Optional(), c.Name, c.Required)
			}
			want := c.Type
			if want == Code { // result codes are written as text
				want = String
			}
			if got := parquetType(f.Type()); got != want {
				t.Errorf("%s.%s: type %v, want %v", name, c.Name, got, want)
			}
		}
	}
}

// parquetType is the schema Type a Parquet column type stands for.
func parquetType(pt parquet.Type) Type {
	if lt := pt.LogicalType(); lt != nil {
		switch lt.Value.(type) {
		case *format.DateType:
			return Date
		case *format.TimestampType:
			return Time
		}
	}
	switch {
	case pt.Kind() == parquet.Boolean:
		return Bool
	case pt.Kind() == parquet.Int32:
		return Int32
	case pt.Kind() == parquet.Int64:
		return Int
	}
	return String
}
