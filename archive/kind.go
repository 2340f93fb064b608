package archive

import "fmt"

// Kind is what is wrong with a rejected row. It is set where the row is
// rejected, and rejects are counted and grouped by its name (Problem.KindName):
// summary.json's reject_kinds and validate's report.
type Kind uint8

// The kinds of rejected rows. A column kind's name includes the column at fault.
const (
	KindNone Kind = iota

	// A cell or a row as read.
	KindBareQuote         // CSV: a quote inside an unquoted field
	KindQuote             // CSV: a quoted field not closed right
	KindFieldCount        // CSV: not as many fields as the header
	KindMalformedInteger  // column kind
	KindMalformedDate     // column kind
	KindMalformedTime     // column kind
	KindMalformedBool     // column kind
	KindInvalidResultCode // column kind
	KindNotUTF8           // column kind
	KindControlChar       // column kind: a line break, tab, NUL or other control character in text
	KindWrongType         // column kind: Parquet value of another type, or an invalid code

	// One row on its own.
	KindMissing       // column kind: a required cell is empty
	KindOutOfRange    // column kind: a value the column cannot have
	KindDuplicate     // column kind: an id already read
	KindStartAfterEnd // a tournament's start_date after its end_date
	KindUnknownTournament
	KindWrongDiscipline // a row in the table of another discipline
	KindUnknownPlayer
	KindByeBlackResult // a bye row with a black_result
	KindNotByeCode     // a bye row with a result that is not a bye code
	KindBadPairing     // a player paired against himself or twice in one round
	KindNotMirrored    // results that do not mirror
	KindPointsOneSided // only one of white_points and black_points

	// A table game's rows together, as its table rule set checks them: the
	// rule set names the kind (Problem.Column), which KindName returns.
	KindTableGame

	// The team tables.
	KindUnknownTeam // a team_players row of a team the teams table lacks
	KindTwoTeams    // a player in two teams, or twice in one list, of a tournament
)

// kindNames are the kinds' names as summary.json and validate show them; a
// column kind's name follows "COLUMN: ".
var kindNames = [...]string{
	KindBareQuote:         "malformed CSV: bare",
	KindQuote:             "malformed CSV: extraneous or missing",
	KindFieldCount:        "wrong number of fields",
	KindMalformedInteger:  "malformed integer",
	KindMalformedDate:     "malformed date",
	KindMalformedTime:     "malformed timestamp",
	KindMalformedBool:     "malformed boolean",
	KindInvalidResultCode: "invalid result code",
	KindNotUTF8:           "not valid UTF-8 text",
	KindControlChar:       "control character in text",
	KindWrongType:         "value of the wrong type or an invalid code",
	KindMissing:           "missing",

	KindStartAfterEnd:     "start_date is after end_date",
	KindUnknownTournament: "unknown tournament",
	KindWrongDiscipline:   "tournament",
	KindUnknownPlayer:     "unknown player",
	KindByeBlackResult:    "a bye row",
	KindNotByeCode:        "result '",
	KindBadPairing:        "player",
	KindNotMirrored:       "results '",
	KindPointsOneSided:    "white_points and black_points: give both or neither",
	KindTableGame:         "table game", // when its rule set names none

	KindUnknownTeam: "unknown team",
	KindTwoTeams:    "player listed twice in a tournament's teams",
}

// Problem is why a row is rejected.
type Problem struct {
	Kind   Kind
	Column string // the column a column kind is about, or a KindTableGame's name; "" otherwise
	Reason string // in words, with the values at fault
}

// Problemf is a problem of kind k with column (for a column kind) and the reason format.
func Problemf(k Kind, column, format string, args ...any) Problem {
	return Problem{k, column, fmt.Sprintf(format, args...)}
}

// MissingCell is the problem of an empty required cell of column.
func MissingCell(column string) Problem {
	return Problem{KindMissing, column, column + ": missing"}
}

// KindName is the name rejects are grouped by: the kind's, with its column
// for a column kind ("round: missing", "duplicate player_id", "rounds").
func (p Problem) KindName() string {
	switch {
	case p.Kind == KindDuplicate:
		return "duplicate " + p.Column
	case p.Kind == KindOutOfRange || (p.Kind == KindTableGame && p.Column != ""):
		return p.Column
	case p.Column != "":
		return p.Column + ": " + kindNames[p.Kind]
	}
	return kindNames[p.Kind]
}

// malformedKind is the kind of a cell that does not parse as type t.
func malformedKind(t Type) Kind {
	switch t {
	case Date:
		return KindMalformedDate
	case Time:
		return KindMalformedTime
	case Bool:
		return KindMalformedBool
	case Code:
		return KindInvalidResultCode
	}
	return KindMalformedInteger
}
