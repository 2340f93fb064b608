package archive

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Type is a column's type: how its cells are written and how a Reader decodes
// them into a Batch.
type Type uint8

const (
	Int    Type = iota // an int64 (ids), in Batch.Ints
	Int32              // an int32 (rounds, years, ratings, points), in Batch.Ints
	String             // text, in Batch.Strs
	Date               // a date: days since 1970-01-01, in Batch.Ints
	Time               // a timestamp or a date: microseconds since 1970-01-01 UTC, in Batch.Ints
	Bool               // 0 or 1, in Batch.Ints
	Code               // a TRF result code byte ('1', '=', 'H', …), in Batch.Ints
)

// Column is one column of an archive table.
type Column struct {
	Name string
	Type Type
	// Required: the column must be present and every row must fill it (a row
	// that leaves it empty is rejected).
	Required bool
}

// Table is one archive table: its name (the file is NAME.parquet, NAME.csv or
// the folder NAME/) and its columns.
type Table struct {
	Name    string
	Columns []Column
}

// The archive tables. Columns not listed here are ignored by the run.
var (
	PlayerColumns = []Column{
		{"player_id", Int, true}, {"name", String, true}, {"birth_year", Int32, false},
		{"category", Int32, false}, {"fide_rating", Int32, false}, {"club", String, false},
	}
	TournamentColumns = []Column{
		{"tournament_id", Int, true}, {"name", String, true}, {"start_date", Date, true},
		{"end_date", Date, true}, {"system", String, false}, {"rounds", Int32, false},
		{"discipline", String, false}, {"rated", Bool, false}, {"tiebreaks", String, false},
		{"time_class", String, false},
	}
	GameColumns = []Column{
		{"tournament_id", Int, true}, {"round", Int32, true}, {"date", Date, false},
		{"white_id", Int, true}, {"black_id", Int, false},
		{"white_result", Code, true}, {"black_result", Code, false},
		{"white_points", Int32, false}, {"black_points", Int32, false},
	}
	// TableColumns are the columns of the Joker tables table (one row per
	// player per game).
	TableColumns = []Column{
		{"game_id", Int, true}, {"tournament_id", Int, false}, {"played_at", Time, true},
		{"player_id", Int, true}, {"place", Int32, true}, {"score", Int32, true},
		{"left_table", Bool, false}, {"stopped_pulka", Int32, false},
	}
	// TeamColumns are the columns of the teams table: the teams of a team
	// competition, one row per team.
	TeamColumns = []Column{
		{"tournament_id", Int, true}, {"team", Int32, true}, {"name", String, true},
		{"club", String, false},
	}
	// TeamPlayerColumns are the columns of the team_players table: a team's
	// players in its list order (round empty), or its board order in one round.
	TeamPlayerColumns = []Column{
		{"tournament_id", Int, true}, {"team", Int32, true}, {"player_id", Int, true},
		{"board", Int32, true}, {"round", Int32, false},
	}
	// TeamByeColumns are the columns of the team_byes table: the
	// pairing-allocated byes a team competition declares (TRF-2026 320), one row
	// per team and round, with the bye's points in half-points.
	TeamByeColumns = []Column{
		{"tournament_id", Int, true}, {"team", Int32, true}, {"round", Int32, true},
		{"match_half_points", Int32, true}, {"game_half_points", Int32, true},
	}
)

// Positions of the columns in GameColumns, as a Batch of games holds them.
const (
	GameTournamentID = iota
	GameRound
	GameDate
	GameWhiteID
	GameBlackID
	GameWhiteResult
	GameBlackResult
	GameWhitePoints
	GameBlackPoints
)

// Positions of the columns in TableColumns, as a Batch of tables rows holds them.
const (
	TableGameID = iota
	TableTournamentID
	TablePlayedAt
	TablePlayerID
	TablePlace
	TableScore
	TableLeftTable
	TableStoppedPulka
)

// FideID is an optional players column that import writes and matches players
// on; the run carries it onto the lists.
var FideID = Column{"fide_id", Int, false}

// PlayerInfoColumns are the optional players columns after PlayerColumns that
// say who a player is for other bodies (FIDE, pairing programs): import fills
// them, the run carries them as they are onto the lists (Parquet and Arrow),
// the exports read them. sex is m or w, title a FIDE title (GM, IM, WGM, …),
// federation a three-letter code.
var PlayerInfoColumns = []Column{
	FideID, {"federation", String, false}, {"sex", String, false},
	{"title", String, false}, {"birth_date", Date, false},
}

// Tables lists the archive tables in the order they are read.
var Tables = []Table{
	{"players", PlayerColumns}, {"tournaments", TournamentColumns},
	{"games", GameColumns}, {"tables", TableColumns},
	{"teams", TeamColumns}, {"team_players", TeamPlayerColumns},
	{"team_byes", TeamByeColumns},
}

// Lookup returns the table called name.
func Lookup(name string) (Table, bool) {
	for _, t := range Tables {
		if t.Name == name {
			return t, true
		}
	}
	return Table{}, false
}

// Conforms tells whether files written with the Parquet schema s are a form of
// the table with columns cols that the Reader takes: each of s's columns is one
// of cols, in their order, of the Parquet type written for the column's Type
// (INT64, INT32, DATE, TIMESTAMP, BOOLEAN, or text for String and Code), and
// every required column is there and not optional. Writers of archives (import,
// the generator) hold their row types to the schema with it.
func Conforms(s *parquet.Schema, cols []Column) error {
	next := 0
	for _, f := range s.Fields() {
		i := next
		for i < len(cols) && cols[i].Name != f.Name() {
			if cols[i].Required {
				return fmt.Errorf("required column %s missing before %s", cols[i].Name, f.Name())
			}
			i++
		}
		if i == len(cols) {
			return fmt.Errorf("column %s is not in the schema or out of its order", f.Name())
		}
		c := cols[i]
		if c.Required && f.Optional() {
			return fmt.Errorf("column %s is required, written as optional", c.Name)
		}
		if got, want := writtenType(f.Type()), c.Type; got != want && !(want == Code && got == String) {
			return fmt.Errorf("column %s is written as type %d, the schema has %d", c.Name, got, want)
		}
		next = i + 1
	}
	for _, c := range cols[next:] {
		if c.Required {
			return fmt.Errorf("required column %s missing", c.Name)
		}
	}
	return nil
}

// writtenType is the Type a Parquet column type is written for.
func writtenType(pt parquet.Type) Type {
	if lt := pt.LogicalType(); lt != nil {
		switch lt.Value.(type) {
		case *format.DateType:
			return Date
		case *format.TimestampType:
			return Time
		}
	}
	switch pt.Kind() {
	case parquet.Boolean:
		return Bool
	case parquet.Int32:
		return Int32
	case parquet.Int64:
		return Int
	}
	return String
}

// The time classes of the tournaments table's time_class column: the FIDE
// classes of play by the time each player has.
const (
	TimeStandard = "standard"
	TimeRapid    = "rapid"
	TimeBlitz    = "blitz"
)

// IsTimeClass tells whether s is one of the time classes.
func IsTimeClass(s string) bool { return s == TimeStandard || s == TimeRapid || s == TimeBlitz }
