package correct

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/ratelist/ratelist/archive"
)

// playerFields are the players columns a correction may set, with their
// types: the archive's (archive.PlayerColumns) and who a player is for other
// bodies (archive.PlayerInfoColumns). player_id is not one: merge two ids
// instead. Other columns a players table has are set as text.
var playerFields = func() map[string]archive.Column {
	m := map[string]archive.Column{}
	for _, c := range append(append([]archive.Column(nil), archive.PlayerColumns[1:]...), archive.PlayerInfoColumns...) {
		m[c.Name] = c
	}
	return m
}()

// fieldNames lists the fields for messages.
func fieldNames() string {
	var names []string
	for _, c := range append(append([]archive.Column(nil), archive.PlayerColumns[1:]...), archive.PlayerInfoColumns...) {
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}

// Assignment is one FIELD=VALUE of a correction to a player; Null is an
// empty value.
type Assignment struct {
	Field, Value string
	Null         bool
}

// ParseAssignment reads FIELD=VALUE. Whether the field and value are good is
// checked against the archive (SetPlayer).
func ParseAssignment(s string) (Assignment, error) {
	field, value, ok := strings.Cut(s, "=")
	field = fieldName(field)
	if !ok || field == "" {
		return Assignment{}, fmt.Errorf("%q: want FIELD=VALUE: %w", s, ErrUsage)
	}
	value = strings.TrimSpace(value)
	return Assignment{Field: field, Value: value, Null: value == ""}, nil
}

// fieldName is a field as written: the schema's name when it is one of
// playerFields in other case (Name, FIDE_RATING).
func fieldName(s string) string {
	s = strings.TrimSpace(s)
	if _, ok := playerFields[strings.ToLower(s)]; ok {
		return strings.ToLower(s)
	}
	return s
}

// checkField checks that a players table with the given columns can hold
// field: one of playerFields, or a column of its own outside the schema.
func checkField(field string, has func(string) bool) error {
	if _, ok := playerFields[field]; ok || (field != "player_id" && has(field)) {
		return nil
	}
	if field == "player_id" {
		return fmt.Errorf("field player_id cannot be set: merge the two ids instead (ratelist archive merge-players): %w", ErrUsage)
	}
	return fmt.Errorf("unknown field %q: the players table has %s: %w", field, fieldNames(), ErrUsage)
}

// checkValue checks value a for its field as the run reads the players table
// and returns it as the table keeps it (integers and dates in their plain
// form, title and federation in upper case, sex m or w).
func checkValue(a Assignment) (Assignment, error) {
	bad := func(format string, args ...any) (Assignment, error) {
		return a, fmt.Errorf("%s=%s: %s: %w", a.Field, a.Value, fmt.Sprintf(format, args...), ErrUsage)
	}
	if a.Null {
		if a.Field == "name" {
			return bad("name cannot be empty")
		}
		return a, nil
	}
	if why := archive.CheckText(a.Value); why != "" {
		return bad("%s", why)
	}
	if strings.IndexFunc(a.Value, unicode.IsControl) >= 0 {
		return bad("a control character")
	}
	c, known := playerFields[a.Field]
	if !known || c.Type == archive.String {
		switch a.Field {
		case "sex":
			a.Value = strings.ToLower(a.Value)
			if a.Value == "f" {
				a.Value = "w"
			}
			if a.Value != "m" && a.Value != "w" {
				return bad("sex is m or w")
			}
		case "title":
			a.Value = strings.ToUpper(a.Value)
			if len(a.Value) > 4 || strings.IndexFunc(a.Value, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
				return bad("a title is FIDE's code, such as GM, IM, WGM, FM, CM")
			}
		case "federation":
			a.Value = strings.ToUpper(a.Value)
			if len(a.Value) != 3 || strings.IndexFunc(a.Value, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
				return bad("a federation is a three-letter code, such as CZE")
			}
		}
		return a, nil
	}
	v, err := archive.ParseCell(c.Type, a.Value)
	if err != nil {
		return bad("%v", err)
	}
	lo, hi := int64(1), int64(1<<63-1)
	switch a.Field {
	case "category":
		lo, hi = 1, 4
	case "fide_rating":
		lo, hi = 0, 4000
	case "birth_year":
		lo, hi = 1850, 2200
	}
	if c.Type != archive.Date && (v < lo || v > hi) {
		return bad("out of range %d–%d", lo, hi)
	}
	if c.Type != archive.Date {
		a.Value = strconv.FormatInt(v, 10)
	}
	return a, nil
}

// logValue is a cell as the log shows it: a number for an integer field,
// else its text; nil for null.
func logValue(field, text string, null bool) any {
	if null {
		return nil
	}
	if c, ok := columnType(field); ok && (c == archive.Int || c == archive.Int32) {
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return v
		}
	}
	return text
}

// columnType is the type of an archive column (any table's) called name.
func columnType(name string) (archive.Type, bool) {
	for _, t := range archive.Tables {
		for _, c := range t.Columns {
			if c.Name == name {
				return c.Type, true
			}
		}
	}
	for _, c := range archive.PlayerInfoColumns {
		if c.Name == name {
			return c.Type, true
		}
	}
	return 0, false
}
