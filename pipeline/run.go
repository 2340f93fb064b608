package pipeline

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/toplist"
)

// Options configure a run.
type Options struct {
	Archive     fs.FS
	ArchiveName string // for the summary and messages
	// Out is the output folder; "" checks the archive and writes nothing (validate).
	Out       string
	Rules     Rules
	RulesName string
	Period    day.Kind // month (default), quarter, year
	Workers   int      // 0 = GOMAXPROCS
	Arrow     bool     // also write lists as Arrow IPC files (lists/LABEL.arrow)
	// StandingsCSV says which tournaments also get standings/TOURNAMENT_ID.csv:
	// StandingsCSVLast (default), StandingsCSVAll or StandingsCSVNone.
	StandingsCSV string
	// Until rates only tournaments whose list is this period (label) or earlier.
	Until string
	// Resume continues from the latest state in Out/state: only later periods are
	// rated and their lists written. From re-rates from this period (label) on,
	// starting from the state saved after the previous period's list.
	Resume bool
	From   string
	// Progress, when set, is told how the long phases advance (a terminal bar).
	Progress Progress
	Log      *slog.Logger
	// Version is the program's version, recorded in the summary ("devel" when
	// not given).
	Version string
	// Now is the run's date (--as-of): a run lists only the periods that ended
	// before it, and a tournament starting more than a year after it is
	// rejected as in the future. Zero is the clock's.
	Now time.Time
	// Rerate, with Resume, re-rates from the first stale period by itself.
	Rerate bool
	// published is the first period this run was asked to write: lists before
	// it that it writes again are compared with the earlier run's. rerated is
	// where --rerate made it start instead.
	published, rerated string
	// Provisional also lists the period still open on Now, flagged in the
	// summary. Its state is not kept: the next run rates it again.
	Provisional bool
	// AllowGap confirms that a gap of more than maxGapYears between two
	// tournaments is real, not a mistyped year.
	AllowGap bool
	// KeepSite keeps Out/site as it is, for the report that follows the run
	// (run --report, or ratelist report later) to update in place: the caller
	// sets it only for a site `ratelist report` wrote. Else a run removes it
	// with every file it did not write.
	KeepSite bool

	open string // the open period's label when this run lists it (closeOpen)
	// cards and list are what the rule set's cards and lists hold
	// (newCardShape, newListAdded), nil before the rule set is made.
	cards *cardShape
	list  *listAdded
}

// Summary is summary.json: what was read, used, rejected and written. The
// embedded groups' fields are summary.json's keys in their place.
type Summary struct {
	Version string `json:"version"` // of the program that wrote it
	Archive string `json:"archive"`
	Rules   string `json:"rules"`
	Period  string `json:"period"`
	RowCounts
	TournamentCounts
	ListCounts
	// RuleSet are the rule set's own fields (rating.Definition.Summary), in
	// summary.json between players_listed and reject_kinds.
	RuleSet     []rating.SummaryField `json:"-"`
	RejectKinds []RejectKind          `json:"reject_kinds"`
	Resume
	tablesSummary
	// TopLists are the rules file's top-list settings when they are not the
	// defaults, for `ratelist top` and the report.
	TopLists *toplist.Settings `json:"toplists,omitempty"`
	// Norms are the title norms made in the periods this run listed;
	// allNorms, norms.csv's, those of every listed period.
	Norms    []Norm `json:"norms,omitempty"`
	allNorms []Norm
}

// Resume is what summary.json says of a resumed or re-rated run.
type Resume struct {
	ResumedFrom string `json:"resumed_from,omitempty"`
	// StalePeriods are listed periods whose rated games changed since their list
	// was written (a late or corrected report); RerunFrom, the first of them, is
	// the period to re-rate from.
	StalePeriods []string `json:"stale_periods,omitempty"`
	RerunFrom    string   `json:"rerun_from,omitempty"`
	// RerateFrom is where --rerate re-rated from, by itself (RerunFrom of the
	// run it started as); ChangedLists are the published lists it (or any
	// resumed run, for the table rule sets' lists it always writes) wrote again with
	// other rows.
	RerateFrom   string        `json:"rerated_from,omitempty"`
	ChangedLists []ChangedList `json:"changed_lists,omitempty"`
}

// RowCounts are the rows read, used and rejected, in all and per table: every
// row read is either used or rejected.
type RowCounts struct {
	RowsRead     int64                          `json:"rows_read"`
	RowsUsed     int64                          `json:"rows_used"`
	RowsRejected int64                          `json:"rows_rejected"`
	Tables       map[string]*archive.TableCount `json:"tables"`
}

// TournamentCounts are the tournaments found, rated and given standings.
type TournamentCounts struct {
	Tournaments      int   `json:"tournaments"`
	TournamentsRated int   `json:"tournaments_rated"`
	GamesRated       int64 `json:"player_games_rated"`
	StandingsWritten int   `json:"standings_written"`
}

// ListCounts are the lists written and the players on the last.
type ListCounts struct {
	Lists     int    `json:"lists"`
	FirstList string `json:"first_list"`
	LastList  string `json:"last_list"`
	// Provisional is the period still open on the run's date, when the run
	// listed it (--provisional): its list is not final.
	Provisional   string `json:"provisional,omitempty"`
	PlayersListed int    `json:"players_listed"`
}

// Run rates an archive and writes the outputs into opt.Out (or, when Out is
// "", only checks it). It returns the summary, whose counts say how many rows
// were rejected (a run with rejected rows succeeded); an error means nothing
// was written.
func Run(ctx context.Context, opt Options) (*Summary, error) {
	if err := opt.fill(); err != nil {
		return nil, err
	}
	if opt.Out == "" {
		return execute(ctx, &opt, validateSink{}, newRejectSink(nil))
	}
	return runInto(ctx, &opt)
}

// fill sets the defaults of the options left zero.
func (opt *Options) fill() error {
	if opt.Period == "" {
		opt.Period = day.Month
	}
	if err := CheckPeriod(opt.Period); err != nil {
		return err
	}
	if opt.StandingsCSV == "" {
		opt.StandingsCSV = StandingsCSVLast
	}
	if err := checkStandingsCSV(opt.StandingsCSV); err != nil {
		return err
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Version == "" {
		opt.Version = "devel"
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	if opt.Rules.Base == "" {
		r, err := DefaultRules("")
		if err != nil {
			return err
		}
		opt.Rules = r
	}
	return opt.checkWindow()
}

// runInto runs into opt.Out: under its lock, into a staging folder whose
// outputs move into place only when everything succeeded. With Rerate, a
// resumed run that finds a stale period starts again from it (errRerate),
// under the same lock.
func runInto(ctx context.Context, opt *Options) (*Summary, error) {
	if err := claimOut(opt.Out); err != nil {
		return nil, err
	}
	lock, err := lockOut(opt.Out)
	if err != nil {
		return nil, err
	}
	defer lock.unlock()
	sum, err := runStaged(ctx, opt)
	var re *errRerate
	if errors.As(err, &re) {
		opt.Log.Warn("listed periods are stale: re-rating from the first of them (--rerate)", "from", re.from, "periods", re.stale)
		again := *opt
		again.Resume, again.Rerate, again.From, again.published, again.rerated = false, false, re.from, re.published, re.from
		sum, err = runStaged(ctx, &again)
	}
	return sum, err
}

// runStaged is one run into a new staging folder, committed when it succeeded.
func runStaged(ctx context.Context, opt *Options) (*Summary, error) {
	stage, err := newStaging(opt.Out)
	if err != nil {
		return nil, err
	}
	rejects, err := stage.create(output.Rejects.Rel(""))
	if err != nil {
		stage.abort()
		return nil, err
	}
	defer rejects.abort()
	rej := newRejectSink(rejects)
	out := newWriteSink(opt, stage)
	sum, err := execute(ctx, opt, out, rej)
	if err == nil {
		if err = rej.flush(); err == nil {
			err = rejects.finish()
		}
	}
	if err == nil {
		err = writeSummary(stage, sum)
	}
	if err == nil {
		err = writeNorms(stage, sum.allNorms)
	}
	if err != nil {
		out.abort()
		stage.abort()
		return nil, err
	}
	keep := func(rel string) bool {
		if f, _, ok := output.Match(rel); ok && f.Kept == output.KeptAlways {
			return opt.KeepSite
		}
		return out.kept.has(rel)
	}
	if err := stage.commit(keep); err != nil {
		return nil, err
	}
	return sum, nil
}

// errRerate stops a resumed run with Rerate at its first stale period, before
// anything of its own periods was rated.
type errRerate struct {
	from, published string
	stale           []string
}

func (e *errRerate) Error() string { return "re-rate from " + e.from }

// forEachTournament runs the pipeline into fn: every tournament's standings
// input, nothing written; rejected rows are left out, not an error.
func forEachTournament(ctx context.Context, fsys fs.FS, name string, want func(int64) bool, fn func(*tiebreak.Tournament) error) error {
	opt := Options{Archive: fsys, ArchiveName: name, Workers: 1, AllowGap: true} // no list: a gap between tournaments is no error
	if err := opt.fill(); err != nil {
		return err
	}
	out := &callbackSink{fn: fn, want: want}
	_, err := execute(ctx, &opt, out, newRejectSink(nil))
	return err
}

// execute runs the stages of a run into out and returns the summary. It
// starts every goroutine of the run, in two errgroups (the load, then the
// rest; out.start adds the sink's to the second), and waits for them:
//
//	load          players (1 goroutine)
//	              ∥ tournaments, then pass one over games.tournament_id (1 goroutine)
//	games decoder (archive.Prefetch.Run, 1 goroutine): batches, ahead of ↓
//	producer      one goroutine: check rows, hold them per tournament, hand
//	                complete ones on in rating order, in batches, to ↓
//	rating        one goroutine, in rating order:
//	                rater (periods, rule set) → out
//	                then (the producer done) the tables pass (check, rate) → out
//	out (a writeSink):
//	              cards ──row groups──→ cards writer (1 goroutine)
//	                  ──→ 2 encoders, committing in turn (2 goroutines) → cards.parquet, card_games.parquet
//	              standings, lists, states ──jobs──→ pool (opt.Workers goroutines)
//	                  ──small files──→ file writer (1 goroutine)
//
// Every send selects on the errgroup's context, so the first error stops
// every stage. (Inside one call, the CSV reader parses a large block's two
// halves on two goroutines and waits for both.)
func execute(ctx context.Context, opt *Options, out sink, rejects *rejectSink) (*Summary, error) {
	t0 := time.Now()
	prod := &producer{progress: opt.Progress}
	load, err := newArchiveLoad(opt.Archive, prod, opt.Now)
	if err != nil {
		return nil, err
	}
	lg, lctx := errgroup.WithContext(ctx)
	lg.Go(func() error { return load.players(lctx) })
	lg.Go(func() error { return load.tournaments(lctx) })
	arch, err := load.done(ctx, lg.Wait(), rejects)
	if err != nil {
		return nil, err
	}
	opt.Log.Debug("archive loaded", "seconds", time.Since(t0).Seconds())
	prod.open(arch)
	sum := &Summary{Version: opt.Version, Archive: opt.ArchiveName, Rules: cmp.Or(opt.RulesName, opt.Rules.Base), Period: string(opt.Period), Resume: Resume{RerateFrom: opt.rerated},
		TournamentCounts: TournamentCounts{Tournaments: len(arch.Tournaments)}}
	if tl := opt.Rules.TopLists; tl.Size > 0 && !reflect.DeepEqual(tl, toplist.Defaults()) {
		sum.TopLists = &tl
	}
	rt, err := newRater(opt, arch, prod.order, sum)
	if err != nil {
		return nil, err
	}
	prod.fingerprint(rt.hashes.reg)
	opt.cards, opt.list = newCardShape(rt.def, rt.rules), rt.lists.add
	if err := rt.plan(opt); err != nil {
		return nil, err
	}
	if err := rt.checkGaps(opt, arch, prod.order); err != nil {
		return nil, err
	}
	rt.out = out
	if ws, ok := out.(*writeSink); ok { // the team standings: written outputs only
		if ws.teams, err = loadRunTeams(ctx, arch); err != nil {
			return nil, err
		}
		rt.hashes.teams = ws.teams.hashes()
	}
	tables := newTablesPass(opt, arch, &rt.win, out, sum)

	g, gctx := errgroup.WithContext(ctx)
	if err := out.start(gctx, g, &arch.Players, rt.keepBefore(), rt.lastList()); err != nil {
		out.close(gctx, false)
		g.Wait()
		return nil, err
	}
	games := prod.gameReader()
	g.Go(func() error { games.Run(gctx); return nil })
	g.Go(func() error {
		err := prod.runHanded(gctx, games, rt.tournament)
		if err == nil {
			err = tables.run(gctx)
		}
		if err == nil {
			err = rt.finish(gctx)
		}
		opt.Log.Debug("rating finished", "seconds", time.Since(t0).Seconds())
		if cerr := out.close(gctx, err == nil); err == nil {
			err = cerr
		}
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	opt.Log.Debug("pool finished", "seconds", time.Since(t0).Seconds())
	if err := out.finish(sum); err != nil {
		return nil, err
	}
	rt.summarize()
	sum.allNorms = rt.norms.sorted()
	sum.Norms = within(sum.allNorms, sum.FirstList, sum.LastList)
	if o := opt.open; o != "" && (sum.LastList == o || sum.tablesLastList(o)) {
		sum.Provisional = o
	}
	if opt.Out != "" && rt.periods.any && !rt.win.resumed && sum.Lists == 0 {
		opt.Log.Warn("no list written: every rated tournament is in a period that had not ended on the run's date (--provisional lists the open period)",
			"as_of", opt.Now.UTC().Format(time.DateOnly))
	}
	sum.Tables = arch.Counts
	for _, c := range sum.Tables {
		sum.RowsRead += c.Read
		sum.RowsUsed += c.Used
		sum.RowsRejected += c.Rejected
	}
	sum.RejectKinds = rejects.Kinds()
	if sum.RejectKinds == nil {
		sum.RejectKinds = []RejectKind{}
	}
	return sum, nil
}

// RuleSetField returns the rule set's summary field key (0 when it has none).
func (s *Summary) RuleSetField(key string) int64 {
	for _, f := range s.RuleSet {
		if f.Key == key {
			return f.Value
		}
	}
	return 0
}

// MarshalJSON writes the summary with the rule set's fields in their place.
func (s *Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	b, err := json.Marshal((*plain)(s))
	if err != nil {
		return nil, err
	}
	// The table rule sets' parts go where the fields before TopLists end:
	// the summary without TopLists and Norms is that far.
	head := *(*plain)(s)
	head.TopLists, head.Norms = nil, nil
	h, err := json.Marshal(&head)
	if err != nil {
		return nil, err
	}
	end := len(h) - 1
	if !bytes.HasPrefix(b, h[:end]) {
		return nil, fmt.Errorf("summary: the fields after the table rule sets' are not TopLists and Norms")
	}
	tables, err := s.appendTables(nil)
	if err != nil {
		return nil, err
	}
	at := bytes.Index(b, []byte(`,"reject_kinds":`))
	return slices.Concat(b[:at], appendSummaryFields(nil, s.RuleSet), b[at:end], tables, b[end:]), nil
}

// appendSummaryFields appends a rule set's summary fields to b, each after a
// comma.
func appendSummaryFields(b []byte, fields []rating.SummaryField) []byte {
	for _, f := range fields {
		if f.OmitZero && f.Value == 0 {
			continue
		}
		b = strconv.AppendQuote(append(b, ','), f.Key)
		b = strconv.AppendInt(append(b, ':'), f.Value, 10)
	}
	return b
}

// writeSummary writes summary.json.
func writeSummary(stage *staging, sum *Summary) error {
	data, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	o, err := stage.create(output.Summary.Rel(""))
	if err != nil {
		return err
	}
	o.Write(append(data, '\n'))
	return o.finish()
}
