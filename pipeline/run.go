package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/parquet-go/parquet-go"
	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/tiebreak"
)

// Options configure a run.
type Options struct {
	Archive     fs.FS
	ArchiveName string // for the summary and messages
	// Out is the output folder; "" checks the archive and writes nothing (validate).
	Out       string
	Rules     Rules
	RulesName string
	Period    string // month (default), quarter, year
	Workers   int    // 0 = GOMAXPROCS
	Arrow     bool   // also write lists as Arrow IPC files (lists/LABEL.arrow)
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

	// onTournament, when set, receives every tournament's standings input (as
	// LoadTournament and ForEachTournament need); nothing is written.
	onTournament func(*tiebreak.Tournament) error
}

// Summary is summary.json: what was read, used, rejected and written.
type Summary struct {
	Archive          string                         `json:"archive"`
	Rules            string                         `json:"rules"`
	Period           string                         `json:"period"`
	RowsRead         int64                          `json:"rows_read"`
	RowsUsed         int64                          `json:"rows_used"`
	RowsRejected     int64                          `json:"rows_rejected"`
	Tables           map[string]*archive.TableCount `json:"tables"`
	Tournaments      int                            `json:"tournaments"`
	TournamentsRated int                            `json:"tournaments_rated"`
	GamesRated       int64                          `json:"player_games_rated"`
	StandingsWritten int                            `json:"standings_written"`
	Lists            int                            `json:"lists"`
	FirstList        string                         `json:"first_list"`
	LastList         string                         `json:"last_list"`
	PlayersListed    int                            `json:"players_listed"`
	Stage            int                            `json:"stage"`
	Stage2From       int64                          `json:"stage2_from_tournament,omitempty"`
	RejectKinds      []RejectKind                   `json:"reject_kinds"`
	ResumedFrom      string                         `json:"resumed_from,omitempty"`
	// StalePeriods are listed periods whose rated games changed since their list
	// was written (a late or corrected report): rerun with --from the first one.
	StalePeriods []string      `json:"stale_periods,omitempty"`
	Joker        *JokerSummary `json:"joker,omitempty"`
}

// gameRow is one validated games row, compact, waiting for its tournament.
type gameRow struct {
	row          int64
	file         int32
	round        int32
	white, black int32 // dense player index; black -1 for a bye
	wres, bres   byte
	hasPts       bool
	wpts, bpts   int32
	wrat, brat   int32 // ratings at the tournament's start (0 = unrated), for standings
}

type runner struct {
	opt   Options
	arch  *runArchive
	st    *rating.State
	rules rating.RuleSet
	rej   *rejectSink
	stage *staging
	jobs  chan<- func() error
	ctx   context.Context
	sum   Summary

	standings   []standingsJob // waiting to be handed to the pool (flushStandings)
	pairPlayers []int32        // checkPairings' scratch
	files       chan<- *fileBatch
	fileBatches sync.Pool // of *fileBatch

	order     []int // tournament positions in rating order
	next      int   // next position of order to process
	remaining []int64
	bufs      [][]gameRow

	// Lists.
	firstPeriod, lastPeriod, curPeriod int
	hasPeriods                         bool
	prevOn, everOn                     []bool
	prevRating                         []int32

	cards     *parquet.GenericWriter[cardRow]
	cardsF    *outFile
	cardBuf   *cardCols
	cardKey   int              // the period key of cardLabel
	cardLabel string           // the label of the last cards' period ("": none yet)
	gameRows  int64            // games rows seen by the first pass, for progress
	cardsCh   chan<- *cardCols // full row groups to the cards goroutine
	cardsFree <-chan *cardCols // and their buffers back

	// Scratch for per-tournament checks (producer), for rating events, and a
	// pool of *standingsScratch for the standings jobs.
	local   []int32
	evGames []rating.Game
	scratch sync.Pool

	// Incremental runs: periods before startKey are taken from the saved state,
	// periods after untilKey are left for later.
	fingerprint        string
	startKey, untilKey int
	resumed, hasUntil  bool
	periodHashes       map[int]uint64 // this run's fingerprints of rated periods
	oldHashes          []periodHash   // the resumed state's
	seen               []int64
}

// Run rates an archive and writes its outputs (lists, standings, cards,
// rejects, summary) into opt.Out.
// It returns the summary; the error is ErrRejected (wrapped) when the run
// succeeded but rejected rows, and any other error means nothing was written.
func Run(ctx context.Context, opt Options) (*Summary, error) {
	if opt.Period == "" {
		opt.Period = PeriodMonth
	}
	if err := CheckPeriod(opt.Period); err != nil {
		return nil, err
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.Rules.Base == "" {
		r, _ := DefaultRules("school")
		opt.Rules = r
	}
	r := &runner{opt: opt}
	var rejBuf *outFile
	if opt.Out != "" {
		if opt.onTournament == nil {
			lock, err := lockOut(opt.Out)
			if err != nil {
				return nil, err
			}
			defer lock.unlock()
		}
		s, err := newStaging(opt.Out)
		if err != nil {
			return nil, err
		}
		r.stage = s
		if rejBuf, err = s.create("rejects.csv"); err != nil {
			s.abort()
			return nil, err
		}
		r.rej = newRejectSink(rejBuf)
	} else {
		r.rej = newRejectSink(nil)
	}
	err := r.run(ctx)
	if err == nil && rejBuf != nil {
		if err = r.rej.flush(); err == nil {
			err = rejBuf.finish()
		}
	}
	if err == nil && r.stage != nil {
		err = r.writeSummary()
	}
	if r.stage != nil {
		if err != nil {
			if rejBuf != nil {
				rejBuf.f.Close()
			}
			r.stage.abort()
			return nil, err
		}
		if err := r.stage.commit(); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	}
	if r.sum.RowsRejected > 0 {
		return &r.sum, fmt.Errorf("%w: %d of %d rows", ErrRejected, r.sum.RowsRejected, r.sum.RowsRead)
	}
	return &r.sum, nil
}

func (r *runner) run(ctx context.Context) error {
	t0 := time.Now()
	// Pass one over the games runs while the players load.
	arch, err := openArchive(ctx, r.opt.Archive, r.rej, r.countGames)
	if err != nil {
		return err
	}
	r.arch = arch
	r.opt.Log.Debug("archive loaded", "seconds", time.Since(t0).Seconds())
	n := len(arch.Players.ID)
	r.st = rating.NewState(n)
	copy(r.st.Category, arch.Players.Category)
	copy(r.st.Elo, arch.Players.Elo)
	copy(r.st.BirthYear, arch.Players.BirthYear)
	switch r.opt.Rules.Base {
	case "fide":
		if r.opt.Period != PeriodMonth {
			return fmt.Errorf("%w: --period %s: the FIDE rule set publishes monthly lists (want month)", ErrUsage, r.opt.Period)
		}
		r.rules = rating.NewFideRater(r.opt.Rules.Fide, r.st)
	default:
		r.rules = rating.NewSchoolRater(r.opt.Rules.School, r.st)
	}
	r.prevOn, r.everOn, r.prevRating = make([]bool, n), make([]bool, n), make([]int32, n)
	r.local = newLocal(n)
	r.scratch.New = func() any { return &standingsScratch{local: newLocal(n)} }
	r.fingerprint = fingerprint(r.opt.Rules, r.opt.Period)
	r.planOrder()
	if err := r.planResume(); err != nil {
		return err
	}

	g, gctx := errgroup.WithContext(ctx)
	r.ctx = gctx
	if r.stage != nil && r.opt.onTournament == nil {
		if err := r.startCards(g); err != nil {
			return err
		}
	}

	jobs := make(chan func() error, 2*r.opt.Workers)
	var workers sync.WaitGroup
	for i := 0; i < r.opt.Workers; i++ {
		workers.Add(1)
		g.Go(func() error {
			defer workers.Done()
			for job := range jobs {
				if err := job(); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if r.stage != nil && r.opt.onTournament == nil {
		r.startFileWriter(g, &workers)
	}
	g.Go(func() error {
		defer close(jobs)
		if r.cardsCh != nil {
			defer close(r.cardsCh)
		}
		r.jobs = jobs
		defer func() { r.opt.Log.Debug("producer finished", "seconds", time.Since(t0).Seconds()) }()
		return r.produce(gctx)
	})
	err = g.Wait()
	r.opt.Log.Debug("pool finished", "seconds", time.Since(t0).Seconds())
	if err != nil {
		if r.cardsF != nil {
			r.cardsF.f.Close()
		}
		return err
	}
	if r.cards != nil {
		if err := r.flushCards(true); err != nil {
			return err
		}
		r.opt.Log.Debug("cards closed", "seconds", time.Since(t0).Seconds())
	}
	r.finishCounts()
	if r.sum.StalePeriods = r.stalePeriods(); len(r.sum.StalePeriods) > 0 {
		r.opt.Log.Warn("games of already listed periods changed since their lists were written (late or corrected reports): rerun with --from the first of them",
			"periods", r.sum.StalePeriods)
	}
	return nil
}

// newLocal returns n per-player slots set to -1.
func newLocal(n int) []int32 {
	l := make([]int32, n)
	for i := range l {
		l[i] = -1
	}
	return l
}

// planOrder sorts tournaments into rating order (school-elo.md §3.11) and finds
// the span of periods with lists.
func (r *runner) planOrder() {
	ts := r.arch.Tournaments
	r.order = make([]int, len(ts))
	for i := range r.order {
		r.order[i] = i
	}
	sort.Slice(r.order, func(i, j int) bool {
		a, b := &ts[r.order[i]], &ts[r.order[j]]
		if a.End != b.End {
			return a.End < b.End
		}
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.ID < b.ID
	})
	for _, i := range r.order {
		if !r.rates(&ts[i]) {
			continue
		}
		k := periodKey(r.opt.Period, r.rules.ListDay(ts[i].End))
		if !r.hasPeriods {
			// The first list is the period of the first end date: for rule sets whose
			// lists take tournaments in later (FIDE), it shows the starting ratings.
			r.firstPeriod, r.hasPeriods = periodKey(r.opt.Period, ts[i].End), true
		}
		r.lastPeriod = k
	}
	r.curPeriod = r.firstPeriod
	r.bufs = make([][]gameRow, len(ts))
	r.sum.Tournaments = len(ts)
}

// rates tells whether the rule set rates a tournament.
func (r *runner) rates(t *archive.Tournament) bool { return t.Rated && t.Discipline == "chess" }

func (r *runner) produce(ctx context.Context) error {
	if err := r.advance(); err != nil {
		return err
	}
	if err := r.readGames(ctx); err != nil {
		return err
	}
	if err := r.flushStandings(); err != nil {
		return err
	}
	if r.next != len(r.order) {
		t := r.arch.Tournaments[r.order[r.next]]
		return fmt.Errorf("games table changed while it was read: tournament %d is incomplete", t.ID)
	}
	if err := r.rateJoker(ctx); err != nil {
		return err
	}
	if r.hasPeriods && r.opt.onTournament == nil {
		for r.curPeriod <= r.lastPeriod {
			if err := r.emitList(); err != nil {
				return err
			}
		}
	}
	return nil
}

// countGames is the first pass: how many games rows each tournament of a has,
// from the tournament_id column alone, so that a tournament is known to be
// complete the moment its last row has been read (r.remaining). It needs a's
// tournaments, not its players.
func (r *runner) countGames(ctx context.Context, a *archive.Archive) error {
	r.remaining = make([]int64, len(a.Tournaments))
	if len(a.GameFiles) == 0 {
		return nil
	}
	tr := archive.NewReader(a.FS, a.GameFiles, archive.GameColumns[:1])
	defer tr.Close()
	for tr.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := tr.Batch()
		r.gameRows += int64(b.N)
		for i := 0; i < b.N; i++ {
			if b.Nulls[0][i] {
				continue
			}
			if ti := a.TournamentIndex(b.Ints[0][i]); ti >= 0 {
				r.remaining[ti]++
			}
		}
	}
	return tr.Err()
}

// readGames is the second pass: validate each row, hold it with its tournament,
// and rate tournaments as soon as they and every one before them are complete.
func (r *runner) readGames(ctx context.Context) error {
	if len(r.arch.GameFiles) == 0 {
		return nil
	}
	cnt := r.arch.count("games")
	tr := archive.NewReader(r.arch.FS, r.arch.GameFiles, archive.GameColumns)
	fileIdx := map[string]int32{}
	for i, f := range r.arch.GameFiles {
		fileIdx[f] = int32(i)
	}
	// Decoding runs one goroutine ahead of validation and rating.
	pctx, cancel := context.WithCancel(ctx)
	full, free := tr.Prefetch(pctx, 3)
	defer func() {
		cancel()
		for range full { // wait for the reading goroutine to stop before closing
		}
		tr.Close()
	}()
	if r.opt.Progress != nil {
		r.opt.Progress.Phase("rating", r.gameRows)
		defer r.opt.Progress.Done()
	}
	for b := range full {
		if err := ctx.Err(); err != nil {
			return err
		}
		if r.opt.Progress != nil {
			r.opt.Progress.Add(int64(b.N))
		}
		fi := fileIdx[b.File]
		for i := 0; i < b.N; i++ {
			cnt.Read++
			// Pass one counted this row exactly when its tournament_id decodes to a
			// known tournament, whatever else is wrong with it.
			ti := -1
			if !b.Nulls[0][i] {
				ti = r.arch.TournamentIndex(b.Ints[0][i])
			}
			g, reason := r.checkGame(b, i, ti)
			if reason != "" {
				r.arch.reject("games", b, i, reason)
			} else {
				g.file = fi
				if r.bufs[ti] == nil { // pass one counted its rows
					r.bufs[ti] = make([]gameRow, 0, r.remaining[ti])
				}
				r.bufs[ti] = append(r.bufs[ti], g)
			}
			if ti >= 0 {
				r.remaining[ti]--
				if r.remaining[ti] == 0 {
					if err := r.advance(); err != nil {
						return err
					}
				}
			}
		}
		free <- b
	}
	return tr.Err()
}

// checkGame validates the row-local rules of one games row.
func (r *runner) checkGame(b *archive.Batch, i, ti int) (gameRow, string) {
	g := gameRow{row: b.First + int64(i), black: -1}
	if b.Bad[i] != "" {
		return g, b.Bad[i]
	}
	if b.Nulls[0][i] {
		return g, "tournament_id: missing"
	}
	if ti < 0 {
		return g, fmt.Sprintf("unknown tournament %d", b.Ints[0][i])
	}
	t := &r.arch.Tournaments[ti]
	if t.Discipline == "joker" {
		return g, fmt.Sprintf("tournament %d is a Joker tournament: its games belong in the tables table", t.ID)
	}
	if b.Nulls[1][i] {
		return g, "round: missing"
	}
	round := b.Ints[1][i]
	if round < 1 || (t.Rounds > 0 && round > int64(t.Rounds)) || round > 1000 {
		return g, fmt.Sprintf("round %d is outside 1–%d", round, t.Rounds)
	}
	g.round = int32(round)
	if b.Nulls[3][i] {
		return g, "white_id: missing"
	}
	if g.white = r.arch.Players.Index(b.Ints[3][i]); g.white < 0 {
		return g, fmt.Sprintf("unknown player %d (white_id)", b.Ints[3][i])
	}
	if b.Nulls[5][i] {
		return g, "white_result: missing"
	}
	g.wres = byte(b.Ints[5][i])
	if b.Nulls[4][i] { // a bye
		if !b.Nulls[6][i] {
			return g, "a bye row (black_id empty) must have an empty black_result"
		}
		switch g.wres {
		case 'H', 'F', 'U', 'Z', '+', '-':
		default:
			return g, fmt.Sprintf("result %q is not a bye code (H F U Z) for a row without black_id", g.wres)
		}
	} else {
		if g.black = r.arch.Players.Index(b.Ints[4][i]); g.black < 0 {
			return g, fmt.Sprintf("unknown player %d (black_id)", b.Ints[4][i])
		}
		if g.black == g.white {
			return g, fmt.Sprintf("player %d is paired against himself", b.Ints[3][i])
		}
		if b.Nulls[6][i] {
			return g, "black_result: missing"
		}
		g.bres = byte(b.Ints[6][i])
		if !mirrored(g.wres, g.bres) {
			return g, fmt.Sprintf("results %q and %q do not mirror", g.wres, g.bres)
		}
	}
	if !b.Nulls[7][i] || !b.Nulls[8][i] {
		if b.Nulls[7][i] || b.Nulls[8][i] && g.black >= 0 {
			return g, "white_points and black_points: give both or neither"
		}
		g.hasPts, g.wpts, g.bpts = true, int32(b.Ints[7][i]), int32(b.Ints[8][i])
	}
	return g, ""
}

// mirrored tells whether two result codes of one pairing agree.
func mirrored(w, b byte) bool {
	switch string([]byte{w, b}) {
	case "10", "01", "==", "+-", "-+", "--", "WL", "LW", "DD":
		return true
	}
	return false
}

// advance processes tournaments in rating order while they are complete.
func (r *runner) advance() error {
	for r.next < len(r.order) && r.remaining[r.order[r.next]] == 0 {
		ti := r.order[r.next]
		r.next++
		if err := r.process(ti); err != nil {
			return err
		}
	}
	return nil
}

// finishCounts fills the row counts of the summary.
func (r *runner) finishCounts() {
	s := &r.sum
	s.Archive, s.Rules, s.Period, s.Stage = r.opt.ArchiveName, r.opt.RulesName, r.opt.Period, r.st.Stage
	if s.Rules == "" {
		s.Rules = r.opt.Rules.Base
	}
	s.Tables = r.arch.Counts
	for _, c := range s.Tables {
		s.RowsRead += c.Read
		s.RowsUsed += c.Used
		s.RowsRejected += c.Rejected
	}
	s.RejectKinds = r.rej.Kinds()
	if s.RejectKinds == nil {
		s.RejectKinds = []RejectKind{}
	}
}

func (r *runner) writeSummary() error {
	data, err := json.MarshalIndent(&r.sum, "", "  ")
	if err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	o, err := r.stage.create("summary.json")
	if err != nil {
		return err
	}
	o.Write(append(data, '\n'))
	return o.finish()
}
