package output

// ListRow is one row of a rating list, lists/LABEL.parquet (docs/fide.md
// shows its columns, in this order). Change is nil for a player who was not
// on the list before.
type ListRow struct {
	Rank        int32  `parquet:"rank,delta"`
	PlayerID    int64  `parquet:"player_id,delta"`
	Name        string `parquet:"name"`
	Rating      int32  `parquet:"rating,delta"`
	Change      *int32 `parquet:"change,optional"`
	GamesPeriod int32  `parquet:"games_period"`
	GamesTotal  int32  `parquet:"games_total,delta"`
	K           int32  `parquet:"k"`
	Category    string `parquet:"category"`
	Flags       string `parquet:"flags"`
	Federation  string `parquet:"federation,optional"`
	Sex         string `parquet:"sex,optional"`
	Title       string `parquet:"title,optional"`
	FideID      int64  `parquet:"fide_id,optional"`
	BirthDate   *int32 `parquet:"birth_date,optional,date"`
}
