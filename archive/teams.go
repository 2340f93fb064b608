package archive

import (
	"context"
	"fmt"
	"strings"
)

// Teams are the team tables of an archive as loaded: the teams of team
// competitions and their players, rejected rows left out, in file order.
type Teams struct {
	Teams   []TeamRow
	Players []TeamPlayerRow
	Byes    []TeamByeRow
}

// ByesOf returns tournament id's declared team byes.
func (t *Teams) ByesOf(id int64) []TeamByeRow {
	var byes []TeamByeRow
	for _, r := range t.Byes {
		if r.TournamentID == id {
			byes = append(byes, r)
		}
	}
	return byes
}

// Of returns tournament id's teams and team players.
func (t *Teams) Of(id int64) ([]TeamRow, []TeamPlayerRow) {
	var teams []TeamRow
	var players []TeamPlayerRow
	for _, r := range t.Teams {
		if r.TournamentID == id {
			teams = append(teams, r)
		}
	}
	for _, r := range t.Players {
		if r.TournamentID == id {
			players = append(players, r)
		}
	}
	return teams, players
}

// LoadTeams reads the teams, team_players and team_byes tables, absent ones as empty,
// and checks each row against a's tournaments and players and the rows read
// before it: a teams row names a tournament of a that is not a Joker one, a
// team number > 0 once per tournament and a name; a team_players row names a
// team of the teams table, a player of a, a board > 0 and a round > 0 (or
// none), one player a board and one board a player in a team's list or a
// round's order, and a player in one team of a tournament; a team_byes row
// names a team of the teams table, a round > 0 once per team, and points ≥ 0
// that are those of the tournament's first team_byes row (the competition's
// pairing-allocated bye is worth the same to every team). reject receives each
// rejected row, teams first; counts gets each table's count.
func (a *Archive) LoadTeams(ctx context.Context, reject func(RowError)) (*Teams, map[string]*TableCount, error) {
	out := &Teams{}
	counts := map[string]*TableCount{}
	type team struct {
		tid  int64
		team int32
	}
	teams := map[team]rowRef{}
	err := a.eachRow(ctx, "teams", TeamColumns, counts, reject, func(b *Batch, i int) Problem {
		if p := checkRequired(b, i, TeamColumns); p.Kind != KindNone {
			return p
		}
		k := team{b.Ints[0][i], int32(b.Ints[1][i])}
		if p := a.teamTournament(k.tid); p.Kind != KindNone {
			return p
		}
		if k.team < 1 {
			return Problemf(KindOutOfRange, "team", "team: %d is not > 0", k.team)
		}
		if first, dup := teams[k]; dup {
			return Problemf(KindDuplicate, "team", "duplicate team %d of tournament %d (first at %s row %d)", k.team, k.tid, first.file, first.row)
		}
		teams[k] = rowRef{b.File, b.First + int64(i)}
		r := TeamRow{TournamentID: k.tid, Team: k.team, Name: strings.TrimSpace(b.Strs[2][i])}
		if !b.Nulls[3][i] {
			club := strings.TrimSpace(b.Strs[3][i])
			r.Club = &club
		}
		out.Teams = append(out.Teams, r)
		return Problem{}
	})
	if err != nil {
		return nil, nil, err
	}
	type place struct {
		tid   int64
		round int32
		team  int32
		board int32
	}
	type seat struct {
		tid    int64
		round  int32
		player int64
	}
	boards := map[place]rowRef{}
	seats := map[seat]rowRef{}
	err = a.eachRow(ctx, "team_players", TeamPlayerColumns, counts, reject, func(b *Batch, i int) Problem {
		if p := checkRequired(b, i, TeamPlayerColumns); p.Kind != KindNone {
			return p
		}
		r := TeamPlayerRow{TournamentID: b.Ints[0][i], Team: int32(b.Ints[1][i]), PlayerID: b.Ints[2][i], Board: int32(b.Ints[3][i])}
		round := int32(0)
		if !b.Nulls[4][i] {
			round = int32(b.Ints[4][i])
			r.Round = &round
		}
		_, known := teams[team{r.TournamentID, r.Team}]
		switch {
		case a.TournamentIndex(r.TournamentID) < 0:
			return a.UnknownTournament(r.TournamentID)
		case !known:
			return Problemf(KindUnknownTeam, "", "unknown team %d of tournament %d (not in the teams table)", r.Team, r.TournamentID)
		case a.Players.Index(r.PlayerID) < 0:
			return Problemf(KindUnknownPlayer, "", "unknown player %d", r.PlayerID)
		case r.Board < 1:
			return Problemf(KindOutOfRange, "board", "board: %d is not > 0", r.Board)
		case r.Round != nil && round < 1:
			return Problemf(KindOutOfRange, "round", "round: %d is not > 0", round)
		}
		pl := place{r.TournamentID, round, r.Team, r.Board}
		if first, dup := boards[pl]; dup {
			return Problemf(KindDuplicate, "board", "duplicate board %d of team %d in tournament %d (first at %s row %d)", r.Board, r.Team, r.TournamentID, first.file, first.row)
		}
		st := seat{r.TournamentID, round, r.PlayerID}
		if first, dup := seats[st]; dup {
			return Problemf(KindTwoTeams, "", "player %d is listed twice in the teams of tournament %d (first at %s row %d)", r.PlayerID, r.TournamentID, first.file, first.row)
		}
		here := rowRef{b.File, b.First + int64(i)}
		boards[pl], seats[st] = here, here
		out.Players = append(out.Players, r)
		return Problem{}
	})
	if err != nil {
		return nil, nil, err
	}
	if err := a.loadTeamByes(ctx, out, func(tid int64, n int32) bool { _, ok := teams[team{tid, n}]; return ok }, counts, reject); err != nil {
		return nil, nil, err
	}
	return out, counts, nil
}

// loadTeamByes reads the team_byes table into out, checking each row (known
// says whether a tournament has a team of that number).
func (a *Archive) loadTeamByes(ctx context.Context, out *Teams, known func(int64, int32) bool, counts map[string]*TableCount, reject func(RowError)) error {
	type slot struct {
		tid         int64
		team, round int32
	}
	type first struct {
		ref    rowRef
		mp, gp int32
	}
	seen := map[slot]rowRef{}
	points := map[int64]first{} // tournament → its first row's points
	return a.eachRow(ctx, "team_byes", TeamByeColumns, counts, reject, func(b *Batch, i int) Problem {
		if p := checkRequired(b, i, TeamByeColumns); p.Kind != KindNone {
			return p
		}
		r := TeamByeRow{TournamentID: b.Ints[0][i], Team: int32(b.Ints[1][i]), Round: int32(b.Ints[2][i]),
			MatchHalfPoints: int32(b.Ints[3][i]), GameHalfPoints: int32(b.Ints[4][i])}
		if p := a.teamTournament(r.TournamentID); p.Kind != KindNone {
			return p
		}
		switch {
		case !known(r.TournamentID, r.Team):
			return Problemf(KindUnknownTeam, "", "unknown team %d of tournament %d (not in the teams table)", r.Team, r.TournamentID)
		case r.Round < 1:
			return Problemf(KindOutOfRange, "round", "round: %d is not > 0", r.Round)
		case r.MatchHalfPoints < 0:
			return Problemf(KindOutOfRange, "match_half_points", "match_half_points: %d is not ≥ 0", r.MatchHalfPoints)
		case r.GameHalfPoints < 0:
			return Problemf(KindOutOfRange, "game_half_points", "game_half_points: %d is not ≥ 0", r.GameHalfPoints)
		}
		k := slot{r.TournamentID, r.Team, r.Round}
		if f, dup := seen[k]; dup {
			return Problemf(KindDuplicate, "team bye", "duplicate team bye of team %d in round %d of tournament %d (first at %s row %d)", r.Team, r.Round, r.TournamentID, f.file, f.row)
		}
		here := rowRef{b.File, b.First + int64(i)}
		if f, ok := points[r.TournamentID]; ok && (f.mp != r.MatchHalfPoints || f.gp != r.GameHalfPoints) {
			return Problemf(KindOutOfRange, "team bye points", "team bye points %d/%d differ from tournament %d's %d/%d (first at %s row %d)", r.MatchHalfPoints, r.GameHalfPoints, r.TournamentID, f.mp, f.gp, f.ref.file, f.ref.row)
		} else if !ok {
			points[r.TournamentID] = first{here, r.MatchHalfPoints, r.GameHalfPoints}
		}
		seen[k] = here
		out.Byes = append(out.Byes, r)
		return Problem{}
	})
}

// teamTournament is the problem of a teams row naming tournament id: none, or
// an unknown or Joker tournament.
func (a *Archive) teamTournament(id int64) Problem {
	k := a.TournamentIndex(id)
	switch {
	case k < 0:
		return a.UnknownTournament(id)
	case a.Tournaments[k].Discipline == "joker":
		return Problemf(KindWrongDiscipline, "", "tournament %d is a Joker tournament: its players play no team matches", id)
	}
	return Problem{}
}

// checkRequired is the problem of row i's cells as read: a cell that could
// not be decoded, or an empty required one.
func checkRequired(b *Batch, i int, cols []Column) Problem {
	if b.Bad[i].Kind != KindNone {
		return b.Bad[i]
	}
	for c, col := range cols {
		if col.Required && (b.Nulls[c][i] || col.Type == String && strings.TrimSpace(b.Strs[c][i]) == "") {
			return MissingCell(col.Name)
		}
	}
	return Problem{}
}

// eachRow reads table name, if present, calling check on each row: a row it
// finds a problem with is rejected. counts gets the table's count.
func (a *Archive) eachRow(ctx context.Context, name string, cols []Column, counts map[string]*TableCount, reject func(RowError), check func(*Batch, int) Problem) error {
	files, err := Files(a.FS, name)
	if err != nil || len(files) == 0 {
		return err
	}
	cnt := &TableCount{}
	counts[name] = cnt
	r := NewReader(a.FS, files, cols)
	defer r.Close()
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			cnt.Read++
			if p := check(b, i); p.Kind != KindNone {
				cnt.Rejected++
				reject(RowErrorAt(b, i, p))
				continue
			}
			cnt.Used++
		}
	}
	if err := r.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
