package pipeline

import (
	"context"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/ratelist/ratelist/tiebreak"
)

// TestLoadTeamTournamentByes: the team_byes rows become the team
// competition's declared byes (teams by their place in number order) and their
// points. Three one-board teams, two rounds: round 1 team 1 beats team 2, team 3
// has the bye; round 2 team 1 draws team 3, team 2 has the bye, each bye worth 2
// match points (a match won, not the default draw) and 1 game point: MP 1: 3,
// 2: 2, 3: 3.
func TestLoadTeamTournamentByes(t *testing.T) {
	fsys := fstest.MapFS{
		"players.csv":      {Data: []byte("player_id,name\n1,A\n2,B\n3,C\n")},
		"tournaments.csv":  {Data: []byte("tournament_id,name,start_date,end_date,rounds,system\n5,T,2026-03-10,2026-03-11,2,swiss\n")},
		"games.csv":        {Data: []byte("tournament_id,round,white_id,black_id,white_result,black_result\n5,1,1,2,1,0\n5,2,3,1,=,=\n")},
		"teams.csv":        {Data: []byte("tournament_id,team,name\n5,3,Three\n5,1,One\n5,2,Two\n")},
		"team_players.csv": {Data: []byte("tournament_id,team,player_id,board\n5,1,1,1\n5,2,2,1\n5,3,3,1\n")},
		"team_byes.csv":    {Data: []byte("tournament_id,team,round,match_half_points,game_half_points\n5,3,1,4,2\n5,2,2,4,2\n")},
	}
	tt, err := LoadTeamTournamentFS(context.Background(), fsys, 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := []tiebreak.TeamBye{{Team: 2, Round: 1, Code: 'U'}, {Team: 1, Round: 2, Code: 'U'}}; !reflect.DeepEqual(tt.Byes, want) {
		t.Errorf("byes %+v, want %+v", tt.Byes, want)
	}
	if tt.Points == nil || tt.Points.PAB != 4 || tt.Points.PABGame != 2 {
		t.Errorf("points %+v", tt.Points)
	}
	rows, err := tiebreak.TeamStandings(tt, nil, tiebreak.TeamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if want := map[int]float64{1: 3, 2: 2, 3: 3}[r.Team.Number]; r.MP != want {
			t.Errorf("team %d: MP %v, want %v", r.Team.Number, r.MP, want)
		}
	}
}
