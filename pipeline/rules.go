package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/joker"
	"github.com/ratelist/ratelist/tiebreak"
)

// Rules is everything configurable about a run: the rule set and the settings
// of every registered rule set, the Joker rules and the standings options. A
// rules file (TOML) names a base rule set and overrides any setting:
//
//	base = "school"
//	[school]
//	stage = 2
//	[tiebreaks.ljv]
//	base_rating = 2000
type Rules struct {
	Base      string
	sets      map[string]rating.Settings // by rule set name, every registered one
	Joker     joker.Rules
	Tiebreaks tiebreak.Options
}

// Settings returns the settings of the rule set registered as name (nil for
// none), as a pointer of the rule set's own type.
func (r Rules) Settings(name string) rating.Settings { return r.sets[name] }

// definition is the base rule set's registry entry.
func (r Rules) definition() (*rating.Definition, error) {
	d, ok := rating.Lookup(r.Base)
	if !ok {
		return nil, fmt.Errorf("%w: unknown rule set %q (want %s or a TOML file)", ErrUsage, r.Base, RuleSetNames())
	}
	return d, nil
}

// RuleSetNames lists the registered rule sets, comma-separated, in
// registration order (the default first).
func RuleSetNames() string {
	var names []string
	for _, d := range rating.Definitions() {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// DefaultRuleSet is the name of the rule set a run uses when none is named.
func DefaultRuleSet() string { return rating.Default().Name }

// DefaultRules returns the named registered rule set with its default settings.
func DefaultRules(name string) (Rules, error) {
	if name == "" {
		name = rating.Default().Name
	}
	r := Rules{Base: name, sets: map[string]rating.Settings{}, Joker: joker.DefaultRules()}
	if _, err := r.definition(); err != nil {
		return Rules{}, err
	}
	for _, d := range rating.Definitions() {
		r.sets[d.Name] = d.Defaults()
	}
	return r, nil
}

// LoadRules resolves --rules: a registered rule set's name, or a TOML file
// overriding one.
func LoadRules(arg string) (Rules, error) {
	if _, ok := rating.Lookup(arg); ok || arg == "" {
		return DefaultRules(arg)
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		return Rules{}, fmt.Errorf("%w: read rules file: %w", ErrUsage, err)
	}
	return ParseRules(arg, data)
}

// ParseRules reads a rules file's text. Unknown keys are errors: a misspelt
// setting must not be silently ignored.
func ParseRules(name string, data []byte) (Rules, error) {
	var head struct {
		Base string `toml:"base"`
	}
	if _, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&head); err != nil {
		return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
	}
	r, err := DefaultRules(head.Base)
	if err != nil {
		return Rules{}, fmt.Errorf("rules file %s: %w", name, err)
	}
	doc := r.document()
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(doc.Addr().Interface())
	if err != nil {
		return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		var keys []string
		for _, k := range und {
			keys = append(keys, k.String())
		}
		return Rules{}, fmt.Errorf("%w: rules file %s: unknown settings: %s", ErrUsage, name, strings.Join(keys, ", "))
	}
	r.fromDocument(doc)
	if r.Base == "" {
		r.Base = rating.Default().Name
	}
	for _, d := range rating.Definitions() {
		if err := r.sets[d.Name].Check(); err != nil {
			return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
		}
	}
	if err := r.Joker.Check(); err != nil {
		return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
	}
	if err := r.Tiebreaks.Check(); err != nil {
		return Rules{}, fmt.Errorf("%w: rules file %s: %w", ErrUsage, name, err)
	}
	return r, nil
}

// document returns r as the TOML document of a rules file: a struct built for
// the registered rule sets, with base, then one table per rule set in
// registration order, then joker and tiebreaks.
func (r Rules) document() reflect.Value { return r.documentOf(rating.Definitions()) }

// documentOf is document for the rule sets defs.
func (r Rules) documentOf(defs []*rating.Definition) reflect.Value {
	fields := []reflect.StructField{{Name: "Base", Type: reflect.TypeOf(""), Tag: `toml:"base"`}}
	for i, d := range defs {
		fields = append(fields, reflect.StructField{
			Name: fmt.Sprintf("Set%d", i), Type: reflect.TypeOf(d.Defaults()).Elem(), Tag: reflect.StructTag(`toml:"` + d.Name + `"`),
		})
	}
	fields = append(fields,
		reflect.StructField{Name: "Joker", Type: reflect.TypeOf(r.Joker), Tag: reflect.StructTag(`toml:"` + joker.Name + `"`)},
		reflect.StructField{Name: "Tiebreaks", Type: reflect.TypeOf(r.Tiebreaks), Tag: `toml:"tiebreaks"`})
	doc := reflect.New(reflect.StructOf(fields)).Elem()
	doc.Field(0).SetString(r.Base)
	for i, d := range defs {
		s := r.sets[d.Name]
		if s == nil {
			s = d.Defaults()
		}
		doc.Field(1 + i).Set(reflect.ValueOf(s).Elem())
	}
	doc.Field(1 + len(defs)).Set(reflect.ValueOf(r.Joker))
	doc.Field(2 + len(defs)).Set(reflect.ValueOf(r.Tiebreaks))
	return doc
}

// fromDocument takes the settings back from a decoded document.
func (r *Rules) fromDocument(doc reflect.Value) {
	defs := rating.Definitions()
	r.Base = doc.Field(0).String()
	r.sets = map[string]rating.Settings{}
	for i, d := range defs {
		s := reflect.New(doc.Field(1 + i).Type())
		s.Elem().Set(doc.Field(1 + i))
		r.sets[d.Name] = s.Interface().(rating.Settings)
	}
	r.Joker = doc.Field(1 + len(defs)).Interface().(joker.Rules)
	r.Tiebreaks = doc.Field(2 + len(defs)).Interface().(tiebreak.Options)
}
