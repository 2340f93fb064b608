package archive

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ratelist/ratelist/day"
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

	minID   int64
	direct  []int32 // id − minID → dense index, -1 for none (nil: use binary search)
	gapless bool    // the ids are minID, minID+1, …: the dense index is id − minID
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
	if p.gapless {
		if d := uint64(id - p.minID); d < uint64(len(p.ID)) {
			return int32(d)
		}
		return -1
	}
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

// IDOf returns the id of the player of dense index i: ID[i], worked out
// without reading ID when the ids have no gap (a lookup in a large registry
// misses the cache).
func (p *Players) IDOf(i int32) int64 {
	if p.gapless {
		return p.minID + int64(i)
	}
	return p.ID[i]
}

// buildIndex makes Index's table. Ids numbered without a gap (a registry
// that numbers its players in turn) need none: a table lookup misses the
// cache for most games rows of a large registry.
func (p *Players) buildIndex() {
	n := len(p.ID)
	if p.gapless = n > 0 && p.ID[n-1]-p.ID[0] == int64(n-1); p.gapless {
		p.minID, p.direct = p.ID[0], nil
		return
	}
	p.minID, p.direct = directIndex(p.ID)
}

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

// Tournament is one row of the tournaments table. A run holds one for every
// tournament of the archive, so the few distinct setups are shared, not copied.
type Tournament struct {
	ID         int64
	Name       string
	*Setup           // shared between tournaments: never nil, never written after loading
	Start, End int32 // days since 1970-01-01
	Rounds     int32 // 0 = not given
	Rated      bool
}

// Setup is how a tournament is played: the text columns that repeat across tournaments.
type Setup struct {
	System     string
	Discipline string
	Tiebreaks  string
	TimeClass  string // standard (also when not given), rapid or blitz
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
	// rejected holds why each rejected tournament row was rejected, by id, so
	// that its games can say so instead of only "unknown tournament".
	rejected map[int64]string
}

// RejectedTournament returns why the row of tournament id was rejected, when
// id is not in the archive because its row was.
func (a *Archive) RejectedTournament(id int64) (string, bool) {
	why, ok := a.rejected[id]
	return why, ok
}

// UnknownTournament is the problem of a row naming tournament id, which is not
// in the archive; it names the reason when the tournament's own row was rejected.
func (a *Archive) UnknownTournament(id int64) Problem {
	if why, ok := a.RejectedTournament(id); ok {
		return Problemf(KindUnknownTournament, "", "unknown tournament %d: its row was rejected (%s)", id, why)
	}
	return Problemf(KindUnknownTournament, "", "unknown tournament %d", id)
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

// Loading is an archive whose small tables are being loaded: Players and
// Tournaments each read and check one table (rejected rows are held) and may
// run at the same time, on goroutines the caller starts; Done then passes the
// rejects on, players first, as if the tables had been read one after the other.
type Loading struct {
	a                    *Archive
	pf, tf               []string
	players, tournaments tableLoad
}

// Open locates the tables of the archive in fsys, to be loaded.
//
// Options: Now sets the run's date (the default is the clock's), from which a
// tournament that starts more than a year later is rejected as in the future.
func Open(fsys fs.FS, opts ...Option) (*Loading, error) {
	o := loadOptions{now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	l := &Loading{a: &Archive{FS: fsys, Counts: map[string]*TableCount{}, latestStart: latestStart(o.now())}}
	var err error
	if l.pf, err = Files(fsys, "players"); err != nil {
		return nil, err
	}
	if len(l.pf) == 0 {
		return nil, fmt.Errorf("%w: players (players.parquet, players.csv or players/)", ErrMissingTable)
	}
	if l.tf, err = Files(fsys, "tournaments"); err != nil {
		return nil, err
	}
	if l.a.GameFiles, err = Files(fsys, "games"); err != nil {
		return nil, err
	}
	if l.a.TableFiles, err = Files(fsys, "tables"); err != nil {
		return nil, err
	}
	return l, nil
}

// Players loads the players table.
func (l *Loading) Players(ctx context.Context) error { return l.a.loadPlayers(ctx, l.pf, &l.players) }

// Tournaments loads the tournaments table.
func (l *Loading) Tournaments(ctx context.Context) error {
	return l.a.loadTournaments(ctx, l.tf, &l.tournaments)
}

// Partial is the archive being loaded: once Tournaments has returned, its
// tournaments and file lists may be used, not its players.
func (l *Loading) Partial() *Archive { return l.a }

// Done passes the rejected rows on to reject, players first, and returns the
// loaded archive. Call it when both loads have succeeded.
func (l *Loading) Done(reject func(RowError)) *Archive {
	for _, t := range []struct {
		table string
		load  *tableLoad
	}{{"players", &l.players}, {"tournaments", &l.tournaments}} {
		l.a.Counts[t.table] = &t.load.count
		for _, r := range t.load.rejects {
			reject(r)
		}
	}
	return l.a
}

// Load opens the archive in fsys and loads players and tournaments, one after
// the other, checking every row (reject receives each rejected one).
func Load(ctx context.Context, fsys fs.FS, reject func(RowError), opts ...Option) (*Archive, error) {
	l, err := Open(fsys, opts...)
	if err != nil {
		return nil, err
	}
	if err := l.Players(ctx); err != nil {
		return nil, err
	}
	if err := l.Tournaments(ctx); err != nil {
		return nil, err
	}
	return l.Done(reject), nil
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
	return int32(day.Date(y+1, m, d))
}

// tableLoad is what loading one small table found, held until it is passed on
// in table order: its count and its rejected rows in the order read.
type tableLoad struct {
	count   TableCount
	rejects []RowError
}

// reject holds row i of b as rejected.
func (l *tableLoad) reject(b *Batch, i int, p Problem) {
	l.count.Rejected++
	l.rejects = append(l.rejects, RowErrorAt(b, i, p))
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

// rowPos is a rowRef with the file's position in firstRows.files, which
// leaves the garbage collector nothing to scan.
type rowPos struct {
	file int32
	row  int64
}

// firstRows finds duplicate ids as rows are read, in file order: the first row
// of an id is kept, and every later one is rejected naming it. Exports mostly
// list ids in increasing order, where a new id above the last one cannot be a
// duplicate: the index of ids is built only once an id is not.
type firstRows struct {
	ids   []int64  // kept, in read order
	at    []rowPos // where each was read
	files []string
	index map[int64]int32 // id → position in ids; nil while ids increase
}

// grow makes room for n more ids.
func (f *firstRows) grow(n int) {
	f.ids, f.at = slices.Grow(f.ids, n), slices.Grow(f.at, n)
}

// increasing tells whether the kept ids are in strictly increasing order.
func (f *firstRows) increasing() bool { return f.index == nil }

// duplicate tells whether id was already read, rejecting row i of b if so.
func (f *firstRows) duplicate(l *tableLoad, col string, b *Batch, i int, id int64) bool {
	if k, ok := f.find(id); ok {
		first := rowRef{f.files[f.at[k].file], f.at[k].row}
		l.reject(b, i, Problemf(KindDuplicate, col, "duplicate %s %d (first at %s row %d)", col, id, first.file, first.row))
		return true
	}
	f.add(id, b.File, b.First+int64(i))
	return false
}

// find is the position of id among the kept ids.
func (f *firstRows) find(id int64) (int32, bool) {
	if f.index == nil {
		if n := len(f.ids); n == 0 || id > f.ids[n-1] {
			return 0, false
		}
		f.index = make(map[int64]int32, max(cap(f.ids), 2*len(f.ids)))
		for k, id := range f.ids {
			f.index[id] = int32(k)
		}
	}
	k, ok := f.index[id]
	return k, ok
}

// add keeps id, read at row of file.
func (f *firstRows) add(id int64, file string, row int64) {
	if n := len(f.files); n == 0 || f.files[n-1] != file {
		f.files = append(f.files, file)
	}
	if f.index != nil {
		f.index[id] = int32(len(f.ids))
	}
	f.ids = append(f.ids, id)
	f.at = append(f.at, rowPos{int32(len(f.files) - 1), row})
}

// maxSizeHint caps the rows a load reserves room for from a Reader's
// estimate, which a file of odd rows could make far too large.
const maxSizeHint = 4 << 20

func (a *Archive) loadPlayers(ctx context.Context, files []string, l *tableLoad) error {
	r := NewReader(a.FS, files, playerReadColumns)
	defer r.Close()
	cnt := &l.count
	p := &a.Players
	var first firstRows
	shared := sharedStrings{}
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if cnt.Read == 0 {
			// An estimate: room for an eighth more than it says.
			n := min(r.SizeHint(), maxSizeHint)
			n += n / 8
			p.grow(n)
			first.grow(n)
		}
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			cnt.Read++
			if p := checkPlayer(b, i); p.Kind != KindNone {
				l.reject(b, i, p)
				continue
			}
			if first.duplicate(l, "player_id", b, i, b.Ints[0][i]) {
				continue
			}
			p.ID = append(p.ID, b.Ints[0][i])
			p.Name = append(p.Name, b.Strs[1][i])
			p.BirthYear = append(p.BirthYear, int32(b.Ints[2][i]))
			p.Category = append(p.Category, int8(b.Ints[3][i]))
			p.Elo = append(p.Elo, int32(b.Ints[4][i]))
			p.Club = append(p.Club, shared.of(b.Strs[5][i]))
			if in := playerInfo(b, i, shared); p.Info != nil || in != noInfo {
				if p.Info == nil { // the first player with any: those before have none
					p.Info = make([]PlayerInfo, len(p.ID)-1, cap(p.ID))
					for k := range p.Info {
						p.Info[k] = noInfo
					}
				}
				p.Info = append(p.Info, in)
			}
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	if !first.increasing() {
		p.sortByID()
	}
	cnt.Used = int64(len(p.ID))
	p.buildIndex()
	return nil
}

// grow makes room for n more players.
func (p *Players) grow(n int) {
	p.ID, p.Name, p.BirthYear = slices.Grow(p.ID, n), slices.Grow(p.Name, n), slices.Grow(p.BirthYear, n)
	p.Category, p.Elo, p.Club = slices.Grow(p.Category, n), slices.Grow(p.Elo, n), slices.Grow(p.Club, n)
}

// sortByID puts the players, whose ids are distinct, in id order.
func (p *Players) sortByID() {
	perm := make([]int32, len(p.ID))
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortFunc(perm, func(x, y int32) int { return cmp.Compare(p.ID[x], p.ID[y]) })
	p.ID, p.Name, p.BirthYear = permuted(p.ID, perm), permuted(p.Name, perm), permuted(p.BirthYear, perm)
	p.Category, p.Elo, p.Club = permuted(p.Category, perm), permuted(p.Elo, perm), permuted(p.Club, perm)
	if p.Info != nil {
		p.Info = permuted(p.Info, perm)
	}
}

// permuted is s[perm[0]], s[perm[1]], ….
func permuted[T any](s []T, perm []int32) []T {
	out := make([]T, len(perm))
	for i, k := range perm {
		out[i] = s[k]
	}
	return out
}

func checkPlayer(b *Batch, i int) Problem {
	switch {
	case b.Bad[i].Kind != KindNone:
		return b.Bad[i]
	case b.Nulls[0][i]:
		return MissingCell("player_id")
	case b.Ints[0][i] <= 0:
		return Problemf(KindOutOfRange, "player_id", "player_id: %d is not > 0", b.Ints[0][i])
	case b.Nulls[1][i] || strings.TrimSpace(b.Strs[1][i]) == "":
		return MissingCell("name")
	case !b.Nulls[3][i] && (b.Ints[3][i] < 1 || b.Ints[3][i] > 4):
		return Problemf(KindOutOfRange, "category", "category: %d is not 1–4", b.Ints[3][i])
	case !b.Nulls[4][i] && (b.Ints[4][i] < 0 || b.Ints[4][i] > 4000):
		return Problemf(KindOutOfRange, "fide_rating", "fide_rating: %d is out of range", b.Ints[4][i])
	case !b.Nulls[2][i] && (b.Ints[2][i] < 1850 || b.Ints[2][i] > 2200):
		return Problemf(KindOutOfRange, "birth_year", "birth_year: %d is out of range", b.Ints[2][i])
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
	return Problem{}
}

func (a *Archive) loadTournaments(ctx context.Context, files []string, l *tableLoad) error {
	cnt := &l.count
	if len(files) == 0 {
		return nil
	}
	r := NewReader(a.FS, files, TournamentColumns)
	defer r.Close()
	var first firstRows
	shared := sharedSetups{}
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if cnt.Read == 0 {
			// The hint, with no room to spare: the table is held for the whole run
			// (exact for a Parquet file; a CSV estimate short of it grows by append).
			n := min(r.SizeHint(), maxSizeHint)
			a.Tournaments = slices.Grow(a.Tournaments, n)
			first.grow(n)
		}
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			cnt.Read++
			t, p := checkTournament(b, i, a.latestStart, shared)
			if p.Kind != KindNone {
				if !b.Nulls[0][i] && (b.Bad[i].Kind == KindNone || b.Bad[i].Column != "tournament_id") {
					if a.rejected == nil {
						a.rejected = map[int64]string{}
					}
					a.rejected[t.ID] = p.Reason
				}
				l.reject(b, i, p)
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
	if n := len(a.Tournaments); cap(a.Tournaments)-n > n/16 {
		a.Tournaments = slices.Clone(a.Tournaments) // an estimate, or append, left much room unused
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

// sharedSetups gives equal setups one copy: the few of the tournaments,
// decoded per row, would otherwise be held once per row for the whole run.
type sharedSetups map[Setup]*Setup

// of returns an equal setup kept before, or s's own copy.
func (m sharedSetups) of(s Setup) *Setup {
	if k, ok := m[s]; ok {
		return k
	}
	k := &s
	if len(m) < maxShared {
		m[s] = k
	}
	return k
}

// sharedStrings gives equal strings one copy: the players' clubs, federations,
// sexes and titles, decoded as a string per row, would otherwise be held once
// per row for the whole run.
type sharedStrings map[string]string

// maxShared bounds the values a sharedStrings or sharedSetups keeps: a
// column of distinct values is held as it was.
const maxShared = 1024

// of returns s, or an equal string kept before.
func (m sharedStrings) of(s string) string {
	if k, ok := m[s]; ok {
		return k
	}
	if len(m) < maxShared {
		m[s] = s
	}
	return s
}

// noInfo is a player of whom no PlayerInfoColumns is known.
var noInfo = PlayerInfo{BirthDate: NoDate}

// playerInfo reads row i's PlayerInfoColumns; nulls are unknown.
func playerInfo(b *Batch, i int, shared sharedStrings) PlayerInfo {
	in := noInfo
	if !b.Nulls[infoCol][i] {
		in.FideID = b.Ints[infoCol][i]
	}
	for c, s := range []*string{&in.Federation, &in.Sex, &in.Title} {
		if !b.Nulls[infoCol+1+c][i] {
			*s = shared.of(b.Strs[infoCol+1+c][i])
		}
	}
	if !b.Nulls[infoCol+4][i] {
		in.BirthDate = int32(b.Ints[infoCol+4][i])
	}
	return in
}

// checkTournament reads and checks row i; a rejected row's tournament has
// only its id and no setup.
func checkTournament(b *Batch, i int, latestStart int32, shared sharedSetups) (Tournament, Problem) {
	t := Tournament{
		ID: b.Ints[0][i], Name: strings.TrimSpace(b.Strs[1][i]), Start: int32(b.Ints[2][i]), End: int32(b.Ints[3][i]),
		Rounds: int32(b.Ints[5][i]), Rated: b.Nulls[7][i] || b.Ints[7][i] != 0,
	}
	su := Setup{
		System:     strings.ToLower(strings.TrimSpace(b.Strs[4][i])),
		Discipline: strings.ToLower(strings.TrimSpace(b.Strs[6][i])),
		Tiebreaks:  strings.TrimSpace(b.Strs[8][i]),
		TimeClass:  strings.ToLower(strings.TrimSpace(b.Strs[9][i])),
	}
	if b.Nulls[4][i] {
		su.System = ""
	}
	if b.Nulls[5][i] {
		t.Rounds = 0
	}
	if b.Nulls[6][i] || su.Discipline == "" {
		su.Discipline = "chess"
	}
	if b.Nulls[8][i] {
		su.Tiebreaks = ""
	}
	if b.Nulls[9][i] || su.TimeClass == "" {
		su.TimeClass = TimeStandard
	}
	switch {
	case b.Bad[i].Kind != KindNone:
		return t, b.Bad[i]
	case b.Nulls[0][i]:
		return t, MissingCell("tournament_id")
	case b.Nulls[1][i] || t.Name == "":
		return t, MissingCell("name")
	case b.Nulls[2][i]:
		return t, MissingCell("start_date")
	case b.Nulls[3][i]:
		return t, MissingCell("end_date")
	case t.Start > t.End:
		return t, Problem{KindStartAfterEnd, "", kindNames[KindStartAfterEnd]}
	case t.Start > latestStart:
		return t, Problemf(KindOutOfRange, "start_date", "start_date %s is in the future: more than a year after the run's date", formatCell(Date, []int64{int64(t.Start)}, nil, 0))
	case !b.Nulls[5][i] && (t.Rounds < 1 || t.Rounds > 1000):
		return t, Problemf(KindOutOfRange, "rounds", "rounds: %d is out of range 1–1000", t.Rounds)
	case su.Discipline != "chess" && su.Discipline != "scrabble" && su.Discipline != "joker":
		return t, Problemf(KindOutOfRange, "discipline", "discipline: %q is not chess, scrabble or joker", Excerpt(su.Discipline))
	case !IsTimeClass(su.TimeClass):
		return t, Problemf(KindOutOfRange, "time_class", "time_class: %q is not standard, rapid or blitz", Excerpt(su.TimeClass))
	}
	t.Setup = shared.of(su)
	return t, Problem{}
}
