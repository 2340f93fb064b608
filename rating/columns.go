package rating

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
)

// Type is the type of a column a rule set declares.
type Type uint8

// The types of declared columns.
const (
	Int64 Type = iota + 1
	Float64
	String
)

// Column is one column a rule set adds to its lists or cards: the outputs'
// Parquet schema, CSV header, Arrow file and the site's tables are made from
// it.
type Column struct {
	Name string // in the Parquet schema, the CSV header and the site's data
	Type Type
	// Decimals is how many digits a Float64 is printed with after the point
	// (CSV, site, officer's tables), the rule set rounding the value it hands
	// on to them; 0 prints the shortest form that reads back exactly.
	Decimals int
	Title    string // the site's column heading; "" is Name
	// Incompressible: an unrounded Float64 column whose values Snappy hardly
	// shrinks once they stop repeating. A Parquet column chunk of it is
	// compressed only when a sample of it shrinks by an eighth, else stored
	// uncompressed: the same values, less CPU.
	Incompressible bool
}

// Format prints a value of the column as the CSV and the tables do.
func (c *Column) Format(v Value) string {
	switch c.Type {
	case Int64:
		return strconv.FormatInt(v.Int, 10)
	case Float64:
		return strconv.FormatFloat(v.Float, 'f', cmp.Or(c.Decimals, -1), 64)
	}
	return v.Str
}

// Heading is the site's column heading.
func (c *Column) Heading() string {
	if c.Title != "" {
		return c.Title
	}
	return c.Name
}

// Columns are the columns a rule set adds after the contract's own, in
// order. The contract's are, on a list, rank, player_id, name, rating,
// change, games_period, games_total, k, category, flags (the Parquet list
// then has the registry's federation, sex, title, fide_id, birth_date); on
// the cards those of the Card fields (cards.parquet) and of the per-game
// cards (card_games.parquet).
type Columns struct {
	List  []Column // lists/LABEL.csv, .parquet and .arrow, after flags
	Cards []Column // cards.parquet, after the contract's columns
	Games []Column // card_games.parquet, after the contract's columns
	// RankBy names a Float64 column of List that ranks the list (highest
	// first, then player_id) instead of rating: its values are compared as
	// printed, at Decimals digits.
	RankBy string
	// NoK: the rule set has no K factor. Its lists' k column is empty (null
	// in Parquet and Arrow) instead of 0, and its cards' expected (a game's
	// pd) is set on every card, not only on those rated with a K.
	NoK bool
}

// Value is one value of a declared column: Int for Int64, Float for
// Float64, Str for String.
type Value struct {
	Int   int64
	Float float64
	Str   string
}

// Extras is implemented by a rule set that declares columns of its own
// (Definition.Columns): the pipeline asks it for their values, row by row.
type Extras interface {
	// ListValues fills row, a value per column of Columns.List, for player
	// p of the list being taken (st as of the period's close).
	ListValues(st *State, p int32, row []Value)
	// CardValues fills row for card i of the slice of cards the rule set
	// handed on last (Rate's result, or emit's argument in ClosePeriod): a
	// value per column of Columns.Games for a per-game card, of
	// Columns.Cards for any other.
	CardValues(i int, row []Value)
}

// The contract's own column names, which a rule set's may not take.
var (
	listNames = []string{"rank", "player_id", "name", "rating", "change", "games_period", "games_total", "k", "category", "flags",
		"federation", "sex", "title", "fide_id", "birth_date"}
	cardNames = []string{"period", "tournament_id", "end_date", "player_id", "name", "stage", "rating_before", "games", "score",
		"opponents_average", "d", "expected", "k", "change_unrounded", "change", "rating_after", "reason", "rating_used"}
	gameNames = []string{"period", "player_id", "tournament_id", "end_date", "opponent_id", "opponent_rating", "w", "d", "pd",
		"change_unrounded", "reason"}
)

var columnName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Check reports a declaration the outputs cannot be made from: a column
// without a type, a name that is not lower_snake_case or is taken (by the
// contract's columns or another of the same file), decimals on a column that
// is not Float64, or a RankBy that names no Float64 list column.
func (c *Columns) Check() error {
	for _, f := range []struct {
		file  string
		cols  []Column
		taken []string
	}{{"list", c.List, listNames}, {"cards", c.Cards, cardNames}, {"card games", c.Games, gameNames}} {
		seen := slices.Clone(f.taken)
		for _, col := range f.cols {
			switch {
			case !columnName.MatchString(col.Name):
				return fmt.Errorf("%s column %q: want lower_snake_case", f.file, col.Name)
			case slices.Contains(seen, col.Name):
				return fmt.Errorf("%s column %q: the name is taken", f.file, col.Name)
			case col.Type < Int64 || col.Type > String:
				return fmt.Errorf("%s column %q: no type", f.file, col.Name)
			case col.Decimals < 0 || col.Decimals > 15 || col.Decimals > 0 && col.Type != Float64:
				return fmt.Errorf("%s column %q: decimals %d on a column of type %d", f.file, col.Name, col.Decimals, col.Type)
			case col.Incompressible && (col.Type != Float64 || col.Decimals > 0):
				return fmt.Errorf("%s column %q: incompressible, but not an unrounded Float64", f.file, col.Name)
			}
			seen = append(seen, col.Name)
		}
	}
	if c.RankBy != "" {
		i := slices.IndexFunc(c.List, func(col Column) bool { return col.Name == c.RankBy })
		if i < 0 || c.List[i].Type != Float64 {
			return fmt.Errorf("rank_by %q: not a Float64 list column", c.RankBy)
		}
	}
	return nil
}
