package rating

import (
	"fmt"
	"reflect"
	"slices"
)

// RuleSet is what the pipeline drives, whatever the rating system. The school
// system rates tournament by tournament (Rate does the work, ClosePeriod
// nothing); FIDE rates a whole period at once against the period's starting list
// (Rate gathers the games, ClosePeriod computes and applies the changes).
//
// The pipeline calls, in order: for each list period, Rate for every tournament
// whose ListDay falls in that period (in rating order), then ClosePeriod, then
// ListInfo for every player to write the list.
type RuleSet interface {
	// Rates tells whether it rates the rated tournaments of a discipline
	// (chess, scrabble, ...) and time class (standard, rapid, blitz).
	Rates(discipline, timeClass string) bool
	// ListDay maps a tournament's end date (days since 1970-01-01) to a day in
	// the period of the list that first takes it in.
	ListDay(end int32) int32
	// Rate takes one tournament; the returned cards are the audit rows it
	// produced now (the slice may be reused by the next call).
	Rate(st *State, ev *Event) []Card
	// ClosePeriod ends the period whose list is about to be written: first is
	// the period's first day, last its last day. It hands the audit rows it
	// produces to emit, in player order, a slice at a time (emit must not keep
	// the slice), and returns emit's first error.
	ClosePeriod(st *State, first, last int32, emit func([]Card) error) error
	// ListInfo tells whether player p is on the list now, with the K for their
	// next games, their category band and extra flags (e.g. "i"). The pipeline
	// asks only for rated players (st.Rated[p]): nobody unrated is listed.
	ListInfo(st *State, p int32) (listed bool, k int32, category, flags string)
}

// Snapshotter is implemented by rule sets that keep state beyond State, so
// that --resume and --from can save it with the run's state and restore it.
// A snapshot's player indexes are the dense indexes of the registry it was
// saved with: UnmarshalState gets remap, saved index → today's (-1 for a
// player no longer in the registry), or nil when the registry is the same.
// Without it, the rule set's state is State alone.
type Snapshotter interface {
	MarshalState() ([]byte, error)
	UnmarshalState(data []byte, remap []int32) error
}

// StateAppender is implemented by a Snapshotter whose state is large: the
// pipeline then has it append the bytes MarshalState would return to b, a
// buffer it reuses from one saved state to the next.
type StateAppender interface {
	AppendState(b []byte) ([]byte, error)
}

// Restorer is implemented by rule sets that derive something from State: the
// pipeline calls Restored after it put a saved State back.
type Restorer interface {
	Restored(st *State)
}

// Settings are a rule set's settings: a pointer to a struct whose toml tags
// name the keys of the rules file's table for the rule set ([NAME]).
type Settings interface {
	Check() error
}

// The time classes of play (the tournaments table's time_class).
const (
	TimeStandard = "standard"
	TimeRapid    = "rapid"
	TimeBlitz    = "blitz"
)

// TimeClasses are the time classes a rule set rates: a setting
// (time_classes) of the rule sets that rate chess. Not given (nil) is
// standard alone, and leaves the rules' fingerprint as it was before the
// setting existed, so saved states stay valid.
type TimeClasses []string

// Rates tells whether class is one of c (standard when c is not given).
func (c TimeClasses) Rates(class string) bool {
	if c == nil {
		return class == TimeStandard
	}
	return slices.Contains(c, class)
}

// Check reports a time_classes setting of the rules file's table that cannot
// work.
func (c TimeClasses) Check(table string) error {
	if c != nil && len(c) == 0 {
		return fmt.Errorf("%s.time_classes is empty: want some of standard, rapid, blitz", table)
	}
	for i, x := range c {
		if x != TimeStandard && x != TimeRapid && x != TimeBlitz {
			return fmt.Errorf("%s.time_classes: %q: want standard, rapid or blitz", table, x)
		}
		if slices.Contains(c[:i], x) {
			return fmt.Errorf("%s.time_classes: %q given twice", table, x)
		}
	}
	return nil
}

// RatesChess tells whether a chess rule set whose time_classes setting is c
// rates a tournament of discipline and time class class ("" is standard).
func (c TimeClasses) RatesChess(discipline, class string) bool {
	if class == "" {
		class = TimeStandard
	}
	return discipline == "chess" && c.Rates(class)
}

// SummaryField is one of a rule set's own fields of the run summary.
type SummaryField struct {
	Key      string
	Value    int64
	OmitZero bool // leave the field out when Value is 0
}

// Definition is one rule set as the pipeline finds it: by name, in the
// registry. Adding a rule set is a package with its RuleSet and its
// Definition, registered with Register by one line of package rating/all.
type Definition struct {
	Name string
	// Defaults returns a new pointer to the built-in settings; a rules file
	// overrides them key by key.
	Defaults func() Settings
	// New returns a rater for st's players with s (of Defaults' type, checked).
	New func(s Settings, st *State) RuleSet
	// MonthlyLists: the rule set publishes monthly lists only.
	MonthlyLists bool
	// Summary, when set, gives the rule set's own summary fields, in order,
	// from the rater New made (rs) and the state at the run's end.
	Summary func(rs RuleSet, st *State) []SummaryField
	// Columns are the columns it adds to lists and cards; a rule set that
	// declares any implements Extras.
	Columns Columns
	// Flags say what each flag its lists set (ListInfo) means, for the
	// site's legends: "i" → "inactive: ...".
	Flags map[string]string
}

var registry []*Definition

// Register adds a rule set. It panics on a definition without a name,
// defaults or constructor, with a name already taken, or whose columns
// cannot be written (Columns.Check): a program error, found when the
// program starts.
func Register(d *Definition) {
	if d.Name == "" || d.Defaults == nil || d.New == nil {
		panic(fmt.Sprintf("rating: incomplete rule set definition %q", d.Name))
	}
	if _, ok := Lookup(d.Name); ok {
		panic(fmt.Sprintf("rating: rule set %q registered twice", d.Name))
	}
	if t := reflect.TypeOf(d.Defaults()); t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("rating: rule set %q: settings must be a pointer to a struct, not %s", d.Name, t))
	}
	if err := d.Columns.Check(); err != nil {
		panic(fmt.Sprintf("rating: rule set %q: %v", d.Name, err))
	}
	rs := d.New(d.Defaults(), NewState(0))
	if _, ok := rs.(Extras); !ok && (len(d.Columns.List) > 0 || len(d.Columns.Cards) > 0 || len(d.Columns.Games) > 0) {
		panic(fmt.Sprintf("rating: rule set %q declares columns but does not implement Extras", d.Name))
	}
	registry = append(registry, d)
}

// Lookup returns the rule set registered as name.
func Lookup(name string) (*Definition, bool) {
	for _, d := range registry {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

// Default is the rule set a run uses when none is named: the first
// registered.
func Default() *Definition { return registry[0] }

// Definitions returns every registered rule set, in registration order.
func Definitions() []*Definition { return registry }
