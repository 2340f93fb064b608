package rating

import (
	"fmt"
	"reflect"
	"time"

	"github.com/ratelist/ratelist/day"
)

// TableDefinition is a rule set of a discipline played at tables of more
// than two players (Joker): its games are rows of the tables table, not of
// games, and it publishes lists and cards of its own, beside the base rule
// set's. Every registered one is in every run; a rules file sets it in its
// table ([NAME]).
type TableDefinition struct {
	Name       string // its table in a rules file, its lists' folder (lists/NAME/)
	Title      string // its name in messages and pages ("Joker")
	Discipline string // the tournaments' discipline whose games it rates
	// Defaults returns a new pointer to the built-in settings; a rules file
	// overrides them key by key.
	Defaults func() Settings

	// Site is how the site shows its lists and cards.
	Site TableSite

	// The rating and its files, as the pipeline's tables pass drives them.

	// New returns the rating of one run with settings s (of Defaults' type,
	// as the rules file set them), or why the settings are unusable.
	New func(s Settings) (TableRules, error)
	// List is the row of its list of a period (lists/NAME/PERIOD.csv and
	// .parquet); Cards, of its audit file (NAME_cards.parquet), one per
	// player per rated game.
	List, Cards TableFile
}

// TableFile declares the rows of one of a table rule set's files.
type TableFile struct {
	// Schema is the root name of the Parquet schema: part of the file's
	// bytes, so it never changes.
	Schema string
	// Row is a zero row: a struct whose exported fields, by their parquet
	// tags, are the Parquet columns in order.
	Row any
	// CSVHeader and AppendCSV give a list's CSV form: the header line, and
	// the lines of rows (a slice of Row's type) appended to b.
	CSVHeader string
	AppendCSV func(b []byte, rows any) []byte
}

// TableRules is a table rule set's rating of one run (TableDefinition.New).
type TableRules interface {
	// CheckGame checks the rows of one game together, in seat order
	// (CompareTableSeats): nil, or why every row of the game is rejected.
	// partial says another row of the game was rejected on its own; ids[p]
	// is the player_id of dense index p, for the reason. An error with a
	// RejectKind method names the kind rejects are grouped by
	// (summary.json's reject_kinds); any other is "game".
	CheckGame(rows []TableRow, partial bool, ids []int64) error
	// Start returns the rater of the run's games, no player rated yet.
	Start(p TablePlayers) TableRater
}

// TablePlayers are what a table rule set's rows name players and
// tournaments by: TableRow's dense indexes.
type TablePlayers struct {
	IDs         []int64  // player_id by dense player index
	Names       []string // name by dense player index
	Tournaments []int64  // tournament_id by TableRow.Tour
}

// TableRater rates a run's good games in rating order (TableKey.Compare)
// and gives the list at each period's close.
type TableRater interface {
	// Rate rates one game that passed CheckGame, its rows in seat order, in
	// list period period (a label). It keeps the game's card rows and
	// returns how many it holds; an error is a defect, not bad input.
	Rate(rows []TableRow, period string) (held int, err error)
	// Cards hands over the card rows held (a slice of Cards.Row's type);
	// they stay valid until the next Rate.
	Cards() (rows any)
	// List returns the list as the ratings stand (a new slice of List.Row's
	// type), ranked, and its number of rows.
	List() (rows any, n int)
	// Summary returns its own summary fields, in order: in summary.json
	// after games_rejected.
	Summary() []SummaryField
}

var tableRegistry []*TableDefinition

// RegisterTables adds a table rule set. It panics on a definition without a
// name, discipline or defaults, or with a name already taken: a program
// error, found when the program starts.
func RegisterTables(d *TableDefinition) {
	if d.Name == "" || d.Discipline == "" || d.Defaults == nil || d.New == nil || d.List.Row == nil || d.Cards.Row == nil || d.List.AppendCSV == nil {
		panic(fmt.Sprintf("rating: incomplete table rule set definition %q", d.Name))
	}
	if _, ok := Lookup(d.Name); ok || TablesOf(d.Discipline) != nil {
		panic(fmt.Sprintf("rating: table rule set %q registered twice", d.Name))
	}
	if t := reflect.TypeOf(d.Defaults()); t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("rating: rule set %q: settings must be a pointer to a struct, not %s", d.Name, t))
	}
	for _, t := range tableRegistry {
		if t.Name == d.Name {
			panic(fmt.Sprintf("rating: table rule set %q registered twice", d.Name))
		}
	}
	tableRegistry = append(tableRegistry, d)
}

// TablesOf returns the table rule set of discipline, or nil when its games
// are two-player games (the games table).
func TablesOf(discipline string) *TableDefinition {
	for _, d := range tableRegistry {
		if d.Discipline == discipline {
			return d
		}
	}
	return nil
}

// TableDefinitions returns every registered table rule set, in registration
// order.
func TableDefinitions() []*TableDefinition { return tableRegistry }

// TableRow is one row of the tables table (one player in one game) that
// passed the checks needing no other row. Place and Pulka keep out-of-range
// values (TablePlace, TablePulka) so that a rule set's CheckGame can name
// them.
type TableRow struct {
	Game   int64 // game_id
	At     int64 // played_at, microseconds since 1970-01-01 UTC
	Tour   int32 // the tournament as the caller numbers it; -1 for a casual game
	Player int32 // dense player index
	Score  int32
	Place  int32 // as given, clamped to -1..99
	Pulka  int32 // stopped_pulka as given, clamped to 0..99, or PulkaNull, PulkaNegative
	Left   bool  // left_table
}

// The values of TableRow.Pulka that are not a pulka.
const (
	PulkaNull     = -1 // stopped_pulka null: the game was played to the end
	PulkaNegative = -2 // stopped_pulka given but negative
)

// TablePlace is a place as given, clamped so that it stays out of range when
// it is.
func TablePlace(v int64) int32 { return int32(max(-1, min(v, 99))) }

// TablePulka is stopped_pulka as given (null when null is set) for
// TableRow.Pulka.
func TablePulka(v int64, null bool) int32 {
	switch {
	case null:
		return PulkaNull
	case v < 0:
		return PulkaNegative
	}
	return int32(min(v, 99))
}

// CompareTableSeats orders rows into games and each game's rows into seats:
// by game_id, then dense player index (player_id order).
func CompareTableSeats(a, b *TableRow) int {
	switch {
	case a.Game != b.Game:
		return sign(a.Game < b.Game)
	case a.Player != b.Player:
		return sign(a.Player < b.Player)
	}
	return 0
}

// sign is -1 when less, else 1. CompareTableSeats and TableKey.Compare use it
// rather than cmp.Compare so that they inline into sorts.
func sign(less bool) int {
	if less {
		return -1
	}
	return 1
}

// TableKey is a game's place in rating order: played_at, then game_id.
type TableKey struct{ At, Game int64 }

// Key returns the rating-order key of the row's game.
func (r *TableRow) Key() TableKey { return TableKey{r.At, r.Game} }

// Compare orders keys in rating order.
func (k TableKey) Compare(o TableKey) int {
	switch {
	case k.At != o.At:
		return sign(k.At < o.At)
	case k.Game != o.Game:
		return sign(k.Game < o.Game)
	}
	return 0
}

// Day is the day the game was played, in days since 1970-01-01 UTC: the
// day that places it in a list period.
func (k TableKey) Day() int32 { return int32(day.FromMicros(k.At)) }

// FormatPlayedAt spells a played_at (microseconds since 1970-01-01 UTC) as
// reasons show it: RFC 3339, UTC.
func FormatPlayedAt(us int64) string { return time.UnixMicro(us).UTC().Format(time.RFC3339Nano) }
