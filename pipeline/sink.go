package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/tiebreak"
)

// sink is where a run's results go. Its methods are called from the run's
// rating goroutine, in rating order; start, before them, may start goroutines
// that take the work on, and close ends their input.
type sink interface {
	// start starts the sink's goroutines in g, for the archive's players. A
	// run that resumes keeps the outputs of the periods before keepBefore (a
	// label) from the earlier run ("" for none); lastList is the label of the
	// last list this run writes ("" for none).
	start(ctx context.Context, g *errgroup.Group, players *archive.Players, keepBefore, lastList string) error
	// tournament takes a tournament with games: its rows, with the players'
	// ratings at its start, for the standings of period (a label).
	// Tournaments come in rating order, so every later one ends in the period
	// of t's end date or later. It releases the rows once it has read them.
	tournament(ctx context.Context, t *archive.Tournament, rows tourRows, period string) error
	// skip takes a tournament with games of period (a label) that an earlier
	// run wrote (a resumed run): its outputs stay as they are.
	skip(t *archive.Tournament, period string)
	// cards takes audit rows of period key: of a tournament, or of a period's
	// close (tournament 0, end the period's last day).
	cards(ctx context.Context, key int, tournament int64, end int32, cards []rating.Card) error
	// games takes per-game audit rows of a period's close of period key
	// (rating.GameEmitter), valid until the call returns.
	games(ctx context.Context, key int, rows *rating.GameRows) error
	// keepsLists tells whether list wants the periods' lists: without it, l is nil.
	keepsLists() bool
	// list takes a period's list; snapshot gives the run's state after it.
	list(ctx context.Context, label string, l *listData, snapshot func() (*savedState, error)) error
	// tableCards takes a row group of the cards of table rule set def (a
	// slice of def.Cards.Row's type), valid until the call returns.
	tableCards(ctx context.Context, def *rating.TableDefinition, rows any) error
	// tableList takes a period's list of table rule set def (a slice of
	// def.List.Row's type), ranked.
	tableList(ctx context.Context, def *rating.TableDefinition, label string, rows any) error
	// close ends the input, after the last call (ok) or a failure; after the
	// last call it first hands on what it still holds.
	close(ctx context.Context, ok bool) error
	// finish completes the outputs once every goroutine has stopped without
	// error, and adds its counts to sum.
	finish(sum *Summary) error
}

// validateSink keeps nothing: a run that only checks the archive.
type validateSink struct{}

func (validateSink) start(context.Context, *errgroup.Group, *archive.Players, string, string) error {
	return nil
}
func (validateSink) tournament(_ context.Context, _ *archive.Tournament, rows tourRows, _ string) error {
	rows.release()
	return nil
}
func (validateSink) skip(*archive.Tournament, string)                               {}
func (validateSink) cards(context.Context, int, int64, int32, []rating.Card) error  { return nil }
func (validateSink) games(context.Context, int, *rating.GameRows) error             { return nil }
func (validateSink) tableCards(context.Context, *rating.TableDefinition, any) error { return nil }
func (validateSink) tableList(context.Context, *rating.TableDefinition, string, any) error {
	return nil
}
func (validateSink) close(context.Context, bool) error { return nil }
func (validateSink) finish(*Summary) error             { return nil }
func (validateSink) keepsLists() bool                  { return false }
func (validateSink) list(context.Context, string, *listData, func() (*savedState, error)) error {
	return nil
}

// callbackSink hands every tournament's standings input to fn, on the rating
// goroutine, and keeps nothing else.
type callbackSink struct {
	validateSink
	fn      func(*tiebreak.Tournament) error
	want    func(int64) bool // nil: every tournament
	players *archive.Players
	local   []int32 // standingsInput's slots
}

func (s *callbackSink) start(ctx context.Context, g *errgroup.Group, players *archive.Players, keepBefore, lastList string) error {
	s.players, s.local = players, newLocal(len(players.ID))
	return nil
}

// tournament hands fn a view of its own: fn may keep it.
func (s *callbackSink) tournament(ctx context.Context, t *archive.Tournament, rows tourRows, period string) error {
	defer rows.release()
	if s.want != nil && !s.want(t.ID) {
		return nil
	}
	return s.fn(standingsInput(s.players, t, rows.rows, &standingsScratch{local: s.local}))
}

// writeSink writes the outputs into a staging folder: cards.parquet through
// the cards writer, and standings, lists and states through a pool of workers
// whose small files one file writer creates.
type writeSink struct {
	stage   *staging
	players *archive.Players
	opt     *Options
	cardW   *cardWriter
	tableW  map[string]*tableCardWriter // by table rule set
	pool    workPool
	std     standingsQueue
	kept    keptOutputs
	changed changedLists
	teams   runTeams // the team competitions' teams (teams.go)
}

// workPool is the sink's pool: the jobs its workers take, and the small files
// they hand the file writer.
type workPool struct {
	jobs    chan func() error
	files   chan *fileBatch
	batches sync.Pool // of *fileBatch
}

// standingsQueue is the standings' part of the sink: the tournaments waiting
// for a pool job, and the periods' files their rows go to.
type standingsQueue struct {
	scratch  sync.Pool // of *standingsScratch
	cols     sync.Pool // of *standingsCols
	pending  []standingsJob
	open     []*periodStandings // periods still taking tournaments, by label
	opened   []*periodStandings // every period, for abort
	written  chan struct{}      // closed when the last standings job handed to the pool has written its rows
	lastList string
	count    int // tournaments whose standings were written
	endKey   int // the period key of endText ("" none yet)
	endText  string
}

// endLabel is the label of the period of end in periods of kind k,
// remembered for the next tournament, which mostly ends in the same period.
func (q *standingsQueue) endLabel(k day.Kind, end int32) string {
	if key := day.PeriodOf(k, day.Day(end)).Key; key != q.endKey || q.endText == "" {
		q.endKey, q.endText = key, day.Period{Kind: k, Key: key}.Label()
	}
	return q.endText
}

func newWriteSink(opt *Options, stage *staging) *writeSink {
	return &writeSink{stage: stage, opt: opt}
}

func (s *writeSink) start(ctx context.Context, g *errgroup.Group, players *archive.Players, keepBefore, lastList string) error {
	s.players, s.std.lastList = players, lastList
	s.kept = keptOutputs{before: keepBefore, period: s.opt.Period, arrow: s.opt.Arrow, allCSV: s.opt.StandingsCSV == StandingsCSVAll}
	s.changed.before = cmp.Or(s.opt.published, keepBefore)
	n := len(players.ID)
	s.std.scratch.New = func() any { return &standingsScratch{local: newLocal(n)} }
	cw, err := newCardWriter(s.stage, s.players, s.opt.Period, cmp.Or(s.opt.cards, plainCards))
	if err != nil {
		return err
	}
	s.cardW = cw
	g.Go(cw.run)
	// Room for a few tournaments per worker, so that the rating goroutine is
	// rarely blocked on a full queue while the pool catches up.
	s.pool.jobs = make(chan func() error, 16*s.opt.Workers)
	var workers sync.WaitGroup
	for range s.opt.Workers {
		workers.Add(1)
		g.Go(func() error {
			defer workers.Done()
			for job := range s.pool.jobs {
				if err := job(); err != nil {
					return err
				}
			}
			return nil
		})
	}
	s.pool.files = make(chan *fileBatch, 2*s.opt.Workers)
	files := s.pool.files
	g.Go(func() error { return s.writeFiles(files) })
	g.Go(func() error { // the workers are the file writer's only senders
		workers.Wait()
		close(files)
		return nil
	})
	if keepBefore == "" {
		return nil
	}
	if err := cw.carry(ctx, s.opt.Out, keepBefore, s.opt.Log); err != nil {
		return err
	}
	if s.opt.StandingsCSV == StandingsCSVLast && lastList == "" {
		// No list of its own: the last list period is the earlier run's last
		// one kept, whose standings CSVs a fresh run would write.
		k, err := parsePeriodLabel(s.opt.Period, keepBefore)
		if err != nil {
			return err
		}
		return keptStandingsCSV(s.stage, s.opt.Out, day.Period{Kind: s.opt.Period, Key: k - 1}.Label())
	}
	return nil
}

func (s *writeSink) cards(ctx context.Context, key int, tournament int64, end int32, cards []rating.Card) error {
	return s.cardW.add(ctx, key, tournament, end, cards)
}

func (s *writeSink) games(ctx context.Context, key int, rows *rating.GameRows) error {
	return s.cardW.addGames(ctx, key, rows)
}

// submit hands a job to the worker pool.
func (s *writeSink) submit(ctx context.Context, job func() error) error {
	return send(ctx, s.pool.jobs, job)
}

// standingsJob is a tournament whose standings are to be computed: its rows
// go to its period's file p; csv asks for its standings/TOURNAMENT_ID.csv.
type standingsJob struct {
	t    *archive.Tournament
	rows tourRows
	p    *periodStandings
	csv  bool
}

// standingsBatch is how many tournaments' standings one pool job computes: one
// job per tournament would wake a worker up for every small tournament.
const standingsBatch = 16

func (s *writeSink) tournament(ctx context.Context, t *archive.Tournament, rows tourRows, period string) error {
	// No later tournament ends before t: the periods before t's end are complete.
	if err := s.closeStandings(ctx, s.std.endLabel(s.opt.Period, t.End)); err != nil {
		return err
	}
	s.std.count++
	s.std.pending = append(s.std.pending, standingsJob{t, rows, s.openStandings(period), s.wantCSV(period)})
	if len(s.std.pending) == standingsBatch {
		return s.flushStandings(ctx)
	}
	return nil
}

func (s *writeSink) skip(t *archive.Tournament, period string) { s.kept.keep(t.ID, period) }

// wantCSV tells whether the tournaments of period get a CSV file each.
func (s *writeSink) wantCSV(period string) bool {
	switch s.opt.StandingsCSV {
	case StandingsCSVAll:
		return true
	case StandingsCSVLast:
		return period == s.std.lastList
	}
	return false
}

// openStandings returns the open period labelled period, opening it if needed
// (s.std.open stays in label order, which is period order).
func (s *writeSink) openStandings(period string) *periodStandings {
	i, found := slices.BinarySearchFunc(s.std.open, period, func(p *periodStandings, l string) int { return strings.Compare(p.label, l) })
	if !found {
		p := &periodStandings{label: period}
		s.std.open, s.std.opened = slices.Insert(s.std.open, i, p), append(s.std.opened, p)
	}
	return s.std.open[i]
}

// closeStandings hands the pool the closing of every open period's file before
// the label before ("" closes them all), after the standings jobs that write
// their rows.
func (s *writeSink) closeStandings(ctx context.Context, before string) error {
	n := 0
	for n < len(s.std.open) && (before == "" || s.std.open[n].label < before) {
		n++
	}
	if n == 0 {
		return nil
	}
	if err := s.flushStandings(ctx); err != nil {
		return err
	}
	closing, written := slices.Clone(s.std.open[:n]), s.std.written
	err := s.submit(ctx, func() error {
		if err := wait(ctx, written); err != nil {
			return err
		}
		for _, p := range closing {
			if err := p.close(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.std.open = slices.Delete(s.std.open, 0, n)
	return nil
}

// flushStandings hands the tournaments waiting for standings to the pool. The
// job computes them, hands the CSV files to the file writer, and then, once the
// job before it has written its rows, appends its own to the periods' files:
// the rows go out in rating order, and only a batch of tournaments' rows is
// held at a time. Waiting cannot deadlock: the pool takes jobs in order, so
// the job before is running or done.
func (s *writeSink) flushStandings(ctx context.Context) error {
	if len(s.std.pending) == 0 {
		return nil
	}
	batch, before := s.std.pending, s.std.written
	written := make(chan struct{})
	s.std.pending, s.std.written = make([]standingsJob, 0, standingsBatch), written
	return s.submit(ctx, func() error {
		defer close(written)
		fb, _ := s.pool.batches.Get().(*fileBatch)
		if fb == nil {
			fb = new(fileBatch)
		}
		rows := make([]*standingsCols, len(batch))
		sc := s.std.scratch.Get().(*standingsScratch) // once a batch: a pool's Get costs
		for i, j := range batch {
			var err error
			rows[i], err = s.appendStandings(fb, sc, j)
			j.rows.release()
			if err != nil {
				return err
			}
		}
		s.std.scratch.Put(sc)
		if len(fb.names) == 0 {
			s.pool.batches.Put(fb)
		} else if err := send(ctx, s.pool.files, fb); err != nil {
			return err
		}
		if err := wait(ctx, before); err != nil {
			return err
		}
		for i, j := range batch {
			if err := j.p.write(s.stage, rows[i]); err != nil {
				return err
			}
			s.std.cols.Put(rows[i])
		}
		return nil
	})
}

// wait waits until ch is closed (a nil ch is) or ctx ends.
func wait(ctx context.Context, ch <-chan struct{}) error {
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// appendStandings computes a tournament's standings, returns their rows for
// its period's file and, if asked, adds them to fb as
// standings/TOURNAMENT_ID.csv (in a pool job), with sc's memory.
func (s *writeSink) appendStandings(fb *fileBatch, sc *standingsScratch, j standingsJob) (*standingsCols, error) {
	tour, rows := j.t, j.rows.rows
	t := standingsInput(s.players, tour, rows, sc)
	codes := sc.codes
	if codes == nil || t.Tiebreaks != sc.tiebreaks || t.Discipline != sc.discipline {
		var ok bool
		if codes, ok = tiebreakCodes(t, s.opt.Log); ok { // a column not understood is warned about every time
			sc.tiebreaks, sc.discipline, sc.codes = t.Tiebreaks, t.Discipline, codes
		}
	}
	st, err := sc.engine.Standings(t, codes, s.opt.Rules.Tiebreaks)
	if err != nil {
		return nil, fmt.Errorf("standings of tournament %d: %w", t.ID, err)
	}
	if j.csv {
		fb.add(output.StandingsCSV.Rel(strconv.FormatInt(t.ID, 10)), sc.engine.CSV(codes, st))
	}
	s.teamStandings(fb, t)
	c, _ := s.std.cols.Get().(*standingsCols)
	if c == nil {
		c = new(standingsCols)
	}
	c.set(t.ID, codes, st)
	return c, nil
}

// tiebreakCodes are the tournament's tiebreak codes (tiebreak.CodesFor); a
// column not understood is warned about, and ok is false.
func tiebreakCodes(t *tiebreak.Tournament, log *slog.Logger) (codes []string, ok bool) {
	codes, err := tiebreak.CodesFor(t)
	if err != nil {
		log.Warn("tournament's tiebreaks column not understood; using the discipline's default",
			"tournament", t.ID, "tiebreaks", t.Tiebreaks, "err", err)
		return codes, false
	}
	return codes, true
}

func (s *writeSink) keepsLists() bool { return true }

func (s *writeSink) list(ctx context.Context, label string, l *listData, snapshot func() (*savedState, error)) error {
	// A provisional list leaves no state: a later run must not resume after it.
	if label != s.opt.open {
		snap, err := snapshot()
		if err != nil {
			return err
		}
		write := func() error {
			err := writeState(s.stage, label, snap)
			snap.release()
			return err
		}
		if err := s.submit(ctx, write); err != nil {
			return err
		}
	}
	return s.submit(ctx, func() error {
		if err := writeList(s.stage, s.players, label, l, s.opt.Arrow); err != nil {
			return err
		}
		l.release()
		return s.changed.compare(s.stage, s.opt.Out, label, output.ListCSV.Rel(label))
	})
}

func (s *writeSink) tableCards(ctx context.Context, def *rating.TableDefinition, rows any) error {
	w := s.tableW[def.Name]
	if w == nil {
		var err error
		if w, err = newTableCardWriter(s.stage, def); err != nil {
			return err
		}
		if s.tableW == nil {
			s.tableW = map[string]*tableCardWriter{}
		}
		s.tableW[def.Name] = w
	}
	return w.write(rows)
}

func (s *writeSink) tableList(ctx context.Context, def *rating.TableDefinition, label string, rows any) error {
	return s.submit(ctx, func() error {
		if err := writeTableList(s.stage, def, label, rows); err != nil {
			return err
		}
		return s.changed.compare(s.stage, s.opt.Out, label, output.TableListCSV.For(def.Name).Rel(label))
	})
}

// close hands on the standings and cards still waiting (ok), then ends the
// input of the cards writer and of the pool.
func (s *writeSink) close(ctx context.Context, ok bool) error {
	var err error
	if ok {
		if err = s.flushStandings(ctx); err == nil {
			err = s.closeStandings(ctx, "")
		}
		if err == nil && s.kept.allCSV {
			err = s.missingCSVs()
		}
		if err == nil && s.opt.Arrow {
			err = s.missingArrows()
		}
		if err == nil {
			err = s.cardW.flushAll(ctx)
		}
	}
	if s.cardW != nil {
		s.cardW.close()
	}
	if s.pool.jobs != nil {
		close(s.pool.jobs)
	}
	return err
}

// missingCSVs writes, with --standings-csv all, the CSVs of the kept
// tournaments that the earlier run did not write (it ran with last or none):
// those of every period that lacks one, from the period's standings file.
func (s *writeSink) missingCSVs() error {
	var periods []string
	for id, period := range s.kept.tournaments {
		fi, err := os.Lstat(output.StandingsCSV.Path(s.opt.Out, strconv.FormatInt(id, 10)))
		if (err != nil || !fi.Mode().IsRegular()) && !slices.Contains(periods, period) {
			periods = append(periods, period)
		}
	}
	slices.Sort(periods)
	for _, p := range periods {
		if err := keptStandingsCSV(s.stage, s.opt.Out, p); err != nil {
			return err
		}
	}
	return nil
}

// missingArrows writes, with --arrow, the Arrow files of the kept lists that
// the earlier run did not write (it ran without --arrow), from their Parquet
// lists.
func (s *writeSink) missingArrows() error {
	labels, err := output.ListParquet.Keys(s.opt.Out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("kept lists: %w", err)
	}
	for _, label := range labels {
		fi, err := os.Lstat(output.ListParquet.Path(s.opt.Out, label))
		if err != nil || !fi.Mode().IsRegular() || !s.kept.has(output.ListParquet.Rel(label)) {
			continue
		}
		if fi, err := os.Lstat(output.ListArrow.Path(s.opt.Out, label)); err == nil && fi.Mode().IsRegular() {
			continue
		}
		if err := keptListArrow(s.stage, s.opt.Out, label, s.opt.list); err != nil {
			return err
		}
	}
	return nil
}

// finish closes cards.parquet, card_games.parquet and the table rule sets'
// card files.
func (s *writeSink) finish(sum *Summary) error {
	sum.StandingsWritten = s.std.count
	sum.ChangedLists = s.changed.sorted()
	if err := s.cardW.finish(); err != nil {
		return err
	}
	for _, d := range rating.TableDefinitions() {
		if w := s.tableW[d.Name]; w != nil {
			if err := w.finish(); err != nil {
				return err
			}
		}
	}
	return nil
}

// abort closes what a failed run left open.
func (s *writeSink) abort() {
	if s.cardW != nil {
		s.cardW.abort()
	}
	for _, w := range s.tableW {
		w.f.abort()
	}
	for _, p := range s.std.opened {
		if p.f != nil {
			p.f.abort()
		}
	}
}

// fileBatch is small files to be written: their paths (slash-separated, in
// --out) and their bytes, one after another in data.
type fileBatch struct {
	names []string
	ends  []int // where each file's bytes end in data
	data  []byte
}

func (fb *fileBatch) add(name string, data []byte) {
	fb.names = append(fb.names, name)
	fb.data = append(fb.data, data...)
	fb.ends = append(fb.ends, len(fb.data))
}

// writeFiles writes the batches that come on files until it is closed, and
// hands each batch back for reuse. The standings files are created by this one
// goroutine: threads creating files in one folder at once contend on the
// folder's lock in the kernel.
func (s *writeSink) writeFiles(files <-chan *fileBatch) error {
	for fb := range files {
		start := 0
		for i, name := range fb.names {
			if err := s.stage.writeFile(name, fb.data[start:fb.ends[i]]); err != nil {
				return err
			}
			start = fb.ends[i]
		}
		fb.names, fb.ends, fb.data = fb.names[:0], fb.ends[:0], fb.data[:0]
		s.pool.batches.Put(fb)
	}
	return nil
}

// send sends v on ch, unless ctx ends first (the run has failed): then it
// returns ctx's error instead of waiting for a receiver that has stopped.
func send[T any](ctx context.Context, ch chan<- T, v T) error {
	select {
	case ch <- v:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
