package rating

import (
	"fmt"
	"reflect"
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
}

var tableRegistry []*TableDefinition

// RegisterTables adds a table rule set. It panics on a definition without a
// name, discipline or defaults, or with a name already taken: a program
// error, found when the program starts.
func RegisterTables(d *TableDefinition) {
	if d.Name == "" || d.Discipline == "" || d.Defaults == nil {
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
