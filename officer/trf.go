package officer

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// ExportTRF writes tournament id of the archive in fsys as a TRF file of
// version v. Each 001 record carries the player's rating at the start as the
// run computes it (the rating of the last list before the tournament); a
// player unrated then (a newcomer's first events) gets the players table's
// fide_rating, and stays blank without one. With fideRatings, every player
// gets the fide_rating. Sex, title, federation, FIDE id and birth date come
// from the players table; points and rank are the final standings by the
// tournament's tiebreaks (the default ones when it names none), with the
// ratings the file carries. A team competition (a tournament with rows in the
// archive's teams table) gets its team records too (trf.WriteTeams). It
// returns how many players it left without a rating.
func ExportTRF(ctx context.Context, w io.Writer, fsys fs.FS, id int64, v trf.Version, fideRatings bool) (blank int, err error) {
	tt, rows, err := loadTeams(ctx, fsys, id)
	if err != nil {
		return 0, err
	}
	var t *tiebreak.Tournament
	if tt != nil {
		t = tt.Tournament
	} else if t, err = pipeline.LoadTournamentFS(ctx, fsys, id); err != nil {
		return 0, err
	}
	players, err := ReadPlayers(fsys)
	if err != nil {
		return 0, err
	}
	t.Players = slices.Clone(t.Players)
	if tt != nil {
		addReserves(tt, rows, players)
	}
	for i, p := range t.Players {
		if fideRatings || p.Rating == 0 {
			t.Players[i].Rating = int(players[p.ID].FideRating)
		}
		if t.Players[i].Rating == 0 {
			blank++
		}
	}
	if tt != nil {
		team := *tt
		team.Tournament = t
		return blank, writeTRF(w, t, &team, players, v)
	}
	return blank, WriteTRF(w, t, players, v)
}

// loadTeams is tournament id as a team competition and its team_players rows,
// nil when the archive's teams table has no team of it.
func loadTeams(ctx context.Context, fsys fs.FS, id int64) (*tiebreak.TeamTournament, []archive.TeamPlayerRow, error) {
	a, err := pipeline.LoadArchive(ctx, fsys)
	if err != nil {
		return nil, nil, err
	}
	all, _, err := a.LoadTeams(ctx, func(archive.RowError) {})
	if err != nil {
		return nil, nil, fmt.Errorf("load the teams: %w", err)
	}
	teams, rows := all.Of(id)
	if len(teams) == 0 {
		return nil, nil, nil
	}
	tt, err := pipeline.LoadTeamTournamentFS(ctx, fsys, id)
	return tt, rows, err
}

// addReserves gives tt's tournament a player without games for each player its
// team_players rows list who played no game in it (a reserve), numbered after
// the others in the rows' order, and puts him at his places, so that the file
// lists him in his team as the archive does.
func addReserves(tt *tiebreak.TeamTournament, rows []archive.TeamPlayerRow, players map[int64]Player) {
	t := tt.Tournament
	index := make(map[int64]int, len(t.Players))
	next := 0
	for i, p := range t.Players {
		index[p.ID] = i
		next = max(next, p.StartNo)
	}
	team := make(map[int32]int, len(tt.Teams))
	for k, tm := range tt.Teams {
		team[int32(tm.Number)] = k
	}
	for _, r := range rows {
		k, ok := team[r.Team]
		if !ok {
			continue
		}
		i, ok := index[r.PlayerID]
		if !ok {
			next++
			i = len(t.Players)
			index[r.PlayerID] = i
			t.Players = append(t.Players, tiebreak.Player{ID: r.PlayerID, StartNo: next, Name: players[r.PlayerID].Name})
		}
		list := &tt.Teams[k].Players
		if r.Round != nil {
			list = nil
			for o := range tt.Orders {
				if tt.Orders[o].Team == k && tt.Orders[o].Round == int(*r.Round) {
					list = &tt.Orders[o].Players
				}
			}
		}
		if list != nil && int(r.Board) <= len(*list) {
			(*list)[r.Board-1] = i
		}
	}
}

// WriteTRF writes tournament t as ExportTRF does, with the players table
// players (keyed by player_id; nil or a missing player leaves the fields blank).
func WriteTRF(w io.Writer, t *tiebreak.Tournament, players map[int64]Player, v trf.Version) error {
	return writeTRF(w, t, nil, players, v)
}

// writeTRF is WriteTRF, with the team records of team (whose Tournament is t)
// when team is not nil.
func writeTRF(w io.Writer, t *tiebreak.Tournament, team *tiebreak.TeamTournament, players map[int64]Player, v trf.Version) error {
	info := make([]trf.PlayerInfo, len(t.Players))
	for i, p := range t.Players {
		info[i] = trfInfo(players[p.ID])
	}
	// Names are data: none may start a record (archive.SafeText).
	tt := *t
	tt.Name, tt.Tiebreaks = archive.SafeText(t.Name), archive.SafeText(t.Tiebreaks)
	tt.Players = slices.Clone(t.Players)
	for i := range tt.Players {
		tt.Players[i].Name = archive.SafeText(tt.Players[i].Name)
	}
	t = &tt
	codes, _ := tiebreak.CodesFor(t) // a column not understood gives the defaults, as the run ranks it
	var err error
	if team == nil {
		err = trf.Write(w, t, info, codes, v)
	} else {
		safe := *team
		safe.Tournament = t
		safe.Teams = slices.Clone(team.Teams)
		for i := range safe.Teams {
			safe.Teams[i].Name = archive.SafeText(safe.Teams[i].Name)
		}
		err = trf.WriteTeams(w, &safe, info, codes, v)
	}
	if err != nil {
		return fmt.Errorf("tournament %d: %w", t.ID, err)
	}
	return nil
}

// trfInfo is what a 001 record says of a player from the players table. The
// birth date is written whole when known, else as the birth year alone.
func trfInfo(p Player) trf.PlayerInfo {
	pi := trf.PlayerInfo{Sex: archive.SafeText(p.Sex), Title: archive.SafeText(p.Title), Federation: archive.SafeText(p.Federation), FideID: p.FideID}
	switch {
	case !p.BirthDate.IsZero():
		pi.Birth = p.BirthDate.Format("2006/01/02")
	case p.BirthYear > 0:
		pi.Birth = fmt.Sprintf("%04d", p.BirthYear)
	}
	return pi
}
