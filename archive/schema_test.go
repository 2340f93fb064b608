package archive

import (
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestRowsFollowSchema: the Row types write exactly the schema's columns, in
// order, with the schema's types, required columns as Parquet REQUIRED and
// optional ones as OPTIONAL.
func TestRowsFollowSchema(t *testing.T) {
	for _, tc := range []struct {
		row  any
		cols []Column
	}{
		{PlayerRow{}, append(append([]Column(nil), PlayerColumns...), PlayerInfoColumns...)},
		{TournamentRow{}, TournamentColumns},
		{GameRow{}, GameColumns},
		{TableRow{}, TableColumns},
		{TeamRow{}, TeamColumns},
		{TeamPlayerRow{}, TeamPlayerColumns},
		{TeamByeRow{}, TeamByeColumns},
	} {
		s := parquet.SchemaOf(tc.row)
		name := reflect.TypeOf(tc.row).Name()
		if err := Conforms(s, tc.cols); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if len(s.Fields()) != len(tc.cols) {
			t.Errorf("%s: %d columns, the schema has %d", name, len(s.Fields()), len(tc.cols))
		}
		for i, f := range s.Fields() {
			if f.Optional() == tc.cols[i].Required {
				t.Errorf("%s.%s: optional %v, required %v", name, f.Name(), f.Optional(), tc.cols[i].Required)
			}
		}
	}
}

// TestConformsRefuses: what Conforms must catch.
func TestConformsRefuses(t *testing.T) {
	type (
		renamed struct {
			ID   int64  `parquet:"player"`
			Name string `parquet:"name"`
		}
		swapped struct {
			Name string `parquet:"name"`
			ID   int64  `parquet:"player_id"`
		}
		optionalID struct {
			ID   *int64 `parquet:"player_id,optional"`
			Name string `parquet:"name"`
		}
		noName struct {
			ID int64 `parquet:"player_id"`
		}
		textYear struct {
			ID   int64  `parquet:"player_id"`
			Name string `parquet:"name"`
			Year string `parquet:"birth_year"`
		}
		enough struct {
			ID   int64   `parquet:"player_id"`
			Name string  `parquet:"name"`
			Club *string `parquet:"club,optional"`
		}
	)
	for _, row := range []any{renamed{}, swapped{}, optionalID{}, noName{}, textYear{}} {
		if err := Conforms(parquet.SchemaOf(row), PlayerColumns); err == nil {
			t.Errorf("%T conforms", row)
		}
	}
	if err := Conforms(parquet.SchemaOf(enough{}), PlayerColumns); err != nil {
		t.Errorf("required columns and one optional: %v", err)
	}
}

// TestColumnPositions: the position constants name the columns they index.
func TestColumnPositions(t *testing.T) {
	for _, tc := range []struct {
		cols []Column
		pos  map[int]string
	}{
		{GameColumns, map[int]string{
			GameTournamentID: "tournament_id", GameRound: "round", GameDate: "date", GameWhiteID: "white_id",
			GameBlackID: "black_id", GameWhiteResult: "white_result", GameBlackResult: "black_result",
			GameWhitePoints: "white_points", GameBlackPoints: "black_points",
		}},
		{TableColumns, map[int]string{
			TableGameID: "game_id", TableTournamentID: "tournament_id", TablePlayedAt: "played_at",
			TablePlayerID: "player_id", TablePlace: "place", TableScore: "score", TableLeftTable: "left_table",
			TableStoppedPulka: "stopped_pulka",
		}},
	} {
		if len(tc.pos) != len(tc.cols) {
			t.Errorf("%d positions for %d columns", len(tc.pos), len(tc.cols))
		}
		for i, name := range tc.pos {
			if tc.cols[i].Name != name {
				t.Errorf("position %d is %s, the constant names %s", i, tc.cols[i].Name, name)
			}
		}
	}
}
