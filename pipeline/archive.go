package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
)

// Column sets of the archive tables (interface.md §1).
var (
	playerCols = []colSpec{
		{"player_id", tInt, true}, {"name", tString, true}, {"birth_year", tInt, false},
		{"category", tInt, false}, {"fide_rating", tInt, false}, {"club", tString, false},
	}
	tournamentCols = []colSpec{
		{"tournament_id", tInt, true}, {"name", tString, true}, {"start_date", tDate, true},
		{"end_date", tDate, true}, {"system", tString, false}, {"rounds", tInt, false},
		{"discipline", tString, false}, {"rated", tBool, false}, {"tiebreaks", tString, false},
	}
	gameCols = []colSpec{
		{"tournament_id", tInt, true}, {"round", tInt, true}, {"date", tDate, false},
		{"white_id", tInt, true}, {"black_id", tInt, false},
		{"white_result", tCode, true}, {"black_result", tCode, false},
		{"white_points", tInt, false}, {"black_points", tInt, false},
	}
)

// Players is the player registry, sorted by id; a player's dense index is its
// position here.
type Players struct {
	ID        []int64
	Name      []string
	BirthYear []int32 // 0 = unknown
	Category  []int8  // 1–4, 0 = none
	Elo       []int32 // 0 = none
	Club      []string

	minID  int64
	direct []int32 // id − minID → dense index, -1 for none (nil: use binary search)
}

// Index returns the dense index of player id, or -1. Ids in a compact range
// (the usual case) are looked up in a direct table, others by binary search.
func (p *Players) Index(id int64) int32 {
	if p.direct != nil {
		if d := uint64(id - p.minID); d < uint64(len(p.direct)) {
			return p.direct[d]
		}
		return -1
	}
	i := sort.Search(len(p.ID), func(i int) bool { return p.ID[i] >= id })
	if i < len(p.ID) && p.ID[i] == id {
		return int32(i)
	}
	return -1
}

func (p *Players) buildIndex() { p.minID, p.direct = directIndex(p.ID) }

// directIndex returns a table from id − min to position for sorted ids, or nil
// when the ids span more than 8 slots per id (then callers search).
func directIndex(ids []int64) (min int64, table []int32) {
	n := len(ids)
	if n == 0 {
		return 0, nil
	}
	span := uint64(ids[n-1] - ids[0])
	if span >= uint64(8*n+1024) {
		return 0, nil
	}
	table = make([]int32, span+1)
	for i := range table {
		table[i] = -1
	}
	for i, id := range ids {
		table[id-ids[0]] = int32(i)
	}
	return ids[0], table
}

// Tournament is one row of the tournaments table.
type Tournament struct {
	ID         int64
	Name       string
	Start, End int32 // days since 1970-01-01
	System     string
	Rounds     int32 // 0 = not given
	Discipline string
	Rated      bool
	Tiebreaks  string
}

// Archive is an opened archive: the small tables loaded, the large ones located.
type Archive struct {
	FS          fs.FS
	Players     Players
	Tournaments []Tournament // sorted by id
	GameFiles   []string
	TableFiles  []string
	counts      map[string]*TableCount
	tMin        int64
	tDirect     []int32 // tournament id − tMin → position (nil: binary search)
	rejects     *rejectSink
}

// TableCount is what was read from one table.
type TableCount struct {
	Read     int64 `json:"read"`
	Used     int64 `json:"used"`
	Rejected int64 `json:"rejected"`
}

// TournamentIndex returns the position of tournament id, or -1.
func (a *Archive) TournamentIndex(id int64) int {
	if a.tDirect != nil {
		if d := uint64(id - a.tMin); d < uint64(len(a.tDirect)) {
			return int(a.tDirect[d])
		}
		return -1
	}
	i := sort.Search(len(a.Tournaments), func(i int) bool { return a.Tournaments[i].ID >= id })
	if i < len(a.Tournaments) && a.Tournaments[i].ID == id {
		return i
	}
	return -1
}

func (a *Archive) count(table string) *TableCount {
	c := a.counts[table]
	if c == nil {
		c = &TableCount{}
		a.counts[table] = c
	}
	return c
}

// reject records one rejected row and counts it.
func (a *Archive) reject(table string, b *batch, i int, reason string) {
	a.count(table).Rejected++
	a.rejects.add(b.file, b.first+int64(i), reason, b.values(i))
}

// openArchive loads players and tournaments and locates games and tables. The
// players load in a goroutine while the tournaments load and then, if given,
// afterTournaments runs: it may use the tournaments and the file lists, not the
// players, and its context is cancelled when the players fail to load. Both loads hold their rejects and counts, and pass them on when both
// are done, players first, so the rejects come in the same order as read one
// after the other.
func openArchive(ctx context.Context, fsys fs.FS, rejects *rejectSink, afterTournaments func(context.Context, *Archive) error) (*Archive, error) {
	a := &Archive{FS: fsys, counts: map[string]*TableCount{}, rejects: rejects}
	pf, err := tableFiles(fsys, "players")
	if err != nil {
		return nil, err
	}
	if len(pf) == 0 {
		return nil, fmt.Errorf("%w: players (players.parquet, players.csv or players/)", ErrMissingTable)
	}
	tf, err := tableFiles(fsys, "tournaments")
	if err != nil {
		return nil, err
	}
	if a.GameFiles, err = tableFiles(fsys, "games"); err != nil {
		return nil, err
	}
	if a.TableFiles, err = tableFiles(fsys, "tables"); err != nil {
		return nil, err
	}
	players, tournaments := &tableLoad{}, &tableLoad{}
	// A load that fails stops the other one (lctx).
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	playersErr := make(chan error, 1)
	go func() {
		err := a.loadPlayers(lctx, pf, players)
		if err != nil {
			cancel()
		}
		playersErr <- err
	}()
	err = a.loadTournaments(lctx, tf, tournaments)
	if err == nil && afterTournaments != nil {
		err = afterTournaments(lctx, a)
	}
	if err != nil {
		cancel()
	}
	// The players' error first, as when they were read first, unless it is only
	// the stop caused by the tournaments' error.
	if perr := <-playersErr; perr != nil && (err == nil || ctx.Err() != nil || !errors.Is(perr, context.Canceled)) {
		return nil, perr
	}
	if err != nil {
		return nil, err
	}
	a.takeLoad("players", players)
	a.takeLoad("tournaments", tournaments)
	return a, nil
}

// tableLoad is what loading one small table found, held until it is passed on
// in table order: its count and its rejected rows in the order read.
type tableLoad struct {
	count   TableCount
	rejects []rejectedRow
}

type rejectedRow struct {
	file           string
	row            int64
	reason, values string
}

// reject holds row i of b as rejected.
func (l *tableLoad) reject(b *batch, i int, reason string) {
	l.count.Rejected++
	l.rejects = append(l.rejects, rejectedRow{b.file, b.first + int64(i), reason, b.values(i)})
}

// takeLoad passes the count and rejects of a loaded table on.
func (a *Archive) takeLoad(table string, l *tableLoad) {
	a.counts[table] = &l.count
	for _, r := range l.rejects {
		a.rejects.add(r.file, r.row, r.reason, r.values)
	}
}

type playerRow struct {
	id    int64
	name  string
	birth int32
	cat   int8
	elo   int32
	club  string
}

// rowRef is where a row of a small table was read.
type rowRef struct {
	file string
	row  int64
}

// firstRows finds duplicate ids as rows are read, in file order: the first row
// of an id is kept, and every later one is rejected naming it.
type firstRows map[int64]rowRef

// duplicate tells whether id was already read, rejecting row i of b if so.
func (f firstRows) duplicate(l *tableLoad, col string, b *batch, i int, id int64) bool {
	if first, ok := f[id]; ok {
		l.reject(b, i, fmt.Sprintf("duplicate %s %d (first at %s row %d)", col, id, first.file, first.row))
		return true
	}
	f[id] = rowRef{b.file, b.first + int64(i)}
	return false
}

func (a *Archive) loadPlayers(ctx context.Context, files []string, l *tableLoad) error {
	r := openTable(a.FS, files, playerCols)
	defer r.Close()
	cnt := &l.count
	var rows []playerRow
	first := firstRows{}
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := r.Batch()
		for i := 0; i < b.n; i++ {
			cnt.Read++
			if reason := checkPlayer(b, i); reason != "" {
				l.reject(b, i, reason)
				continue
			}
			if first.duplicate(l, "player_id", b, i, b.ints[0][i]) {
				continue
			}
			rows = append(rows, playerRow{
				id: b.ints[0][i], name: b.strs[1][i], birth: int32(b.ints[2][i]), cat: int8(b.ints[3][i]),
				elo: int32(b.ints[4][i]), club: b.strs[5][i],
			})
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	slices.SortFunc(rows, func(x, y playerRow) int { return cmp.Compare(x.id, y.id) })
	p := &a.Players
	n := len(rows)
	p.ID, p.Name, p.BirthYear = make([]int64, 0, n), make([]string, 0, n), make([]int32, 0, n)
	p.Category, p.Elo, p.Club = make([]int8, 0, n), make([]int32, 0, n), make([]string, 0, n)
	for _, row := range rows {
		p.ID = append(p.ID, row.id)
		p.Name = append(p.Name, row.name)
		p.BirthYear = append(p.BirthYear, row.birth)
		p.Category = append(p.Category, row.cat)
		p.Elo = append(p.Elo, row.elo)
		p.Club = append(p.Club, row.club)
	}
	cnt.Used = int64(len(p.ID))
	p.buildIndex()
	return nil
}

func checkPlayer(b *batch, i int) string {
	switch {
	case b.bad[i] != "":
		return b.bad[i]
	case b.nulls[0][i]:
		return "player_id: missing"
	case b.ints[0][i] <= 0:
		return fmt.Sprintf("player_id: %d is not > 0", b.ints[0][i])
	case b.nulls[1][i] || strings.TrimSpace(b.strs[1][i]) == "":
		return "name: missing"
	case !b.nulls[3][i] && (b.ints[3][i] < 1 || b.ints[3][i] > 4):
		return fmt.Sprintf("category: %d is not 1–4", b.ints[3][i])
	case !b.nulls[4][i] && (b.ints[4][i] < 0 || b.ints[4][i] > 4000):
		return fmt.Sprintf("fide_rating: %d is out of range", b.ints[4][i])
	case !b.nulls[2][i] && (b.ints[2][i] < 1850 || b.ints[2][i] > 2200):
		return fmt.Sprintf("birth_year: %d is out of range", b.ints[2][i])
	}
	// Nulls read as zero: "none".
	for _, c := range []int{2, 3, 4} {
		if b.nulls[c][i] {
			b.ints[c][i] = 0
		}
	}
	if b.nulls[5][i] {
		b.strs[5][i] = ""
	}
	return ""
}

func (a *Archive) loadTournaments(ctx context.Context, files []string, l *tableLoad) error {
	cnt := &l.count
	if len(files) == 0 {
		return nil
	}
	r := openTable(a.FS, files, tournamentCols)
	defer r.Close()
	first := firstRows{}
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := r.Batch()
		for i := 0; i < b.n; i++ {
			cnt.Read++
			t, reason := checkTournament(b, i)
			if reason != "" {
				l.reject(b, i, reason)
				continue
			}
			if first.duplicate(l, "tournament_id", b, i, t.ID) {
				continue
			}
			a.Tournaments = append(a.Tournaments, t)
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	slices.SortFunc(a.Tournaments, func(x, y Tournament) int { return cmp.Compare(x.ID, y.ID) })
	cnt.Used = int64(len(a.Tournaments))
	ids := make([]int64, len(a.Tournaments))
	for i, t := range a.Tournaments {
		ids[i] = t.ID
	}
	a.tMin, a.tDirect = directIndex(ids)
	return nil
}

func checkTournament(b *batch, i int) (Tournament, string) {
	t := Tournament{
		ID: b.ints[0][i], Name: strings.TrimSpace(b.strs[1][i]), Start: int32(b.ints[2][i]), End: int32(b.ints[3][i]),
		System: strings.ToLower(strings.TrimSpace(b.strs[4][i])), Rounds: int32(b.ints[5][i]),
		Discipline: strings.ToLower(strings.TrimSpace(b.strs[6][i])), Rated: b.nulls[7][i] || b.ints[7][i] != 0,
		Tiebreaks: strings.TrimSpace(b.strs[8][i]),
	}
	if b.nulls[4][i] {
		t.System = ""
	}
	if b.nulls[5][i] {
		t.Rounds = 0
	}
	if b.nulls[6][i] || t.Discipline == "" {
		t.Discipline = "chess"
	}
	if b.nulls[8][i] {
		t.Tiebreaks = ""
	}
	switch {
	case b.bad[i] != "":
		return t, b.bad[i]
	case b.nulls[0][i]:
		return t, "tournament_id: missing"
	case b.nulls[1][i] || t.Name == "":
		return t, "name: missing"
	case b.nulls[2][i]:
		return t, "start_date: missing"
	case b.nulls[3][i]:
		return t, "end_date: missing"
	case t.Start > t.End:
		return t, "start_date is after end_date"
	case !b.nulls[5][i] && (t.Rounds < 1 || t.Rounds > 1000):
		return t, fmt.Sprintf("rounds: %d is out of range 1–1000", t.Rounds)
	case t.Discipline != "chess" && t.Discipline != "scrabble" && t.Discipline != "joker":
		return t, fmt.Sprintf("discipline: %q is not chess, scrabble or joker", t.Discipline)
	}
	return t, ""
}
