package joker

import (
	"cmp"
	"slices"
)

// ListRow is one player's row of a Joker list, in column order; the caller
// adds the player's id and name.
type ListRow struct {
	Rank           int32 // 1 for the first
	Player         int32 // dense player index
	PlayerRating   int32
	Level          int32
	LevelName      string
	PersonalRating int32
	Games          int32 // games_total: every game, whatever its outcome
}

// List is the Joker list as the state stands, at the close of a period:
// every player with a game, ranked by player rating, then personal rating
// (both descending), then dense index (player_id order).
func (r *Rules) List(s *State) []ListRow {
	var idx []int32
	for p, n := range s.Games {
		if n > 0 {
			idx = append(idx, int32(p))
		}
	}
	slices.SortFunc(idx, func(x, y int32) int {
		return cmp.Or(cmp.Compare(s.PlayerRating[y], s.PlayerRating[x]),
			cmp.Compare(s.PersonalRating[y], s.PersonalRating[x]), cmp.Compare(x, y))
	})
	rows := make([]ListRow, len(idx))
	for i, p := range idx {
		lvl := r.Level(s.PlayerRating[p])
		rows[i] = ListRow{
			Rank: int32(i + 1), Player: p, PlayerRating: s.PlayerRating[p], Level: int32(lvl), LevelName: r.LevelName(lvl),
			PersonalRating: s.PersonalRating[p], Games: s.Games[p],
		}
	}
	return rows
}
