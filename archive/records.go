package archive

// Rows of the archive tables as Go values, for writing and reading them with
// parquet-go's generic writer and reader (import writes these): every optional
// column is a pointer, nil for null. Players carry the extra PlayerInfoColumns.
// TestRowsFollowSchema holds them to the column lists.
type (
	// PlayerRow is one row of the players table.
	PlayerRow struct {
		PlayerID   int64   `parquet:"player_id"`
		Name       string  `parquet:"name"`
		BirthYear  *int32  `parquet:"birth_year,optional"`
		Category   *int32  `parquet:"category,optional"`
		FideRating *int32  `parquet:"fide_rating,optional"`
		Club       *string `parquet:"club,optional"`
		FideID     *int64  `parquet:"fide_id,optional"`
		Federation *string `parquet:"federation,optional"`
		Sex        *string `parquet:"sex,optional"`
		Title      *string `parquet:"title,optional"`
		BirthDate  *int32  `parquet:"birth_date,optional,date"`
	}
	// TournamentRow is one row of the tournaments table.
	TournamentRow struct {
		TournamentID int64   `parquet:"tournament_id"`
		Name         string  `parquet:"name"`
		StartDate    int32   `parquet:"start_date,date"`
		EndDate      int32   `parquet:"end_date,date"`
		System       *string `parquet:"system,optional"`
		Rounds       *int32  `parquet:"rounds,optional"`
		Discipline   *string `parquet:"discipline,optional"`
		Rated        *bool   `parquet:"rated,optional"`
		Tiebreaks    *string `parquet:"tiebreaks,optional"`
		TimeClass    *string `parquet:"time_class,optional"`
	}
	// GameRow is one row of the games table.
	GameRow struct {
		TournamentID int64   `parquet:"tournament_id"`
		Round        int32   `parquet:"round"`
		Date         *int32  `parquet:"date,optional,date"`
		WhiteID      int64   `parquet:"white_id"`
		BlackID      *int64  `parquet:"black_id,optional"`
		WhiteResult  string  `parquet:"white_result,dict"`
		BlackResult  *string `parquet:"black_result,optional,dict"`
		WhitePoints  *int32  `parquet:"white_points,optional"`
		BlackPoints  *int32  `parquet:"black_points,optional"`
	}
	// TableRow is one row of the Joker tables table.
	TableRow struct {
		GameID       int64  `parquet:"game_id"`
		TournamentID *int64 `parquet:"tournament_id,optional"`
		PlayedAt     int64  `parquet:"played_at,timestamp(microsecond)"`
		PlayerID     int64  `parquet:"player_id"`
		Place        int32  `parquet:"place"`
		Score        int32  `parquet:"score"`
		LeftTable    *bool  `parquet:"left_table,optional"`
		StoppedPulka *int32 `parquet:"stopped_pulka,optional"`
	}
	// TeamRow is one row of the teams table.
	TeamRow struct {
		TournamentID int64   `parquet:"tournament_id"`
		Team         int32   `parquet:"team"`
		Name         string  `parquet:"name"`
		Club         *string `parquet:"club,optional"`
	}
	// TeamPlayerRow is one row of the team_players table.
	TeamPlayerRow struct {
		TournamentID int64  `parquet:"tournament_id"`
		Team         int32  `parquet:"team"`
		PlayerID     int64  `parquet:"player_id"`
		Board        int32  `parquet:"board"`
		Round        *int32 `parquet:"round,optional"`
	}
	// TeamByeRow is one row of the team_byes table.
	TeamByeRow struct {
		TournamentID    int64 `parquet:"tournament_id"`
		Team            int32 `parquet:"team"`
		Round           int32 `parquet:"round"`
		MatchHalfPoints int32 `parquet:"match_half_points"`
		GameHalfPoints  int32 `parquet:"game_half_points"`
	}
)
