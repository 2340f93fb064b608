package pipeline

import (
	"context"
	"fmt"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/rating"
)

// rater is the second stage of a run. It owns the rating state, the rule set
// and the list periods: for each tournament the producer hands on, it closes
// the periods that end before it (their lists go to the sink), rates it, and
// hands its cards and its standings input to the sink.
type rater struct {
	players     *archive.Players
	st          *rating.State
	rules       rating.RuleSet
	def         *rating.Definition
	periods     periods
	lists       listTrack
	win         window
	hashes      periodHashes
	fingerprint string        // of the rules and period kind, for the saved states
	evGames     []rating.Game // scratch for the rating events
	labelKey    int           // the period key of labelText ("" none yet)
	labelText   string
	sum         *Summary // the counts it keeps
	norms       *normFinder
	out         sink
}

// periods is the rater's cursor over the list periods (keys of periodKey).
type periods struct {
	kind        day.Kind // month, quarter or year
	cur         int      // the next period to close
	first, last int      // the first and last period with a list
	any         bool     // whether any tournament is rated (else no lists)
	lastEnd     int      // the period of the last end date of any tournament (-1: none)
	provisional bool     // the run lists the period still open on its date (--provisional)
}

// listTrack is what a list needs from the lists before it, per player.
type listTrack struct {
	prevOn, everOn []bool
	prevRating     []int32
	add            *listAdded     // the rule set's own columns, nil for none
	players        *listPlayers   // made at the first list
	free           chan *listData // written lists, whose buffers take reuses
}

// window is the periods this run rates and writes: --resume and --from start
// after a saved state, --until stops early.
type window struct {
	start, until      int
	resumed, hasUntil bool
	rerate            bool // stop at the window's first period when one before is stale (errRerate)
}

// contains tells whether a tournament whose list is period key belongs to this
// run: not taken in by the state it resumed from, and not after --until.
func (w *window) contains(key int) bool {
	return (!w.resumed || key >= w.start) && (!w.hasUntil || key <= w.until)
}

// newRater makes the rule set of opt for a's players and plans the periods of
// the tournaments in order (rating order).
func newRater(opt *Options, a *runArchive, order []int, sum *Summary) (*rater, error) {
	def, err := opt.Rules.definition()
	if err != nil {
		return nil, err
	}
	if def.MonthlyLists && opt.Period != day.Month {
		return nil, &OptionError{"Period", fmt.Errorf("%w: %s: the %s rule set publishes monthly lists (want month)", ErrUsage, opt.Period, def.Name)}
	}
	n := len(a.Players.ID)
	st := rating.NewState(n)
	copy(st.Category, a.Players.Category)
	copy(st.Elo, a.Players.Elo)
	copy(st.BirthYear, a.Players.BirthYear)
	r := &rater{
		players: &a.Players, st: st, def: def, rules: def.New(opt.Rules.Settings(def.Name), st),
		periods:     periods{kind: opt.Period},
		lists:       listTrack{prevOn: make([]bool, n), everOn: make([]bool, n), prevRating: make([]int32, n), free: make(chan *listData, listsRecycled)},
		fingerprint: fingerprint(opt.Rules, def, string(opt.Period)),
		hashes:      periodHashes{reg: registryHashes(&a.Players)},
		sum:         sum,
		norms:       &normFinder{},
	}
	if opt.Out != "" { // validate and the loads of one tournament want none
		r.norms = newNormFinder(&a.Players)
	}
	r.lists.add = newListAdded(def, r.rules)
	r.hashes.startHashes(st)
	ts := a.Tournaments
	r.periods.lastEnd = -1
	for _, i := range order {
		r.periods.lastEnd = max(r.periods.lastEnd, day.PeriodOf(opt.Period, day.Day(ts[i].End)).Key)
		if !r.rates(&ts[i]) {
			continue
		}
		k := day.PeriodOf(opt.Period, day.Day(r.rules.ListDay(ts[i].End))).Key
		if !r.periods.any {
			// The first list is the period of the first end date: for rule sets whose
			// lists take tournaments in later, it shows the starting ratings.
			r.periods.first, r.periods.any = day.PeriodOf(opt.Period, day.Day(ts[i].End)).Key, true
		}
		r.periods.last = k
	}
	r.periods.cur = r.periods.first
	r.win.start, r.win.until = r.periods.first, r.periods.last
	return r, nil
}

// rates tells whether the rule set rates a tournament.
func (r *rater) rates(t *archive.Tournament) bool {
	return t.Rated && r.rules.Rates(t.Discipline, t.TimeClass)
}

// tournament takes one complete tournament from the producer (a takeFunc).
func (r *rater) tournament(ctx context.Context, t *archive.Tournament, held tourRows, rowSum uint64) error {
	rows := held.rows
	key := day.PeriodOf(r.periods.kind, day.Day(r.rules.ListDay(t.End))).Key
	rated := r.rates(t)
	r.hashes.note(key, tournamentHashOf(t, len(rows), rowSum)+r.hashes.teams[t.ID])
	if key >= r.win.start {
		if err := r.checkRerate(); err != nil {
			return err
		}
	}
	if rated && (!r.win.hasUntil || key <= r.win.until) {
		// Every listed period's, those an earlier run listed included.
		r.norms.check(t, rows, r.label(key))
	}
	if !r.win.contains(key) { // rated by an earlier run (--resume, --from) or left for a later one (--until)
		held.release()
		if r.win.resumed && key < r.win.start && len(rows) > 0 {
			r.out.skip(t, r.label(key))
		}
		return nil
	}
	if rated {
		for r.periods.cur < key {
			if err := r.closePeriod(ctx); err != nil {
				return err
			}
		}
	}
	// Standings use the ratings the players had when the tournament started.
	games := r.noteStartRatings(rows, rated)
	if rated {
		ev := &rating.Event{ID: t.ID, Start: t.Start, End: t.End, Games: games}
		cards := r.rules.Rate(r.st, ev)
		r.sum.TournamentsRated++
		for _, c := range cards {
			r.sum.GamesRated += int64(c.Games)
		}
		if err := r.out.cards(ctx, key, t.ID, t.End, cards); err != nil {
			return err
		}
	}
	if len(rows) == 0 {
		held.release()
		return nil
	}
	return r.out.tournament(ctx, t, held, r.label(key))
}

// label is periodLabel of key in the run's kind of period, remembered for the
// next tournament, which is mostly of the same period.
func (r *rater) label(key int) string {
	if r.labelKey != key || r.labelText == "" {
		r.labelKey, r.labelText = key, day.Period{Kind: r.periods.kind, Key: key}.Label()
	}
	return r.labelText
}

// checkRerate, once every tournament before the window has been seen, stops
// a run that re-rates by itself when a period before it is stale.
func (r *rater) checkRerate() error {
	if !r.win.rerate {
		return nil
	}
	r.win.rerate = false
	if stale := r.hashes.stale(&r.win, &r.periods); len(stale) > 0 {
		return &errRerate{from: stale[0], published: day.Period{Kind: r.periods.kind, Key: r.win.start}.Label(), stale: stale}
	}
	return nil
}

// finish closes the periods left after the last tournament.
func (r *rater) finish(ctx context.Context) error {
	if err := r.checkRerate(); err != nil {
		return err
	}
	if !r.periods.any {
		return nil
	}
	for r.periods.cur <= r.periods.last {
		if err := r.closePeriod(ctx); err != nil {
			return err
		}
	}
	return nil
}

// closePeriod closes the current period and moves to the next one: the rule
// set's close (its cards), the list's players, and the state after it go to
// the sink. Only what must happen in order happens here; sorting and writing
// the list is the sink's.
func (r *rater) closePeriod(ctx context.Context) error {
	key := r.periods.cur
	label := day.Period{Kind: r.periods.kind, Key: key}.Label()
	r.periods.cur++
	st := r.st
	first, last := day.Period{Kind: r.periods.kind, Key: key}.Bounds()
	if ge, ok := r.rules.(rating.GameEmitter); ok {
		ge.EmitGames(func(rows *rating.GameRows) error { return r.out.games(ctx, key, rows) })
	}
	err := r.rules.ClosePeriod(st, int32(first), int32(last), func(closed []rating.Card) error {
		for _, c := range closed {
			if c.PeriodTotal && c.RatedBefore {
				r.sum.GamesRated += int64(c.Games)
			}
		}
		return r.out.cards(ctx, key, 0, int32(last), closed)
	})
	if err != nil {
		return err
	}
	var l *listData
	listed := 0
	switch {
	case r.out.keepsLists():
		if l, err = r.lists.take(r.players, st, r.rules); err != nil {
			return err
		}
		listed = len(l.entries)
	case key == r.periods.last:
		// Nothing is written: the summary wants only the last list's size.
		listed = countListed(st, r.rules)
	}
	clear(st.GamesPeriod)
	r.sum.Lists++
	if r.sum.FirstList == "" {
		r.sum.FirstList = label
	}
	r.sum.LastList, r.sum.PlayersListed = label, listed
	return r.out.list(ctx, label, l, func() (*savedState, error) { return r.snapshot(key) })
}

// lastList is the label of the last list this run writes, "" for none; a
// run without lists (no rated tournament) has the period of its last end date.
func (r *rater) lastList() string {
	switch {
	case r.periods.any && r.periods.last >= r.win.start:
		return day.Period{Kind: r.periods.kind, Key: r.periods.last}.Label()
	case !r.periods.any && r.periods.lastEnd >= 0:
		k := r.periods.lastEnd
		if r.win.hasUntil {
			k = min(k, r.win.until)
		}
		return day.Period{Kind: r.periods.kind, Key: k}.Label()
	}
	return ""
}

// noteStartRatings records in each row the ratings its players had before the
// tournament (0 = unrated), so that the standings can be built off this
// goroutine. For a rated tournament it returns the rows as the rule set's
// games too (in r.evGames), in the same pass.
func (r *rater) noteStartRatings(rows []gameRow, rated bool) []rating.Game {
	st := r.st
	games := r.evGames[:0]
	for i := range rows {
		g := &rows[i]
		// Both loads issue at once and a conditional move picks: a branch on
		// Rated would wait for its cache miss.
		w, b := g.white, max(g.black, 0)
		wr, br := st.Rating[w], st.Rating[b]
		if !st.Rated[w] {
			wr = 0
		}
		if g.black < 0 || !st.Rated[b] {
			br = 0
		}
		g.wrat, g.brat = wr, br
		if rated {
			games = append(games, rating.Game{White: g.white, Black: g.black, WhiteResult: g.wres, BlackResult: g.bres})
		}
	}
	r.evGames = games
	return games
}

// summarize fills the rule set's fields of the summary.
func (r *rater) summarize() {
	if r.def.Summary != nil {
		r.sum.RuleSet = r.def.Summary(r.rules, r.st)
	}
	if stale := r.hashes.stale(&r.win, &r.periods); len(stale) > 0 {
		r.sum.StalePeriods, r.sum.RerunFrom = stale, stale[0]
	}
}
