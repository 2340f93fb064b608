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
	// Report, when set, is handed each skipped game or file and each note (note
	// true) as the import finds it, instead of Stats.Problems and Stats.Notes
	// keeping them: memory then does not grow with them.
	Report func(p *Problem, note bool)
}

// Archive is an archive folder being merged into. Players and tournaments are held
// in memory; new games are written as they come to the new games part, a temporary
// file that Commit renames into place and Abort removes.
type Archive struct {
	Dir         string
	Players     []archive.PlayerRow
	Tournaments []archive.TournamentRow

	oldPlayers, oldTournaments int
	byFide                     map[int64]int  // FIDE id → Players index
	byName                     map[string]int // normalised name → Players index, -1 when several
	matched                    map[int]bool
	oldIDs                     map[int64]bool    // tournament ids in the archive before the import
	contents                   map[gameSet]int64 // a tournament's games → its tournament_id
	byNameDates                map[string]int64  // name|start|end → tournament_id, for notes
	seed                       [2]maphash.Seed   // of gameSet's hashes
	nextPlayer, nextTournament int64
	firstID                    int64      // Options.FirstID
	games                      *gamesPart // nil until the first new game
	existed                    bool       // Dir was there at Open
	dirtyPlayers               bool
	err                        error // stops the import: nothing is committed
}

// newArchive is an empty archive in dir.
func newArchive(dir string) *Archive {
	return &Archive{Dir: dir, byFide: map[int64]int{}, byName: map[string]int{}, matched: map[int]bool{},
		oldIDs: map[int64]bool{}, contents: map[gameSet]int64{}, byNameDates: map[string]int64{}, seed: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
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
	for _, name := range []string{"players.csv", "tournaments.csv", "games.csv", "players", "tournaments"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			hint := "convert it first: ratelist import csv " + filepath.Join(dir, name) + " --archive " + dir
			if !strings.HasSuffix(name, ".csv") {
				hint = "import rewrites " + name + ".parquet: merge the parts into one file first"
			}
			return nil, fmt.Errorf("%s: %w: %s is not Parquet; %s", dir, ErrArchive, name, hint)
		}
	}
	var err error
	if a.Players, err = readParquet[archive.PlayerRow](filepath.Join(dir, "players.parquet")); err != nil {
		return nil, err
	}
	if a.Tournaments, err = readParquet[archive.TournamentRow](filepath.Join(dir, "tournaments.parquet")); err != nil {
		return nil, err
	}
	a.oldPlayers, a.oldTournaments = len(a.Players), len(a.Tournaments)
	for i, p := range a.Players {
		a.index(i)
		a.nextPlayer = max(a.nextPlayer, p.PlayerID+1)
	}
	for _, t := range a.Tournaments {
		a.oldIDs[t.TournamentID] = true
		a.byNameDates[nameDates(t)] = t.TournamentID
		a.nextTournament = max(a.nextTournament, t.TournamentID+1)
	}
	if err := a.readContents(); err != nil {
		return nil, err
	}
	if opt.FirstID > 0 {
		a.nextTournament, a.firstID = opt.FirstID, opt.FirstID
	}
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

func nameDates(t archive.TournamentRow) string {
	return fmt.Sprintf("%s|%d|%d", normName(t.Name), t.StartDate, t.EndDate)
}

// namesake returns the tournament with t's name and dates, before t was added.
func (a *Archive) namesake(t archive.TournamentRow) (int64, bool) {
	id, ok := a.byNameDates[nameDates(t)]
	return id, ok
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
// (their TournamentID set) to the new games part, or returns the id of the
// tournament already in the archive, or imported before, with the same games, and
// false. When the next id is already an archive tournament's (a FirstID range that
// collides), or the rows cannot be written, it returns false with id 0 and the
// import is stopped (a.err): nothing is committed.
func (a *Archive) addTournament(t archive.TournamentRow, rows []archive.GameRow) (int64, bool) {
	id, isNew := a.addTournamentSet(t, a.gameSetOf(t, rows))
	if !isNew {
		return id, false
	}
	for i := range rows {
		rows[i].TournamentID = id
	}
	if err := a.writeGames(rows); err != nil {
		a.err = err
		return 0, false
	}
	return id, true
}

// addTournamentSet is addTournament for a tournament known by its games' set,
// whose rows the caller writes (a PGN import streams them).
func (a *Archive) addTournamentSet(t archive.TournamentRow, set gameSet) (int64, bool) {
	set.start, set.end = t.StartDate, t.EndDate
	if id, dup := a.contents[set]; dup {
		return id, false
	}
	if a.oldIDs[a.nextTournament] {
		if a.err == nil {
			a.err = fmt.Errorf("first id %d: tournament_id %d for %q is already in the archive; nothing was imported: %w",
				a.firstID, a.nextTournament, t.Name, ErrIDTaken)
		}
		return 0, false
	}
	t.TournamentID = a.nextTournament
	a.nextTournament++
	a.Tournaments = append(a.Tournaments, t)
	a.contents[set] = t.TournamentID
	if _, ok := a.byNameDates[nameDates(t)]; !ok {
		a.byNameDates[nameDates(t)] = t.TournamentID
	}
	return t.TournamentID, true
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

// Err is the error that stopped the import, if any (ErrIDTaken).
func (a *Archive) Err() error { return a.err }

// Commit writes the merged archive. Temporary files are written first and renamed
// into place last, players before tournaments before games, so that a crash leaves
// either the old archive or one whose new games all have their players and
// tournament. It writes nothing when nothing is new. When the import was stopped
// (Err) or a file cannot be written, the archive is left as it was.
func (a *Archive) Commit() (written []string, err error) {
	defer a.Abort()
	if a.err != nil {
		return nil, a.err
	}
	newT := len(a.Tournaments) > a.oldTournaments
	newP := a.dirtyPlayers || len(a.Players) > a.oldPlayers
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
	return parquet.NewGenericWriter[T](f, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(rowGroup))
}

// day converts a date to days since 1970-01-01.
func day(t time.Time) int32 { return int32(t.Unix() / 86400) }

func ptr[T any](v T) *T { return &v }
