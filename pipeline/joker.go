package pipeline

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/rating"
)

// Joker ratings (docs/joker.md). The tables table
// holds one row per player per game. Unlike games, its rows cannot be rated as
// they stream past: a game's four rows may lie anywhere in the table, and games
// are rated in played_at order. So rateJoker works in three steps:
//
//  1. Read every tables row, check it on its own (decoding, unknown player,
//     unknown or non-Joker tournament) and keep it as a compact jokerRow.
//  2. Sort the rows by game_id and seat (player_id), check each game's four
//     rows together with rating.JokerRules.Validate, and reject every row of
//     a bad game with the same reason.
//  3. Sort the good games by played_at then game_id, rate them with
//     rating.JokerRules.Apply, write one audit row per seat to
//     joker_cards.parquet, and write lists/joker/PERIOD.{csv,parquet} for
//     every period from the first Joker game to the last.
//
// Memory: about 56 bytes per tables row are held and sorted (a known limit,
// docs/joker.md §8); Joker archives are far smaller than chess ones.

// The accepted span of played_at, in microseconds since 1970-01-01 UTC.
var (
	jokerMinTime = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	jokerMaxTime = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
)

// jokerRow is one tables row that passed the row-level checks.
type jokerRow struct {
	game   int64
	at     int64 // played_at, microseconds since 1970-01-01 UTC
	row    int64 // data-row number in its file
	file   int32 // index into Archive.TableFiles
	tour   int32 // tournament index, -1 for a casual game
	player int32 // dense player index
	score  int32
	place  int32 // as given (1–4 when valid)
	pulka  int32 // stopped_pulka as given, -1 when null
	left   bool
}

// JokerSummary is the Joker part of summary.json.
type JokerSummary struct {
	GamesRead     int64  `json:"games_read"` // distinct game_ids among rows that passed the row checks
	GamesRated    int64  `json:"games_rated"`
	GamesRejected int64  `json:"games_rejected"`
	GamesStopped  int64  `json:"games_stopped"`
	Lists         int    `json:"lists"`
	FirstList     string `json:"first_list"`
	LastList      string `json:"last_list"`
	PlayersListed int    `json:"players_listed"`
}

// jokerListRow is one row of a Joker list, in column order.
type jokerListRow struct {
	Rank           int32  `parquet:"rank"`
	PlayerID       int64  `parquet:"player_id"`
	Name           string `parquet:"name"`
	PlayerRating   int32  `parquet:"player_rating"`
	Level          int32  `parquet:"level"`
	LevelName      string `parquet:"level_name"`
	PersonalRating int32  `parquet:"personal_rating"`
	GamesTotal     int32  `parquet:"games_total"`
}

// jokerCardRow is one row of joker_cards.parquet: one player in one game.
type jokerCardRow struct {
	Period           string `parquet:"period,dict"`
	GameID           int64  `parquet:"game_id"`
	PlayedAt         int64  `parquet:"played_at,timestamp(microsecond)"`
	TournamentID     *int64 `parquet:"tournament_id,optional"`
	PlayerID         int64  `parquet:"player_id"`
	Place            int32  `parquet:"place"`
	Score            int32  `parquet:"score"`
	Left             bool   `parquet:"left_table"`
	StoppedPulka     *int32 `parquet:"stopped_pulka,optional"`
	LevelBefore      int32  `parquet:"level_before"`
	TableLevelSum    int32  `parquet:"table_level_sum"`
	TableLevel       int32  `parquet:"table_level"`
	PlaceValue       int32  `parquet:"place_value"`
	Multiplier       int32  `parquet:"multiplier"`
	LeavePenalty     int32  `parquet:"leave_penalty"`
	PlayerChange     int32  `parquet:"player_change"`
	PlayerRating     int32  `parquet:"player_rating"`
	Floored          bool   `parquet:"floored"`
	PersonalScore    int32  `parquet:"personal_score"`
	PersonalTransfer int32  `parquet:"personal_transfer"`
	PersonalBonus    int32  `parquet:"personal_bonus"`
	PersonalChange   int32  `parquet:"personal_change"`
	PersonalRating   int32  `parquet:"personal_rating"`
	Reason           string `parquet:"reason,dict"`
}

// jokerSentinels are the Validate errors, most specific first: a reject reason
// starts with the sentinel's text so that reasonKind groups it.
var jokerSentinels = []error{
	rating.ErrJokerSeatCount, rating.ErrJokerPulkaMismatch, rating.ErrJokerStoppedPulka,
	rating.ErrJokerPlayerIndex, rating.ErrJokerDuplicatePlayer, rating.ErrJokerPlace,
	rating.ErrJokerTiedPlaces, rating.ErrJokerPlaceRanking, rating.ErrJokerLeavers,
	rating.ErrJokerLeaverNotStopped,
}

// rateJoker reads the tables table and rates the Joker games (docs/joker.md). In
// LoadTournament mode it does nothing: no Joker output is wanted there.
func (r *runner) rateJoker(ctx context.Context) error {
	if len(r.arch.TableFiles) == 0 || r.opt.onTournament != nil {
		return nil
	}
	rules := &r.opt.Rules.Joker
	if err := rules.Check(); err != nil {
		return fmt.Errorf("joker rules: %w", err)
	}
	rows, tainted, err := r.readTables(ctx)
	if err != nil {
		return err
	}
	games := r.groupJokerGames(rows, tainted, rules)
	return r.rateJokerGames(ctx, rows, games, rules)
}

// readTables is step 1: every row is read, counted, and either kept or
// rejected. tainted holds the game_ids of rejected rows, so that the rest of
// such a game is rejected with a reason that says why.
func (r *runner) readTables(ctx context.Context) ([]jokerRow, map[int64]bool, error) {
	cnt := r.arch.count("tables")
	tr := archive.NewReader(r.arch.FS, r.arch.TableFiles, archive.TableColumns)
	defer tr.Close()
	fileIdx := make(map[string]int32, len(r.arch.TableFiles))
	for i, f := range r.arch.TableFiles {
		fileIdx[f] = int32(i)
	}
	var rows []jokerRow
	tainted := map[int64]bool{}
	for tr.Next() {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		b := tr.Batch()
		fi := fileIdx[b.File]
		for i := 0; i < b.N; i++ {
			cnt.Read++
			jr, reason := r.checkTableRow(b, i)
			if reason != "" {
				r.arch.reject("tables", b, i, reason)
				if !b.Nulls[archive.TableGameID][i] {
					tainted[b.Ints[archive.TableGameID][i]] = true
				}
				continue
			}
			jr.file = fi
			rows = append(rows, jr)
		}
	}
	if err := tr.Err(); err != nil {
		return nil, nil, err
	}
	return rows, tainted, nil
}

// checkTableRow checks the rules of one tables row that need no other row.
func (r *runner) checkTableRow(b *archive.Batch, i int) (jokerRow, string) {
	jr := jokerRow{row: b.First + int64(i), tour: -1, pulka: -1}
	if b.Bad[i] != "" {
		return jr, b.Bad[i]
	}
	if col := b.Missing(i); col != "" {
		return jr, col + ": missing"
	}
	ints := func(c int) int64 { return b.Ints[c][i] }
	jr.game, jr.at = ints(archive.TableGameID), ints(archive.TablePlayedAt)
	if jr.at < jokerMinTime || jr.at >= jokerMaxTime {
		// A typo such as year 20250 would otherwise ask for a list per month
		// up to it.
		return jr, fmt.Sprintf("played_at: %s is outside the years 1900–2199", fmtMicros(jr.at))
	}
	if jr.player = r.arch.Players.Index(ints(archive.TablePlayerID)); jr.player < 0 {
		return jr, fmt.Sprintf("unknown player %d", ints(archive.TablePlayerID))
	}
	if !b.Nulls[archive.TableTournamentID][i] {
		id := ints(archive.TableTournamentID)
		ti := r.arch.TournamentIndex(id)
		if ti < 0 {
			return jr, fmt.Sprintf("unknown tournament %d", id)
		}
		if d := r.arch.Tournaments[ti].Discipline; d != "joker" {
			return jr, fmt.Sprintf("tournament %d is a %s tournament, not joker", id, d)
		}
		jr.tour = int32(ti)
	}
	if s := ints(archive.TableScore); s < math.MinInt32 || s > math.MaxInt32 {
		return jr, fmt.Sprintf("score: %d is out of range", s)
	}
	jr.score = int32(ints(archive.TableScore))
	// Out-of-range places and pulkas are game-level problems (Validate names
	// them); they are clamped so that they stay out of range.
	jr.place = int32(max(-1, min(ints(archive.TablePlace), 99)))
	if !b.Nulls[archive.TableStoppedPulka][i] {
		jr.pulka = int32(max(-1, min(ints(archive.TableStoppedPulka), 99)))
		if ints(archive.TableStoppedPulka) < 0 {
			jr.pulka = -2 // given but negative; -1 means null
		}
	}
	jr.left = !b.Nulls[archive.TableLeftTable][i] && ints(archive.TableLeftTable) != 0
	return jr, ""
}

// jokerGameRef is a validated game: where its four rows start in the sorted
// rows, and its sort keys.
type jokerGameRef struct {
	at    int64
	game  int64
	first int
}

// groupJokerGames is step 2: it sorts rows by game and seat, rejects bad
// games and returns the good ones in rating order (played_at, then game_id).
func (r *runner) groupJokerGames(rows []jokerRow, tainted map[int64]bool, rules *rating.JokerRules) []jokerGameRef {
	sort.Slice(rows, func(i, j int) bool {
		a, b := &rows[i], &rows[j]
		if a.game != b.game {
			return a.game < b.game
		}
		if a.player != b.player {
			return a.player < b.player
		}
		if a.file != b.file {
			return a.file < b.file
		}
		return a.row < b.row
	})
	cnt := r.arch.count("tables")
	sum := r.jokerSummary()
	var games []jokerGameRef
	var bad []int // positions of rows of rejected games
	badReason := map[int64]string{}
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && rows[hi].game == rows[lo].game {
			hi++
		}
		sum.GamesRead++
		if reason := r.checkJokerGame(rows[lo:hi], tainted, rules); reason != "" {
			sum.GamesRejected++
			badReason[rows[lo].game] = reason
			for k := lo; k < hi; k++ {
				bad = append(bad, k)
			}
		} else {
			games = append(games, jokerGameRef{at: rows[lo].at, game: rows[lo].game, first: lo})
			cnt.Used += int64(hi - lo)
		}
		lo = hi
	}
	// Rejects go out in source order (file, then row).
	sort.Slice(bad, func(i, j int) bool {
		a, b := &rows[bad[i]], &rows[bad[j]]
		if a.file != b.file {
			return a.file < b.file
		}
		return a.row < b.row
	})
	for _, k := range bad {
		jr := &rows[k]
		cnt.Rejected++
		r.rej.add(r.arch.TableFiles[jr.file], jr.row, badReason[jr.game], r.tableValues(jr))
	}
	sort.Slice(games, func(i, j int) bool {
		if games[i].at != games[j].at {
			return games[i].at < games[j].at
		}
		return games[i].game < games[j].game
	})
	return games
}

// checkJokerGame checks the rows of one game_id together and returns the
// reject reason, or "". A reason starts with the rating package's sentinel
// text (or a short pipeline-level text) and names the game.
func (r *runner) checkJokerGame(seats []jokerRow, tainted map[int64]bool, rules *rating.JokerRules) string {
	id := seats[0].game
	if tainted[id] {
		return fmt.Sprintf("%v: another row of game %d was rejected", rating.ErrJokerSeatCount, id)
	}
	if len(seats) != 4 {
		return fmt.Sprintf("%v: game %d has %d rows", rating.ErrJokerSeatCount, id, len(seats))
	}
	for _, s := range seats[1:] {
		switch {
		case s.at != seats[0].at:
			return fmt.Sprintf("joker seats disagree on played_at: game %d has %s and %s", id, fmtMicros(seats[0].at), fmtMicros(s.at))
		case s.tour != seats[0].tour:
			return fmt.Sprintf("joker seats disagree on tournament_id: game %d", id)
		case s.pulka != seats[0].pulka:
			return fmt.Sprintf("%v: game %d has %s and %s", rating.ErrJokerPulkaMismatch, id, pulkaText(seats[0].pulka), pulkaText(s.pulka))
		}
	}
	g, err := jokerGameOf(seats)
	if err == nil {
		err = rules.Validate(&g)
	}
	if err == nil {
		return ""
	}
	for _, s := range jokerSentinels {
		if errors.Is(err, s) {
			detail := strings.TrimSuffix(err.Error(), ": "+s.Error())
			if detail == s.Error() {
				return fmt.Sprintf("%v: game %d", s, id)
			}
			// Name the player rather than the seat number: seats are in player_id order.
			return fmt.Sprintf("%v: game %d: %s", s, id, r.seatNames(seats, detail))
		}
	}
	return fmt.Sprintf("game %d: %v", id, err)
}

// seatNames appends the seats' player ids to a Validate message.
func (r *runner) seatNames(seats []jokerRow, detail string) string {
	s := detail + " (seats: "
	for k, jr := range seats {
		if k > 0 {
			s += ", "
		}
		s += strconv.FormatInt(r.arch.Players.ID[jr.player], 10)
	}
	return s + ")"
}

// jokerGameOf builds the rating package's game from four rows in seat order.
func jokerGameOf(seats []jokerRow) (rating.JokerGame, error) {
	var g rating.JokerGame
	switch p := seats[0].pulka; {
	case p == -1:
		g.StoppedPulka = 0
	case p < 1 || p > rating.JokerPulkas:
		return g, fmt.Errorf("stopped pulka %d: %w", p, rating.ErrJokerStoppedPulka)
	default:
		g.StoppedPulka = int8(p)
	}
	for k, jr := range seats {
		place := jr.place
		if place < 1 || place > 4 {
			return g, fmt.Errorf("seat %d: place %d: %w", k+1, place, rating.ErrJokerPlace)
		}
		g.Seats[k] = rating.JokerSeat{Player: jr.player, Place: int8(place), Score: jr.score, Left: jr.left}
	}
	return g, nil
}

func pulkaText(p int32) string {
	if p == -1 {
		return "null"
	}
	if p == -2 {
		return "a negative value"
	}
	return strconv.Itoa(int(p))
}

func fmtMicros(us int64) string { return time.UnixMicro(us).UTC().Format(time.RFC3339Nano) }

// tableValues renders a kept row for rejects.csv (the raw text is not kept).
func (r *runner) tableValues(jr *jokerRow) string {
	s := "game_id=" + strconv.FormatInt(jr.game, 10) + ";tournament_id="
	if jr.tour >= 0 {
		s += strconv.FormatInt(r.arch.Tournaments[jr.tour].ID, 10)
	}
	s += ";played_at=" + fmtMicros(jr.at) +
		";player_id=" + strconv.FormatInt(r.arch.Players.ID[jr.player], 10) +
		";place=" + strconv.Itoa(int(jr.place)) +
		";score=" + strconv.Itoa(int(jr.score)) +
		";left_table=" + strconv.FormatBool(jr.left) + ";stopped_pulka="
	if jr.pulka != -1 {
		s += strconv.Itoa(int(jr.pulka))
	}
	return s
}

func (r *runner) jokerSummary() *JokerSummary {
	if r.sum.Joker == nil {
		r.sum.Joker = &JokerSummary{}
	}
	return r.sum.Joker
}

// jokerDays returns the day (since 1970-01-01) of a played_at.
func jokerDays(us int64) int32 { return int32(floorDiv(us, 86400e6)) }

// rateJokerGames is step 3: rate in order, write the audit trail and the lists.
func (r *runner) rateJokerGames(ctx context.Context, rows []jokerRow, games []jokerGameRef, rules *rating.JokerRules) error {
	sum := r.jokerSummary()
	if r.hasUntil { // --until: games after that period are left for a later run
		n := sort.Search(len(games), func(i int) bool {
			return periodKey(r.opt.Period, jokerDays(games[i].at)) > r.untilKey
		})
		games = games[:n]
	}
	if len(games) == 0 {
		return nil
	}
	write := r.stage != nil
	var st rating.JokerState
	st.Grow(len(r.arch.Players.ID))

	var cards *parquet.GenericWriter[jokerCardRow]
	var cardsF *outFile
	var cardBuf []jokerCardRow
	if write {
		var err error
		if cardsF, err = r.stage.create("joker_cards.parquet"); err != nil {
			return err
		}
		cards = parquet.NewGenericWriter[jokerCardRow](cardsF, outputOptions...)
	}
	fail := func(err error) error {
		if cardsF != nil {
			cardsF.f.Close()
		}
		return err
	}
	flush := func() error {
		if _, err := cards.Write(cardBuf); err != nil {
			return fmt.Errorf("write joker_cards.parquet: %w", err)
		}
		cardBuf = cardBuf[:0]
		if err := cards.Flush(); err != nil {
			return fmt.Errorf("write joker_cards.parquet: %w", err)
		}
		return nil
	}

	period := r.opt.Period
	cur := periodKey(period, jokerDays(games[0].at))
	for gi, ref := range games {
		if gi%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return fail(err)
			}
		}
		k := periodKey(period, jokerDays(ref.at))
		for ; cur < k; cur++ {
			if err := r.emitJokerList(cur, &st, rules); err != nil {
				return fail(err)
			}
		}
		seats := rows[ref.first : ref.first+4]
		g, err := jokerGameOf(seats)
		if err != nil {
			return fail(fmt.Errorf("joker game %d: %w", ref.game, err))
		}
		ch, err := rules.Apply(&st, &g)
		if err != nil { // Validate passed, so this is a defect, not bad input
			return fail(fmt.Errorf("joker game %d: %w", ref.game, err))
		}
		sum.GamesRated++
		if g.StoppedPulka != 0 {
			sum.GamesStopped++
		}
		if !write {
			continue
		}
		label := periodLabel(period, k)
		for s, c := range ch {
			jr := &seats[s]
			row := jokerCardRow{
				Period: label, GameID: ref.game, PlayedAt: ref.at, PlayerID: r.arch.Players.ID[jr.player],
				Place: jr.place, Score: jr.score, Left: jr.left,
				LevelBefore: c.Level, TableLevelSum: c.LevelSum, TableLevel: c.TableLevel,
				PlaceValue: c.PlaceBase, Multiplier: c.Multiplier, LeavePenalty: c.Penalty,
				PlayerChange: c.PlayerDelta, PlayerRating: c.PlayerRating, Floored: c.Floored,
				PersonalScore: c.PersonalScore, PersonalTransfer: c.PersonalTransfer, PersonalBonus: c.PersonalBonus,
				PersonalChange: c.PersonalDelta, PersonalRating: c.PersonalRating, Reason: c.Reason.String(),
			}
			if jr.tour >= 0 {
				row.TournamentID = ptr(r.arch.Tournaments[jr.tour].ID)
			}
			if g.StoppedPulka != 0 {
				row.StoppedPulka = ptr(int32(g.StoppedPulka))
			}
			cardBuf = append(cardBuf, row)
		}
		if len(cardBuf) >= cardsPerRowGroup {
			if err := flush(); err != nil {
				return fail(err)
			}
		}
	}
	if err := r.emitJokerList(cur, &st, rules); err != nil {
		return fail(err)
	}
	if !write {
		return nil
	}
	if _, err := cards.Write(cardBuf); err != nil {
		return fail(fmt.Errorf("write joker_cards.parquet: %w", err))
	}
	if err := cards.Close(); err != nil {
		return fail(fmt.Errorf("write joker_cards.parquet: %w", err))
	}
	return cardsF.finish()
}

// emitJokerList builds the Joker list as of the end of period key and hands
// its writing to the pool: every player with a Joker game so far, by player
// rating, then personal rating (both descending), then player_id.
func (r *runner) emitJokerList(key int, st *rating.JokerState, rules *rating.JokerRules) error {
	label := periodLabel(r.opt.Period, key)
	if !r.inRun(key) {
		// Written by the run this one resumes: the Joker ratings are recomputed
		// from the start (they are cheap), but lists already there stay as they are.
		return nil
	}
	var idx []int32
	for p, n := range st.Games {
		if n > 0 {
			idx = append(idx, int32(p))
		}
	}
	sort.Slice(idx, func(i, j int) bool {
		a, b := idx[i], idx[j]
		if st.PlayerRating[a] != st.PlayerRating[b] {
			return st.PlayerRating[a] > st.PlayerRating[b]
		}
		if st.PersonalRating[a] != st.PersonalRating[b] {
			return st.PersonalRating[a] > st.PersonalRating[b]
		}
		return a < b // dense order is player_id order
	})
	rows := make([]jokerListRow, len(idx))
	for i, p := range idx {
		lvl := rules.Level(st.PlayerRating[p])
		rows[i] = jokerListRow{
			Rank: int32(i + 1), PlayerID: r.arch.Players.ID[p], Name: r.arch.Players.Name[p],
			PlayerRating: st.PlayerRating[p], Level: int32(lvl), LevelName: rules.LevelName(lvl),
			PersonalRating: st.PersonalRating[p], GamesTotal: st.Games[p],
		}
	}
	sum := r.jokerSummary()
	sum.Lists++
	if sum.FirstList == "" {
		sum.FirstList = label
	}
	sum.LastList, sum.PlayersListed = label, len(rows)
	if r.stage == nil {
		return nil
	}
	return r.submit(func() error { return r.writeJokerList(label, rows) })
}

// jokerListHeader is the Joker list's CSV header.
var jokerListHeader = []string{"rank", "player_id", "name", "player_rating", "level", "level_name", "personal_rating", "games_total"}

func (r *runner) writeJokerList(label string, rows []jokerListRow) error {
	rel := "lists/joker/" + label
	o, err := r.stage.create(rel + ".csv")
	if err != nil {
		return err
	}
	w := csv.NewWriter(o)
	w.Write(jokerListHeader)
	rec := make([]string, len(jokerListHeader))
	for _, row := range rows {
		rec[0] = strconv.Itoa(int(row.Rank))
		rec[1] = strconv.FormatInt(row.PlayerID, 10)
		rec[2] = row.Name
		rec[3] = strconv.Itoa(int(row.PlayerRating))
		rec[4] = strconv.Itoa(int(row.Level))
		rec[5] = row.LevelName
		rec[6] = strconv.Itoa(int(row.PersonalRating))
		rec[7] = strconv.Itoa(int(row.GamesTotal))
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		o.f.Close()
		return fmt.Errorf("write joker list %s: %w", label, err)
	}
	if err := o.finish(); err != nil {
		return err
	}
	return writeParquet(r.stage, rel+".parquet", rows)
}

func ptr[T any](v T) *T { return &v }
