package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/tiebreak"
)

// LoadTeamTournament reads tournament id of the archive in dir and its teams
// (the teams, team_players and team_byes tables) as the team standings take
// them. Rejected rows are left out, as in a run (validate lists them).
func LoadTeamTournament(ctx context.Context, dir string, id int64) (*tiebreak.TeamTournament, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("load tournament %d from %s: archive: %w", id, dir, err)
	}
	return loadTeamTournament(ctx, os.DirFS(dir), dir, id)
}

// LoadTeamTournamentFS is LoadTeamTournament for an archive in fsys.
func LoadTeamTournamentFS(ctx context.Context, fsys fs.FS, id int64) (*tiebreak.TeamTournament, error) {
	return loadTeamTournament(ctx, fsys, "archive", id)
}

// loadTeamTournament is LoadTeamTournament for an archive in fsys, called name
// in errors.
func loadTeamTournament(ctx context.Context, fsys fs.FS, name string, id int64) (*tiebreak.TeamTournament, error) {
	t, err := loadTournament(ctx, fsys, name, id)
	if err != nil {
		return nil, fmt.Errorf("load tournament %d from %s: %w", id, name, err)
	}
	a, err := archive.Load(ctx, fsys, func(archive.RowError) {})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", name, err)
	}
	all, _, err := a.LoadTeams(ctx, func(archive.RowError) {})
	if err != nil {
		return nil, fmt.Errorf("load the teams of %s: %w", name, err)
	}
	teams, players := all.Of(id)
	if len(teams) == 0 {
		return nil, fmt.Errorf("tournament %d of %s: %w", id, name, ErrNoTeams)
	}
	tt := teamTournament(t, teams, players)
	addTeamByes(tt, teams, all.ByesOf(id))
	return tt, nil
}

// addTeamByes gives tt the declared pairing-allocated byes of the team_byes
// rows (sorted by their teams' numbers in tt.Teams) and their points, as a
// TRF-2026 file's 320 records give them; a row of a team not in teams is left
// out.
func addTeamByes(tt *tiebreak.TeamTournament, teams []archive.TeamRow, byes []archive.TeamByeRow) {
	if len(byes) == 0 {
		return
	}
	pts := tiebreak.StandardTeamPoints()
	pts.PAB, pts.PABGame = int(byes[0].MatchHalfPoints), int(byes[0].GameHalfPoints)
	tt.Points = &pts
	for _, b := range byes {
		k, ok := slices.BinarySearchFunc(teams, b.Team, func(t archive.TeamRow, n int32) int { return cmp.Compare(t.Team, n) })
		if ok {
			tt.Byes = append(tt.Byes, tiebreak.TeamBye{Team: k, Round: int(b.Round), Code: 'U'})
		}
	}
}

// teamTournament is tournament t with the archive's teams rows: teams in the
// order of their numbers, each player at his board's place in the team's list
// (-1 for a place nobody holds, or a player without a game in t), and the
// rounds' board orders. The system is t's: the one the file named, empty to
// read it from the matches.
func teamTournament(t *tiebreak.Tournament, teams []archive.TeamRow, players []archive.TeamPlayerRow) *tiebreak.TeamTournament {
	tt := &tiebreak.TeamTournament{Tournament: t, System: t.System}
	slices.SortFunc(teams, func(a, b archive.TeamRow) int { return cmp.Compare(a.Team, b.Team) })
	index := make(map[int64]int, len(t.Players))
	for i, p := range t.Players {
		index[p.ID] = i
	}
	number := make(map[int32]int, len(teams))
	for k, team := range teams {
		number[team.Team] = k
		tt.Teams = append(tt.Teams, tiebreak.Team{Number: int(team.Team), Name: team.Name})
	}
	orders := map[[2]int]int{} // {team, round} → position in tt.Orders
	for _, p := range players {
		k, ok := number[p.Team]
		if !ok {
			continue
		}
		list := &tt.Teams[k].Players
		if p.Round != nil {
			key := [2]int{k, int(*p.Round)}
			o, ok := orders[key]
			if !ok {
				o = len(tt.Orders)
				orders[key] = o
				tt.Orders = append(tt.Orders, tiebreak.BoardOrder{Team: k, Round: int(*p.Round)})
			}
			list = &tt.Orders[o].Players
		}
		for len(*list) < int(p.Board) {
			*list = append(*list, -1)
		}
		i, ok := index[p.PlayerID]
		if !ok {
			i = -1
		}
		(*list)[p.Board-1] = i
	}
	return tt
}
