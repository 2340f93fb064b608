package importer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/zstdcodec"
)

// Options tune a TRF or PGN import.
type Options struct {
	// FirstID is the tournament_id of the first new tournament; 0 = one more than
	// the largest tournament_id in the archive (1 in an empty one). A new id that
	// is already in the archive stops the import (ErrIDTaken).
	FirstID int64
	// Unrated marks the new tournaments as not on the approved list (rated=false).
	Unrated bool
	// Moveless says how a PGN import reads a game without moves.
	Moveless Moveless
	// Name and Date name a TRF tournament and give its start date when the file
	// does not (no 012; no readable 042 or 132); "" and the zero time for none.
	Name string
	Date time.Time
	// Report, when set, is handed each skipped game or file and each note (note
	// true) as the import finds it, instead of Stats.Problems and Stats.Notes
	// keeping them: memory then does not grow with them.
	Report func(p *Problem, note bool)
	// Replace is the tournament_id of the tournament the import corrects (0 =
	// none): the sources must hold one tournament, which takes that id and is
	// not written by Commit but handed to the caller (Archive.Replacement).
	Replace int64
	// Hold keeps each new tournament and its games for the caller (Held)
	// instead of writing them: for a caller that writes an archive Commit
	// cannot (CSV tables), which is small.
	Hold bool
	// ForRating imports a TRF file whose points are not 1-½-0 (162/XXS, 299)
	// as its results, with a note, instead of skipping it: for an archive that
	// is only rated (the archive keeps result codes, which make the ratings
	// and not such standings).
	ForRating bool
}

// Archive is an archive folder being merged into. Players and tournaments are held
// in memory; new games are written as they come to the new games part, a temporary
// file that Commit renames into place and Abort removes.
type Archive struct {
	Dir         string
	Players     []archive.PlayerRow
	Tournaments []archive.TournamentRow
	// Teams, TeamPlayers and TeamByes are the team tables (teams,
	// team_players, team_byes).
	Teams       []archive.TeamRow
	TeamPlayers []archive.TeamPlayerRow
	TeamByes    []archive.TeamByeRow

	oldPlayers, oldTournaments         int
	oldTeams, oldTeamPlayers, oldTByes int
	byFide                             map[int64]int  // FIDE id → Players index
	byName                             map[string]int // normalised name → Players index, -1 when several
	matched                            map[int]bool
	oldIDs                             map[int64]bool    // tournament ids in the archive before the import
	contents                           map[gameSet]int64 // a tournament's games → its tournament_id
	events                             map[string][]span // normalised tournament name → its tournaments' dates
	seed                               [2]maphash.Seed   // of gameSet's hashes
	nextPlayer, nextTournament         int64
	firstID                            int64 // Options.FirstID
	replace                            int64 // Options.Replace
	replacement                        *replacement
	hold                               bool          // Options.Hold
	held                               []replacement // the new tournaments, under Options.Hold
	games                              *gamesPart    // nil until the first new game
	existed                            bool          // Dir was there at Open
	dirtyPlayers                       bool
	err                                error // stops the import: nothing is committed
}

// newArchive is an empty archive in dir.
func newArchive(dir string) *Archive {
	return &Archive{Dir: dir, byFide: map[int64]int{}, byName: map[string]int{}, matched: map[int]bool{},
		oldIDs: map[int64]bool{}, contents: map[gameSet]int64{}, events: map[string][]span{}, seed: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
		nextPlayer: 1, nextTournament: 1}
}

// Open reads the archive's players and tournaments tables. A missing folder is an
// empty archive (created by Commit). Tables in CSV form, or players/tournaments as
// folders of parts, cannot be merged into: convert them first with ImportCSV.
func Open(dir string, opt Options) (*Archive, error) {
	a := newArchive(dir)
	if _, err := os.Stat(dir); err == nil {
		a.existed = true
	}
	for _, name := range []string{"players.csv", "tournaments.csv", "games.csv", "teams.csv", "team_players.csv", "team_byes.csv", "players", "tournaments", "teams", "team_players", "team_byes"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			hint := "convert it first: ratelist import csv " + filepath.Join(dir, name) + " --archive " + dir
			if !strings.HasSuffix(name, ".csv") {
				hint = "import rewrites " + name + ".parquet: merge the parts into one file first"
			}
			return nil, fmt.Errorf("%s: %w: %s is not Parquet; %s", dir, ErrTableForm, name, hint)
		}
	}
	players, err := readParquet[archive.PlayerRow](filepath.Join(dir, "players.parquet"))
	if err != nil {
		return nil, err
	}
	tournaments, err := readParquet[archive.TournamentRow](filepath.Join(dir, "tournaments.parquet"))
	if err != nil {
		return nil, err
	}
	if a.Teams, err = readParquet[archive.TeamRow](filepath.Join(dir, "teams.parquet")); err != nil {
		return nil, err
	}
	if a.TeamPlayers, err = readParquet[archive.TeamPlayerRow](filepath.Join(dir, "team_players.parquet")); err != nil {
		return nil, err
	}
	if a.TeamByes, err = readParquet[archive.TeamByeRow](filepath.Join(dir, "team_byes.parquet")); err != nil {
		return nil, err
	}
	a.oldTeams, a.oldTeamPlayers, a.oldTByes = len(a.Teams), len(a.TeamPlayers), len(a.TeamByes)
	return a.load(players, tournaments, opt)
}

// OpenTables is Open for a caller that has read the archive's players and
// tournaments itself, from tables of any form (a correction with
// Options.Replace): the import's new players are appended to Players and
// matched ones filled in, in place.
func OpenTables(dir string, players []archive.PlayerRow, tournaments []archive.TournamentRow, opt Options) (*Archive, error) {
	a := newArchive(dir)
	a.existed = true
	return a.load(players, tournaments, opt)
}

func (a *Archive) load(players []archive.PlayerRow, tournaments []archive.TournamentRow, opt Options) (*Archive, error) {
	a.Players, a.Tournaments = players, tournaments
	a.oldPlayers, a.oldTournaments = len(a.Players), len(a.Tournaments)
	for i, p := range a.Players {
		a.index(i)
		a.nextPlayer = max(a.nextPlayer, p.PlayerID+1)
	}
	for _, t := range a.Tournaments {
		a.oldIDs[t.TournamentID] = true
		a.addName(t)
		a.nextTournament = max(a.nextTournament, t.TournamentID+1)
	}
	if opt.Replace != 0 && !a.oldIDs[opt.Replace] {
		return nil, fmt.Errorf("replace tournament %d: no tournament %d in %s: %w", opt.Replace, opt.Replace, a.Dir, ErrUsage)
	}
	if err := a.readContents(); err != nil {
		return nil, err
	}
	if opt.FirstID > 0 {
		a.nextTournament, a.firstID = opt.FirstID, opt.FirstID
	}
	a.replace, a.hold = opt.Replace, opt.Hold
	return a, nil
}

func readParquet[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	rows, err := parquet.Read[T](f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w: %w", path, ErrArchive, err)
	}
	return rows, nil
}

// normName is the name as matched: surrounding spaces trimmed, inner runs collapsed.
func normName(s string) string { return strings.Join(strings.Fields(s), " ") }

// textError refuses a text field as the archive does (archive.CheckText): a
// control character (a line break, a tab, NUL, …) or text that is not UTF-8.
// Spaces around it are not part of it.
func textError(field, s string) error {
	if why := archive.CheckText(strings.TrimSpace(s)); why != "" {
		return fmt.Errorf("%s: %s: %w", field, why, ErrMalformed)
	}
	return nil
}

// span is a tournament's dates, under its name in Archive.events.
type span struct {
	start, end int32
	id         int64
}

func (a *Archive) addName(t archive.TournamentRow) {
	n := normName(t.Name)
	a.events[n] = append(a.events[n], span{t.StartDate, t.EndDate, t.TournamentID})
}

// namesake returns a tournament other than the one being replaced with t's
// name whose dates overlap t's: the same event imported again, perhaps with a
// round more (same name and dates being the plainest case).
func (a *Archive) namesake(t archive.TournamentRow) (int64, bool) {
	for _, s := range a.events[normName(t.Name)] {
		if s.id != a.replace && s.start <= t.EndDate && t.StartDate <= s.end {
			return s.id, true
		}
	}
	return 0, false
}

// gameSet identifies a tournament by its dates and its games (rounds, players,
// results), whatever their order: how many, and two sums of per-game hashes.
// The dates keep apart two events of the same few players a year apart whose
// games happen to be alike; the name plays no part.
type gameSet struct {
	start, end int32
	n          int64
	h1, h2     uint64
}

// add counts one game. Results are result codes as the archive reads them.
func (g *gameSet) add(seed *[2]maphash.Seed, round int32, white, black int64, wres, bres byte) {
	var b [22]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(round))
	binary.LittleEndian.PutUint64(b[4:], uint64(white))
	binary.LittleEndian.PutUint64(b[12:], uint64(black))
	b[20], b[21] = wres, bres
	g.n++
	g.h1 += maphash.Bytes(seed[0], b[:])
	g.h2 += maphash.Bytes(seed[1], b[:])
}

// gameSetOf is the gameSet of tournament t with the games rows.
func (a *Archive) gameSetOf(t archive.TournamentRow, rows []archive.GameRow) gameSet {
	g := gameSet{start: t.StartDate, end: t.EndDate}
	for _, r := range rows {
		black, bres := int64(-1), byte(0)
		if r.BlackID != nil {
			black = *r.BlackID
		}
		if r.BlackResult != nil {
			bres = resultByte(*r.BlackResult)
		}
		g.add(&a.seed, r.Round, r.WhiteID, black, resultByte(r.WhiteResult), bres)
	}
	return g
}

// resultByte is the archive's byte for a result code (0 when it is not one).
func resultByte(s string) byte {
	c, err := archive.ParseCell(archive.Code, s)
	if err != nil {
		return 0
	}
	return byte(c)
}

// readContents reads the archive's games to know each tournament by its games:
// an event imported again is found whatever its name, and another event with
// the same name and dates is not taken for it.
func (a *Archive) readContents() error {
	if _, err := os.Stat(a.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	fsys := os.DirFS(a.Dir)
	files, err := archive.Files(fsys, "games")
	if err != nil {
		return fmt.Errorf("%s: %w: %w", a.Dir, ErrArchive, err)
	}
	col := map[string]int{}
	for i, c := range archive.GameColumns {
		col[c.Name] = i
	}
	tc, rc, wc, bc, wr, br := col["tournament_id"], col["round"], col["white_id"], col["black_id"], col["white_result"], col["black_result"]
	sets := map[int64]*gameSet{}
	r := archive.NewReader(fsys, files, archive.GameColumns)
	defer r.Close()
	for r.Next() {
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			tid := b.Ints[tc][i]
			g := sets[tid]
			if g == nil {
				g = &gameSet{}
				sets[tid] = g
			}
			black, bres := int64(-1), byte(0)
			if !b.Nulls[bc][i] {
				black = b.Ints[bc][i]
			}
			if !b.Nulls[br][i] {
				bres = byte(b.Ints[br][i])
			}
			g.add(&a.seed, int32(b.Ints[rc][i]), b.Ints[wc][i], black, byte(b.Ints[wr][i]), bres)
		}
	}
	if err := r.Err(); err != nil {
		return fmt.Errorf("%s: %w: %w", a.Dir, ErrArchive, err)
	}
	for _, t := range a.Tournaments {
		if g := sets[t.TournamentID]; g != nil {
			g.start, g.end = t.StartDate, t.EndDate
			a.contents[*g] = t.TournamentID
		}
	}
	return nil
}

func (a *Archive) index(i int) {
	p := a.Players[i]
	if p.FideID != nil && *p.FideID > 0 {
		a.byFide[*p.FideID] = i
	}
	n := normName(p.Name)
	if j, dup := a.byName[n]; dup && j != i {
		a.byName[n] = -1
	} else {
		a.byName[n] = i
	}
}

// PlayerInfo is what a source knows about a player.
type PlayerInfo struct {
	Name       string
	FideID     int64 // 0 = none
	FideRating int32 // 0 = none
	BirthYear  int32 // 0 = none
	Club       string
	// Federation, Sex (m or w), Title and BirthDate (days since 1970-01-01, 0 =
	// none) go to the players columns of the same names.
	Federation string
	Sex        string
	Title      string
	BirthDate  int32
}

// player finds or appends a player and returns its player_id. A match by name
// needs the archive player to have no FIDE id or the same one; a name shared by
// several archive players matches none of them.
func (a *Archive) player(in PlayerInfo, st *Stats) int64 {
	i, ok := -1, false
	if in.FideID > 0 {
		i, ok = a.byFide[in.FideID]
	}
	if !ok {
		j, found := a.byName[normName(in.Name)]
		if found && j >= 0 && (a.Players[j].FideID == nil || in.FideID == 0 || *a.Players[j].FideID == in.FideID) {
			i, ok = j, true
		}
	}
	if !ok {
		p := archive.PlayerRow{PlayerID: a.nextPlayer, Name: normName(in.Name)}
		a.nextPlayer++
		a.Players = append(a.Players, p)
		i = len(a.Players) - 1
		st.NewPlayers++
		a.matched[i] = true
	} else if !a.matched[i] {
		a.matched[i] = true
		st.Matched++
	}
	p := &a.Players[i]
	fill32 := func(dst **int32, v int32) {
		if *dst == nil && v > 0 {
			*dst = &v
			a.dirtyPlayers = true
		}
	}
	fill32(&p.FideRating, in.FideRating)
	fill32(&p.BirthYear, in.BirthYear)
	if p.FideID == nil && in.FideID > 0 {
		id := in.FideID
		p.FideID = &id
		a.dirtyPlayers = true
	}
	fillStr := func(dst **string, v string) {
		if *dst == nil && v != "" {
			*dst = &v
			a.dirtyPlayers = true
		}
	}
	fillStr(&p.Club, in.Club)
	fillStr(&p.Federation, in.Federation)
	fillStr(&p.Sex, in.Sex)
	fillStr(&p.Title, in.Title)
	if p.BirthDate == nil && in.BirthDate != 0 {
		d := in.BirthDate
		p.BirthDate = &d
		a.dirtyPlayers = true
	}
	a.index(i)
	return p.PlayerID
}

// addTournament appends a tournament with the next id and writes its games rows
// (their TournamentID set) to the new games part; under Options.Replace the one
// tournament takes that id, and under Options.Hold the rows are kept for the
// caller (keepRows). It returns the tournament's id, and false when the
// import stops (addTournamentSet).
func (a *Archive) addTournament(t archive.TournamentRow, rows []archive.GameRow, source string) (int64, bool) {
	t, ok := a.addTournamentSet(t, a.gameSetOf(t, rows), source)
	if !ok {
		return 0, false
	}
	for i := range rows {
		rows[i].TournamentID = t.TournamentID
	}
	return t.TournamentID, a.keepRows(t.TournamentID, rows)
}

// addTournamentSet is addTournament for a tournament known by its games' set,
// whose rows the caller hands keepRows later (a PGN import streams them). It
// returns the tournament with its id. A tournament that looks like one already
// in the archive, or imported before (the same games, or the same name and
// overlapping dates), stops the import (a.err, ErrInArchive) naming it and where
// it comes from (source), as does a next id that is already an archive
// tournament's (a FirstID range that collides, ErrIDTaken): nothing is then
// committed, and it returns false.
func (a *Archive) addTournamentSet(t archive.TournamentRow, set gameSet, source string) (archive.TournamentRow, bool) {
	if a.err != nil {
		return t, false
	}
	set.start, set.end = t.StartDate, t.EndDate
	dates := day.Day(t.StartDate).String() + " to " + day.Day(t.EndDate).String()
	if id, dup := a.contents[set]; dup && id != a.replace {
		a.err = fmt.Errorf("%s: %q (%s) has the same games as tournament %d; nothing was imported (to correct tournament %d with it, import it with --replace %d): %w",
			source, t.Name, dates, id, id, id, ErrInArchive)
		return t, false
	}
	if id, dup := a.namesake(t); dup {
		a.err = fmt.Errorf("%s: %q (%s) has the name and dates of tournament %d; nothing was imported (to correct tournament %d with it, import it with --replace %d; another event needs a name of its own): %w",
			source, t.Name, dates, id, id, id, ErrInArchive)
		return t, false
	}
	if a.replace != 0 {
		if a.replacement != nil {
			a.err = fmt.Errorf("%s: %q is a second tournament: a replacement of tournament %d is one tournament: %w", source, t.Name, a.replace, ErrUsage)
			return t, false
		}
		t.TournamentID = a.replace
		a.replacement = &replacement{t: t}
		a.contents[set] = t.TournamentID
		return t, true
	}
	if a.oldIDs[a.nextTournament] {
		a.err = fmt.Errorf("first id %d: tournament_id %d for %q is already in the archive; nothing was imported: %w",
			a.firstID, a.nextTournament, t.Name, ErrIDTaken)
		return t, false
	}
	t.TournamentID = a.nextTournament
	a.nextTournament++
	a.Tournaments = append(a.Tournaments, t)
	a.contents[set] = t.TournamentID
	a.addName(t)
	if a.hold {
		a.held = append(a.held, replacement{t: t})
	}
	return t, true
}

// keepRows takes games rows of tournament id, added by addTournamentSet: the
// replacement's and held tournaments' are kept for the caller, others written
// to the new games part. It returns false when the import stops.
func (a *Archive) keepRows(id int64, rows []archive.GameRow) bool {
	switch {
	case a.replacement != nil && a.replacement.t.TournamentID == id:
		a.replacement.rows = append(a.replacement.rows, rows...)
	case a.hold:
		for i := len(a.held) - 1; i >= 0; i-- {
			if a.held[i].t.TournamentID == id {
				a.held[i].rows = append(a.held[i].rows, rows...)
				break
			}
		}
	default:
		if err := a.writeGames(rows); err != nil {
			a.err = err
			return false
		}
	}
	return true
}

// Held is each new tournament of an import under Options.Hold, with its
// games rows, in the order they were added.
func (a *Archive) Held() (tournaments []archive.TournamentRow, games [][]archive.GameRow) {
	for _, h := range a.held {
		tournaments = append(tournaments, h.t)
		games = append(games, h.rows)
	}
	return tournaments, games
}

// replacement is the tournament an import under Options.Replace read.
type replacement struct {
	t     archive.TournamentRow
	rows  []archive.GameRow
	teams TeamRows
}

// TeamRows are the team tables' rows of one or more tournaments.
type TeamRows struct {
	Teams   []archive.TeamRow
	Players []archive.TeamPlayerRow
	Byes    []archive.TeamByeRow
}

// add appends r's rows.
func (t *TeamRows) add(r TeamRows) {
	t.Teams = append(t.Teams, r.Teams...)
	t.Players = append(t.Players, r.Players...)
	t.Byes = append(t.Byes, r.Byes...)
}

// addTeams takes the team tables' rows of tournament id, added by
// addTournamentSet, as keepRows takes its games.
func (a *Archive) addTeams(id int64, r TeamRows) {
	for i := range r.Teams {
		r.Teams[i].TournamentID = id
	}
	for i := range r.Players {
		r.Players[i].TournamentID = id
	}
	for i := range r.Byes {
		r.Byes[i].TournamentID = id
	}
	switch {
	case a.replacement != nil && a.replacement.t.TournamentID == id:
		a.replacement.teams.add(r)
	case a.hold:
		a.held[len(a.held)-1].teams.add(r)
	default:
		a.Teams = append(a.Teams, r.Teams...)
		a.TeamPlayers = append(a.TeamPlayers, r.Players...)
		a.TeamByes = append(a.TeamByes, r.Byes...)
	}
}

// HeldTeams is the team tables' rows of the new tournaments of an import
// under Options.Hold, and ReplacementTeams those of the replacement.
func (a *Archive) HeldTeams() TeamRows {
	var r TeamRows
	for _, h := range a.held {
		r.add(h.teams)
	}
	return r
}

// ReplacementTeams is the team tables' rows of the tournament an import under
// Options.Replace read (none when it has no teams).
func (a *Archive) ReplacementTeams() TeamRows {
	if a.replacement == nil {
		return TeamRows{}
	}
	return a.replacement.teams
}

// Replacement is the tournament an import under Options.Replace read, with
// the id it replaces, and its games rows; ok is false when the sources held
// none.
func (a *Archive) Replacement() (t archive.TournamentRow, rows []archive.GameRow, ok bool) {
	if a.replacement == nil {
		return t, nil, false
	}
	return a.replacement.t, a.replacement.rows, true
}

// gamesRowGroup is the row group size of a new games part: small enough that
// the row group the writer holds is a small part of an import's memory.
const gamesRowGroup = 1 << 16

// gamesPart is the new games part while it is written: a temporary file in the
// archive folder, filled a tournament at a time so that memory does not grow
// with the games imported.
type gamesPart struct {
	f *os.File
	w *parquet.GenericWriter[archive.GameRow]
}

// writeGames adds rows to the new games part, creating it (and the archive
// folder) on the first call.
func (a *Archive) writeGames(rows []archive.GameRow) error {
	if a.games == nil {
		if err := os.MkdirAll(a.Dir, 0o755); err != nil {
			return err
		}
		f, err := os.CreateTemp(a.Dir, ".games-*.tmp")
		if err != nil {
			return fmt.Errorf("create games: %w", err)
		}
		f.Chmod(0o644)
		a.games = &gamesPart{f: f, w: newParquetWriter[archive.GameRow](f, gamesRowGroup)}
	}
	if _, err := a.games.w.Write(rows); err != nil {
		return fmt.Errorf("write games: %w", err)
	}
	return nil
}

// finish flushes and closes the new games part and returns its temporary name.
func (g *gamesPart) finish() (string, error) {
	err := g.w.Close()
	if err == nil {
		err = g.f.Sync()
	}
	if cerr := g.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("write games: %w", err) // Abort removes the file
	}
	return g.f.Name(), nil
}

// Abort drops what the import wrote and did not commit: the temporary games
// part, and the archive folder when Open did not find it and it is still empty.
// Commit calls it; calling it again does nothing.
func (a *Archive) Abort() {
	if a.games != nil {
		a.games.f.Close()
		os.Remove(a.games.f.Name())
		a.games = nil
	}
	if !a.existed {
		os.Remove(a.Dir) // only when empty
	}
}

// Commit writes the merged archive. Temporary files are written first and renamed
// into place last, players before tournaments before games, so that a crash leaves
// either the old archive or one whose new games all have their players and
// tournament. It writes nothing when nothing is new. When the import was stopped
// (it returns why) or a file cannot be written, the archive is left as it was.
func (a *Archive) Commit() (written []string, err error) {
	defer a.Abort()
	if a.err != nil {
		return nil, a.err
	}
	newT := len(a.Tournaments) > a.oldTournaments
	newP := a.dirtyPlayers || len(a.Players) > a.oldPlayers
	newTeams := len(a.Teams) > a.oldTeams || len(a.TeamPlayers) > a.oldTeamPlayers || len(a.TeamByes) > a.oldTByes
	if !newT && !newP && a.games == nil {
		return nil, nil
	}
	if err := os.MkdirAll(a.Dir, 0o755); err != nil {
		return nil, err
	}
	type pending struct{ tmp, dst string }
	var todo []pending
	defer func() {
		for _, p := range todo {
			os.Remove(p.tmp)
		}
	}()
	if newP {
		tmp, err := writeTemp(a.Dir, "players", a.Players)
		if err != nil {
			return nil, err
		}
		todo = append(todo, pending{tmp, "players.parquet"})
	}
	if newT {
		sort.SliceStable(a.Tournaments, func(i, j int) bool { return a.Tournaments[i].TournamentID < a.Tournaments[j].TournamentID })
		tmp, err := writeTemp(a.Dir, "tournaments", a.Tournaments)
		if err != nil {
			return nil, err
		}
		todo = append(todo, pending{tmp, "tournaments.parquet"})
	}
	if newTeams {
		tmp, err := writeTemp(a.Dir, "teams", a.Teams)
		if err != nil {
			return nil, err
		}
		todo = append(todo, pending{tmp, "teams.parquet"})
		if tmp, err = writeTemp(a.Dir, "team_players", a.TeamPlayers); err != nil {
			return nil, err
		}
		todo = append(todo, pending{tmp, "team_players.parquet"})
		if len(a.TeamByes) > 0 {
			if tmp, err = writeTemp(a.Dir, "team_byes", a.TeamByes); err != nil {
				return nil, err
			}
			todo = append(todo, pending{tmp, "team_byes.parquet"})
		}
	}
	if a.games != nil {
		if err := gamesFolder(a.Dir); err != nil {
			return nil, err
		}
		part, err := nextPart(filepath.Join(a.Dir, "games"))
		if err != nil {
			return nil, err
		}
		tmp, err := a.games.finish()
		if err != nil {
			return nil, err
		}
		a.games = nil
		todo = append(todo, pending{tmp, filepath.Join("games", part)})
	}
	for len(todo) > 0 {
		p := todo[0]
		if err := os.Rename(p.tmp, filepath.Join(a.Dir, p.dst)); err != nil {
			return written, err
		}
		written = append(written, p.dst)
		todo = todo[1:]
	}
	return written, nil
}

// gamesFolder turns games.parquet into games/part-0000.parquet. The file is
// linked (or copied) into a new folder that is renamed into place before the old
// file goes, so the games are never missing; a crash in between leaves both, which
// the rating run refuses with a clear message rather than rating half the games.
func gamesFolder(dir string) error {
	single := filepath.Join(dir, "games.parquet")
	if _, err := os.Stat(single); errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(filepath.Join(dir, "games"), 0o755)
	}
	if _, err := os.Stat(filepath.Join(dir, "games")); err == nil {
		return fmt.Errorf("%s: %w: both games.parquet and games/ exist; keep one", dir, ErrArchive)
	}
	tmpDir, err := os.MkdirTemp(dir, ".games-")
	if err != nil {
		return err
	}
	part := filepath.Join(tmpDir, "part-0000.parquet")
	if err := os.Link(single, part); err != nil {
		if err := copyFile(single, part); err != nil {
			os.RemoveAll(tmpDir)
			return err
		}
	}
	os.Chmod(tmpDir, 0o755)
	if err := os.Rename(tmpDir, filepath.Join(dir, "games")); err != nil {
		os.RemoveAll(tmpDir)
		return err
	}
	return os.Remove(single)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// nextPart names the next part: one more than the largest part-NNNN number.
func nextPart(dir string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	next := 0
	for _, e := range ents {
		name := e.Name()
		if num, ok := strings.CutPrefix(name, "part-"); ok {
			if n, err := strconv.Atoi(strings.TrimSuffix(num, ".parquet")); err == nil {
				next = max(next, n+1)
			}
		}
		if strings.HasSuffix(name, ".parquet") {
			next = max(next, len(ents))
		}
	}
	return fmt.Sprintf("part-%04d.parquet", next), nil
}

// writeTemp writes rows as zstd Parquet to a temporary file in dir.
func writeTemp[T any](dir, name string, rows []T) (string, error) {
	f, err := os.CreateTemp(dir, "."+name+"-*.tmp")
	if err != nil {
		return "", fmt.Errorf("create %s: %w", name, err)
	}
	f.Chmod(0o644)
	w := newParquetWriter[T](f, 1<<20)
	if _, err = w.Write(rows); err == nil {
		err = w.Close()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	return f.Name(), nil
}

// newParquetWriter writes the archive's zstd Parquet, in row groups of at most
// rowGroup rows: the writer holds one row group in memory.
func newParquetWriter[T any](f *os.File, rowGroup int64) *parquet.GenericWriter[T] {
	return parquet.NewGenericWriter[T](f, parquet.Compression(zstdcodec.Codec), parquet.MaxRowsPerRowGroup(rowGroup))
}

// day converts a date to days since 1970-01-01.

func ptr[T any](v T) *T { return &v }
