package fide

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/colbuf"
	"github.com/ratelist/ratelist/rating"
)

// Settings holds every setting of the FIDE rule set (docs/fide.md: FIDE Handbook
// B.02 as of 1 March 2024 with the amendment of 1 October 2025). A name in
// quotes in the comments of this file ("The list") is the part of docs/fide.md
// that states the rule. The zero value is not useful; start from Defaults and
// override fields (a rules file does this through the toml tags, under [fide]).
type Settings struct {
	// Version picks the regulations applied to each rating period
	// ("Older versions"):
	// "" or "current": these settings for every date (the default);
	// "dated": the version in force at each period's start (Versions);
	// a version's name ("pre-2009", "2009-07", "2014-07", "2024-03",
	// "2025-10"): that version for every date. A version overrides only the
	// settings it changes; the values of the older versions come from
	// secondary sources.
	Version string `toml:"version"`

	// CloseDays: a list published on the 1st of a month takes in the rated
	// tournaments that ended at least CloseDays days before it ("Which list
	// takes a tournament").
	CloseDays int32 `toml:"close_days"`

	// |D| above Cap counts as Cap ("The list"), except for players rated
	// CapExemptRating or more (0 = nobody) in rating periods starting on or
	// after CapExemptFrom (YYYY-MM-DD).
	Cap             int32  `toml:"cap"`
	CapExemptRating int32  `toml:"cap_exempt_rating"`
	CapExemptFrom   string `toml:"cap_exempt_from"`

	// K ("The list"), taken at the period's start: KHigh once the published rating has
	// reached HighRating (permanently); else KNew below NewGames rated games in
	// total; else KJunior for a junior (birth_year + JuniorAge ≥ the period's
	// year; JuniorAge 0 = no junior rule) rated below JuniorBelow; else KMid.
	// When K × n exceeds KNMax (0 = no limit) for the n rated games of the
	// period, K becomes the largest whole number with K × n ≤ KNMax.
	KNew        int32 `toml:"k_new"`
	NewGames    int32 `toml:"new_games"`
	KJunior     int32 `toml:"k_junior"`
	JuniorAge   int32 `toml:"junior_age"`
	JuniorBelow int32 `toml:"junior_below"`
	KMid        int32 `toml:"k_mid"`
	KHigh       int32 `toml:"k_high"`
	HighRating  int32 `toml:"high_rating"`
	KNMax       int32 `toml:"kn_max"`

	// Initial ratings ("Initial ratings"): an unrated player's pool of games against rated
	// opponents (it spans at most PoolMonths consecutive periods: a game taken
	// in by list G drops out at list L once L − G ≥ PoolMonths; 0 = never)
	// gives a rating once it holds InitialGames games.
	// InitialMethod "draws": HypotheticalDraws draws against opponents rated
	// HypotheticalRating are added and Ru = Ra + dp(p); "step": Ru = Ra + dp(p)
	// below 50%, Ra + StepPerPoint per point above 50% otherwise. Ru is at most
	// InitialMax (0 = no limit); below Floor the player stays unrated. A zero
	// score in the player's first tournament is disregarded when
	// ZeroFirstDisregarded.
	InitialGames         int32  `toml:"initial_games"`
	InitialMethod        string `toml:"initial_method"`
	HypotheticalRating   int32  `toml:"hypothetical_rating"`
	HypotheticalDraws    int32  `toml:"hypothetical_draws"`
	StepPerPoint         int32  `toml:"step_per_point"`
	InitialMax           int32  `toml:"initial_max"`
	PoolMonths           int32  `toml:"pool_months"`
	ZeroFirstDisregarded bool   `toml:"zero_first_disregarded"`

	// Floor: a rating that falls below it is removed ("The list"), an initial
	// rating below it is not given ("Initial ratings"), and a starting Elo below
	// it is not a rating ("Starting list"; this setting, whatever Version says).
	Floor int32 `toml:"floor"`
	// InactiveMonths: no rated game in this many periods up to and including
	// the one just rated flags the player "i" (0 = never).
	InactiveMonths int32 `toml:"inactive_months"`
	// StartGames is the game total of a player rated at the archive's start
	// ("Starting list").
	StartGames int32 `toml:"start_games"`
	// rating.TimeClasses are the tournaments' time classes it rates: standard for the
	// standard list (also when not given); a rules file naming rapid (or blitz)
	// computes that list, into an output folder of its own.
	TimeClasses rating.TimeClasses `toml:"time_classes,omitempty"`
}

// Initial rating methods.
const (
	InitialDraws = "draws" // 2024: two hypothetical 1800 draws, Ra + dp(p)
	InitialStep  = "step"  // before 2024: Ra + dp(p) below 50%, Ra + step above
)

// Versions are the dated versions ("Older versions"), oldest first: Version "dated"
// applies, to a period, the last one that starts on or before the period's
// first day (From "" = from the beginning).
var Versions = []struct{ Name, From string }{
	{"pre-2009", ""},
	{"2009-07", "2009-07-01"},
	{"2014-07", "2014-07-01"},
	{"2024-03", "2024-03-01"},
	{"2025-10", "2025-10-01"},
}

// Defaults returns the current FIDE regulations (docs/fide.md).
func Defaults() Settings {
	return Settings{
		CloseDays:            3,
		Cap:                  400,
		CapExemptRating:      2650,
		CapExemptFrom:        "2025-10-01",
		KNew:                 40,
		NewGames:             30,
		KJunior:              40,
		JuniorAge:            18,
		JuniorBelow:          2300,
		KMid:                 20,
		KHigh:                10,
		HighRating:           2400,
		KNMax:                700,
		InitialGames:         5,
		InitialMethod:        InitialDraws,
		HypotheticalRating:   1800,
		HypotheticalDraws:    2,
		StepPerPoint:         40,
		InitialMax:           2200,
		PoolMonths:           26,
		ZeroFirstDisregarded: true,
		Floor:                1400,
		InactiveMonths:       12,
		StartGames:           30,
	}
}

// Check reports settings that cannot work.
func (f *Settings) Check() error {
	if err := f.TimeClasses.Check("fide"); err != nil {
		return err
	}
	switch f.Version {
	case "", "current", "dated":
	default:
		if versionIndex(f.Version) < 0 {
			return fmt.Errorf("fide.version = %q: want current, dated or one of pre-2009, 2009-07, 2014-07, 2024-03, 2025-10", f.Version)
		}
	}
	if _, err := parseDay(f.CapExemptFrom); err != nil {
		return fmt.Errorf("fide.cap_exempt_from = %q: want YYYY-MM-DD", f.CapExemptFrom)
	}
	if f.InitialMethod != InitialDraws && f.InitialMethod != InitialStep {
		return fmt.Errorf("fide.initial_method = %q: want draws or step", f.InitialMethod)
	}
	if f.CloseDays < 0 || f.CloseDays > 27 {
		return fmt.Errorf("fide.close_days = %d: want 0–27", f.CloseDays)
	}
	for _, v := range []struct {
		key string
		val int32
		min int32
	}{
		{"cap", f.Cap, 1}, {"cap_exempt_rating", f.CapExemptRating, 0},
		{"k_new", f.KNew, 1}, {"k_mid", f.KMid, 1}, {"k_high", f.KHigh, 1}, {"k_junior", f.KJunior, 1},
		{"new_games", f.NewGames, 0}, {"junior_age", f.JuniorAge, 0}, {"junior_below", f.JuniorBelow, 0},
		{"high_rating", f.HighRating, 0}, {"kn_max", f.KNMax, 0},
		{"initial_games", f.InitialGames, 1}, {"hypothetical_rating", f.HypotheticalRating, 1},
		{"hypothetical_draws", f.HypotheticalDraws, 0}, {"step_per_point", f.StepPerPoint, 0},
		{"initial_max", f.InitialMax, 0}, {"pool_months", f.PoolMonths, 0}, {"floor", f.Floor, 0},
		{"inactive_months", f.InactiveMonths, 0}, {"start_games", f.StartGames, 0},
	} {
		if v.val < v.min {
			return fmt.Errorf("fide.%s = %d: want ≥ %d", v.key, v.val, v.min)
		}
	}
	return nil
}

func versionIndex(name string) int {
	for i, v := range Versions {
		if v.Name == name {
			return i
		}
	}
	return -1
}

// parseDay parses YYYY-MM-DD to days since 1970-01-01; "" is the earliest day.
func parseDay(s string) (int32, error) {
	if s == "" {
		return int32(day.None), nil
	}
	d, err := day.Parse(s)
	return int32(d), err
}

// fideRules is Settings resolved for one rating period.
type fideRules struct {
	Settings
	exemptFrom int32 // day from which periods exempt CapExemptRating players from the cap
}

// at returns the settings in force for a rating period starting on day
// (days since 1970-01-01), after Version.
func (f Settings) at(day int32) fideRules {
	r := fideRules{Settings: f}
	r.exemptFrom, _ = parseDay(f.CapExemptFrom)
	v := f.Version
	switch v {
	case "", "current":
		return r
	case "dated":
		for _, fv := range Versions {
			if from, _ := parseDay(fv.From); day >= from {
				v = fv.Name
			}
		}
	}
	i := versionIndex(v)
	if i < 0 {
		return r
	}
	// Each older version undoes the later changes ("Older versions": secondary sources).
	if i < versionIndex("2025-10") {
		r.CapExemptRating = 0
	} else {
		r.exemptFrom = math.MinInt32 // pinned 2025-10: the exemption for every date
	}
	if i < versionIndex("2024-03") { // before the two 1800 draws, the 2200 cap and the 1400 floor
		r.InitialMethod, r.InitialMax, r.StepPerPoint, r.Floor = InitialStep, 0, 40, 1000
	}
	if i < versionIndex("2014-07") { // K 25/15/10, no junior rule, no K × n limit, 9 games, +12.5 per half point
		r.KNew, r.KMid, r.KHigh, r.JuniorAge, r.KNMax = 25, 15, 10, 0, 0
		r.InitialGames, r.StepPerPoint, r.Floor = 9, 25, 1200
	}
	if i < versionIndex("2009-07") { // the 350-point rule
		r.Cap, r.Floor = 350, 1400
	}
	return r
}

// k returns the K factor at a period's start ("The list"), before the K × n
// limit.
func (f *fideRules) k(reached bool, games, rating, birthYear int32, year int) int32 {
	switch {
	case reached:
		return f.KHigh
	case games < f.NewGames:
		return f.KNew
	case f.JuniorAge > 0 && birthYear > 0 && int(birthYear+f.JuniorAge) >= year && rating < f.JuniorBelow:
		return f.KJunior
	}
	return f.KMid
}

// limitK applies K × n ≤ KNMax for n rated games in the period.
func (f *fideRules) limitK(k, n int32) int32 {
	if f.KNMax > 0 && n > 0 && k*n > f.KNMax {
		return f.KNMax / n
	}
	return k
}

// d returns the rating difference used for a player rated ro against an
// opponent rated ri in a period starting on day: capped at ±Cap unless the
// player is exempt.
func (f *fideRules) d(ro, ri, day int32) int32 {
	d := ro - ri
	if f.CapExemptRating > 0 && ro >= f.CapExemptRating && day >= f.exemptFrom {
		return d
	}
	return max(-f.Cap, min(f.Cap, d))
}

// DP is Table 8.1.1 with FIDE's ends: dp = −800 at p = 0.00 and +800 at
// p = 1.00 (p in hundredths).
func DP(p int) int32 {
	switch {
	case p <= 0:
		return -800
	case p >= 100:
		return 800
	}
	dp, _ := rating.DP(p)
	return dp
}

// Initial computes an unrated player's rating from n pooled games against
// opponents whose ratings sum to oppSum, with score w2 in half points
// ("Initial ratings").
// It returns Ra (with any hypothetical opponents), p in hundredths (the
// fraction used by dp; 0 for the step rule above 50%) and Ru.
func (f *fideRules) initial(oppSum int64, n, w2 int32) (ra int32, p int32, ru int32) {
	if f.InitialMethod == InitialDraws {
		h := f.HypotheticalDraws
		ra = int32(rating.RoundHalfUp(oppSum+int64(h)*int64(f.HypotheticalRating), int64(n+h)))
		// p = (W + h/2) / (n + h) with W = w2/2: p×100 = 50(w2 + h) / (n + h).
		p = int32(rating.RoundHalfUp(int64(50*(w2+h)), int64(n+h)))
		ru = ra + DP(int(p))
	} else {
		ra = int32(rating.RoundHalfUp(oppSum, int64(n)))
		if w2 >= n { // 50% or more: StepPerPoint per point (w2 − n half points) above 50%
			ru = ra + int32(rating.RoundHalfUp(int64(f.StepPerPoint)*int64(w2-n), 2))
		} else {
			p = int32(rating.RoundHalfUp(int64(50*w2), int64(n)))
			ru = ra + DP(int(p))
		}
	}
	if f.InitialMax > 0 && ru > f.InitialMax {
		ru = f.InitialMax
	}
	return ra, p, ru
}

// Rater applies the FIDE rule set period by period: Rate gathers a
// tournament's games, ClosePeriod rates the period against the list in force
// at its start. One Rater serves one goroutine.
type Rater struct {
	F Settings

	reached    []bool  // published rating has reached HighRating
	seen       []bool  // had a first tournament or was rated at the start ("Initial ratings")
	lastPlayed []int32 // month key of the last list with a rated game
	pool       [][]fideGame
	poolFrom   []int32 // per player: the earliest period among the pool's games
	inPool     []bool
	pooling    []int32 // players with a non-empty pool
	sorted     int     // pooling[:sorted] is in player order
	// arena holds, one after another in player order, the pools kept by the
	// last close (each capped at its length); spare is the arena before it,
	// which no pool refers to any more. The open period's pool games wait in
	// added, in the order they came, until the close puts them in the pools.
	arena, spare, added []fideGame

	// The open period's rated games, a side per player, in buckets of
	// 1<<bucketShift players (by player index): the close sorts a bucket's
	// sides by player within the cache, where an order of all of them
	// would have it read them from memory at random.
	buckets [][]ratedSide
	tours   []tourInfo // their tournaments
	pending []fideGame // one event's pool candidates
	first   []int32    // one event's players in their first tournament
	mark    []int8     // per player: 1 = in first this event, 2 = zero-score disregarded
	cards   []rating.Card
	// rows are the close's per-game cards, column by column; emitRows takes
	// them (EmitGames), else they become cards.
	rows     rating.GameRows
	rowsRoom int // the least room of rows' columns (see moreRows)
	emitRows func(*rating.GameRows) error

	// ClosePeriod's scratch for sorting a bucket's sides by player and
	// merging pooling.
	bySide   []ratedSide
	count    []int32
	merge    []int32
	addCount []int32
	addOrder []fideGame

	started bool
	cur     int // month key of the last list closed

	// ListInfo's settings for the list of month listKey (resolving them
	// parses dates, too slow to do once per listed player).
	listRules fideRules
	listYear  int
	listKey   int
	listSet   bool
}

// fideGame is one side of a game: player, opponent and the opponent's rating
// at the period's start, the score in half points, and where it was played.
type fideGame struct {
	tour      int64
	end       int32
	period    int32 // month key of the list that takes the game in
	p, opp    int32
	oppRating int32
	w2        int32
}

// ratedSide is one side of a rated game of the open period: half the
// memory of a fideGame, kept a month.
type ratedSide struct {
	p, opp    int32
	oppRating int32 // on the list in force
	tour      int32 // index into Rater.tours
	w2        int32 // the score in half points
}

// 1<<bucketShift players' sides share a bucket: a month's bucket at 10M
// games and 200k players holds about 17k sides, which the close sorts
// within the cache.
const bucketShift = 12

// tourInfo is what a game's side takes from its tournament.
type tourInfo struct {
	id          int64
	end, period int32
}

// NewRater returns a rater for st's players and puts the starting list in
// st ("Starting list"): a player with a FIDE Elo of at least Floor is rated with it and
// StartGames games; one below Floor starts unrated, like a player without one.
func NewRater(f Settings, st *rating.State) *Rater {
	n := len(st.Rated)
	r := &Rater{F: f, reached: make([]bool, n), seen: make([]bool, n), lastPlayed: make([]int32, n),
		pool: make([][]fideGame, n), poolFrom: make([]int32, n), inPool: make([]bool, n), mark: make([]int8, n)}
	for p, elo := range st.Elo {
		if elo > 0 && elo >= f.Floor {
			st.Rated[p], st.Rating[p], st.GamesTotal[p] = true, elo, f.StartGames
			r.reached[p], r.seen[p] = elo >= f.HighRating, true
		}
	}
	return r
}

// monthKey numbers the month holding day: year×12 + month − 1.
func monthKey(d int32) int { return day.PeriodOf(day.Month, day.Day(d)).Key }

// monthStart is the first day of month key k.
func monthStart(k int) int32 {
	first, _ := day.Period{Kind: day.Month, Key: k}.Bounds()
	return int32(first)
}

// ListDay is the 1st of the month of the first list that takes in a
// tournament ending on end: the first 1st of a month at least CloseDays days
// after it ("Which list takes a tournament": ending 29 January → the
// February list, 30 January → March).
func (r *Rater) ListDay(end int32) int32 {
	d := end + r.F.CloseDays
	k := monthKey(d)
	if monthStart(k) == d {
		return d
	}
	return monthStart(k + 1)
}

// Rate gathers one tournament's games for its period ("Gathering"): rated games
// between players both rated on the list in force, and unrated players'
// games against rated opponents into their pools. Nothing changes before
// ClosePeriod. It returns a card per player whose first tournament's zero
// score is disregarded.
func (r *Rater) Rate(st *rating.State, ev *rating.Event) []rating.Card {
	period := int32(monthKey(r.ListDay(ev.End)))
	r.cards, r.pending, r.first = r.cards[:0], r.pending[:0], r.first[:0]
	tour := int32(-1) // the event's place in r.tours, made with its first rated game
	for _, g := range ev.Games {
		ws, bs, ok := g.Scores()
		if !ok {
			continue
		}
		switch wr, br := st.Rated[g.White], st.Rated[g.Black]; {
		case wr && br:
			if tour < 0 {
				tour = int32(len(r.tours))
				r.tours = append(r.tours, tourInfo{id: ev.ID, end: ev.End, period: period})
			}
			wr, br := st.Rating[g.White], st.Rating[g.Black]
			r.addSide(ratedSide{p: g.White, opp: g.Black, oppRating: br, tour: tour, w2: ws})
			r.addSide(ratedSide{p: g.Black, opp: g.White, oppRating: wr, tour: tour, w2: bs})
		case br:
			r.pending = append(r.pending, fideGame{tour: ev.ID, end: ev.End, period: period, p: g.White, opp: g.Black, oppRating: st.Rating[g.Black], w2: ws})
		case wr:
			r.pending = append(r.pending, fideGame{tour: ev.ID, end: ev.End, period: period, p: g.Black, opp: g.White, oppRating: st.Rating[g.White], w2: bs})
		}
	}
	// A player's first tournament is the first in which they met a rated
	// opponent over the board: the first with a pool candidate
	// ("Initial ratings").
	for _, g := range r.pending {
		if !r.seen[g.p] && r.mark[g.p] == 0 {
			r.mark[g.p] = 1
			r.first = append(r.first, g.p)
		}
	}
	// A zero score in the first tournament: its games are disregarded
	// ("Initial ratings").
	if r.F.ZeroFirstDisregarded {
		for _, p := range r.first {
			w2 := int32(0)
			for _, g := range r.pending {
				if g.p == p {
					w2 += g.w2
				}
			}
			if w2 == 0 {
				r.mark[p] = 2
				r.cards = append(r.cards, rating.Card{Player: p, Reason: ReasonZeroFirst}) // Games 0: none is rated
			}
		}
	}
	r.added = colbuf.RoomFor(r.added, len(r.pending))
	for _, g := range r.pending {
		if r.mark[g.p] == 2 {
			continue
		}
		r.added = append(r.added, g)
		if !r.inPool[g.p] {
			r.inPool[g.p], r.poolFrom[g.p] = true, g.period
			r.pooling = append(r.pooling, g.p)
		} else {
			r.poolFrom[g.p] = min(r.poolFrom[g.p], g.period)
		}
	}
	for _, p := range r.first {
		r.mark[p], r.seen[p] = 0, true
	}
	if len(r.cards) > 1 { // most events have none: sort.Slice would allocate for nothing
		slices.SortFunc(r.cards, func(a, b rating.Card) int { return cmp.Compare(a.Player, b.Player) })
	}
	return r.cards
}

// ClosePeriod rates the period of the list on first…last (the list of month
// M rates the period M − 1 with the ratings of the list of M − 1): one change
// per rated player, rounded once, and initial ratings from the pools, in one
// walk in player order. It hands emit the per-game cards (or emitRows their
// rows, EmitGames) and each player's total, in player order, about
// closeChunk at a time, and returns the first error of either.
func (r *Rater) ClosePeriod(st *rating.State, first, last int32, emit func([]rating.Card) error) error {
	cur := monthKey(first)
	r.cards = r.cards[:0]
	r.rows.Reset()
	if !r.started { // players rated at the start count as having played in the first list's period
		r.started = true
		for p, rated := range st.Rated {
			if rated {
				r.lastPlayed[p] = int32(cur)
			}
		}
	}
	r.cur = cur
	start := monthStart(cur - 1) // the rating period's first day
	f := r.F.at(start)
	year := day.Day(start).Year()

	// 1. Rated players: Σ (W − rating.PD) over the period's games, K at the start.
	// 2. Unrated players' pools: expiry, then an initial rating from 5 games.
	// The two sets of players are apart, and no player's result depends on
	// another's, so both are done in one walk in player order: the cards come
	// out in player order, as audit rows should, without sorting them.
	pooling := r.sortPooling()
	keep := pooling[:0] // still pooling (written behind the walk)
	added, addEnd := r.addedByPlayer(len(st.Rated))
	total := len(added)
	for _, p := range pooling {
		total += len(r.pool[p])
	}
	arena := emptied(r.spare, total)
	var sides []ratedSide // the rest of the sorted bucket
	b := 0                // the next bucket
	for j := 0; ; {
		for len(sides) == 0 && b < len(r.buckets) {
			sides = r.sortBucket(b)
			b++
		}
		if len(sides) == 0 && j == len(pooling) {
			break
		}
		if len(sides) > 0 && (j == len(pooling) || sides[0].p <= pooling[j]) {
			p, k := sides[0].p, 1
			for k < len(sides) && sides[k].p == p {
				k++
			}
			r.closeRated(st, p, sides[:k], &f, start, year, cur)
			sides = sides[k:]
		} else {
			// The pool and the period's games for it, side by side with
			// the other pools: the next close and the state file read them
			// in order, and Rate allocates nothing per player.
			p, start := pooling[j], len(arena)
			arena = append(arena, r.pool[p]...)
			from := int32(0)
			if p > 0 {
				from = addEnd[p-1]
			}
			arena = append(arena, added[from:addEnd[p]]...)
			r.pool[p] = arena[start:len(arena):len(arena)]
			if r.closePool(st, p, &f, cur) {
				keep = append(keep, p)
				arena = arena[:start+len(r.pool[p])] // closePool drops expired games in place
				r.pool[p] = arena[start:len(arena):len(arena)]
			} else {
				arena = arena[:start] // closePool let go of the pool
			}
			j++
		}
		if err := r.handOn(emit, closeChunk); err != nil {
			return err
		}
	}
	for b := range r.buckets {
		r.buckets[b] = r.buckets[b][:0]
	}
	r.tours, r.added = r.tours[:0], r.added[:0]
	r.pooling, r.sorted = keep, len(keep)
	r.arena, r.spare = arena, r.arena
	return r.handOn(emit, 1)
}

// EmitGames: ClosePeriod hands its per-game cards to emit as rows
// (rating.GameEmitter).
func (r *Rater) EmitGames(emit func(*rating.GameRows) error) { r.emitRows = emit }

// handOn hands the rows to emitRows and the cards to emit, each once there
// are at least min of them.
func (r *Rater) handOn(emit func([]rating.Card) error, min int) error {
	if r.rows.Len() >= min {
		err := r.emitRows(&r.rows)
		r.rows.Reset()
		if err != nil {
			return err
		}
	}
	if len(r.cards) >= min {
		err := emit(r.cards)
		r.cards = r.cards[:0]
		return err
	}
	return nil
}

// closeChunk is about how many cards, and how many rows, ClosePeriod hands
// on at a time, so that a big month's are never all live at once under the
// memory limit.
const closeChunk = 4096

// closeRated rates rated player p's games of the period, sides ("The
// list"), and adds a row per game, then the period's total card.
func (r *Rater) closeRated(st *rating.State, p int32, sides []ratedSide, f *fideRules, day int32, year, cur int) {
	n := int32(len(sides))
	ro := st.Rating[p]
	k := f.limitK(f.k(r.reached[p], st.GamesTotal[p], ro, st.BirthYear[p], year), n)
	rows, from := &r.rows, r.moreRows(len(sides))
	colbuf.Fill(rows.Player[from:], p)
	colbuf.Fill(rows.Reasons[from:], ReasonGame)
	colbuf.Fill(rows.Rated[from:], k > 0)
	opp, oppRating, score2 := rows.Opponent[from:], rows.OppRating[from:], rows.Score2[from:]
	tour, end := rows.Tournament[from:], rows.End[from:]
	ds, pds, exacts := rows.D[from:], rows.Expected[from:], rows.ChangeExact[from:]
	var w2 int32
	var we, oppSum int64
	for i := range sides {
		g := &sides[i]
		t := &r.tours[g.tour]
		d := f.d(ro, g.oppRating, day)
		pd := int64(rating.PD(int(d)))
		w2, we, oppSum = w2+g.w2, we+pd, oppSum+int64(g.oppRating)
		opp[i], oppRating[i], score2[i] = g.opp, g.oppRating, g.w2
		tour[i], end[i] = t.id, t.end
		ds[i], pds[i], exacts[i] = d, pd, int64(k)*(int64(g.w2)*50-pd)
	}
	r.rowCards(from, ro, k)
	exact, change := rating.Change(k, w2, we)
	after := ro + change
	c := rating.Card{
		Player: p, RatedBefore: true, Before: ro, After: after, RatedAfter: true, Games: n, Score2: w2,
		OppAverage: int32(rating.RoundHalfUp(oppSum, int64(n))), Expected: we, K: k, ChangeExact: exact,
		Change: change, Reason: ReasonPeriod, PeriodTotal: true,
	}
	st.Rating[p] = after
	st.GamesTotal[p] += n
	st.GamesPeriod[p] = n
	r.lastPlayed[p] = int32(cur)
	if after < f.Floor { // "The list": removed, unrated from now on
		st.Rated[p], c.RatedAfter, c.Reason = false, false, ReasonBelowFloor
	} else if after >= f.HighRating {
		r.reached[p] = true
	}
	r.cards = append(r.cards, c)
}

// closePool expires an unrated player's pooled games and, with enough of
// them, gives an initial rating ("Initial ratings"), adding the cards. It
// tells whether the player keeps pooling.
func (r *Rater) closePool(st *rating.State, p int32, f *fideRules, cur int) bool {
	pool := r.pool[p]
	if f.PoolMonths > 0 && int32(cur)-r.poolFrom[p] >= f.PoolMonths { // some game is older than lists cur−PoolMonths+1 … cur
		pool = pool[:0]
		from := int32(math.MaxInt32)
		for _, g := range r.pool[p] {
			if int32(cur)-g.period < f.PoolMonths {
				pool = append(pool, g)
				from = min(from, g.period)
			}
		}
		r.pool[p], r.poolFrom[p] = pool, from
	}
	if int32(len(pool)) < f.InitialGames {
		if len(pool) == 0 {
			r.pool[p], r.inPool[p] = nil, false // nothing may be left pointing into the arena
			return false
		}
		return true
	}
	n := int32(len(pool))
	var w2 int32
	var oppSum int64
	rows, from := &r.rows, r.moreRows(len(pool))
	colbuf.Fill(rows.Player[from:], p)
	colbuf.Fill(rows.Reasons[from:], ReasonPoolGame)
	clear(rows.Rated[from:])
	clear(rows.D[from:])
	clear(rows.Expected[from:])
	clear(rows.ChangeExact[from:])
	for i, g := range pool {
		w2, oppSum = w2+g.w2, oppSum+int64(g.oppRating)
		rows.Opponent[from+i], rows.OppRating[from+i], rows.Score2[from+i] = g.opp, g.oppRating, g.w2
		rows.Tournament[from+i], rows.End[from+i] = g.tour, g.end
	}
	r.rowCards(from, 0, 0)
	ra, _, ru := f.initial(oppSum, n, w2)
	c := rating.Card{Player: p, After: ru, Games: n, Score2: w2, OppAverage: ra, Reason: ReasonInitialLow, PeriodTotal: true}
	if ru < f.Floor { // stays unrated and keeps pooling
		r.cards = append(r.cards, c)
		return true
	}
	c.RatedAfter, c.Reason = true, ReasonInitial
	r.cards = append(r.cards, c)
	st.Rated[p], st.Rating[p] = true, ru
	st.GamesTotal[p] += n
	st.GamesPeriod[p] = 0
	r.lastPlayed[p] = int32(cur)
	r.reached[p] = r.reached[p] || ru >= f.HighRating
	r.pool[p], r.inPool[p] = nil, false
	return false
}

// moreRows lengthens every column of r.rows by n rows and returns where
// they start. The columns grow together, so one check of room serves all.
func (r *Rater) moreRows(n int) int {
	g := &r.rows
	from := len(g.Player)
	to := from + n
	if to > r.rowsRoom {
		g.Player, g.Opponent, g.End, g.OppRating = colbuf.RoomFor(g.Player, n), colbuf.RoomFor(g.Opponent, n), colbuf.RoomFor(g.End, n), colbuf.RoomFor(g.OppRating, n)
		g.Score2, g.D, g.Tournament, g.Expected = colbuf.RoomFor(g.Score2, n), colbuf.RoomFor(g.D, n), colbuf.RoomFor(g.Tournament, n), colbuf.RoomFor(g.Expected, n)
		g.ChangeExact, g.Reasons, g.Rated = colbuf.RoomFor(g.ChangeExact, n), colbuf.RoomFor(g.Reasons, n), colbuf.RoomFor(g.Rated, n)
		r.rowsRoom = min(cap(g.Player), cap(g.Opponent), cap(g.End), cap(g.OppRating), cap(g.Score2), cap(g.D),
			cap(g.Tournament), cap(g.Expected), cap(g.ChangeExact), cap(g.Reasons), cap(g.Rated))
	}
	g.Player, g.Opponent, g.End, g.OppRating = g.Player[:to], g.Opponent[:to], g.End[:to], g.OppRating[:to]
	g.Score2, g.D, g.Tournament, g.Expected = g.Score2[:to], g.D[:to], g.Tournament[:to], g.Expected[:to]
	g.ChangeExact, g.Reasons, g.Rated = g.ChangeExact[:to], g.Reasons[:to], g.Rated[:to]
	return from
}

// rowCards, without emitRows (EmitGames), turns the rows from from on into
// per-game cards: a rated player's (reason ReasonGame) rated before and
// with K k, else a pool's.
func (r *Rater) rowCards(from int, before, k int32) {
	if r.emitRows != nil {
		return
	}
	g := &r.rows
	for i := from; i < g.Len(); i++ {
		c := rating.Card{
			Player: g.Player[i], Games: 1, Score2: g.Score2[i], Reason: g.Reasons[i],
			Tournament: g.Tournament[i], End: g.End[i], PerGame: true, Opponent: g.Opponent[i], OppRating: g.OppRating[i],
		}
		if g.Reasons[i] == ReasonGame { // rated, with or without a K (K × n limit)
			c.RatedBefore, c.Before, c.D, c.Expected, c.K, c.ChangeExact = true, before, g.D[i], g.Expected[i], k, g.ChangeExact[i]
		}
		r.cards = append(r.cards, c)
	}
	g.Reset()
}

// sortPooling puts r.pooling in player order: the players kept by the last
// close are in order already, so only those added since are sorted and merged
// in.
func (r *Rater) sortPooling() []int32 {
	old, added := r.pooling[:r.sorted], r.pooling[r.sorted:]
	if len(added) == 0 {
		return r.pooling
	}
	slices.Sort(added)
	if len(old) == 0 || old[len(old)-1] < added[0] {
		return r.pooling
	}
	m := r.merge[:0]
	i, j := 0, 0
	for i < len(old) && j < len(added) {
		if old[i] <= added[j] {
			m = append(m, old[i])
			i++
		} else {
			m = append(m, added[j])
			j++
		}
	}
	m = append(append(m, old[i:]...), added[j:]...)
	// The merged list becomes pooling and the old backing array the next scratch.
	r.pooling, r.merge = m, r.pooling[:0]
	return m
}

// playerStarts is the first pass of a counting sort of games by player, in
// buf's room: start[p] is where player p's games begin in player order, for
// the n players (start has n+1 entries).
func playerStarts(buf []int32, games []fideGame, n int) (start []int32) {
	start = counters(buf, n)
	for _, g := range games {
		start[g.p+1]++
	}
	return starts(start)
}

// counters returns n+1 zeroed counters in buf's room.
func counters(buf []int32, n int) []int32 {
	if cap(buf) > n {
		c := buf[:n+1]
		clear(c)
		return c
	}
	return make([]int32, n+1)
}

// starts turns counts c[p+1] into starts c[p], summing them in place.
func starts(c []int32) []int32 {
	for i := 1; i < len(c); i++ {
		c[i] += c[i-1]
	}
	return c
}

// addedByPlayer returns the period's pool games (r.added) in player order,
// each player's in the order they came, and end: player p's end in them.
func (r *Rater) addedByPlayer(n int) (added []fideGame, end []int32) {
	count := playerStarts(r.addCount, r.added, n)
	added = emptied(r.addOrder, len(r.added))[:len(r.added)]
	for _, g := range r.added {
		added[count[g.p]] = g
		count[g.p]++ // from the start of p's games to their end
	}
	r.addOrder, r.addCount = added, count
	return added, count
}

// addSide adds a rated game's side to its player's bucket.
func (r *Rater) addSide(s ratedSide) {
	b := int(s.p >> bucketShift)
	if b >= len(r.buckets) {
		r.buckets = append(r.buckets, make([][]ratedSide, b+1-len(r.buckets))...)
	}
	bk := r.buckets[b]
	if len(bk) == cap(bk) { // doubling: append's growth by a quarter would copy a bucket over and over
		bk = slices.Grow(bk, max(len(bk), 256))
	}
	r.buckets[b] = append(bk, s)
}

// openSides is how many rated games' sides the open period holds.
func (r *Rater) openSides() int {
	n := 0
	for _, bk := range r.buckets {
		n += len(bk)
	}
	return n
}

// sortBucket returns bucket b's sides in player order, each player's in the
// order they came: a stable counting sort over the bucket's players, linear
// in the sides where a comparison sort is not, in r.bySide's room.
func (r *Rater) sortBucket(b int) []ratedSide {
	bucket := r.buckets[b]
	if len(bucket) == 0 {
		return nil
	}
	lo := int32(b) << bucketShift
	start := counters(r.count, 1<<bucketShift)
	for i := range bucket {
		start[bucket[i].p-lo+1]++
	}
	start = starts(start)
	out := emptied(r.bySide, len(bucket))[:len(bucket)]
	for i := range bucket {
		q := bucket[i].p - lo
		out[start[q]] = bucket[i]
		start[q]++
	}
	r.bySide, r.count = out, start
	return out
}

// emptied returns s emptied with room for n elements: a new array when s
// has too little, where slices.Grow would copy s's stale elements over. A
// new array at least doubles s: the close's scratch grows over the first
// months, and each new array is fresh memory, paid in page faults.
func emptied[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, max(n, 2*cap(s)))
	}
	return s[:0]
}

// ListInfo: every rated player is listed, with the K of the next period (the
// list's own month) before the K × n limit, and "i" when inactive ("List columns"). The
// category column is empty.
func (r *Rater) ListInfo(st *rating.State, p int32) (bool, int32, string, string) {
	if !st.Rated[p] {
		return false, 0, "", ""
	}
	if !r.listSet || r.listKey != r.cur {
		first := monthStart(r.cur)
		r.listRules, r.listYear = r.F.at(first), day.Day(first).Year()
		r.listKey, r.listSet = r.cur, true
	}
	f := &r.listRules
	k := f.k(r.reached[p], st.GamesTotal[p], st.Rating[p], st.BirthYear[p], r.listYear)
	flags := ""
	if f.InactiveMonths > 0 && int32(r.cur)-r.lastPlayed[p] >= f.InactiveMonths {
		flags = "i"
	}
	return true, k, "", flags
}
