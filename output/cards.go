package output

// Card is one row of cards.parquet: a player in a rated tournament, or a
// player's period under a per-period rule set (FIDE), whose games are
// CardGame rows of card_games.parquet. Optional numbers are nil when empty.
// The file's encodings are cardFile's.
type Card struct {
	Period       string `parquet:"period"`
	TournamentID int64  `parquet:"tournament_id"`
	EndDate      int32  `parquet:"end_date,date"`
	PlayerID     int64  `parquet:"player_id"`
	Name         string `parquet:"name"`
	// Stage is the stage of a rule set with stages (the school system's 1 or
	// 2); 0 for the others.
	Stage           int32    `parquet:"stage"`
	RatingBefore    *int32   `parquet:"rating_before,optional"`
	Games           int32    `parquet:"games"`
	Score           float64  `parquet:"score"`
	OppAverage      *int32   `parquet:"opponents_average,optional"`
	D               *int32   `parquet:"d,optional"`
	Expected        *float64 `parquet:"expected,optional"`
	K               *int32   `parquet:"k,optional"`
	ChangeUnrounded *float64 `parquet:"change_unrounded,optional"`
	Change          int32    `parquet:"change"`
	RatingAfter     *int32   `parquet:"rating_after,optional"`
	Reason          string   `parquet:"reason"`
	// The rating the tournament was rated with (Ro): the rating before, or a
	// newcomer's stage-one initial rating.
	RatingUsed *int32 `parquet:"rating_used,optional"`
}

// CardGame is one row of card_games.parquet: one game of a player's period
// under a per-period rule set (FIDE), a rated player's game (reason
// fide-game) or an unrated player's pooled one (fide-pool-game). It belongs
// to the Card of the same period and player with tournament_id 0 (the
// period's close), which comes after it in rating order and holds Ro
// (rating_before) and K (k). The file's encodings are cardGameFile's.
type CardGame struct {
	Period         string  `parquet:"period"`
	PlayerID       int64   `parquet:"player_id"`
	TournamentID   int64   `parquet:"tournament_id"`
	EndDate        int32   `parquet:"end_date,date"`
	OpponentID     int64   `parquet:"opponent_id"`
	OpponentRating int32   `parquet:"opponent_rating"`
	W              float64 `parquet:"w"`
	// D, PD and the unrounded change K × (W − PD) of a rated game; nil for a
	// pooled game.
	D               *int32   `parquet:"d,optional"`
	PD              *float64 `parquet:"pd,optional"`
	ChangeUnrounded *float64 `parquet:"change_unrounded,optional"`
	Reason          string   `parquet:"reason"`
}

// cardFile is Card's columns with the encodings cards.parquet is written
// with (CardSchema). Struct tags cannot ask for DELTA_BINARY_PACKED on a
// pointer, so its optional integers are optional values here; the pipeline
// writes the file column by column, never from these values.
type cardFile struct {
	Period          string   `parquet:"period,dict"`
	TournamentID    int64    `parquet:"tournament_id,delta"`
	EndDate         int32    `parquet:"end_date,date,delta"`
	PlayerID        int64    `parquet:"player_id,delta"`
	Name            string   `parquet:"name"`
	Stage           int32    `parquet:"stage,delta"`
	RatingBefore    int32    `parquet:"rating_before,optional,delta"`
	Games           int32    `parquet:"games,delta"`
	Score           float64  `parquet:"score,dict"`
	OppAverage      int32    `parquet:"opponents_average,optional,delta"`
	D               int32    `parquet:"d,optional,delta"`
	Expected        *float64 `parquet:"expected,optional,dict"`
	K               int32    `parquet:"k,optional,delta"`
	ChangeUnrounded *float64 `parquet:"change_unrounded,optional,dict"`
	Change          int32    `parquet:"change,delta"`
	RatingAfter     int32    `parquet:"rating_after,optional,delta"`
	Reason          string   `parquet:"reason,dict"`
	RatingUsed      int32    `parquet:"rating_used,optional,delta"`
}

// cardGameFile is CardGame's columns with the encodings card_games.parquet
// is written with (CardGameSchema), as cardFile is Card's.
type cardGameFile struct {
	Period          string   `parquet:"period,dict"`
	PlayerID        int64    `parquet:"player_id,delta"`
	TournamentID    int64    `parquet:"tournament_id,delta"`
	EndDate         int32    `parquet:"end_date,date,delta"`
	OpponentID      int64    `parquet:"opponent_id,delta"`
	OpponentRating  int32    `parquet:"opponent_rating,delta"`
	W               float64  `parquet:"w,dict"`
	D               int32    `parquet:"d,optional,delta"`
	PD              *float64 `parquet:"pd,optional,dict"`
	ChangeUnrounded *float64 `parquet:"change_unrounded,optional,dict"`
	Reason          string   `parquet:"reason,dict"`
}
