package correct

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/archive"
)

// smallTable is a players or tournaments table read whole, file by file.
type smallTable struct {
	table
	sheets []*sheet
}

func loadTable(dir, name string) (*smallTable, error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("archive %s: not a folder: %w", dir, ErrUsage)
	}
	t, err := locate(dir, name)
	if err != nil {
		return nil, err
	}
	if len(t.files) == 0 {
		return nil, fmt.Errorf("archive %s has no %s table: %w", dir, name, ErrUsage)
	}
	sheets, err := loadSheets(dir, t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return &smallTable{t, sheets}, nil
}

// find returns the sheet and row whose idCol holds id; s is nil when none.
func (t *smallTable) find(idCol string, id int64) (s *sheet, row int) {
	for _, s := range t.sheets {
		if r := s.find(idCol, id); r >= 0 {
			return s, r
		}
	}
	return nil, -1
}

// index maps each row's idCol to where the row is (the first, when an id is
// there twice).
func (t *smallTable) index(idCol string) map[int64]at {
	m := map[int64]at{}
	for _, s := range t.sheets {
		for r := range s.rows {
			if id, ok := s.getInt(r, idCol); ok {
				if _, dup := m[id]; !dup {
					m[id] = at{s, r}
				}
			}
		}
	}
	return m
}

// fideOwners maps each FIDE id of the registry to its player.
type fideOwners map[int64]int64

func (t *smallTable) fideIDs() fideOwners {
	m := fideOwners{}
	for _, s := range t.sheets {
		for r := range s.rows {
			fide, ok := s.getInt(r, "fide_id")
			id, ok2 := s.getInt(r, "player_id")
			if ok && ok2 && fide > 0 {
				m[fide] = id
			}
		}
	}
	return m
}

// claim refuses a fide_id among as that another player has (one person
// twice: merge them instead), and records it as player id's.
func (m fideOwners) claim(id int64, as []Assignment) error {
	for _, a := range as {
		if a.Field != "fide_id" || a.Null {
			continue
		}
		fide, _ := strconv.ParseInt(a.Value, 10, 64)
		if other, ok := m[fide]; ok && other != id {
			return fmt.Errorf("fide_id %d is player %d's: one person under two ids is merged (ratelist archive merge-players --keep %d --drop %d): %w",
				fide, other, other, id, ErrUsage)
		}
		m[fide] = id
	}
	return nil
}

// has tells whether a file of the table has column name.
func (t *smallTable) has(name string) bool {
	for _, s := range t.sheets {
		if s.col(name) >= 0 {
			return true
		}
	}
	return false
}

// dirty tells whether a file of the table changed.
func (t *smallTable) dirty() bool {
	for _, s := range t.sheets {
		if s.dirty {
			return true
		}
	}
	return false
}

func (t *smallTable) write(c *change) error {
	for _, s := range t.sheets {
		if err := s.write(c); err != nil {
			return err
		}
	}
	return nil
}

// setCells sets the assignments on row r of s and returns the values that
// changed, old → new.
func setCells(s *sheet, r int, as []Assignment) ([]Change, error) {
	var changes []Change
	for _, a := range as {
		old, had := s.get(r, a.Field)
		if had == !a.Null && old == a.Value {
			continue
		}
		if err := s.set(r, a.Field, a.Value, a.Null); err != nil {
			return nil, err
		}
		changes = append(changes, Change{a.Field, logValue(a.Field, old, !had), logValue(a.Field, a.Value, a.Null)})
	}
	return changes, nil
}

// checkAssignments checks each field and value for the players table.
func checkAssignments(players *smallTable, as []Assignment) ([]Assignment, error) {
	out := make([]Assignment, len(as))
	seen := map[string]bool{}
	for i, a := range as {
		if err := checkField(a.Field, players.has); err != nil {
			return nil, err
		}
		if seen[a.Field] {
			return nil, fmt.Errorf("field %s given twice: %w", a.Field, ErrUsage)
		}
		seen[a.Field] = true
		var err error
		if out[i], err = checkValue(a); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// SetPlayer sets fields of player id. Nothing is written (and nothing
// logged) when every field already has its value; the entry then has no
// changes.
func SetPlayer(ctx context.Context, dir string, id int64, as []Assignment, now time.Time) (Entry, error) {
	e := Entry{Time: now, Verb: "set-player", Player: id}
	unlock, err := Lock(dir)
	if err != nil {
		return e, err
	}
	defer unlock()
	players, err := loadTable(dir, "players")
	if err != nil {
		return e, err
	}
	if len(as) == 0 {
		return e, fmt.Errorf("no FIELD=VALUE to set: %w", ErrUsage)
	}
	as, err = checkAssignments(players, as)
	if err != nil {
		return e, err
	}
	s, r := players.find("player_id", id)
	if s == nil {
		return e, fmt.Errorf("no player %d in %s: %w", id, dir, ErrUsage)
	}
	if err := players.fideIDs().claim(id, as); err != nil {
		return e, err
	}
	if e.Changes, err = setCells(s, r, as); err != nil || len(e.Changes) == 0 {
		return e, err
	}
	c := &change{dir: dir}
	defer c.discard()
	if err := players.write(c); err != nil {
		return e, err
	}
	if err := c.log(e); err != nil {
		return e, err
	}
	return e, c.apply(ctx)
}

// PlayersResult is what ImportPlayers did: one entry per player changed or
// added, in the file's order.
type PlayersResult struct {
	Rows    int // data rows read
	Changed []Entry
	Added   []Entry
}

// ImportPlayers updates the player registry from a CSV file: a header
// naming player_id and the fields to change, one row per player. A non-empty
// cell sets the field; an empty cell leaves it as it is (set-player clears a
// field). A player_id not in the archive is a new player, which needs a name.
// Any bad row, field or value refuses the whole file, naming its row and
// column: nothing is changed.
func ImportPlayers(ctx context.Context, dir, file string, now time.Time) (PlayersResult, error) {
	var res PlayersResult
	unlock, err := Lock(dir)
	if err != nil {
		return res, err
	}
	defer unlock()
	players, err := loadTable(dir, "players")
	if err != nil {
		return res, err
	}
	f, err := os.Open(file)
	if err != nil {
		return res, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	hdr, err := r.Read()
	if err != nil {
		return res, fmt.Errorf("%s: header: %w: %w", file, err, ErrUsage)
	}
	idCol := -1
	cols := map[string]bool{}
	for i := range hdr {
		hdr[i] = fieldName(strings.TrimPrefix(hdr[i], "\ufeff"))
		if strings.EqualFold(hdr[i], "player_id") {
			hdr[i] = "player_id"
		}
		if cols[hdr[i]] {
			return res, fmt.Errorf("%s: header column %d: %s given twice: %w", file, i+1, hdr[i], ErrUsage)
		}
		cols[hdr[i]] = true
		if hdr[i] == "player_id" {
			idCol = i
			continue
		}
		if err := checkField(hdr[i], players.has); err != nil {
			return res, fmt.Errorf("%s: header column %d: %w", file, i+1, err)
		}
	}
	if idCol < 0 {
		return res, fmt.Errorf("%s: header: no player_id column: %w", file, ErrUsage)
	}
	byID, fide := players.index("player_id"), players.fideIDs()
	seen := map[int64]int{}
	for row := 1; ; row++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return res, fmt.Errorf("%s: %w: %w", file, err, ErrUsage)
		}
		res.Rows++
		at := func(col string, err error) error {
			return fmt.Errorf("%s row %d column %s: %w", file, row, col, err)
		}
		id, perr := strconv.ParseInt(strings.TrimSpace(rec[idCol]), 10, 64)
		if perr != nil || id <= 0 {
			return res, at("player_id", fmt.Errorf("%q is not a player id (an integer > 0): %w", rec[idCol], ErrUsage))
		}
		if prev, dup := seen[id]; dup {
			return res, at("player_id", fmt.Errorf("player %d again (row %d): %w", id, prev, ErrUsage))
		}
		seen[id] = row
		var as []Assignment
		for i, text := range rec {
			if i == idCol || strings.TrimSpace(text) == "" {
				continue
			}
			a, err := checkValue(Assignment{Field: hdr[i], Value: strings.TrimSpace(text)})
			if err != nil {
				return res, at(hdr[i], err)
			}
			as = append(as, a)
		}
		if err := fide.claim(id, as); err != nil {
			return res, at("fide_id", err)
		}
		e := Entry{Time: now, Verb: "import-players", Player: id, Source: filepath.Base(file)}
		if p, ok := byID[id]; ok {
			if e.Changes, err = setCells(p.s, p.r, as); err != nil {
				return res, at("", err)
			}
			if len(e.Changes) > 0 {
				res.Changed = append(res.Changed, e)
			}
			continue
		}
		cells := map[string]string{"player_id": strconv.FormatInt(id, 10)}
		for _, a := range as {
			cells[a.Field] = a.Value
			e.Changes = append(e.Changes, Change{a.Field, nil, logValue(a.Field, a.Value, false)})
		}
		if cells["name"] == "" {
			return res, at("name", fmt.Errorf("player %d is new and needs a name: %w", id, ErrUsage))
		}
		last := players.sheets[len(players.sheets)-1]
		if err := last.add(cells); err != nil {
			return res, at("", err)
		}
		res.Added = append(res.Added, e)
	}
	if len(res.Changed)+len(res.Added) == 0 {
		return res, nil
	}
	c := &change{dir: dir}
	defer c.discard()
	if err := players.write(c); err != nil {
		return res, err
	}
	if err := c.log(append(append([]Entry(nil), res.Changed...), res.Added...)...); err != nil {
		return res, err
	}
	return res, c.apply(ctx)
}

// MergePlayers makes drop's games, Joker table rows and team places keep's,
// fills keep's empty fields from drop's and removes drop from the registry.
// It is refused when the two meet in a game, both play in one round of a
// tournament, sit at one Joker table or are both listed in the teams of a
// tournament: they are then two people.
func MergePlayers(ctx context.Context, dir string, keep, drop int64, now time.Time) (Entry, error) {
	e := Entry{Time: now, Verb: "merge-players", Player: keep}
	unlock, err := Lock(dir)
	if err != nil {
		return e, err
	}
	defer unlock()
	if keep == drop {
		return e, fmt.Errorf("keep and drop are the same player %d: %w", keep, ErrUsage)
	}
	players, err := loadTable(dir, "players")
	if err != nil {
		return e, err
	}
	ks, kr := players.find("player_id", keep)
	ds, dr := players.find("player_id", drop)
	switch {
	case ks == nil:
		return e, fmt.Errorf("no player %d (keep) in %s: %w", keep, dir, ErrUsage)
	case ds == nil:
		return e, fmt.Errorf("no player %d (drop) in %s: %w", drop, dir, ErrUsage)
	}
	if err := checkMerge(ctx, dir, keep, drop); err != nil {
		return e, err
	}
	c := &change{dir: dir}
	defer c.discard()
	move := func(ids []int64, ok []bool) bool {
		for k := range ids {
			if ok[k] && ids[k] == drop {
				ids[k] = keep
			}
		}
		return true
	}
	games, err := editTable(ctx, c, "games", rowEdit{[]string{"white_id", "black_id"}, move}, nil)
	if err != nil {
		return e, err
	}
	tables, err := editTable(ctx, c, "tables", rowEdit{[]string{"player_id"}, move}, nil)
	if err != nil {
		return e, err
	}
	teams, err := editTable(ctx, c, "team_players", rowEdit{[]string{"player_id"}, move}, nil)
	if err != nil {
		return e, err
	}
	dropName, _ := ds.get(dr, "name")
	e.Changes = append(e.Changes, Change{fmt.Sprintf("games of player %d", drop), games.changed, 0})
	if tables.changed > 0 {
		e.Changes = append(e.Changes, Change{fmt.Sprintf("Joker table rows of player %d", drop), tables.changed, 0})
	}
	if teams.changed > 0 {
		e.Changes = append(e.Changes, Change{fmt.Sprintf("team places of player %d", drop), teams.changed, 0})
	}
	var fill []Assignment
	for _, col := range ds.cols {
		v, ok := ds.get(dr, col)
		if _, has := ks.get(kr, col); ok && !has && col != "player_id" {
			fill = append(fill, Assignment{Field: col, Value: v})
		}
	}
	filled, err := setCells(ks, kr, fill)
	if err != nil {
		return e, fmt.Errorf("fill player %d from player %d: %w", keep, drop, err)
	}
	e.Changes = append(e.Changes, filled...)
	ds.delete(dr)
	e.Changes = append(e.Changes, Change{fmt.Sprintf("player %d", drop), dropName, nil})
	// Games and table rows first: a crash before the players table is
	// replaced leaves drop in the registry, without games.
	if err := players.write(c); err != nil {
		return e, err
	}
	if err := c.log(e); err != nil {
		return e, err
	}
	return e, c.apply(ctx)
}

// checkMerge refuses a merge after which one player would meet himself, play
// twice in a round or sit twice at a Joker table, naming where.
func checkMerge(ctx context.Context, dir string, keep, drop int64) error {
	fsys := os.DirFS(dir)
	files, err := archive.Files(fsys, "games")
	if err != nil {
		return err
	}
	type round struct {
		t int64
		r int64
	}
	seen := map[round]uint8{} // bit 1: keep plays, bit 2: drop plays
	bit := func(id int64) uint8 {
		switch id {
		case keep:
			return 1
		case drop:
			return 2
		}
		return 0
	}
	// Only the four columns it needs: a merge reads the games table twice.
	const tc, rc, wc, bc = 0, 1, 2, 3
	cols := []archive.Column{archive.GameColumns[archive.GameTournamentID], archive.GameColumns[archive.GameRound],
		archive.GameColumns[archive.GameWhiteID], archive.GameColumns[archive.GameBlackID]}
	r := archive.NewReader(fsys, files, cols)
	defer r.Close()
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			w := bit(b.Ints[wc][i])
			var bl uint8
			if !b.Nulls[bc][i] {
				bl = bit(b.Ints[bc][i])
			}
			if w|bl == 0 {
				continue
			}
			tid, rnd := b.Ints[tc][i], b.Ints[rc][i]
			where := fmt.Sprintf("%s row %d", b.File, b.First+int64(i))
			if w|bl == 3 {
				return fmt.Errorf("players %d and %d play each other in round %d of tournament %d (%s): they are two people: %w", keep, drop, rnd, tid, where, ErrUsage)
			}
			k := round{tid, rnd}
			if seen[k]|w|bl == 3 {
				return fmt.Errorf("players %d and %d both play in round %d of tournament %d (%s): they are two people: %w", keep, drop, rnd, tid, where, ErrUsage)
			}
			seen[k] |= w | bl
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	files, err = archive.Files(fsys, "tables")
	if err != nil {
		return err
	}
	atTable := map[int64]uint8{}
	r = archive.NewReader(fsys, files, archive.TableColumns)
	defer r.Close()
	for r.Next() {
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			p := bit(b.Ints[archive.TablePlayerID][i])
			if p == 0 {
				continue
			}
			g := b.Ints[archive.TableGameID][i]
			if atTable[g]|p == 3 {
				return fmt.Errorf("players %d and %d both sit at Joker game %d (%s row %d): they are two people: %w", keep, drop, g, b.File, b.First+int64(i), ErrUsage)
			}
			atTable[g] |= p
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	if files, err = archive.Files(fsys, "team_players"); err != nil {
		return err
	}
	type list struct {
		t int64
		r int64 // 0: the teams' lists
	}
	listed := map[list]uint8{}
	r = archive.NewReader(fsys, files, archive.TeamPlayerColumns)
	defer r.Close()
	for r.Next() {
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			p := bit(b.Ints[2][i])
			if p == 0 {
				continue
			}
			k := list{b.Ints[0][i], b.Ints[4][i]}
			if b.Nulls[4][i] {
				k.r = 0
			}
			if listed[k]|p == 3 {
				return fmt.Errorf("players %d and %d are both listed in the teams of tournament %d (%s row %d): they are two people: %w", keep, drop, k.t, b.File, b.First+int64(i), ErrUsage)
			}
			listed[k] |= p
		}
	}
	return r.Err()
}
