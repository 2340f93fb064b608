package report

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/zeebo/xxh3"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/crosstable"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
)

// teamSite is the run's team competitions: their pages' data, and each
// player's board results, both read before any page is written.
type teamSite struct {
	pages  map[int64]*teamPage
	boards map[int64][]boardResult // by player id, in tournament and round order
}

// teamPage is a team competition's page: its team standings (the run's
// standings/teams/ID.csv) and, with the archive, its matches board by board.
type teamPage struct {
	ID     int64
	Head   []string   // the CSV's header: rank,team,name,mp,gp, then the codes
	Rows   [][]string // its rows
	Hash   uint64     // the CSV's content hash
	Rounds []teamRound
}

// teamRound is one round's matches and the teams that met no team.
type teamRound struct {
	Round   int
	Matches []teamMatch
	Byes    []string // "Team: bye"
}

// teamMatch is one match: the two teams, their game points (half-points)
// and the boards.
type teamMatch struct {
	A, B   string
	GA, GB int
	Boards []teamBoard
}

// teamBoard is one board of a match: its players (-1 for an empty side) as
// indexes into the tournament's players, whether A's player had white, and
// each side's result code.
type teamBoard struct {
	A, B       boardPlayer
	AWhite     bool
	ResA, ResB byte
}

// boardPlayer is a player on a board; ID 0 is an empty board.
type boardPlayer struct {
	ID   int64
	Name string
}

// boardResult is one board a player played in a team competition.
type boardResult struct {
	Tour          int64
	Round, Board  int
	Team, OppTeam string
	White         bool
	Opp           boardPlayer
	Res           byte
}

// teamsPage is the file of tournament id's team page.
func teamsPage(id int64) string { return fmt.Sprintf("tournaments/%d-teams.html", id) }

// loadTeams reads the run's team standings and, with the archive, the team
// competitions' matches: a pass over the archive's games for the team
// competitions only when the run wrote team standings.
func (s *site) loadTeams(ctx context.Context) error {
	keys, err := output.StandingsTeamCSV.Keys(s.opt.Out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	s.teams.pages = map[int64]*teamPage{}
	for _, key := range keys {
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			continue
		}
		p, err := readTeamStandings(output.StandingsTeamCSV.Path(s.opt.Out, key))
		if err != nil {
			return err
		}
		p.ID = id
		s.teams.pages[id] = p
	}
	if len(s.teams.pages) == 0 || s.arch == nil || s.opt.Archive == nil {
		return nil
	}
	all, _, err := s.arch.LoadTeams(ctx, func(archive.RowError) {})
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	by := map[int64]*archive.Teams{}
	for _, r := range all.Teams {
		if s.teams.pages[r.TournamentID] != nil {
			if by[r.TournamentID] == nil {
				by[r.TournamentID] = &archive.Teams{}
			}
			by[r.TournamentID].Teams = append(by[r.TournamentID].Teams, r)
		}
	}
	for _, r := range all.Players {
		if t := by[r.TournamentID]; t != nil {
			t.Players = append(t.Players, r)
		}
	}
	s.teams.boards = map[int64][]boardResult{}
	err = pipeline.ForEachTournamentOfFS(ctx, s.opt.Archive, func(id int64) bool { return by[id] != nil }, func(tt *tiebreak.Tournament) error {
		team := pipeline.TeamTournamentOf(tt, by[tt.ID])
		rounds, err := tiebreak.Matches(team)
		if err != nil {
			s.opt.Log.Warn("team competition's matches not shown", "tournament", tt.ID, "err", err)
			return nil
		}
		p := s.teams.pages[tt.ID]
		p.Rounds = teamRounds(team, rounds)
		s.addBoards(p)
		return nil
	})
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// readTeamStandings reads a team standings CSV.
func readTeamStandings(path string) (*teamPage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(recs) == 0 || len(recs[0]) < 5 {
		return nil, fmt.Errorf("read %s: no team standings header: %w", path, ErrBadOutput)
	}
	return &teamPage{Head: recs[0], Rows: recs[1:], Hash: xxh3.Hash(b)}, nil
}

// teamRounds lays out the matches of every round (rounds: by team, then
// round), each match once, from its lower-numbered team's side.
func teamRounds(team *tiebreak.TeamTournament, rounds [][]tiebreak.Match) []teamRound {
	t := team.Tournament
	games := map[[2]int]int{} // {round, player} → index in t.Games
	for i, g := range t.Games {
		games[[2]int{g.Round, g.White}] = i
		if g.Black >= 0 {
			games[[2]int{g.Round, g.Black}] = i
		}
	}
	player := func(i int) boardPlayer {
		if i < 0 || i >= len(t.Players) {
			return boardPlayer{}
		}
		return boardPlayer{ID: t.Players[i].ID, Name: t.Players[i].Name}
	}
	var out []teamRound
	for r := 1; r <= t.Rounds; r++ {
		tr := teamRound{Round: r}
		for a := range team.Teams {
			if r > len(rounds[a]) {
				continue
			}
			m := rounds[a][r-1]
			if m.Opp < 0 {
				if text := byeText(m.Code); text != "" {
					tr.Byes = append(tr.Byes, team.Teams[a].Name+": "+text)
				}
				continue
			}
			if m.Opp < a {
				continue
			}
			mo := rounds[m.Opp][r-1]
			tm := teamMatch{A: team.Teams[a].Name, B: team.Teams[m.Opp].Name, GA: m.GP, GB: mo.GP}
			for i := range max(len(m.Players), len(mo.Players)) {
				pa, pb := at(m.Players, i), at(mo.Players, i)
				bd := teamBoard{A: player(pa), B: player(pb)}
				if gi, ok := boardGame(games, r, pa, pb); ok {
					g := t.Games[gi]
					// A's side of the game: its player's, else the side B's player is not on.
					bd.AWhite = pa >= 0 && g.White == pa || pa < 0 && g.Black == pb
					bd.ResA, bd.ResB = g.BlackResult, g.WhiteResult
					if bd.AWhite {
						bd.ResA, bd.ResB = g.WhiteResult, g.BlackResult
					}
					if pa < 0 {
						bd.ResA = 0
					}
					if pb < 0 {
						bd.ResB = 0
					}
				}
				tm.Boards = append(tm.Boards, bd)
			}
			tr.Matches = append(tr.Matches, tm)
		}
		out = append(out, tr)
	}
	return out
}

// boardGame finds the game of a board's players in round r: theirs, or the
// one player's when the other side is empty.
func boardGame(games map[[2]int]int, r, pa, pb int) (int, bool) {
	if pa >= 0 {
		gi, ok := games[[2]int{r, pa}]
		return gi, ok
	}
	if pb >= 0 {
		gi, ok := games[[2]int{r, pb}]
		return gi, ok
	}
	return 0, false
}

func at(s []int, i int) int {
	if i < len(s) {
		return s[i]
	}
	return -1
}

// byeText names a round without an opposing team; "" for none.
func byeText(code byte) string {
	switch code {
	case 'U':
		return "pairing-allocated bye"
	case 'F':
		return "full-point bye"
	case 'H':
		return "half-point bye"
	case 'Z':
		return "no match"
	}
	return ""
}

// addBoards notes every board of p's matches in its players' board results.
func (s *site) addBoards(p *teamPage) {
	for _, r := range p.Rounds {
		for _, m := range r.Matches {
			for i, bd := range m.Boards {
				if bd.A.ID != 0 {
					s.teams.boards[bd.A.ID] = append(s.teams.boards[bd.A.ID], boardResult{Tour: p.ID, Round: r.Round, Board: i + 1,
						Team: m.A, OppTeam: m.B, White: bd.AWhite, Opp: bd.B, Res: bd.ResA})
				}
				if bd.B.ID != 0 {
					s.teams.boards[bd.B.ID] = append(s.teams.boards[bd.B.ID], boardResult{Tour: p.ID, Round: r.Round, Board: i + 1,
						Team: m.B, OppTeam: m.A, White: !bd.AWhite && bd.A.ID != 0, Opp: bd.A, Res: bd.ResB})
				}
			}
		}
	}
}

// hasTeams says whether tournament id has a team page.
func (s *site) hasTeams(id int64) bool { return s.teams.pages[id] != nil }

// writeTeams writes every team competition's page whose key changed. The key
// is the page's content: team pages are few.
func (s *site) writeTeams() error {
	for _, id := range slices.Sorted(maps.Keys(s.teams.pages)) {
		b := s.renderTeams(s.teams.pages[id])
		var k keyer
		k.ints(int64(s.key))
		k.str(string(b))
		key := k.sum()
		if s.out.kept(teamsPage(id), key) {
			continue
		}
		if err := s.out.put(teamsPage(id), b, key); err != nil {
			return err
		}
	}
	return nil
}

// tourName is tournament id's name, or its number when the site has no facts.
func (s *site) tourName(id int64) string {
	if t := s.tour(id); t != nil && t.Name != "" {
		return t.Name
	}
	return "Tournament " + strconv.FormatInt(id, 10)
}

// renderTeams returns a team competition's page: the team standings with
// their tie-break columns, then every round's matches board by board.
func (s *site) renderTeams(p *teamPage) []byte {
	name := s.tourName(p.ID)
	b := appendHead(make([]byte, 0, 8<<10), s.page(cutText("Teams: "+name, 50), "../", "tournaments"))
	b = append(b, "<p class=\"crumb\"><a href=\""...)
	b = strconv.AppendInt(b, p.ID, 10)
	b = append(b, ".html\">"...)
	b = appendEsc(b, name)
	b = append(b, "</a> › Teams</p>\n<h1>"...)
	b = appendEsc(b, name)
	b = append(b, "</h1>\n<section aria-labelledby=\"ts-h\">\n<h2 id=\"ts-h\">Team standings</h2>\n"...)
	codes := p.Head[5:]
	b = append(b, "<p>Ranked by match points (MP), then by "...)
	b = appendEsc(b, strings.Join(codes, ", "))
	b = append(b, "; GP are the game points. The codes are FIDE's team tie-breaks: <a href=\"../help.html#team-tiebreaks\">what each means</a>.</p>\n"...)
	b = append(b, "<div class=\"scroll\">\n<table class=\"list\">\n<caption>Team standings</caption>\n<thead><tr><th scope=\"col\">Rk</th><th scope=\"col\">No</th><th scope=\"col\">Team</th><th scope=\"col\">MP</th><th scope=\"col\">GP</th>"...)
	for _, c := range codes {
		b = append(b, "<th scope=\"col\">"...)
		b = appendEsc(b, c)
		b = append(b, "</th>"...)
	}
	b = append(b, "</tr></thead>\n<tbody>\n"...)
	for _, r := range p.Rows {
		b = append(b, "<tr>"...)
		for i, v := range r {
			if i == 2 {
				b = append(b, "<th scope=\"row\">"...)
				b = appendEsc(b, v)
				b = append(b, "</th>"...)
				continue
			}
			b = append(b, "<td>"...)
			b = appendEsc(b, v)
			b = append(b, "</td>"...)
		}
		b = append(b, "</tr>\n"...)
	}
	b = append(b, "</tbody>\n</table>\n</div>\n</section>\n"...)
	if len(p.Rounds) > 0 {
		b = append(b, "<section aria-labelledby=\"tm-h\">\n<h2 id=\"tm-h\">Matches</h2>\n<p>Board by board; the colour and the result are those of the first team's player.</p>\n"...)
		for _, r := range p.Rounds {
			b = s.appendTeamRound(b, r)
		}
		b = append(b, "</section>\n"...)
	}
	return appendFoot(b)
}

// appendTeamRound appends one round's matches, a table each, and its byes.
func (s *site) appendTeamRound(b []byte, r teamRound) []byte {
	rs := strconv.Itoa(r.Round)
	b = append(b, "<h3 id=\"round-"...)
	b = append(b, rs...)
	b = append(b, "\">Round "...)
	b = append(b, rs...)
	b = append(b, "</h3>\n"...)
	for _, m := range r.Matches {
		b = append(b, "<div class=\"scroll\">\n<table class=\"list\">\n<caption>Round "...)
		b = append(b, rs...)
		b = append(b, ": "...)
		b = appendEsc(b, m.A)
		b = append(b, ' ')
		b = append(b, crosstable.HalfText(m.GA)...)
		b = append(b, " – "...)
		b = append(b, crosstable.HalfText(m.GB)...)
		b = append(b, ' ')
		b = appendEsc(b, m.B)
		b = append(b, "</caption>\n<thead><tr><th scope=\"col\">Board</th><th scope=\"col\">Colour</th><th scope=\"col\">"...)
		b = appendEsc(b, m.A)
		b = append(b, "</th><th scope=\"col\">Result</th><th scope=\"col\">"...)
		b = appendEsc(b, m.B)
		b = append(b, "</th></tr></thead>\n<tbody>\n"...)
		for i, bd := range m.Boards {
			b = append(b, "<tr><td>"...)
			b = strconv.AppendInt(b, int64(i+1), 10)
			b = append(b, "</td><td>"...)
			if bd.A.ID != 0 && bd.B.ID != 0 {
				b = append(b, colourText(bd.AWhite)...)
			}
			b = append(b, "</td><td>"...)
			b = s.appendBoardPlayer(b, bd.A)
			b = append(b, "</td><td>"...)
			b = append(b, boardResultText(bd.ResA)...)
			b = append(b, "–"...)
			b = append(b, boardResultText(bd.ResB)...)
			b = append(b, "</td><td>"...)
			b = s.appendBoardPlayer(b, bd.B)
			b = append(b, "</td></tr>\n"...)
		}
		b = append(b, "</tbody>\n</table>\n</div>\n"...)
	}
	for _, bye := range r.Byes {
		b = append(b, "<p>"...)
		b = appendEsc(b, bye)
		b = append(b, ".</p>\n"...)
	}
	return b
}

// appendBoardPlayer appends a board's player, linked to their page; an empty
// board is shown as such.
func (s *site) appendBoardPlayer(b []byte, p boardPlayer) []byte {
	if p.ID == 0 {
		return append(b, "(empty)"...)
	}
	name := cmp.Or(s.names[p.ID], p.Name)
	if !s.hasPage(p.ID) {
		return appendEsc(b, name)
	}
	b = append(b, "<a href=\"../players/"...)
	b = strconv.AppendInt(b, p.ID, 10)
	b = append(b, ".html\">"...)
	b = appendEsc(b, name)
	return append(b, "</a>"...)
}

// cutText cuts s to n characters at most, ending it with "…" when cut: a
// page's title stays short enough for a tab and a search result.
func cutText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

func colourText(white bool) string {
	if white {
		return "White"
	}
	return "Black"
}

// boardResultText shows one side's result on a board: 1, ½, 0, + and − for
// forfeits, nothing for an empty side.
func boardResultText(c byte) string {
	if c == 0 {
		return ""
	}
	return crosstable.ResultText(c)
}

// appendTeamLink appends, for a team competition, the link to its team page.
func (s *site) appendTeamLink(b []byte, id int64) []byte {
	if !s.hasTeams(id) {
		return b
	}
	b = append(b, "<p><a href=\"../"...) // from the players' folder (the page's base)
	b = append(b, teamsPage(id)...)
	return append(b, "\">Team standings and matches</a>: the teams ranked with their tie-breaks, every match board by board.</p>\n"...)
}

// appendBoards appends player id's board results in team competitions.
func (s *site) appendBoards(b []byte, id int64) []byte {
	rs := s.teams.boards[id]
	if len(rs) == 0 {
		return b
	}
	b = append(b, "<section aria-labelledby=\"tb-h\">\n<h2 id=\"tb-h\">Team competitions</h2>\n<div class=\"scroll\">\n<table class=\"list\">\n<caption>Board results in team competitions</caption>\n"...)
	b = append(b, "<thead><tr><th scope=\"col\">Tournament</th><th scope=\"col\">Round</th><th scope=\"col\">Team</th><th scope=\"col\">Board</th><th scope=\"col\">Colour</th><th scope=\"col\">Opponent</th><th scope=\"col\">Opp. team</th><th scope=\"col\">Result</th></tr></thead>\n<tbody>\n"...)
	for _, r := range rs {
		b = append(b, "<tr><td><a href=\"../"...)
		b = append(b, teamsPage(r.Tour)...)
		b = append(b, "\">"...)
		b = appendEsc(b, s.tourName(r.Tour))
		b = append(b, "</a></td><td>"...)
		b = strconv.AppendInt(b, int64(r.Round), 10)
		b = append(b, "</td><td>"...)
		b = appendEsc(b, r.Team)
		b = append(b, "</td><td>"...)
		b = strconv.AppendInt(b, int64(r.Board), 10)
		b = append(b, "</td><td>"...)
		if r.Opp.ID != 0 {
			b = append(b, colourText(r.White)...)
		}
		b = append(b, "</td><td>"...)
		b = s.appendBoardPlayer(b, r.Opp)
		b = append(b, "</td><td>"...)
		b = appendEsc(b, r.OppTeam)
		b = append(b, "</td><td>"...)
		b = append(b, boardResultText(r.Res)...)
		b = append(b, "</td></tr>\n"...)
	}
	return append(b, "</tbody>\n</table>\n</div>\n</section>\n"...)
}

// boardsKey feeds player id's board results to k (playerKey).
func (s *site) boardsKey(k *keyer, id int64) {
	for _, r := range s.teams.boards[id] {
		k.ints(r.Tour, int64(r.Round), int64(r.Board), r.Opp.ID, int64(r.Res))
		if r.White {
			k.ints(1)
		}
		k.str(r.Team)
		k.str(r.OppTeam)
		k.str(r.Opp.Name)
		k.str(s.tourName(r.Tour))
		if s.hasPage(r.Opp.ID) {
			k.ints(1)
		}
	}
}
