package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"

	"github.com/ratelist/ratelist/internal/arrowipc"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/tiebreak"
)

// process handles one complete tournament: the cross-row checks, the lists of
// periods that end before it, its rating, its cards and its standings.
func (r *runner) process(ti int) error {
	t := &r.arch.Tournaments[ti]
	rows := r.checkPairings(t, r.bufs[ti])
	r.bufs[ti] = nil
	r.arch.count("games").Used += int64(len(rows))
	if t.Discipline == "joker" {
		return nil
	}
	key := periodKey(r.opt.Period, r.rules.ListDay(t.End))
	if r.rates(t) && r.opt.onTournament == nil {
		r.notePeriod(key, r.tournamentHash(t, rows))
	}
	if r.opt.onTournament == nil && !r.inRun(key) {
		return nil // rated by an earlier run (--resume, --from) or left for a later one (--until)
	}
	rates := r.rates(t)
	if rates && r.opt.onTournament == nil {
		for r.curPeriod < key {
			if err := r.emitList(); err != nil {
				return err
			}
		}
	}
	// Standings use the ratings the players had when the tournament started.
	var tt *tiebreak.Tournament
	if len(rows) > 0 && (r.stage != nil || r.opt.onTournament != nil) {
		tt = r.standingsInput(t, rows)
	}
	if rates {
		ev := &rating.Event{ID: t.ID, Start: t.Start, End: t.End}
		for _, g := range rows {
			ev.Games = append(ev.Games, rating.Game{White: g.white, Black: g.black, WhiteResult: g.wres, BlackResult: g.bres})
		}
		stageBefore := r.st.Stage
		cards := r.rules.Rate(r.st, ev)
		r.sum.TournamentsRated++
		for _, c := range cards {
			r.sum.GamesRated += int64(c.Games)
		}
		if stageBefore == 1 && r.st.Stage == 2 && r.sum.Stage2From == 0 {
			r.sum.Stage2From = t.ID
		}
		if err := r.addCards(t.ID, t.End, cards); err != nil {
			return err
		}
	}
	if tt == nil {
		return nil
	}
	if r.opt.onTournament != nil {
		return r.opt.onTournament(tt)
	}
	r.sum.StandingsWritten++
	return r.submit(func() error { return r.writeStandings(tt) })
}

// submit hands a job to the worker pool.
func (r *runner) submit(job func() error) error {
	select {
	case r.jobs <- job:
		return nil
	case <-r.ctx.Done():
		return r.ctx.Err()
	}
}

// checkPairings rejects rows that pair a player twice in one round (the later
// row, in file order) and returns the rest. seen holds, per player and round,
// the row that paired them (player slots from r.local, reset before returning).
func (r *runner) checkPairings(t *Tournament, rows []gameRow) []gameRow {
	var ps []int32
	maxRound := int32(0)
	for _, g := range rows {
		for _, p := range [2]int32{g.white, g.black} {
			if p >= 0 && r.local[p] < 0 {
				r.local[p] = int32(len(ps))
				ps = append(ps, p)
			}
		}
		maxRound = max(maxRound, g.round)
	}
	nr := int(maxRound)
	if need := len(ps) * nr; cap(r.seen) < need {
		r.seen = make([]int64, need)
	} else {
		r.seen = r.seen[:need]
		clear(r.seen)
	}
	slot := func(p, round int32) *int64 { return &r.seen[int(r.local[p])*nr+int(round-1)] }
	out := rows[:0]
	for _, g := range rows {
		who, prev := g.white, *slot(g.white, g.round)
		if prev == 0 && g.black >= 0 {
			who, prev = g.black, *slot(g.black, g.round)
		}
		if prev != 0 {
			r.arch.count("games").Rejected++
			r.rej.add(r.arch.GameFiles[g.file], g.row,
				fmt.Sprintf("player %d is paired twice in round %d (also row %d)", r.arch.Players.ID[who], g.round, prev),
				r.gameValues(t, &g))
			continue
		}
		*slot(g.white, g.round) = g.row
		if g.black >= 0 {
			*slot(g.black, g.round) = g.row
		}
		out = append(out, g)
	}
	for _, p := range ps {
		r.local[p] = -1
	}
	return out
}

func (r *runner) gameValues(t *Tournament, g *gameRow) string {
	p := r.arch.Players.ID
	s := fmt.Sprintf("tournament_id=%d;round=%d;white_id=%d;black_id=", t.ID, g.round, p[g.white])
	if g.black >= 0 {
		s += strconv.FormatInt(p[g.black], 10)
	}
	s += ";white_result=" + string(g.wres) + ";black_result="
	if g.bres != 0 {
		s += string(g.bres)
	}
	return s
}

// standingsInput builds the tiebreak engine's view of a tournament. Start
// numbers follow the rating at the start (highest first), then player_id.
func (r *runner) standingsInput(t *Tournament, rows []gameRow) *tiebreak.Tournament {
	tt := &tiebreak.Tournament{
		ID: t.ID, Name: t.Name, Start: dayTime(t.Start), End: dayTime(t.End), Rounds: int(t.Rounds),
		System: t.System, Discipline: t.Discipline, Tiebreaks: t.Tiebreaks,
	}
	var ps []int32
	maxRound := int32(0)
	for _, g := range rows {
		for _, p := range []int32{g.white, g.black} {
			if p >= 0 && r.local[p] < 0 {
				r.local[p] = 0
				ps = append(ps, p)
			}
		}
		maxRound = max(maxRound, g.round)
	}
	if tt.Rounds == 0 {
		tt.Rounds = int(maxRound)
	}
	rat := func(p int32) int {
		if r.st.Rated[p] {
			return int(r.st.Rating[p])
		}
		return 0
	}
	sort.Slice(ps, func(i, j int) bool {
		if a, b := rat(ps[i]), rat(ps[j]); a != b {
			return a > b
		}
		return ps[i] < ps[j]
	})
	for i, p := range ps {
		r.local[p] = int32(i)
		tt.Players = append(tt.Players, tiebreak.Player{
			ID: r.arch.Players.ID[p], StartNo: i + 1, Name: r.arch.Players.Name[p], Rating: rat(p),
		})
	}
	for _, g := range rows {
		tg := tiebreak.Game{Round: int(g.round), White: int(r.local[g.white]), Black: -1,
			WhiteResult: g.wres, BlackResult: g.bres, WhitePoints: g.wpts, BlackPoints: g.bpts, HasPoints: g.hasPts}
		if g.black >= 0 {
			tg.Black = int(r.local[g.black])
		}
		tt.Games = append(tt.Games, tg)
	}
	for _, p := range ps {
		r.local[p] = -1
	}
	return tt
}

// writeStandings computes and writes standings/TOURNAMENT_ID.csv (a pool job).
func (r *runner) writeStandings(t *tiebreak.Tournament) error {
	codes := tiebreak.SplitCodes(t.Tiebreaks)
	if _, err := tiebreak.ParseCodes(t.Tiebreaks); err != nil || len(codes) == 0 {
		if err != nil {
			r.opt.Log.Warn("tournament's tiebreaks column not understood; using the discipline's default",
				"tournament", t.ID, "tiebreaks", t.Tiebreaks, "err", err)
		}
		codes = tiebreak.DefaultCodes(t.Discipline)
	}
	rows, err := tiebreak.Standings(t, codes, r.opt.Rules.Tiebreaks)
	if err != nil {
		return fmt.Errorf("standings of tournament %d: %w", t.ID, err)
	}
	var buf bytes.Buffer
	if err := tiebreak.WriteCSV(&buf, codes, rows); err != nil {
		return fmt.Errorf("standings of tournament %d: %w", t.ID, err)
	}
	return r.stage.writeFile(fmt.Sprintf("standings/%d.csv", t.ID), buf.Bytes())
}

// listRow is one row of a rating list (interface.md §3, in column order).
type listRow struct {
	Rank        int32  `parquet:"rank"`
	PlayerID    int64  `parquet:"player_id"`
	Name        string `parquet:"name"`
	Rating      int32  `parquet:"rating"`
	Change      *int32 `parquet:"change,optional"`
	GamesPeriod int32  `parquet:"games_period"`
	GamesTotal  int32  `parquet:"games_total"`
	K           int32  `parquet:"k"`
	Category    string `parquet:"category"`
	Flags       string `parquet:"flags"`
}

// emitList closes the current period, writes its list and moves to the next one.
func (r *runner) emitList() error {
	key := r.curPeriod
	label := periodLabel(r.opt.Period, key)
	r.curPeriod++
	st := r.st
	first, last := periodBounds(r.opt.Period, key)
	closed := r.rules.ClosePeriod(st, first, last)
	for _, c := range closed {
		if c.PeriodTotal && c.RatedBefore {
			r.sum.GamesRated += int64(c.Games)
		}
	}
	if err := r.addCards(0, last, closed); err != nil {
		return err
	}
	type entry struct {
		rating   int32
		p        int32
		k        int32
		category string
		flags    string
	}
	// Sort keys: highest rating first, then player_id (dense order is player_id
	// order), packed in one int64 so the sort moves 8 bytes, not an entry.
	keys := make([]int64, 0, len(r.prevRating)/2)
	for p := range st.Rated {
		if st.Rated[p] {
			keys = append(keys, int64(-st.Rating[p])<<32|int64(p))
		}
	}
	slices.Sort(keys)
	es := make([]entry, 0, len(keys))
	for _, key := range keys {
		p := int32(key & 0xffffffff)
		if listed, k, cat, flags := r.rules.ListInfo(st, p); listed {
			es = append(es, entry{st.Rating[p], p, k, cat, flags})
		}
	}
	rows := make([]listRow, len(es))
	for i, e := range es {
		p := e.p
		row := listRow{
			Rank: int32(i + 1), PlayerID: r.arch.Players.ID[p], Name: r.arch.Players.Name[p], Rating: st.Rating[p],
			GamesPeriod: st.GamesPeriod[p], GamesTotal: st.GamesTotal[p], K: e.k, Category: e.category, Flags: e.flags,
		}
		if r.prevOn[p] {
			ch := st.Rating[p] - r.prevRating[p]
			row.Change = &ch
		}
		if !r.everOn[p] {
			row.Flags = joinFlags("new", row.Flags)
		}
		rows[i] = row
	}
	clear(r.prevOn)
	for _, e := range es {
		r.prevOn[e.p], r.everOn[e.p], r.prevRating[e.p] = true, true, st.Rating[e.p]
	}
	clear(st.GamesPeriod)
	r.sum.Lists++
	if r.sum.FirstList == "" {
		r.sum.FirstList = label
	}
	r.sum.LastList, r.sum.PlayersListed = label, len(rows)
	if r.stage == nil {
		return nil
	}
	snap, err := r.snapshot(key)
	if err != nil {
		return err
	}
	if err := r.submit(func() error { return r.writeState(label, snap) }); err != nil {
		return err
	}
	return r.submit(func() error { return r.writeList(label, rows) })
}

// joinFlags joins list flags with a space, skipping empty ones.
func joinFlags(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

func (r *runner) writeList(label string, rows []listRow) error {
	o, err := r.stage.create("lists/" + label + ".csv")
	if err != nil {
		return err
	}
	o.WriteString("rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n")
	var b []byte
	for _, row := range rows {
		b = strconv.AppendInt(b[:0], int64(row.Rank), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, row.PlayerID, 10)
		b = append(b, ',')
		b = csvfield.Append(b, row.Name)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.Rating), 10)
		b = append(b, ',')
		if row.Change != nil {
			b = strconv.AppendInt(b, int64(*row.Change), 10)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.GamesPeriod), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.GamesTotal), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.K), 10)
		b = append(b, ',')
		b = csvfield.Append(b, row.Category)
		b = append(b, ',')
		b = csvfield.Append(b, row.Flags)
		b = append(b, '\n')
		o.Write(b)
	}
	if err := o.finish(); err != nil {
		return fmt.Errorf("write list %s: %w", label, err)
	}
	if err := writeParquet(r.stage, "lists/"+label+".parquet", rows); err != nil {
		return err
	}
	if r.opt.Arrow {
		return r.writeListArrow(label, rows)
	}
	return nil
}

// writeListArrow writes lists/LABEL.arrow through the Arrow adapter.
func (r *runner) writeListArrow(label string, rows []listRow) error {
	n := len(rows)
	cols := []arrowipc.Column{
		{Name: "rank", Int32: make([]int32, n)}, {Name: "player_id", Int64: make([]int64, n)},
		{Name: "name", String: make([]string, n)}, {Name: "rating", Int32: make([]int32, n)},
		{Name: "change", Int32: make([]int32, n), Null: make([]bool, n)},
		{Name: "games_period", Int32: make([]int32, n)}, {Name: "games_total", Int32: make([]int32, n)},
		{Name: "k", Int32: make([]int32, n)}, {Name: "category", String: make([]string, n)},
		{Name: "flags", String: make([]string, n)},
	}
	for i, row := range rows {
		cols[0].Int32[i], cols[1].Int64[i], cols[2].String[i], cols[3].Int32[i] = row.Rank, row.PlayerID, row.Name, row.Rating
		if row.Change != nil {
			cols[4].Int32[i] = *row.Change
		} else {
			cols[4].Null[i] = true
		}
		cols[5].Int32[i], cols[6].Int32[i], cols[7].Int32[i] = row.GamesPeriod, row.GamesTotal, row.K
		cols[8].String[i], cols[9].String[i] = row.Category, row.Flags
	}
	p, err := r.stage.path("lists/" + label + ".arrow")
	if err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return fmt.Errorf("create %s: %w", p, err)
	}
	if err := arrowipc.Write(f, cols); err != nil {
		f.Close()
		return fmt.Errorf("write lists/%s.arrow: %w", label, err)
	}
	return f.Close()
}

// cardRow is one row of cards.parquet: a player in a rated tournament.
type cardRow struct {
	Period          string   `parquet:"period"`
	TournamentID    int64    `parquet:"tournament_id"`
	EndDate         int32    `parquet:"end_date,date"`
	PlayerID        int64    `parquet:"player_id"`
	Name            string   `parquet:"name"`
	Stage           int32    `parquet:"stage"`
	RatingBefore    *int32   `parquet:"rating_before,optional"`
	Games           int32    `parquet:"games"`
	Score           float64  `parquet:"score"`
	OppAverage      *int32   `parquet:"opponents_average,optional"`
	D               *int32   `parquet:"d,optional"`
	Expected        *float64 `parquet:"expected,optional"`
	K               *int32   `parquet:"k,optional"`
	ChangeUnrounded *float64 `parquet:"change_unrounded,optional"`
	Change          int32    `parquet:"change"`
	RatingAfter     *int32   `parquet:"rating_after,optional"`
	Reason          string   `parquet:"reason"`
	// Per-game rows of per-period rule sets (FIDE).
	OpponentID     *int64   `parquet:"opponent_id,optional"`
	OpponentRating *int32   `parquet:"opponent_rating,optional"`
	PD             *float64 `parquet:"pd,optional"`
	W              *float64 `parquet:"w,optional"`
	// The rating the tournament was rated with (Ro): the rating before, or a
	// newcomer's stage-one initial rating.
	RatingUsed *int32 `parquet:"rating_used,optional"`
}

const cardsPerRowGroup = 1 << 16

// addCards queues audit rows; tournament is 0 for rows of a period's close.
func (r *runner) addCards(tournament int64, end int32, cards []rating.Card) error {
	if r.cards == nil || len(cards) == 0 {
		return nil
	}
	period := periodLabel(r.opt.Period, periodKey(r.opt.Period, r.rules.ListDay(end)))
	if tournament == 0 { // a period's close: end is the list period's last day
		period = periodLabel(r.opt.Period, periodKey(r.opt.Period, end))
	}
	for _, c := range cards {
		row := cardRow{
			Period: period, TournamentID: tournament, EndDate: end, PlayerID: r.arch.Players.ID[c.Player],
			Name: r.arch.Players.Name[c.Player], Stage: int32(c.Stage), Games: c.Games, Score: float64(c.Score2) / 2,
			Change: c.Change, Reason: c.Reason,
		}
		if c.RatedBefore {
			row.RatingBefore = r.arena.i32(c.Before)
		}
		if c.RatedAfter {
			row.RatingAfter = r.arena.i32(c.After)
		}
		if c.RatedUsed {
			row.RatingUsed = r.arena.i32(c.Used)
		}
		if c.Games > 0 {
			row.OppAverage = r.arena.i32(c.OppAverage)
		}
		if c.Tournament != 0 {
			row.TournamentID, row.EndDate = c.Tournament, c.End
		}
		if c.PerGame {
			row.OpponentID, row.OpponentRating = r.arena.i64(r.arch.Players.ID[c.Opponent]), r.arena.i32(c.OppRating)
			row.W = r.arena.f64(float64(c.Score2) / 2)
			if c.K > 0 {
				row.PD = r.arena.f64(float64(c.Expected) / 100)
			}
		}
		if c.K > 0 {
			row.K = r.arena.i32(c.K)
			if !c.PeriodTotal {
				row.D = r.arena.i32(c.D)
			}
			row.Expected = r.arena.f64(float64(c.Expected) / 100)
			row.ChangeUnrounded = r.arena.f64(float64(c.ChangeExact) / 100)
		}
		if err := r.pushCard(row); err != nil {
			return err
		}
	}
	return nil
}

// pushCard queues one card row. Row groups hold exactly cardsPerRowGroup rows,
// so that cards.parquet's bytes depend only on its rows (a resumed run that
// carries earlier cards over writes the same file as a full run).
func (r *runner) pushCard(row cardRow) error {
	r.cardBuf = append(r.cardBuf, row)
	if len(r.cardBuf) == cardsPerRowGroup {
		return r.flushCards(false)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }

// cardArena hands out pointers for the optional columns of card rows from
// blocks, instead of one allocation per value (millions of cards at scale).
// Rows keep their blocks alive until they are written.
type cardArena struct {
	a32 []int32
	a64 []int64
	af  []float64
}

const arenaBlock = 1 << 14

func (a *cardArena) i32(v int32) *int32 {
	if len(a.a32) == cap(a.a32) {
		a.a32 = make([]int32, 0, arenaBlock)
	}
	a.a32 = append(a.a32, v)
	return &a.a32[len(a.a32)-1]
}

func (a *cardArena) i64(v int64) *int64 {
	if len(a.a64) == cap(a.a64) {
		a.a64 = make([]int64, 0, arenaBlock)
	}
	a.a64 = append(a.a64, v)
	return &a.a64[len(a.a64)-1]
}

func (a *cardArena) f64(v float64) *float64 {
	if len(a.af) == cap(a.af) {
		a.af = make([]float64, 0, arenaBlock)
	}
	a.af = append(a.af, v)
	return &a.af[len(a.af)-1]
}

// flushCards hands a full row group to the cards goroutine, or, when final
// (after every goroutine has stopped), writes the rest and closes the file.
func (r *runner) flushCards(final bool) error {
	if !final {
		select {
		case r.cardsCh <- r.cardBuf:
		case <-r.ctx.Done():
			return r.ctx.Err()
		}
		select { // a buffer the cards goroutine has finished with, or a new one
		case b := <-r.cardsFree:
			r.cardBuf = b[:0]
		default:
			r.cardBuf = make([]cardRow, 0, cardsPerRowGroup)
		}
		return nil
	}
	if _, err := r.cards.Write(r.cardBuf); err != nil {
		return fmt.Errorf("write cards.parquet: %w", err)
	}
	r.cardBuf = r.cardBuf[:0]
	if err := r.cards.Close(); err != nil {
		return fmt.Errorf("write cards.parquet: %w", err)
	}
	return r.cardsF.finish()
}
