package output

// JokerListRow is one row of a Joker list, lists/joker/LABEL.parquet, in
// column order.
type JokerListRow struct {
	Rank           int32  `parquet:"rank"`
	PlayerID       int64  `parquet:"player_id"`
	Name           string `parquet:"name"`
	PlayerRating   int32  `parquet:"player_rating"`
	Level          int32  `parquet:"level"`
	LevelName      string `parquet:"level_name"`
	PersonalRating int32  `parquet:"personal_rating"`
	GamesTotal     int32  `parquet:"games_total"`
}

// JokerCard is one row of joker_cards.parquet: one player in one game.
type JokerCard struct {
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
