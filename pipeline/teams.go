package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/output"
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

// runTeams are the archive's team tables as a run reads them, by tournament:
// team competitions are few and small, so they are held whole.
type runTeams map[int64]*archive.Teams

// loadRunTeams reads the archive's team tables, if any: their rows are counted
// with the archive's tables and their rejected rows go to the run's rejects.
func loadRunTeams(ctx context.Context, a *runArchive) (runTeams, error) {
	all, counts, err := a.LoadTeams(ctx, a.rejects.add)
	if err != nil {
		return nil, fmt.Errorf("load the team tables: %w", err)
	}
	for name, c := range counts {
		a.Counts[name] = c
	}
	by := runTeams{}
	of := func(id int64) *archive.Teams {
		t := by[id]
		if t == nil {
			t = &archive.Teams{}
			by[id] = t
		}
		return t
	}
	for _, r := range all.Teams {
		t := of(r.TournamentID)
		t.Teams = append(t.Teams, r)
	}
	for _, r := range all.Players {
		t := of(r.TournamentID)
		t.Players = append(t.Players, r)
	}
	for _, r := range all.Byes {
		t := of(r.TournamentID)
		t.Byes = append(t.Byes, r)
	}
	return by, nil
}

// hashes are the fingerprints of each tournament's team rows (stale.go): a
// tournament's teams corrected change its team standings.
func (rt runTeams) hashes() map[int64]uint64 {
	out := make(map[int64]uint64, len(rt))
	for id, t := range rt {
		var sum uint64
		var b []byte
		for _, r := range t.Teams {
			b = appendText(binary.AppendVarint(b[:0], int64(r.Team)), r.Name)
			sum += mix64(fnv64a(b))
		}
		for _, r := range t.Players {
			b = binary.AppendVarint(b[:0], int64(r.Team))
			b = binary.AppendVarint(b, r.PlayerID)
			b = binary.AppendVarint(b, int64(r.Board))
			round := int64(-1)
			if r.Round != nil {
				round = int64(*r.Round)
			}
			b = binary.AppendVarint(b, round)
			sum += mix64(fnv64a(b) ^ 0x9e3779b97f4a7c15)
		}
		for _, r := range t.Byes {
			b = binary.AppendVarint(b[:0], int64(r.Team))
			b = binary.AppendVarint(b, int64(r.Round))
			b = binary.AppendVarint(b, int64(r.MatchHalfPoints))
			b = binary.AppendVarint(b, int64(r.GameHalfPoints))
			sum += mix64(fnv64a(b) ^ 0x3c6ef372fe94f82b)
		}
		out[id] = sum
	}
	return out
}

// teamOptions are a run's team standings settings: the rules' unplayed
// rounds, save fide2009, which has no team tie-breaks (the start date decides).
func teamOptions(o tiebreak.Options) tiebreak.TeamOptions {
	if o.Unplayed == tiebreak.Fide2009 {
		return tiebreak.TeamOptions{}
	}
	return tiebreak.TeamOptions{Unplayed: o.Unplayed}
}

// TeamStandingsCSV is the team standings CSV of tt: what `standings --team`
// prints and, with the default codes, what a run writes.
func TeamStandingsCSV(tt *tiebreak.TeamTournament, codes []string, opt tiebreak.TeamOptions) ([]byte, error) {
	rows, err := tiebreak.TeamStandings(tt, codes, opt)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := tiebreak.WriteTeamCSV(&b, codes, rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// teamStandings adds a team competition's team standings to fb as
// standings/teams/TOURNAMENT_ID.csv (in a pool job, t being the tournament of
// appendStandings). Pairings that make no team match are warned about and
// leave the file out: the individual standings stand.
func (s *writeSink) teamStandings(fb *fileBatch, t *tiebreak.Tournament) {
	tm := s.teams[t.ID]
	if tm == nil || len(tm.Teams) == 0 {
		return
	}
	b, err := TeamStandingsCSV(TeamTournamentOf(t, tm), tiebreak.DefaultTeamCodes(), teamOptions(s.opt.Rules.Tiebreaks))
	if err != nil {
		s.opt.Log.Warn("team standings not written", "tournament", t.ID, "err", err)
		return
	}
	fb.add(output.StandingsTeamCSV.Rel(strconv.FormatInt(t.ID, 10)), b)
}

// TeamTournamentOf is tournament t (as ForEachTournamentOfFS hands it) with
// its rows of the archive's team tables, as the team standings read it.
func TeamTournamentOf(t *tiebreak.Tournament, teams *archive.Teams) *tiebreak.TeamTournament {
	ts := slices.Clone(teams.Teams)
	tt := teamTournament(t, ts, teams.Players)
	addTeamByes(tt, ts, teams.Byes)
	return tt
}
