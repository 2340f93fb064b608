package importer

import (
	"errors"
	"fmt"
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
	// the largest tournament_id in the archive (1 in an empty one).
	FirstID int64
	// Unrated marks the new tournaments as not on the approved list (rated=false).
	Unrated bool
	// Moveless says how a PGN import reads a game without moves.
	Moveless Moveless
}

// Archive is an archive folder being merged into. Players and tournaments are held
// in memory; new games wait in memory until Commit.
type Archive struct {
	Dir         string
	Players     []archive.PlayerRow
	Tournaments []archive.TournamentRow

	oldPlayers, oldTournaments int
	byFide                     map[int64]int  // FIDE id → Players index
	byName                     map[string]int // normalised name → Players index, -1 when several
	matched                    map[int]bool
	tourKey                    map[string]int64 // name|start|end → tournament_id
	nextPlayer, nextTournament int64
	games                      []archive.GameRow
	dirtyPlayers               bool
}

// Open reads the archive's players and tournaments tables. A missing folder is an
// empty archive (created by Commit). Tables in CSV form, or players/tournaments as
// folders of parts, cannot be merged into: convert them first with ImportCSV.
func Open(dir string, opt Options) (*Archive, error) {
	a := &Archive{Dir: dir, byFide: map[int64]int{}, byName: map[string]int{}, matched: map[int]bool{},
		tourKey: map[string]int64{}, nextPlayer: 1, nextTournament: 1}
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
		a.tourKey[tournamentKey(t.Name, t.StartDate, t.EndDate)] = t.TournamentID
		a.nextTournament = max(a.nextTournament, t.TournamentID+1)
	}
	if opt.FirstID > 0 {
		a.nextTournament = opt.FirstID
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

func tournamentKey(name string, start, end int32) string {
	return fmt.Sprintf("%s|%d|%d", normName(name), start, end)
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

// addTournament appends a tournament with the next id, or returns the id of the
// same tournament (name and dates) already in the archive and false.
func (a *Archive) addTournament(t archive.TournamentRow) (int64, bool) {
	k := tournamentKey(t.Name, t.StartDate, t.EndDate)
	if id, dup := a.tourKey[k]; dup {
		return id, false
	}
	t.TournamentID = a.nextTournament
	a.nextTournament++
	a.Tournaments = append(a.Tournaments, t)
	a.tourKey[k] = t.TournamentID
	return t.TournamentID, true
}

// Commit writes the merged archive. Temporary files are written first and renamed
// into place last, players before tournaments before games, so that a crash leaves
// either the old archive or one whose new games all have their players and
// tournament. It writes nothing when nothing is new.
func (a *Archive) Commit() (written []string, err error) {
	newT := len(a.Tournaments) > a.oldTournaments
	newP := a.dirtyPlayers || len(a.Players) > a.oldPlayers
	if !newT && !newP && len(a.games) == 0 {
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
	if len(a.games) > 0 {
		tmp, err := writeTemp(a.Dir, "games", a.games)
		if err != nil {
			return nil, err
		}
		if err := gamesFolder(a.Dir); err != nil {
			return nil, err
		}
		part, err := nextPart(filepath.Join(a.Dir, "games"))
		if err != nil {
			return nil, err
		}
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
	w := parquet.NewGenericWriter[T](f, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(1<<20))
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

// day converts a date to days since 1970-01-01.
func day(t time.Time) int32 { return int32(t.Unix() / 86400) }

func ptr[T any](v T) *T { return &v }
