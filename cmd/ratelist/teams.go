package main

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
)

// loadTeamTournament reads tournament id of the archive in dir and its teams
// (the teams and team_players tables) as the team standings take them.
// Rejected rows are left out, as in a run (validate lists them).
func loadTeamTournament(ctx context.Context, dir string, id int64) (*tiebreak.TeamTournament, error) {
	t, err := pipeline.LoadTournament(ctx, dir, id)
	if err != nil {
		return nil, fmt.Errorf("load tournament %d from %s: %w", id, dir, err)
	}
	a, err := archive.Load(ctx, os.DirFS(dir), func(archive.RowError) {})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	all, _, err := a.LoadTeams(ctx, func(archive.RowError) {})
	if err != nil {
		return nil, fmt.Errorf("load the teams of %s: %w", dir, err)
	}
	teams, players := all.Of(id)
	if len(teams) == 0 {
		return nil, fmt.Errorf("tournament %d of %s: %w", id, dir, errNoTeams)
	}
	return teamTournament(t, teams, players), nil
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

// addTeamRejects checks the archive's team tables (archive.LoadTeams) and
// adds their rows and rejects to the summary of a validation: its counts,
// its tables and its reject kinds.
func addTeamRejects(ctx context.Context, fsys fs.FS, asOf time.Time, sum *pipeline.Summary) error {
	a, err := archive.Load(ctx, fsys, func(archive.RowError) {}, archive.Now(asOf))
	if err != nil {
		return err
	}
	kinds := map[string]*pipeline.RejectKind{}
	for i := range sum.RejectKinds {
		kinds[sum.RejectKinds[i].Kind] = &sum.RejectKinds[i]
	}
	var added []pipeline.RejectKind
	var rejects []archive.RowError
	_, counts, err := a.LoadTeams(ctx, func(r archive.RowError) { rejects = append(rejects, r) })
	if err != nil {
		return err
	}
	for _, r := range rejects {
		k := kinds[r.KindName()]
		if k == nil {
			added = append(added, pipeline.RejectKind{Kind: r.KindName()})
			k = &added[len(added)-1]
			kinds[k.Kind] = k
		}
		k.Count++
		if len(k.Examples) < 3 {
			k.Examples = append(k.Examples, fmt.Sprintf("%s:%d: %s", r.File, r.Row, archive.Cut(r.Reason, archive.ExcerptBytes)))
		}
	}
	sum.RejectKinds = append(sum.RejectKinds, added...)
	sort.SliceStable(sum.RejectKinds, func(i, j int) bool {
		ki, kj := sum.RejectKinds[i], sum.RejectKinds[j]
		if ki.Count != kj.Count {
			return ki.Count > kj.Count
		}
		return ki.Kind < kj.Kind
	})
	for _, name := range []string{"teams", "team_players"} {
		if c := counts[name]; c != nil {
			if sum.Tables == nil {
				sum.Tables = map[string]*archive.TableCount{}
			}
			sum.Tables[name] = c
			sum.RowsRead += c.Read
			sum.RowsUsed += c.Used
			sum.RowsRejected += c.Rejected
		}
	}
	return nil
}
