package archive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
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
	// Info is who each player is for other bodies (the PlayerInfoColumns), by
	// dense index; nil when the players table fills none of them.
	Info []PlayerInfo

	minID  int64
	direct []int32 // id − minID → dense index, -1 for none (nil: use binary search)
}

// PlayerInfo is a player's PlayerInfoColumns; empty strings and zero FideID
// are unknown, as is BirthDate NoDate.
type PlayerInfo struct {
	FideID                 int64
	Federation, Sex, Title string
	BirthDate              int32 // days since 1970-01-01
}

// NoDate is PlayerInfo.BirthDate when the players table has no birth_date.
const NoDate = math.MinInt32

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
	GameFiles   []string     // the games table's files, as Files finds them
	TableFiles  []string     // the tables table's files
	// Counts holds the rows read, used and rejected per table loaded
	// (players, tournaments); a run adds the tables it reads.
	Counts  map[string]*TableCount
	tMin    int64
	tDirect []int32 // tournament id − tMin → position (nil: binary search)

	latestStart int32 // a tournament starting later is in the future (latestStart)
}

// TableCount is what was read from one table: every row read is either used
// or rejected.
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

// Load opens the archive in fsys: it loads players and tournaments, checking
// every row (reject receives each rejected one), and locates games and tables.
// The players load in a goroutine while the tournaments load and then, if
// given, afterTournaments runs: it may use the tournaments and the file lists,
// not the players, and its context is cancelled when the players fail to load.
// Both loads hold their rejects and counts and pass them on when both are
// done, players first, so the rejects come in the same order as read one after
// the other.
//
// Options: Now sets the run's date (the default is the clock's), from which a
// tournament that starts more than a year later is rejected as in the future.
func Load(ctx context.Context, fsys fs.FS, reject func(RowError), afterTournaments func(context.Context, *Archive) error, opts ...Option) (*Archive, error) {
	o := loadOptions{now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	a := &Archive{FS: fsys, Counts: map[string]*TableCount{}, latestStart: latestStart(o.now())}
	pf, err := Files(fsys, "players")
	if err != nil {
		return nil, err
	}
	if len(pf) == 0 {
		return nil, fmt.Errorf("%w: players (players.parquet, players.csv or players/)", ErrMissingTable)
	}
	tf, err := Files(fsys, "tournaments")
	if err != nil {
		return nil, err
	}
	if a.GameFiles, err = Files(fsys, "games"); err != nil {
		return nil, err
	}
	if a.TableFiles, err = Files(fsys, "tables"); err != nil {
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
	for _, l := range []struct {
		table string
		load  *tableLoad
	}{{"players", players}, {"tournaments", tournaments}} {
		a.Counts[l.table] = &l.load.count
		for _, r := range l.load.rejects {
			reject(r)
		}
	}
	return a, nil
}

// Option adjusts Load.
type Option func(*loadOptions)

type loadOptions struct {
	now func() time.Time
}

// Now makes t the run's date for Load's checks, instead of the clock's.
func Now(t time.Time) Option {
	return func(o *loadOptions) { o.now = func() time.Time { return t } }
}

// latestStart is the last start date (days since 1970-01-01) a tournament may
// have on a run dated now: one year after now's date. Later is a typo (2205
// for 2025), which would make a list for every month in between.
func latestStart(now time.Time) int32 {
	y, m, d := now.UTC().Date()
	return int32(time.Date(y+1, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// tableLoad is what loading one small table found, held until it is passed on
// in table order: its count and its rejected rows in the order read.
type tableLoad struct {
	count   TableCount
	rejects []RowError
}

// reject holds row i of b as rejected.
func (l *tableLoad) reject(b *Batch, i int, reason string) {
	l.count.Rejected++
	l.rejects = append(l.rejects, rowError(b, i, reason))
}

type playerRow struct {
	id    int64
	name  string
	birth int32
	cat   int8
	elo   int32
	club  string
	info  PlayerInfo
}

// playerReadColumns are the players columns the run reads: PlayerColumns, then
// PlayerInfoColumns (from position infoCol on).
var (
	playerReadColumns = append(slices.Clip(PlayerColumns), PlayerInfoColumns...)
	infoCol           = len(PlayerColumns)
)

// rowRef is where a row of a small table was read.
type rowRef struct {
	file string
	row  int64
}

// firstRows finds duplicate ids as rows are read, in file order: the first row
// of an id is kept, and every later one is rejected naming it.
type firstRows map[int64]rowRef

// duplicate tells whether id was already read, rejecting row i of b if so.
func (f firstRows) duplicate(l *tableLoad, col string, b *Batch, i int, id int64) bool {
	if first, ok := f[id]; ok {
		l.reject(b, i, fmt.Sprintf("duplicate %s %d (first at %s row %d)", col, id, first.file, first.row))
		return true
	}
	f[id] = rowRef{b.File, b.First + int64(i)}
	return false
}

func (a *Archive) loadPlayers(ctx context.Context, files []string, l *tableLoad) error {
	r := NewReader(a.FS, files, playerReadColumns)
	defer r.Close()
	cnt := &l.count
	var rows []playerRow
	anyInfo := false
	first := firstRows{}
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			cnt.Read++
			if reason := checkPlayer(b, i); reason != "" {
				l.reject(b, i, reason)
				continue
			}
			if first.duplicate(l, "player_id", b, i, b.Ints[0][i]) {
				continue
			}
			rows = append(rows, playerRow{
				id: b.Ints[0][i], name: b.Strs[1][i], birth: int32(b.Ints[2][i]), cat: int8(b.Ints[3][i]),
				elo: int32(b.Ints[4][i]), club: b.Strs[5][i], info: playerInfo(b, i),
			})
			anyInfo = anyInfo || rows[len(rows)-1].info != PlayerInfo{BirthDate: NoDate}
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
	if anyInfo {
		p.Info = make([]PlayerInfo, n)
		for i, row := range rows {
			p.Info[i] = row.info
		}
	}
	cnt.Used = int64(len(p.ID))
	p.buildIndex()
	return nil
}

func checkPlayer(b *Batch, i int) string {
	switch {
	case b.Bad[i] != "":
		return b.Bad[i]
	case b.Nulls[0][i]:
		return "player_id: missing"
	case b.Ints[0][i] <= 0:
		return fmt.Sprintf("player_id: %d is not > 0", b.Ints[0][i])
	case b.Nulls[1][i] || strings.TrimSpace(b.Strs[1][i]) == "":
		return "name: missing"
	case !b.Nulls[3][i] && (b.Ints[3][i] < 1 || b.Ints[3][i] > 4):
		return fmt.Sprintf("category: %d is not 1–4", b.Ints[3][i])
	case !b.Nulls[4][i] && (b.Ints[4][i] < 0 || b.Ints[4][i] > 4000):
		return fmt.Sprintf("fide_rating: %d is out of range", b.Ints[4][i])
	case !b.Nulls[2][i] && (b.Ints[2][i] < 1850 || b.Ints[2][i] > 2200):
		return fmt.Sprintf("birth_year: %d is out of range", b.Ints[2][i])
	}
	// Nulls read as zero: "none".
	for _, c := range []int{2, 3, 4} {
		if b.Nulls[c][i] {
			b.Ints[c][i] = 0
		}
	}
	if b.Nulls[5][i] {
		b.Strs[5][i] = ""
	}
	return ""
}

func (a *Archive) loadTournaments(ctx context.Context, files []string, l *tableLoad) error {
	cnt := &l.count
	if len(files) == 0 {
		return nil
	}
	r := NewReader(a.FS, files, TournamentColumns)
	defer r.Close()
	first := firstRows{}
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			cnt.Read++
			t, reason := checkTournament(b, i, a.latestStart)
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

// playerInfo reads row i's PlayerInfoColumns; nulls are unknown.
func playerInfo(b *Batch, i int) PlayerInfo {
	in := PlayerInfo{BirthDate: NoDate}
	if !b.Nulls[infoCol][i] {
		in.FideID = b.Ints[infoCol][i]
	}
	for c, s := range []*string{&in.Federation, &in.Sex, &in.Title} {
		if !b.Nulls[infoCol+1+c][i] {
			*s = b.Strs[infoCol+1+c][i]
		}
	}
	if !b.Nulls[infoCol+4][i] {
		in.BirthDate = int32(b.Ints[infoCol+4][i])
	}
	return in
}

func checkTournament(b *Batch, i int, latestStart int32) (Tournament, string) {
	t := Tournament{
		ID: b.Ints[0][i], Name: strings.TrimSpace(b.Strs[1][i]), Start: int32(b.Ints[2][i]), End: int32(b.Ints[3][i]),
		System: strings.ToLower(strings.TrimSpace(b.Strs[4][i])), Rounds: int32(b.Ints[5][i]),
		Discipline: strings.ToLower(strings.TrimSpace(b.Strs[6][i])), Rated: b.Nulls[7][i] || b.Ints[7][i] != 0,
		Tiebreaks: strings.TrimSpace(b.Strs[8][i]),
	}
	if b.Nulls[4][i] {
		t.System = ""
	}
	if b.Nulls[5][i] {
		t.Rounds = 0
	}
	if b.Nulls[6][i] || t.Discipline == "" {
		t.Discipline = "chess"
	}
	if b.Nulls[8][i] {
		t.Tiebreaks = ""
	}
	switch {
	case b.Bad[i] != "":
		return t, b.Bad[i]
	case b.Nulls[0][i]:
		return t, "tournament_id: missing"
	case b.Nulls[1][i] || t.Name == "":
		return t, "name: missing"
	case b.Nulls[2][i]:
		return t, "start_date: missing"
	case b.Nulls[3][i]:
		return t, "end_date: missing"
	case t.Start > t.End:
		return t, "start_date is after end_date"
	case t.Start > latestStart:
		return t, fmt.Sprintf("start_date %s is in the future: more than a year after the run's date", formatCell(Date, []int64{int64(t.Start)}, nil, 0))
	case !b.Nulls[5][i] && (t.Rounds < 1 || t.Rounds > 1000):
		return t, fmt.Sprintf("rounds: %d is out of range 1–1000", t.Rounds)
	case t.Discipline != "chess" && t.Discipline != "scrabble" && t.Discipline != "joker":
		return t, fmt.Sprintf("discipline: %q is not chess, scrabble or joker", Excerpt(t.Discipline))
	}
	return t, ""
}
