package officer

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
)

// Player is a players row as the exports need it; empty fields are unknown.
type Player struct {
	ID         int64
	Name       string
	BirthYear  int32 // 0 = unknown; from birth_date when birth_year is empty
	FideID     int64
	Federation string
	Sex        string // m or w
	Title      string
	BirthDate  time.Time
	FideRating int32 // 0 = none
	Club       string
}

// playerCols are the players columns read, in the order of Player's fields.
var playerCols = append(append([]archive.Column{
	{Name: "player_id", Type: archive.Int, Required: true}, {Name: "name", Type: archive.String},
	{Name: "birth_year", Type: archive.Int32},
}, archive.PlayerInfoColumns...), archive.Column{Name: "fide_rating", Type: archive.Int32}, archive.Column{Name: "club", Type: archive.String})

// ReadPlayers reads the players table of the archive in fsys (Parquet, CSV or
// a folder of parts), keyed by player_id. Rows without a player_id are left
// out; the run's validation is not repeated.
func ReadPlayers(fsys fs.FS) (map[int64]Player, error) {
	files, err := archive.Files(fsys, "players")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("no players table (players.parquet, players.csv or players/)")
	}
	r := archive.NewReader(fsys, files, playerCols)
	defer r.Close()
	out := map[int64]Player{}
	for r.Next() {
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			if b.Nulls[0][i] {
				continue
			}
			p := Player{ID: b.Ints[0][i], Name: b.Strs[1][i]}
			if !b.Nulls[2][i] {
				p.BirthYear = int32(b.Ints[2][i])
			}
			if !b.Nulls[3][i] {
				p.FideID = b.Ints[3][i]
			}
			p.Federation, p.Sex, p.Title = b.Strs[4][i], b.Strs[5][i], b.Strs[6][i]
			if !b.Nulls[7][i] {
				p.BirthDate = day.Day(b.Ints[7][i]).Time()
				if p.BirthYear == 0 {
					p.BirthYear = int32(p.BirthDate.Year())
				}
			}
			if !b.Nulls[8][i] {
				p.FideRating = int32(b.Ints[8][i])
			}
			p.Club = b.Strs[9][i]
			if _, dup := out[p.ID]; !dup {
				out[p.ID] = p
			}
		}
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	return out, nil
}
