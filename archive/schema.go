package archive

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
)

// FideID is an optional players column that import writes and matches players
// on; the run does not read it.
var FideID = Column{"fide_id", Int, false}

// Tables lists the archive tables in the order they are read.
var Tables = []Table{
	{"players", PlayerColumns}, {"tournaments", TournamentColumns},
	{"games", GameColumns}, {"tables", TableColumns},
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
