package correct

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/internal/zstdcodec"
)

// RemoveTournament removes tournament id: its row, its games, its Joker
// table rows and its teams. Games first: a crash before the tournaments table
// is replaced leaves the tournament without games, and the command can be run
// again.
func RemoveTournament(ctx context.Context, dir string, id int64, now time.Time) (Entry, error) {
	e := Entry{Time: now, Verb: "remove", Tournament: id}
	unlock, err := Lock(dir)
	if err != nil {
		return e, err
	}
	defer unlock()
	tournaments, err := loadTable(dir, "tournaments")
	if err != nil {
		return e, err
	}
	s, r := tournaments.find("tournament_id", id)
	if s == nil {
		return e, fmt.Errorf("no tournament %d in %s: %w", id, dir, ErrUsage)
	}
	if err := ctx.Err(); err != nil {
		return e, err
	}
	c := &change{dir: dir}
	defer c.discard()
	other := rowEdit{[]string{"tournament_id"}, func(ids []int64, ok []bool) bool { return !ok[0] || ids[0] != id }}
	games, err := editTable(ctx, c, "games", other, nil)
	if err != nil {
		return e, err
	}
	tables, err := editTable(ctx, c, "tables", other, nil)
	if err != nil {
		return e, err
	}
	e.Changes = append(e.Changes, Change{"tournament", describe(s, r), nil}, Change{"games", games.dropped, 0})
	if tables.dropped > 0 {
		e.Changes = append(e.Changes, Change{"Joker table rows", tables.dropped, 0})
	}
	teams, teamPlayers, byes, err := putTeams(ctx, c, tournaments, other, importer.TeamRows{})
	if err != nil {
		return e, err
	}
	if teams.dropped+teamPlayers.dropped > 0 {
		e.Changes = append(e.Changes, Change{"teams", teams.dropped, 0}, Change{"team players", teamPlayers.dropped, 0})
	}
	if byes.dropped > 0 {
		e.Changes = append(e.Changes, Change{"team byes", byes.dropped, 0})
	}
	s.delete(r)
	if err := tournaments.write(c); err != nil {
		return e, err
	}
	if err := c.log(e); err != nil {
		return e, err
	}
	return e, c.apply(ctx)
}

// describe is a tournament row for the log: its name and dates.
func describe(s *sheet, r int) string {
	name, _ := s.get(r, "name")
	start, _ := s.get(r, "start_date")
	end, _ := s.get(r, "end_date")
	return fmt.Sprintf("%s (%s to %s)", name, start, end)
}

// Replace imports a corrected TRF or PGN report (kind "trf" or "pgn") over
// tournament opt.Replace: the tournament keeps its id, its games are replaced
// by the file's, its name, dates, system, rounds and teams are the file's (its
// discipline, rated and tiebreaks are kept; opt.Unrated sets rated false),
// and the file's players are matched and added as an import does. The file
// must hold one tournament, which must not look like another tournament of
// the archive (importer.ErrInArchive). Players first, then games, then the
// tournament row.
func Replace(ctx context.Context, dir, kind string, files []string, opt importer.Options, now time.Time) (Entry, *importer.Stats, error) {
	id := opt.Replace
	e := Entry{Time: now, Verb: "replace", Tournament: id, Source: strings.Join(baseNames(files), ", ")}
	unlock, err := Lock(dir)
	if err != nil {
		return e, nil, err
	}
	defer unlock()
	im, err := loadImport(dir)
	if err != nil {
		return e, nil, err
	}
	ts, tr := im.tournaments.find("tournament_id", id)
	if ts == nil {
		return e, nil, fmt.Errorf("no tournament %d in %s: %w", id, dir, ErrUsage)
	}
	if d, _ := ts.get(tr, "discipline"); strings.EqualFold(d, "joker") {
		return e, nil, fmt.Errorf("tournament %d is a Joker tournament: a TRF or PGN report holds two-player games: %w", id, ErrUsage)
	}
	a, st, err := im.run(ctx, kind, files, opt)
	if err != nil {
		return e, st, err
	}
	t, rows, ok := a.Replacement()
	if !ok {
		return e, st, fmt.Errorf("%s: no tournament to replace tournament %d with: %w", e.Source, id, ErrUsage)
	}
	if e.Changes, err = im.players(a); err != nil {
		return e, st, err
	}

	c := &change{dir: dir}
	defer c.discard()
	if err := im.playerTable.write(c); err != nil {
		return e, st, err
	}
	this := rowEdit{[]string{"tournament_id"}, func(ids []int64, ok []bool) bool { return !ok[0] || ids[0] != id }}
	games, err := putGames(ctx, c, im.tournaments, this, rows)
	if err != nil {
		return e, st, err
	}
	e.Changes = append(e.Changes, Change{"games", games.dropped, games.inserted})
	teams := a.ReplacementTeams()
	tn, pn, bn, err := putTeams(ctx, c, im.tournaments, this, teams)
	if err != nil {
		return e, st, err
	}
	if tn.any() || pn.any() {
		e.Changes = append(e.Changes, Change{"teams", tn.dropped, tn.inserted}, Change{"team players", pn.dropped, pn.inserted})
	}
	if bn.any() {
		e.Changes = append(e.Changes, Change{"team byes", bn.dropped, bn.inserted})
	}

	cells := tournamentCells(t)
	delete(cells, "discipline")
	if !opt.Unrated {
		delete(cells, "rated")
	}
	for _, col := range []string{"name", "start_date", "end_date", "system", "rounds", "rated"} {
		v, ok := cells[col]
		if !ok {
			continue
		}
		if was, had := ts.get(tr, col); !had || was != v {
			if err := ts.set(tr, col, v, false); err != nil {
				return e, st, err
			}
			e.Changes = append(e.Changes, Change{col, logValue(col, was, !had), logValue(col, v, false)})
		}
	}
	if was, had := ts.get(tr, "system"); len(teams.Teams) > 0 && t.System == nil && had {
		// A team file that names no system: the team standings read it from
		// the matches, as import writes it.
		if err := ts.set(tr, "system", "", true); err != nil {
			return e, st, err
		}
		e.Changes = append(e.Changes, Change{"system", logValue("system", was, false), nil})
	}
	if err := im.tournaments.write(c); err != nil {
		return e, st, err
	}
	if err := c.log(e); err != nil {
		return e, st, err
	}
	return e, st, c.apply(ctx)
}

// Import adds the tournaments of TRF or PGN files to an archive that the
// importer cannot merge into in place (importer.ErrTableForm: CSV tables, or
// players or tournaments as folders of parts), keeping each table's form:
// new players and tournaments are appended to their tables, the games to the
// end of a single games file, or as a new part of a games folder. It refuses
// what importer.Open's import refuses (a tournament already in the archive).
// Players first, then tournaments, then games, as the importer writes them.
// It returns the files written.
func Import(ctx context.Context, dir, kind string, files []string, opt importer.Options) (*importer.Stats, []string, error) {
	unlock, err := Lock(dir)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	im, err := loadImport(dir)
	if err != nil {
		return nil, nil, err
	}
	opt.Hold = true
	a, st, err := im.run(ctx, kind, files, opt)
	if err != nil {
		return st, nil, err
	}
	if _, err := im.players(a); err != nil {
		return st, nil, err
	}
	ts, rows := a.Held()
	if len(ts) == 0 && !im.playerTable.dirty() {
		return st, nil, nil
	}
	var all []archive.GameRow
	for i, t := range ts {
		if err := im.tournaments.sheets[len(im.tournaments.sheets)-1].add(tournamentCells(t)); err != nil {
			return st, nil, err
		}
		all = append(all, rows[i]...)
	}
	c := &change{dir: dir}
	defer c.discard()
	if err := im.playerTable.write(c); err != nil {
		return st, nil, err
	}
	if err := im.tournaments.write(c); err != nil {
		return st, nil, err
	}
	keep := rowEdit{[]string{"tournament_id"}, func([]int64, []bool) bool { return true }}
	if len(all) > 0 {
		if _, err := putGames(ctx, c, im.tournaments, keep, all); err != nil {
			return st, nil, err
		}
	}
	if _, _, _, err := putTeams(ctx, c, im.tournaments, keep, a.HeldTeams()); err != nil {
		return st, nil, err
	}
	written := c.files()
	return st, written, c.apply(ctx)
}

// anImport is an import into an archive's tables as read whole.
type anImport struct {
	dir                      string
	playerTable, tournaments *smallTable
	rows, old                []archive.PlayerRow // the players as the importer matches them, and before
	where                    []at
}

func loadImport(dir string) (*anImport, error) {
	players, err := loadTable(dir, "players")
	if err != nil {
		return nil, err
	}
	tournaments, err := loadTable(dir, "tournaments")
	if err != nil {
		return nil, err
	}
	im := &anImport{dir: dir, playerTable: players, tournaments: tournaments}
	im.rows, im.where = playerRows(players)
	im.old = slices.Clone(im.rows)
	return im, nil
}

// run imports the files through the importer, which writes nothing.
func (im *anImport) run(ctx context.Context, kind string, files []string, opt importer.Options) (*importer.Archive, *importer.Stats, error) {
	a, err := importer.OpenTables(im.dir, im.rows, tournamentRows(im.tournaments), opt)
	if err != nil {
		return nil, nil, err
	}
	var st *importer.Stats
	if kind == "trf" {
		st, err = importer.ImportTRF(ctx, a, files, opt)
	} else {
		st, err = importer.ImportPGN(ctx, a, files, opt)
	}
	return a, st, err
}

// players sets in the players table what the import did to the registry:
// matched players' empty fields filled, new players added. It returns the
// changes for the log.
func (im *anImport) players(a *importer.Archive) ([]Change, error) {
	var changes []Change
	for i, p := range a.Players {
		cells := playerCells(p)
		if i >= len(im.old) {
			if err := im.playerTable.sheets[len(im.playerTable.sheets)-1].add(cells); err != nil {
				return nil, err
			}
			continue
		}
		was := playerCells(im.old[i])
		for _, field := range sortedKeys(cells) {
			v := cells[field]
			if w, had := was[field]; !had || w != v {
				if err := im.where[i].s.set(im.where[i].r, field, v, false); err != nil {
					return nil, err
				}
				var from any
				if had {
					from = logValue(field, w, false)
				}
				changes = append(changes, Change{fmt.Sprintf("player %d %s", p.PlayerID, field), from, logValue(field, v, false)})
			}
		}
	}
	if added := len(a.Players) - len(im.old); added > 0 {
		changes = append([]Change{{"players", len(im.old), len(a.Players)}}, changes...)
	}
	return changes, nil
}

// tournamentCells is a tournaments row as text by column; null fields are
// left out.
func tournamentCells(t archive.TournamentRow) map[string]string {
	m := map[string]string{"tournament_id": strconv.FormatInt(t.TournamentID, 10), "name": t.Name,
		"start_date": day.Day(t.StartDate).String(), "end_date": day.Day(t.EndDate).String()}
	if t.System != nil {
		m["system"] = *t.System
	}
	if t.Rounds != nil {
		m["rounds"] = strconv.Itoa(int(*t.Rounds))
	}
	if t.Discipline != nil {
		m["discipline"] = *t.Discipline
	}
	if t.Rated != nil {
		m["rated"] = strconv.FormatBool(*t.Rated)
	}
	if t.Tiebreaks != nil {
		m["tiebreaks"] = *t.Tiebreaks
	}
	return m
}

// putGames puts rows in place of the games e drops: where the first was,
// else at the end of a single games file, else in a new part of a games
// folder, else in a new games table of the archive's form.
func putGames(ctx context.Context, c *change, tournaments *smallTable, e rowEdit, rows []archive.GameRow) (edited, error) {
	return putRows(ctx, c, tournaments, "games", archive.GameColumns, e, rows, gameCells)
}

// putTeams puts the team tables' rows in place of those e drops, as putGames
// puts games.
func putTeams(ctx context.Context, c *change, tournaments *smallTable, e rowEdit, rows importer.TeamRows) (teams, players, byes edited, err error) {
	if teams, err = putRows(ctx, c, tournaments, "teams", archive.TeamColumns, e, rows.Teams, teamCells); err != nil {
		return
	}
	if players, err = putRows(ctx, c, tournaments, "team_players", archive.TeamPlayerColumns, e, rows.Players, teamPlayerCells); err != nil {
		return
	}
	byes, err = putRows(ctx, c, tournaments, "team_byes", archive.TeamByeColumns, e, rows.Byes, teamByeCells)
	return
}

// putRows puts rows in place of the rows of table name that e drops: where
// the first was, else at the end of a single file, else in a new part of a
// folder, else in a new table of the archive's form (none for no rows).
func putRows[T any](ctx context.Context, c *change, tournaments *smallTable, name string, cols []archive.Column, e rowEdit, rows []T, cells func(T) map[string]string) (edited, error) {
	ins := make([]map[string]string, len(rows))
	for i, g := range rows {
		ins[i] = cells(g)
	}
	t, err := locate(c.dir, name)
	if err != nil {
		return edited{}, err
	}
	n, err := editTable(ctx, c, name, e, ins)
	if err != nil || n.inserted > 0 || len(rows) == 0 {
		return n, err
	}
	// No old rows to take the place of: a new file.
	dst := name + ".parquet"
	switch {
	case t.folder():
		dst = filepath.Join(name, nextPart(t.files))
	case len(tournaments.sheets) > 0 && tournaments.sheets[0].schema == nil:
		dst = name + ".csv"
	}
	f, err := c.create(dst)
	if err != nil {
		return n, err
	}
	if isCSV(dst) {
		err = writeCSVRows(f, cols, ins)
	} else {
		w := parquet.NewGenericWriter[T](f, parquet.Compression(zstdcodec.Codec))
		if _, err = w.Write(rows); err == nil {
			err = w.Close()
		}
	}
	n.inserted = int64(len(rows))
	return n, c.done(f, dst, err)
}

// nextPart names a new part after the parts of a games folder.
func nextPart(files []string) string {
	next := 0
	for _, f := range files {
		base := filepath.Base(f)
		if num, ok := strings.CutPrefix(strings.TrimSuffix(base, ".parquet"), "part-"); ok {
			if k, err := strconv.Atoi(num); err == nil {
				next = max(next, k+1)
			}
		}
		next = max(next, len(files))
	}
	return fmt.Sprintf("part-%04d.parquet", next)
}

func writeCSVRows(f *os.File, cols []archive.Column, rows []map[string]string) error {
	var names []string
	for _, c := range cols {
		names = append(names, c.Name)
	}
	var b strings.Builder
	b.WriteString(strings.Join(names, ",") + "\n")
	for _, r := range rows {
		for i, n := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(csvQuote(r[n]))
		}
		b.WriteByte('\n')
	}
	_, err := f.WriteString(b.String())
	return err
}

func csvQuote(s string) string {
	if strings.ContainsAny(s, ",\"\n\r") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func baseNames(files []string) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = filepath.Base(f)
	}
	return out
}

// gameCells is a games row as text by column.
func gameCells(g archive.GameRow) map[string]string {
	m := map[string]string{
		"tournament_id": strconv.FormatInt(g.TournamentID, 10), "round": strconv.Itoa(int(g.Round)),
		"white_id": strconv.FormatInt(g.WhiteID, 10), "white_result": g.WhiteResult,
	}
	if g.Date != nil {
		m["date"] = day.Day(*g.Date).String()
	}
	if g.BlackID != nil {
		m["black_id"] = strconv.FormatInt(*g.BlackID, 10)
	}
	if g.BlackResult != nil {
		m["black_result"] = *g.BlackResult
	}
	if g.WhitePoints != nil {
		m["white_points"] = strconv.Itoa(int(*g.WhitePoints))
	}
	if g.BlackPoints != nil {
		m["black_points"] = strconv.Itoa(int(*g.BlackPoints))
	}
	return m
}

// teamCells is a teams row as text by column; a null club is left out.
func teamCells(t archive.TeamRow) map[string]string {
	m := map[string]string{"tournament_id": strconv.FormatInt(t.TournamentID, 10), "team": strconv.Itoa(int(t.Team)), "name": t.Name}
	if t.Club != nil {
		m["club"] = *t.Club
	}
	return m
}

// teamPlayerCells is a team_players row as text by column; a null round is
// left out.
func teamPlayerCells(p archive.TeamPlayerRow) map[string]string {
	m := map[string]string{"tournament_id": strconv.FormatInt(p.TournamentID, 10), "team": strconv.Itoa(int(p.Team)),
		"player_id": strconv.FormatInt(p.PlayerID, 10), "board": strconv.Itoa(int(p.Board))}
	if p.Round != nil {
		m["round"] = strconv.Itoa(int(*p.Round))
	}
	return m
}

// teamByeCells is a team_byes row as text by column.
func teamByeCells(b archive.TeamByeRow) map[string]string {
	return map[string]string{"tournament_id": strconv.FormatInt(b.TournamentID, 10), "team": strconv.Itoa(int(b.Team)),
		"round": strconv.Itoa(int(b.Round)), "match_half_points": strconv.Itoa(int(b.MatchHalfPoints)), "game_half_points": strconv.Itoa(int(b.GameHalfPoints))}
}

// playerCells is a players row as text by column; null fields are left out.
func playerCells(p archive.PlayerRow) map[string]string {
	m := map[string]string{"player_id": strconv.FormatInt(p.PlayerID, 10), "name": p.Name}
	i32 := func(k string, v *int32) {
		if v != nil {
			m[k] = strconv.Itoa(int(*v))
		}
	}
	str := func(k string, v *string) {
		if v != nil {
			m[k] = *v
		}
	}
	i32("birth_year", p.BirthYear)
	i32("category", p.Category)
	i32("fide_rating", p.FideRating)
	str("club", p.Club)
	if p.FideID != nil {
		m["fide_id"] = strconv.FormatInt(*p.FideID, 10)
	}
	str("federation", p.Federation)
	str("sex", p.Sex)
	str("title", p.Title)
	if p.BirthDate != nil {
		m["birth_date"] = day.Day(*p.BirthDate).String()
	}
	return m
}

// at is where a players row is: its sheet and row.
type at struct {
	s *sheet
	r int
}

// playerRows reads the players table as rows for the importer to match
// against, with where each is. Rows without a player id the run would take
// are left out.
func playerRows(t *smallTable) ([]archive.PlayerRow, []at) {
	var rows []archive.PlayerRow
	var where []at
	for _, s := range t.sheets {
		for r := range s.rows {
			id, ok := s.getInt(r, "player_id")
			if !ok || id <= 0 {
				continue
			}
			p := archive.PlayerRow{PlayerID: id}
			p.Name, _ = s.get(r, "name")
			i32 := func(k string) *int32 {
				if v, ok := s.getInt(r, k); ok {
					x := int32(v)
					return &x
				}
				return nil
			}
			str := func(k string) *string {
				if v, ok := s.get(r, k); ok {
					return &v
				}
				return nil
			}
			p.BirthYear, p.Category, p.FideRating, p.Club = i32("birth_year"), i32("category"), i32("fide_rating"), str("club")
			if v, ok := s.getInt(r, "fide_id"); ok {
				p.FideID = &v
			}
			p.Federation, p.Sex, p.Title = str("federation"), str("sex"), str("title")
			if v, ok := s.get(r, "birth_date"); ok {
				if d, err := archive.ParseCell(archive.Date, v); err == nil {
					x := int32(d)
					p.BirthDate = &x
				}
			}
			rows = append(rows, p)
			where = append(where, at{s, r})
		}
	}
	return rows, where
}

// tournamentRows reads the tournaments table's ids, names and dates for the
// importer's duplicate checks.
func tournamentRows(t *smallTable) []archive.TournamentRow {
	var rows []archive.TournamentRow
	for _, s := range t.sheets {
		for r := range s.rows {
			id, ok := s.getInt(r, "tournament_id")
			if !ok {
				continue
			}
			tr := archive.TournamentRow{TournamentID: id}
			tr.Name, _ = s.get(r, "name")
			for k, p := range map[string]*int32{"start_date": &tr.StartDate, "end_date": &tr.EndDate} {
				if v, ok := s.get(r, k); ok {
					if d, err := archive.ParseCell(archive.Date, v); err == nil {
						*p = int32(d)
					}
				}
			}
			rows = append(rows, tr)
		}
	}
	return rows
}
