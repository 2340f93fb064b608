package joker

import (
	"errors"

	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/rating"
)

// ListFileRow is one row of a Joker list, lists/joker/PERIOD.csv and
// .parquet, in column order.
type ListFileRow struct {
	Rank           int32  `parquet:"rank"`
	PlayerID       int64  `parquet:"player_id"`
	Name           string `parquet:"name"`
	PlayerRating   int32  `parquet:"player_rating"`
	Level          int32  `parquet:"level"`
	LevelName      string `parquet:"level_name"`
	PersonalRating int32  `parquet:"personal_rating"`
	GamesTotal     int32  `parquet:"games_total"`
}

// CardFileRow is one row of joker_cards.parquet: one player in one game.
type CardFileRow struct {
	Period           string `parquet:"period,dict"`
	GameID           int64  `parquet:"game_id"`
	PlayedAt         int64  `parquet:"played_at,timestamp(microsecond)"`
	TournamentID     *int64 `parquet:"tournament_id,optional"`
	PlayerID         int64  `parquet:"player_id"`
	Place            int32  `parquet:"place"`
	Score            int32  `parquet:"score"`
	Left             bool   `parquet:"left_table"`
	StoppedPulka     *int32 `parquet:"stopped_pulka,optional"`
	LevelBefore      int32  `parquet:"level_before"`
	TableLevelSum    int32  `parquet:"table_level_sum"`
	TableLevel       int32  `parquet:"table_level"`
	PlaceValue       int32  `parquet:"place_value"`
	Multiplier       int32  `parquet:"multiplier"`
	LeavePenalty     int32  `parquet:"leave_penalty"`
	PlayerChange     int32  `parquet:"player_change"`
	PlayerRating     int32  `parquet:"player_rating"`
	Floored          bool   `parquet:"floored"`
	PersonalScore    int32  `parquet:"personal_score"`
	PersonalTransfer int32  `parquet:"personal_transfer"`
	PersonalBonus    int32  `parquet:"personal_bonus"`
	PersonalChange   int32  `parquet:"personal_change"`
	PersonalRating   int32  `parquet:"personal_rating"`
	Reason           string `parquet:"reason,dict"`
}

// listCSVHeader is the Joker list's CSV header.
const listCSVHeader = "rank,player_id,name,player_rating,level,level_name,personal_rating,games_total\n"

// appendListCSV appends the CSV lines of rows, a []ListFileRow.
func appendListCSV(b []byte, rows any) []byte {
	for _, row := range rows.([]ListFileRow) {
		b = csvfield.AppendInt(b, int64(row.Rank))
		b = append(b, ',')
		b = csvfield.AppendInt(b, row.PlayerID)
		b = append(b, ',')
		b = csvfield.Append(b, row.Name)
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.PlayerRating))
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.Level))
		b = append(b, ',')
		b = csvfield.Append(b, row.LevelName)
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.PersonalRating))
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.GamesTotal))
		b = append(b, '\n')
	}
	return b
}

// rejectKinds are the names rejects of a game are grouped by, by sentinel:
// the reason's text up to its first value.
var rejectKinds = []struct {
	err  error
	kind string
}{
	{ErrSeatCount, "joker game must have exactly"},
	{ErrPlayedAtMismatch, "joker seats disagree on played_at: game"},
	{ErrTournamentMismatch, "joker seats disagree on tournament_id: game"},
	{ErrPulkaMismatch, "joker seats disagree on stopped pulka: game"},
	{ErrStoppedPulka, "joker stopped pulka not in"},
	{ErrPlayerIndex, "joker player index out of range: game"},
	{ErrDuplicatePlayer, "joker game must have"},
	{ErrPlace, "joker place not in"},
	{ErrTiedPlaces, "joker places tied: game"},
	{ErrPlaceRanking, "joker places are not a ranking: game"},
	{ErrLeavers, "joker game has more than one leaver: game"},
	{ErrLeaverNotStopped, "joker leaver in a game played to the end: game"},
}

// RejectKind is the name the rejects of the game are grouped by
// (summary.json's reject_kinds).
func (e *GameError) RejectKind() string {
	for _, k := range rejectKinds {
		if errors.Is(e, k.err) {
			return k.kind
		}
	}
	return "game"
}

// newRules is Definition.New: the settings, checked.
func newRules(s rating.Settings) (rating.TableRules, error) {
	r, _ := s.(*Rules) // nil fails Check
	if err := r.Check(); err != nil {
		return nil, err
	}
	return r, nil
}

// Start returns the rater of a run's games (rating.TableRules).
func (r *Rules) Start(p rating.TablePlayers) rating.TableRater {
	rt := &rater{rules: r, ids: p}
	rt.st.Grow(len(p.IDs))
	return rt
}

// rater rates a run's games into its state and keeps their card rows.
type rater struct {
	rules   *Rules
	ids     rating.TablePlayers
	st      State
	cards   []CardFileRow
	stopped int64 // games stopped before the end, for the summary
}

func (rt *rater) Rate(rows []Row, period string) (int, error) {
	game, err := rt.rules.Rate(&rt.st, rows)
	if err != nil {
		return len(rt.cards), err
	}
	if game[0].StoppedPulka != 0 {
		rt.stopped++
	}
	for _, jc := range game {
		r, c := &jc.Row, &jc.Change
		row := CardFileRow{
			Period: period, GameID: r.Game, PlayedAt: r.At, PlayerID: rt.ids.IDs[r.Player],
			Place: r.Place, Score: r.Score, Left: r.Left,
			LevelBefore: c.Level, TableLevelSum: c.LevelSum, TableLevel: c.TableLevel,
			PlaceValue: c.PlaceBase, Multiplier: c.Multiplier, LeavePenalty: c.Penalty,
			PlayerChange: c.PlayerDelta, PlayerRating: c.PlayerRating, Floored: c.Floored,
			PersonalScore: c.PersonalScore, PersonalTransfer: c.PersonalTransfer, PersonalBonus: c.PersonalBonus,
			PersonalChange: c.PersonalDelta, PersonalRating: c.PersonalRating, Reason: c.Reason.String(),
		}
		if r.Tour >= 0 {
			row.TournamentID = ptr(rt.ids.Tournaments[r.Tour])
		}
		if jc.StoppedPulka != 0 {
			row.StoppedPulka = ptr(int32(jc.StoppedPulka))
		}
		rt.cards = append(rt.cards, row)
	}
	return len(rt.cards), nil
}

func (rt *rater) Cards() any {
	c := rt.cards
	rt.cards = rt.cards[:0]
	return c
}

func (rt *rater) List() (any, int) {
	list := rt.rules.List(&rt.st)
	rows := make([]ListFileRow, len(list))
	for i, r := range list {
		rows[i] = ListFileRow{
			Rank: r.Rank, PlayerID: rt.ids.IDs[r.Player], Name: rt.ids.Names[r.Player],
			PlayerRating: r.PlayerRating, Level: r.Level, LevelName: r.LevelName,
			PersonalRating: r.PersonalRating, GamesTotal: r.Games,
		}
	}
	return rows, len(rows)
}

func (rt *rater) Summary() []rating.SummaryField {
	return []rating.SummaryField{{Key: "games_stopped", Value: rt.stopped}}
}

func ptr[T any](v T) *T { return &v }
