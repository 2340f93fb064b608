package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// The tables pass: the I/O around the table rule sets (rating.TableDefinition).
// The tables table holds one row per player per game. Unlike games, its rows
// cannot be rated as they stream past: a game's rows may lie anywhere in the
// table, and games are rated in played_at order. So the pass, after the
// games, has the chess run's shape in three steps:
//
//  1. read: every tables row is checked on its own (decoding, unknown player,
//     unknown tournament or one no table rule set rates) and kept as a
//     compact tableRow of the rule set of its tournament's discipline (a
//     casual game: the first registered);
//  2. check: each rule set's rows are sorted by game and seat, each game's
//     rows are checked together (TableRules.CheckGame), and every row of a
//     bad game is rejected with the same reason;
//  3. rate: the good games, in rating order, are rated (TableRater.Rate);
//     their card rows (NAME_cards.parquet) and the lists of every period
//     from the first game to the last (TableRater.List) go to the sink, as
//     the chess run's do.
//
// Memory: about 56 bytes per tables row are held and sorted (a known limit,
// in the rule set's doc); table archives are far smaller than chess ones.

// tablesPass rates the games of an archive's tables table into a sink.
type tablesPass struct {
	arch *runArchive
	sets []*tableSet // one per table rule set, in registration order
	kind day.Kind    // the period kind
	win  *window     // the periods this run writes (--until, --resume)
	out  sink
	// allowGap and log are the run's, for checkGaps.
	allowGap bool
	log      *slog.Logger
}

// tableSet is one table rule set's part of the pass.
type tableSet struct {
	def      *rating.TableDefinition
	settings rating.Settings // the rules file's
	rules    rating.TableRules
	sum      *TableSummary
	rows     []tableRow
}

// newTablesPass is the pass of the archive's tables table; the summary gets
// a part per table rule set when there is a tables table.
func newTablesPass(opt *Options, arch *runArchive, win *window, out sink, sum *Summary) *tablesPass {
	p := &tablesPass{arch: arch, kind: opt.Period, win: win, out: out, allowGap: opt.AllowGap, log: opt.Log}
	for _, d := range rating.TableDefinitions() {
		ts := &tableSet{def: d, settings: opt.Rules.Settings(d.Name)}
		if len(arch.TableFiles) > 0 {
			ts.sum = &TableSummary{Name: d.Name}
			sum.TableRuleSets = append(sum.TableRuleSets, ts.sum)
		}
		p.sets = append(p.sets, ts)
	}
	return p
}

// The accepted span of played_at, in microseconds since 1970-01-01 UTC.
var (
	tableMinTime = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	tableMaxTime = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
)

// tableRow is one tables row that passed the row-level checks, with where it
// was read (for rejects and messages).
type tableRow struct {
	rating.TableRow
	row  int64 // data-row number in its file
	file int32 // index into Archive.TableFiles
}

// tablesSummary is the part of summary.json of the table rule sets: its
// fields follow the others.
type tablesSummary struct {
	// TableRuleSets are the table rule sets' parts, each under its name, in
	// registration order; none without a tables table.
	TableRuleSets []*TableSummary `json:"-"`
}

// Table returns the part of the table rule set name, or nil.
func (s *tablesSummary) Table(name string) *TableSummary {
	for _, t := range s.TableRuleSets {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// tablesLastList tells whether a table rule set's last list is label.
func (s *tablesSummary) tablesLastList(label string) bool {
	for _, t := range s.TableRuleSets {
		if t.LastList == label {
			return true
		}
	}
	return false
}

// appendTables appends the table rule sets' parts to b, the members of a
// JSON object.
func (s *tablesSummary) appendTables(b []byte) ([]byte, error) {
	for _, t := range s.TableRuleSets {
		v, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		b = append(strconv.AppendQuote(append(b, ','), t.Name), ':')
		b = append(b, v...)
	}
	return b, nil
}

// TableSummary is a table rule set's part of summary.json.
type TableSummary struct {
	Name          string `json:"-"`          // the rule set's, its key in summary.json
	GamesRead     int64  `json:"games_read"` // distinct game_ids among rows that passed the row checks
	GamesRated    int64  `json:"games_rated"`
	GamesRejected int64  `json:"games_rejected"`
	// RuleSet are the rule set's own fields (TableRater.Summary), after
	// games_rejected.
	RuleSet       []rating.SummaryField `json:"-"`
	Lists         int                   `json:"lists"`
	FirstList     string                `json:"first_list"`
	LastList      string                `json:"last_list"`
	PlayersListed int                   `json:"players_listed"`
}

// MarshalJSON writes the part with the rule set's fields in their place.
func (t *TableSummary) MarshalJSON() ([]byte, error) {
	type plain TableSummary
	b, err := json.Marshal((*plain)(t))
	if err != nil {
		return nil, err
	}
	at := bytes.Index(b, []byte(`,"lists":`))
	return slices.Concat(b[:at], appendSummaryFields(nil, t.RuleSet), b[at:]), nil
}

// tableProblem is the reject problem of a CheckGame error.
func tableProblem(err error) archive.Problem {
	var k interface{ RejectKind() string }
	if errors.As(err, &k) {
		return archive.Problem{Kind: archive.KindTableGame, Column: k.RejectKind(), Reason: err.Error()}
	}
	return archive.Problem{Kind: archive.KindTableGame, Column: "game", Reason: err.Error()}
}

// run reads the tables table and rates its games. The summary has the
// table rule sets' parts when the archive has a tables table.
func (p *tablesPass) run(ctx context.Context) error {
	if len(p.arch.TableFiles) == 0 {
		return nil
	}
	for _, ts := range p.sets {
		r, err := ts.def.New(ts.settings)
		if err != nil {
			return fmt.Errorf("%s rules: %w", ts.def.Name, err)
		}
		ts.rules = r
	}
	tainted, err := p.readTables(ctx)
	if err != nil {
		return err
	}
	for _, ts := range p.sets {
		ts.sum.RuleSet = ts.rules.Start(rating.TablePlayers{}).Summary() // its fields when no game is rated
		games := p.groupGames(ts, tainted)
		if err := p.checkGaps(ts, games); err != nil {
			return err
		}
		if err := p.rate(ctx, ts, games); err != nil {
			return err
		}
		ts.rows = nil
	}
	return nil
}

// readTables is step 1: every row is read, counted, and either kept or
// rejected. tainted holds the game_ids of rejected rows, so that the rest of
// such a game is rejected with a reason that says why.
func (p *tablesPass) readTables(ctx context.Context) (map[int64]bool, error) {
	cnt := p.arch.count("tables")
	tr := archive.NewReader(p.arch.FS, p.arch.TableFiles, archive.TableColumns)
	defer tr.Close()
	fileIdx := make(map[string]int32, len(p.arch.TableFiles))
	for i, f := range p.arch.TableFiles {
		fileIdx[f] = int32(i)
	}
	tainted := map[int64]bool{}
	for tr.Next() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b := tr.Batch()
		fi := fileIdx[b.File]
		for i := 0; i < b.N; i++ {
			cnt.Read++
			tr, set, prob := p.checkTableRow(b, i)
			if prob.Kind != archive.KindNone {
				p.arch.reject("tables", b, i, prob)
				if !b.Nulls[archive.TableGameID][i] {
					tainted[b.Ints[archive.TableGameID][i]] = true
				}
				continue
			}
			tr.file = fi
			p.sets[set].rows = append(p.sets[set].rows, tr)
		}
	}
	if err := tr.Err(); err != nil {
		return nil, err
	}
	return tainted, nil
}

// setOf returns the table rule set of discipline, or -1.
func (p *tablesPass) setOf(discipline string) int {
	for i, ts := range p.sets {
		if ts.def.Discipline == discipline {
			return i
		}
	}
	return -1
}

// disciplines names the table rule sets' disciplines, for a reason.
func (p *tablesPass) disciplines() string {
	var ds []string
	for _, ts := range p.sets {
		ds = append(ds, ts.def.Discipline)
	}
	return strings.Join(ds, " or ")
}

// checkTableRow checks the rules of one tables row that need no other row,
// and finds its table rule set.
func (p *tablesPass) checkTableRow(b *archive.Batch, i int) (tableRow, int, archive.Problem) {
	tr := tableRow{row: b.First + int64(i)}
	tr.Tour = -1
	if b.Bad[i].Kind != archive.KindNone {
		return tr, 0, b.Bad[i]
	}
	if col := b.Missing(i); col != "" {
		return tr, 0, archive.MissingCell(col)
	}
	ints := func(c int) int64 { return b.Ints[c][i] }
	tr.Game, tr.At = ints(archive.TableGameID), ints(archive.TablePlayedAt)
	if tr.At < tableMinTime || tr.At >= tableMaxTime {
		// A typo such as year 20250 would otherwise ask for a list per month
		// up to it.
		return tr, 0, archive.Problemf(archive.KindOutOfRange, "played_at", "played_at: %s is outside the years 1900–2199", rating.FormatPlayedAt(tr.At))
	}
	if tr.Player = p.arch.Players.Index(ints(archive.TablePlayerID)); tr.Player < 0 {
		return tr, 0, archive.Problemf(archive.KindUnknownPlayer, "", "unknown player %d", ints(archive.TablePlayerID))
	}
	set := 0 // a casual game is the first table rule set's
	if !b.Nulls[archive.TableTournamentID][i] {
		id := ints(archive.TableTournamentID)
		ti := p.arch.TournamentIndex(id)
		if ti < 0 {
			return tr, 0, p.arch.UnknownTournament(id)
		}
		d := p.arch.Tournaments[ti].Discipline
		if set = p.setOf(d); set < 0 {
			return tr, 0, archive.Problemf(archive.KindWrongDiscipline, "", "tournament %d is a %s tournament, not %s", id, d, p.disciplines())
		}
		tr.Tour = int32(ti)
	}
	if s := ints(archive.TableScore); s < math.MinInt32 || s > math.MaxInt32 {
		return tr, 0, archive.Problemf(archive.KindOutOfRange, "score", "score: %d is out of range", s)
	}
	tr.Score = int32(ints(archive.TableScore))
	// Out-of-range places and pulkas are game-level problems (CheckGame names them).
	tr.Place = rating.TablePlace(ints(archive.TablePlace))
	tr.Pulka = rating.TablePulka(ints(archive.TableStoppedPulka), b.Nulls[archive.TableStoppedPulka][i])
	tr.Left = !b.Nulls[archive.TableLeftTable][i] && ints(archive.TableLeftTable) != 0
	return tr, set, archive.Problem{}
}

// checkGaps checks the stretches between a rule set's games, in rating order
// (gapCheck): one too long is a GapError naming the game before it.
func (p *tablesPass) checkGaps(ts *tableSet, games []tableGameRef) error {
	g := gapCheck{kind: p.kind, win: p.win, allow: p.allowGap, log: p.log, what: ts.def.Title + " game"}
	for i := 1; i < len(games); i++ {
		a, b := games[i-1].Day(), games[i].Day()
		if empty, refuse := g.tooLong(a, b, day.PeriodOf(p.kind, day.Day(a)).Key, day.PeriodOf(p.kind, day.Day(b)).Key); refuse {
			r := &ts.rows[games[i-1].first]
			return &GapError{File: p.arch.TableFiles[r.file], Row: r.row, EmptyLists: empty,
				What: fmt.Sprintf("%s game %d played %s", ts.def.Title, games[i-1].Game, day.Day(a).String()),
				Next: fmt.Sprintf("%s game %d, played %s", ts.def.Title, games[i].Game, day.Day(b).String())}
		}
	}
	return nil
}

// tableGameRef is a checked game: its rating-order key and where its rows
// start in the sorted rows.
type tableGameRef struct {
	rating.TableKey
	first, n int32
}

// groupGames is step 2: it sorts a rule set's rows by game and seat, rejects
// bad games and returns the good ones in rating order.
func (p *tablesPass) groupGames(ts *tableSet, tainted map[int64]bool) []tableGameRef {
	rows := ts.rows
	// sort.Slice compares rows in place; slices.SortFunc copies both rows per
	// comparison.
	sort.Slice(rows, func(i, k int) bool {
		a, b := &rows[i], &rows[k]
		if c := rating.CompareTableSeats(&a.TableRow, &b.TableRow); c != 0 {
			return c < 0
		}
		if a.file != b.file {
			return a.file < b.file
		}
		return a.row < b.row
	})
	cnt := p.arch.count("tables")
	sum := ts.sum
	var games []tableGameRef
	var bad []int // positions of rows of rejected games
	badReason := map[int64]archive.Problem{}
	var seats []rating.TableRow
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && rows[hi].Game == rows[lo].Game {
			hi++
		}
		sum.GamesRead++
		seats = seats[:0]
		for k := lo; k < hi; k++ {
			seats = append(seats, rows[k].TableRow)
		}
		if err := ts.rules.CheckGame(seats, tainted[rows[lo].Game], p.arch.Players.ID); err != nil {
			sum.GamesRejected++
			badReason[rows[lo].Game] = tableProblem(err)
			for k := lo; k < hi; k++ {
				bad = append(bad, k)
			}
		} else {
			games = append(games, tableGameRef{TableKey: rows[lo].Key(), first: int32(lo), n: int32(hi - lo)})
			cnt.Used += int64(hi - lo)
		}
		lo = hi
	}
	// Rejects go out in source order (file, then row).
	slices.SortFunc(bad, func(a, b int) int {
		return cmp.Or(cmp.Compare(rows[a].file, rows[b].file), cmp.Compare(rows[a].row, rows[b].row))
	})
	for _, k := range bad {
		tr := &rows[k]
		cnt.Rejected++
		p.arch.rejects.add(archive.RowError{File: p.arch.TableFiles[tr.file], Row: tr.row, Problem: badReason[tr.Game], Values: p.tableValues(tr)})
	}
	slices.SortFunc(games, func(a, b tableGameRef) int { return a.Compare(b.TableKey) })
	return games
}

// tableValues renders a kept row for rejects.csv (the raw text is not kept).
func (p *tablesPass) tableValues(tr *tableRow) string {
	s := "game_id=" + strconv.FormatInt(tr.Game, 10) + ";tournament_id="
	if tr.Tour >= 0 {
		s += strconv.FormatInt(p.arch.Tournaments[tr.Tour].ID, 10)
	}
	s += ";played_at=" + rating.FormatPlayedAt(tr.At) +
		";player_id=" + strconv.FormatInt(p.arch.Players.ID[tr.Player], 10) +
		";place=" + strconv.Itoa(int(tr.Place)) +
		";score=" + strconv.Itoa(int(tr.Score)) +
		";left_table=" + strconv.FormatBool(tr.Left) + ";stopped_pulka="
	if tr.Pulka != rating.PulkaNull {
		s += strconv.Itoa(int(tr.Pulka))
	}
	return s
}

// rate is step 3: rate in order; the card rows and the lists go to the sink.
func (p *tablesPass) rate(ctx context.Context, ts *tableSet, games []tableGameRef) error {
	if len(games) == 0 {
		return nil
	}
	// Lists go from the first game's period to the last's, whether or not a
	// period has games, and stop at --until, whose later games are left for a
	// later run: a run up to P and a full run write the same lists up to P.
	last := day.PeriodOf(p.kind, day.Day(games[len(games)-1].Day())).Key
	if p.win.hasUntil {
		n := sort.Search(len(games), func(i int) bool {
			return day.PeriodOf(p.kind, day.Day(games[i].Day())).Key > p.win.until
		})
		games, last = games[:n], min(last, p.win.until)
	}
	if len(games) == 0 {
		return nil
	}
	rt := ts.rules.Start(p.players())
	cur := day.PeriodOf(p.kind, day.Day(games[0].Day())).Key
	seats := make([]rating.TableRow, 0, 4)
	for gi, ref := range games {
		if gi%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		k := day.PeriodOf(p.kind, day.Day(ref.Day())).Key
		for ; cur < k; cur++ {
			if err := p.list(ctx, ts, rt, cur); err != nil {
				return err
			}
		}
		seats = seats[:0]
		for _, r := range ts.rows[ref.first : ref.first+ref.n] {
			seats = append(seats, r.TableRow)
		}
		held, err := rt.Rate(seats, day.Period{Kind: p.kind, Key: k}.Label())
		if err != nil { // CheckGame passed, so this is a defect, not bad input
			return fmt.Errorf("%s game %d: %w", ts.def.Name, ref.Game, err)
		}
		ts.sum.GamesRated++
		if held >= cardsPerRowGroup {
			if err := p.cards(ctx, ts, rt); err != nil {
				return err
			}
		}
	}
	for ; cur <= last; cur++ {
		if err := p.list(ctx, ts, rt, cur); err != nil {
			return err
		}
	}
	ts.sum.RuleSet = rt.Summary()
	return p.cards(ctx, ts, rt)
}

// players are what the rule set's rows name players and tournaments by.
func (p *tablesPass) players() rating.TablePlayers {
	tours := make([]int64, len(p.arch.Tournaments))
	for i := range p.arch.Tournaments {
		tours[i] = p.arch.Tournaments[i].ID
	}
	return rating.TablePlayers{IDs: p.arch.Players.ID, Names: p.arch.Players.Name, Tournaments: tours}
}

// cards hands the card rows the rater holds to the sink, as a row group.
func (p *tablesPass) cards(ctx context.Context, ts *tableSet, rt rating.TableRater) error {
	return p.out.tableCards(ctx, ts.def, rt.Cards())
}

// list hands the list as of the end of period key to the sink.
func (p *tablesPass) list(ctx context.Context, ts *tableSet, rt rating.TableRater, key int) error {
	// Every run rates the table games from the start (they are cheap) and
	// writes every list, also those an earlier run wrote: a correction shows
	// in them (the sink names a published list that changed).
	label := day.Period{Kind: p.kind, Key: key}.Label()
	rows, n := rt.List()
	ts.sum.Lists++
	if ts.sum.FirstList == "" {
		ts.sum.FirstList = label
	}
	ts.sum.LastList, ts.sum.PlayersListed = label, n
	return p.out.tableList(ctx, ts.def, label, rows)
}

// newTableParquet returns the Parquet writer of a table rule set's file f:
// the schema of its declared row, with outputOptions.
func newTableParquet(w io.Writer, f *rating.TableFile) output.RowsWriter {
	return output.NewRowsWriter(f.Row, w, output.TableSchema(f), outputOptions...)
}

// tableCardWriter writes a table rule set's NAME_cards.parquet, a row group
// at a time.
type tableCardWriter struct {
	rel string
	f   *outFile
	w   output.RowsWriter
}

func newTableCardWriter(stage *staging, def *rating.TableDefinition) (*tableCardWriter, error) {
	rel := output.TableCards.For(def.Name).Rel("")
	f, err := stage.create(rel)
	if err != nil {
		return nil, err
	}
	return &tableCardWriter{rel: rel, f: f, w: newTableParquet(f, &def.Cards)}, nil
}

// write writes rows as a row group.
func (cw *tableCardWriter) write(rows any) error {
	if err := cw.w.Write(rows); err != nil {
		return fmt.Errorf("write %s: %w", cw.rel, err)
	}
	if err := cw.w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", cw.rel, err)
	}
	return nil
}

func (cw *tableCardWriter) finish() error {
	if err := cw.w.Close(); err != nil {
		cw.f.abort()
		return fmt.Errorf("write %s: %w", cw.rel, err)
	}
	return cw.f.finish()
}

// writeTableList writes lists/NAME/LABEL.{csv,parquet} of table rule set def
// (a pool job).
func writeTableList(stage *staging, def *rating.TableDefinition, label string, rows any) error {
	csvRel, pqRel := output.TableListCSV.For(def.Name).Rel(label), output.TableListParquet.For(def.Name).Rel(label)
	csv, err := stage.create(csvRel)
	if err != nil {
		return err
	}
	defer csv.abort()
	pq, err := stage.create(pqRel)
	if err != nil {
		return err
	}
	defer pq.abort()
	csv.WriteString(def.List.CSVHeader)
	csv.Write(def.List.AppendCSV(nil, rows))
	w := newTableParquet(pq, &def.List)
	if err := w.Write(rows); err != nil {
		return fmt.Errorf("write %s: %w", pqRel, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("write %s: %w", pqRel, err)
	}
	if err := csv.finish(); err != nil {
		return err
	}
	return pq.finish()
}
