package output

// StandingsRow is one row of standings/LABEL.parquet: a player's line in the
// final standings of one tournament of the period.
type StandingsRow struct {
	TournamentID int64          `parquet:"tournament_id,delta"`
	Rank         int32          `parquet:"rank,delta"`
	StartNo      int32          `parquet:"start_no,delta"`
	PlayerID     int64          `parquet:"player_id"`
	Name         string         `parquet:"name"`
	Points       float64        `parquet:"points"`
	Tiebreaks    []TiebreakCell `parquet:"tiebreaks,list"`
}

// TiebreakCell is one tiebreak of a standings row, in the tournament's code
// order; Value is nil where the tiebreak is undefined (the CSV's empty cell).
type TiebreakCell struct {
	Code  string   `parquet:"code,dict"`
	Value *float64 `parquet:"value,optional"`
}
