package importer

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// ImportTRF adds each TRF file as one tournament: name from record 012 (else
// Options.Name), dates from 042/052 or the round dates of 132 (else Options.Date;
// end = start when 052 is absent), system from 092/192, rounds from XXR/142 or the
// longest round list. The trf reader decodes the file (UTF-8, else Windows-1252)
// and its notes become the import's. Each pairing becomes one games row with its
// TRF result codes; a bye is a row without Black. Players are matched as the
// package comment says: FIDE rating → fide_rating, birth year → birth_year,
// federation → club (filling empty fields only).
//
// A file that cannot be read or converted, or that has no name or no start
// date, is skipped whole with a Problem; a tournament already in the archive
// stops the import (ErrInArchive).
func ImportTRF(ctx context.Context, a *Archive, files []string, opt Options) (*Stats, error) {
	st := &Stats{report: opt.Report}
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		st.Files++
		fs := st.fileStats(name)
		read, kept, tours := st.Read, st.Imported, st.Tournaments
		data, err := os.ReadFile(name)
		if err != nil {
			st.FilesSkipped++
			st.skip(name, 0, 0, err)
			continue
		}
		f, err := trf.Read(bytes.NewReader(data), name)
		if err == nil {
			err = importTRF(a, f, name, opt, st)
			checkTRF(data, name, fs, st)
		}
		fs.Read, fs.Kept, fs.Events = st.Read-read, st.Imported-kept, st.Tournaments-tours
		if a.err != nil {
			st.abandon()
			return st, a.err
		}
		if err != nil {
			st.FilesSkipped++
			st.skip(name, 0, 0, err)
		}
	}
	return st, nil
}

// checkTRF runs `check trf`'s checks on a file being imported: their counts
// go to its FileStats, each error and warning to the notes. It refuses
// nothing: a file imports as it would without them. The reader's own notes
// (encoding, dates, byes read from the points column) are noted already.
func checkTRF(data []byte, name string, fs *FileStats, st *Stats) {
	for _, fd := range trf.Check(data, name, trf.CheckOptions{}) {
		fs.Findings[fd.Severity]++
		switch fd.Code {
		case "TRF-ENCODING", "TRF-DATE", "TRF-BYE-EMPTY":
			continue
		}
		if fd.Severity > trf.Note {
			st.note(name, int64(fd.Line), "check trf: %s %s: %s", fd.Severity, fd.Code, fd.Message)
		}
	}
}

func importTRF(a *Archive, f *trf.File, name string, opt Options, st *Stats) error {
	for _, w := range f.Warnings {
		st.note(name, int64(w.Line), "%v", w.Err)
	}
	t, err := f.Tournament()
	if err != nil {
		return err
	}
	switch {
	case (t.Points == nil || *t.Points == tiebreak.StandardPoints()) && len(t.Adjustments) == 0:
	case opt.ForRating:
		st.note(name, 0, "points other than 1-½-0 (records 162/XXS/299): the results are rated as they are")
	default:
		return fmt.Errorf("points other than 1-½-0 (records 162/XXS/299): the archive keeps only result codes, so the standings would change: %w", ErrPoints)
	}
	if strings.TrimSpace(t.Name) == "" {
		if opt.Name == "" {
			return fmt.Errorf("no tournament name (record 012): give --name: %w", ErrMalformed)
		}
		t.Name = opt.Name
	}
	if t.Start.IsZero() {
		if opt.Date.IsZero() {
			return fmt.Errorf("no start date (record 042, or round dates in 132): give --date: %w", ErrMalformed)
		}
		t.Start = opt.Date
	}
	if t.End.IsZero() {
		t.End = t.Start
	}
	if t.End.Before(t.Start) {
		return fmt.Errorf("end date %s (052) is before start date %s (042): %w", t.End.Format("2006-01-02"), t.Start.Format("2006-01-02"), ErrMalformed)
	}
	n := int64(len(t.Games))
	st.Read += n
	if line, err := trfText(t.Name, f.Players); err != nil {
		st.skip(name, line, n, err)
		return nil
	}
	tr := archive.TournamentRow{
		Name:      strings.TrimSpace(t.Name),
		StartDate: int32(day.Of(t.Start)), EndDate: int32(day.Of(t.End)),
		System: ptr(t.System), Rounds: ptr(int32(max(t.Rounds, 1))),
		Discipline: ptr("chess"), Rated: ptr(!opt.Unrated),
	}
	if t.Rounds > 1000 {
		st.skip(name, 0, n, fmt.Errorf("%d rounds (at most 1000): %w", t.Rounds, ErrMalformed))
		return nil
	}
	if len(t.Games) == 0 {
		st.note(name, 0, "no games: tournament not added")
		return nil
	}
	ids := make([]int64, len(f.Players))
	used := map[int64]int{} // player_id → index in f.Players
	for i, p := range f.Players {
		info := PlayerInfo{Name: p.Name, FideID: p.FideID, Club: p.Federation, Federation: strings.ToUpper(p.Federation),
			Sex: normSex(p.Sex), Title: normTitle(p.Title), BirthDate: birthDate(p.Birth)}
		if p.Rating > 0 && p.Rating <= 4000 {
			info.FideRating = int32(p.Rating)
		}
		if y, err := strconv.Atoi(strings.SplitN(strings.ReplaceAll(p.Birth, "-", "/"), "/", 2)[0]); err == nil && y >= 1850 && y <= 2200 {
			info.BirthYear = int32(y)
		}
		ids[i] = a.player(info, st)
		if j, dup := used[ids[i]]; dup {
			// Two entries of one file found the same archive player (same name, no
			// FIDE id): keep them apart.
			st.note(name, int64(p.Line), "%q matches the same archive player as starting rank %d: added as a new player", p.Name, f.Players[j].StartNo)
			id := a.nextPlayer
			a.nextPlayer++
			a.Players = append(a.Players, archive.PlayerRow{PlayerID: id, Name: normName(p.Name)})
			st.NewPlayers++
			ids[i] = id
		}
		used[ids[i]] = i
	}
	teams, system, teamNote := trfTeams(f, ids)
	if teamNote != "" {
		st.note(name, 0, "%s", teamNote)
	}
	if teams.Teams != nil {
		tr.System = system
	}
	rows := make([]archive.GameRow, 0, len(t.Games))
	for _, g := range t.Games {
		row := archive.GameRow{Round: int32(g.Round), WhiteID: ids[g.White], WhiteResult: string(g.WhiteResult)}
		if g.Black >= 0 {
			row.BlackID = ptr(ids[g.Black])
			row.BlackResult = ptr(string(g.BlackResult))
		}
		rows = append(rows, row)
	}
	id, ok := a.addTournament(tr, rows, name)
	if !ok {
		st.Skipped += n
		return a.err
	}
	if teams.Teams != nil {
		a.addTeams(id, teams)
	}
	st.Tournaments++
	st.Imported += n
	return nil
}

// trfTeams is the team tables' rows of a team competition's file (013 or 310
// teams, 300 board orders, 320 team byes), its players' archive ids by their
// place in f.Players: no teams when the file has none. The tournament's system
// is the one the file names, nil when it names none: the team standings then
// read it from the matches, as they do from the file (an individual system read
// from the pairings would say swiss of a league). note says what is not kept.
func trfTeams(f *trf.File, ids []int64) (rows TeamRows, system *string, note string) {
	if len(f.Teams) == 0 {
		return TeamRows{}, nil, ""
	}
	tt, err := f.TeamTournament()
	if err != nil {
		return TeamRows{}, nil, fmt.Sprintf("team records not kept: %v", err)
	}
	if tt.System != "" {
		system = ptr(tt.System)
	}
	index := make(map[int]int64, len(f.Players))
	for i, p := range f.Players {
		index[p.StartNo] = ids[i]
	}
	add := func(team int, round *int32, snos []int) {
		for b, sno := range snos {
			if id, ok := index[sno]; ok && sno != 0 {
				rows.Players = append(rows.Players, archive.TeamPlayerRow{Team: int32(team), PlayerID: id, Board: int32(b + 1), Round: round})
			}
		}
	}
	for _, t := range f.Teams {
		if err := textError("team name", t.Name); err != nil {
			return TeamRows{}, nil, fmt.Sprintf("team records not kept: line %d: %v", t.Line, err)
		}
		rows.Teams = append(rows.Teams, archive.TeamRow{Team: int32(t.Number), Name: strings.TrimSpace(t.Name)})
		add(t.Number, nil, t.Players)
	}
	for _, bo := range f.BoardOrders {
		add(bo.Team, ptr(int32(bo.Round)), bo.Players)
	}
	rows.Byes, note = trfTeamByes(f.TeamPABs)
	return rows, system, note
}

// trfTeamByes is the team_byes rows of a file's 320 records: each team a record
// names in a round, at the points of the last record, which the team standings
// give every pairing-allocated bye of the competition. note says what is not
// kept: a record naming no team (its points are then the default bye's), or
// the points of a record that differ from the last one's.
func trfTeamByes(pabs []trf.TeamPAB) (byes []archive.TeamByeRow, note string) {
	if len(pabs) == 0 {
		return nil, ""
	}
	last := pabs[len(pabs)-1]
	seen := map[[2]int]bool{}
	var lost []string
	for _, p := range pabs {
		if p.MP != last.MP || p.GP != last.GP {
			lost = append(lost, fmt.Sprintf("line %d: its points (the last 320 record's are every team bye's)", p.Line))
		}
		named := false
		for r, n := range p.Teams {
			if n == 0 {
				continue
			}
			named = true
			if seen[[2]int{n, r}] {
				continue
			}
			seen[[2]int{n, r}] = true
			byes = append(byes, archive.TeamByeRow{Team: int32(n), Round: int32(r + 1), MatchHalfPoints: int32(last.MP), GameHalfPoints: int32(last.GP)})
		}
		if !named {
			lost = append(lost, fmt.Sprintf("line %d: a 320 record naming no team", p.Line))
		}
	}
	if len(lost) > 0 {
		note = "team byes not kept: " + strings.Join(lost, "; ")
	}
	return byes, note
}

// normSex is a TRF or PGN sex as the players table keeps it: m or w ("f" is
// read as w), "" for anything else.
func normSex(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "m":
		return "m"
	case "w", "f":
		return "w"
	}
	return ""
}

// titles maps the one-letter title codes some exporters write to FIDE's titles.
var titles = map[string]string{"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}

// normTitle is a title as the players table keeps it: upper case, with the
// one-letter codes spelt out; "" for none ("-" and "?" included).
func normTitle(s string) string {
	s = strings.TrimSpace(s)
	if t, ok := titles[strings.ToLower(s)]; ok {
		return t
	}
	if s == "-" || s == "?" {
		return ""
	}
	return strings.ToUpper(s)
}

// birthDate reads a full TRF birth date (YYYY/MM/DD, or with - or .) as days
// since 1970-01-01; 0 when the date is partial (YYYY/00/00) or unreadable.
func birthDate(s string) int32 {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '-' || r == '.' })
	if len(f) != 3 || len(f[0]) != 4 {
		return 0
	}
	y, ey := strconv.Atoi(f[0])
	m, em := strconv.Atoi(f[1])
	d, ed := strconv.Atoi(f[2])
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if ey != nil || em != nil || ed != nil || y < 1850 || y > 2200 || int(t.Month()) != m || t.Day() != d {
		return 0
	}
	return int32(day.Of(t))
}

// trfText checks the text fields the archive keeps (the name from 012, and
// each 001 record's name, sex, title and federation) with textError, and
// returns the line of the first refused.
func trfText(event string, players []trf.Player) (int64, error) {
	if err := textError("012 tournament name", event); err != nil {
		return 0, err
	}
	for _, p := range players {
		for _, f := range [...]struct{ name, v string }{{"name", p.Name}, {"sex", p.Sex}, {"title", p.Title}, {"federation", p.Federation}} {
			if err := textError("001 "+f.name, f.v); err != nil {
				return int64(p.Line), err
			}
		}
	}
	return 0, nil
}
