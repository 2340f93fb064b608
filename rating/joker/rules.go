package joker

import (
	"fmt"
	"math"

	"github.com/ratelist/ratelist/rating"
)

// Name is the rule set's name: its table in a rules file ([joker]).
const Name = "joker"

// Pulkas is the number of pulkas (sections) in a Joker game.
const Pulkas = 4

// Rules holds every Joker setting. The zero value is not usable: start
// from DefaultRules and override fields (a rules file overrides them by
// their TOML names). Check reports unusable settings.
type Rules struct {
	// LevelWidth is the number of player-rating points per level:
	// level = min(floor(rating / LevelWidth), levels − 1), where the number
	// of levels is len(Gains). Ratings below 0 are level 0.
	LevelWidth int32 `toml:"level_width"`
	// LevelNames are the English level names, lowest first; the Joker list's
	// level_name column uses them. One per level.
	LevelNames []string `toml:"level_names"`
	// LevelNamesKa are the Georgian level names, lowest first (for display;
	// empty or one per level).
	LevelNamesKa []string `toml:"level_names_ka"`
	// Gains is the player-rating change by level (row) and place (column,
	// place 1–4), signed: positive values are gains, negative are losses.
	Gains [][4]int32 `toml:"gains"`
	// LeavePenalties is the player-rating change of a player who left the
	// table, by level (row) and the pulka in which the game stopped (column,
	// pulka 1–4), signed (the defaults are negative). One row per level.
	LeavePenalties [][4]int32 `toml:"leave_penalties"`
	// MultiplierThreshold: a positive Gains value is multiplied by
	// m = max(1, floor(sum of the four levels / 4) − own level) when
	// m ≥ MultiplierThreshold, otherwise by 1. Losses and leave penalties are
	// never multiplied.
	MultiplierThreshold int32 `toml:"multiplier_threshold"`
	// RatingFloor is the lowest player rating: a loss or penalty that would
	// take the rating below it stops at it.
	RatingFloor int32 `toml:"rating_floor"`
	// AllowTiedPlaces allows two or more seats to share a place (places must
	// then form a competition ranking, e.g. 1,1,3,4).
	AllowTiedPlaces bool `toml:"allow_tied_places"`
	// RatedFromPulka: the place table applies when the game is played to the
	// end or stopped in pulka ≥ RatedFromPulka (1–5; 5 means only finished
	// games). The leaver's penalty applies whatever the pulka.
	RatedFromPulka int8 `toml:"rated_from_pulka"`
	// LeaverAlsoPlaced gives a leaver the place table change in addition to
	// the leave penalty when the place table applies. Default false: the
	// penalty replaces the place change.
	LeaverAlsoPlaced bool `toml:"leaver_also_placed"`
	// PersonalDivisor: a seat's personal gain from its score is
	// floor(max(score, 0) / PersonalDivisor).
	PersonalDivisor int32 `toml:"personal_divisor"`
	// TransferDivisor: a seat that ends with score −s < 0 hands over
	// T = floor(s / TransferDivisor) personal-rating points: each of the
	// other three seats gets floor(T / 3), and the best placed of them also
	// gets the remainder T mod 3. The negative seat's own score gain is 0.
	TransferDivisor int32 `toml:"transfer_divisor"`
	// LeaveBonus is the extra personal rating of each seat still at the
	// table when someone left, by the pulka in which the game stopped (1–4).
	LeaveBonus [Pulkas]int32 `toml:"leave_bonus"`
}

// DefaultRules returns the settings of docs/joker.md.
func DefaultRules() Rules {
	return Rules{
		LevelWidth:   100,
		LevelNames:   []string{"Teapot", "Beginner", "Amateur", "Professional", "Master", "Joker's Father"},
		LevelNamesKa: []string{"ჩაინიკი", "დამწყები", "მოყვარული", "პროფესიონალი", "მასტერი", "ჯოკერის მამა"},
		Gains: [][4]int32{
			{15, 5, 0, -1},
			{12, 4, -1, -3},
			{9, 3, -2, -6},
			{6, 2, -3, -9},
			{3, 1, -4, -12},
			{0, 0, -5, -15},
		},
		LeavePenalties: [][4]int32{
			{-1, -2, -3, -4},
			{-4, -5, -6, -7},
			{-8, -9, -10, -11},
			{-12, -13, -14, -15},
			{-16, -17, -18, -19},
			{-20, -22, -24, -26},
		},
		MultiplierThreshold: 2,
		RatingFloor:         0,
		AllowTiedPlaces:     false,
		RatedFromPulka:      4,
		LeaverAlsoPlaced:    false,
		PersonalDivisor:     100,
		TransferDivisor:     100,
		LeaveBonus:          [Pulkas]int32{5, 10, 15, 20},
	}
}

// Check reports settings that Apply cannot use, wrapping ErrRules.
func (r *Rules) Check() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrRules}, a...)...)
	}
	switch {
	case r == nil:
		return bad("nil rules")
	case r.LevelWidth <= 0:
		return bad("level_width %d must be positive", r.LevelWidth)
	case len(r.Gains) == 0:
		return bad("gains must have at least one level")
	case len(r.Gains) > math.MaxInt16:
		return bad("gains has %d levels, at most %d", len(r.Gains), math.MaxInt16)
	case len(r.LeavePenalties) != len(r.Gains):
		return bad("leave_penalties has %d levels, gains %d", len(r.LeavePenalties), len(r.Gains))
	case len(r.LevelNames) != len(r.Gains):
		return bad("level_names has %d names, gains %d levels", len(r.LevelNames), len(r.Gains))
	case len(r.LevelNamesKa) != 0 && len(r.LevelNamesKa) != len(r.Gains):
		return bad("level_names_ka has %d names, gains %d levels", len(r.LevelNamesKa), len(r.Gains))
	case r.RatedFromPulka < 1 || r.RatedFromPulka > Pulkas+1:
		return bad("rated_from_pulka %d not in 1-%d", r.RatedFromPulka, Pulkas+1)
	case r.PersonalDivisor <= 0:
		return bad("personal_divisor %d must be positive", r.PersonalDivisor)
	case r.TransferDivisor <= 0:
		return bad("transfer_divisor %d must be positive", r.TransferDivisor)
	}
	return nil
}

// usable is the part of Check that Apply needs to index safely; it runs once
// per game, so it does not allocate.
func (r *Rules) usable() bool {
	return r != nil && r.LevelWidth > 0 && len(r.Gains) > 0 &&
		len(r.Gains) <= math.MaxInt16 && len(r.LeavePenalties) == len(r.Gains) &&
		r.PersonalDivisor > 0 && r.TransferDivisor > 0
}

// Levels returns the number of levels (len(Gains)).
func (r *Rules) Levels() int { return len(r.Gains) }

// Level returns the level of a player rating:
// min(floor(rating / LevelWidth), Levels() − 1), and 0 for ratings below 0 or
// unusable settings.
func (r *Rules) Level(rating int32) int {
	if r == nil || r.LevelWidth <= 0 || len(r.Gains) == 0 || rating < 0 {
		return 0
	}
	return min(int(rating/r.LevelWidth), len(r.Gains)-1)
}

// LevelName returns the English name of a level (the list's level_name
// column), or "" for a level with no name.
func (r *Rules) LevelName(level int) string {
	if r == nil || level < 0 || level >= len(r.LevelNames) {
		return ""
	}
	return r.LevelNames[level]
}

// LevelNameKa returns the Georgian name of a level, or "" for a level with no
// name.
func (r *Rules) LevelNameKa(level int) string {
	if r == nil || level < 0 || level >= len(r.LevelNamesKa) {
		return ""
	}
	return r.LevelNamesKa[level]
}

// Definition registers Joker as the table rule set of the joker discipline.
var Definition = rating.TableDefinition{
	Name: Name, Title: "Joker", Discipline: "joker",
	Defaults: func() rating.Settings { r := DefaultRules(); return &r },
	New:      newRules,
	List:     rating.TableFile{Schema: "jokerListRow", Row: ListFileRow{}, CSVHeader: listCSVHeader, AppendCSV: appendListCSV},
	Cards:    rating.TableFile{Schema: "jokerCardRow", Row: CardFileRow{}},
	Site: rating.TableSite{
		List: []rating.SiteColumn{
			{Name: "player_rating", Heading: "Player rating", Phone: true},
			{Name: "level", Heading: "Level", Phone: true},
			{Name: "level_name", Heading: "Level name", Text: true},
			{Name: "personal_rating", Heading: "Personal rating"},
			{Name: "games_total", Heading: "Games"},
		},
		RankBy: "player_rating",
		Chart:  "player_rating", ChartLabel: "player rating",
		Changes: "level_before", ChangesLabel: "level",
	},
}
