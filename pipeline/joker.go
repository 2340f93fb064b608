package pipeline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// Joker ratings (docs/joker.md). The tables table
// holds one row per player per game. Unlike games, its rows cannot be rated as
// they stream past: a game's four rows may lie anywhere in the table, and games
// are rated in played_at order. So the Joker pass, after the games, has the
// chess run's shape in three steps:
//
//  1. read: every tables row is checked on its own (decoding, unknown player,
//     unknown or non-Joker tournament) and kept as a compact jokerRow;
//  2. check: the rows are sorted by game_id and seat (player_id), each game's
//     four rows are checked together with rating.JokerRules.Validate, and
//     every row of a bad game is rejected with the same reason;
//  3. rate: the good games, by played_at then game_id, are rated with
//     rating.JokerRules.Apply; the audit rows (joker_cards.parquet) and the
//     lists of every period from the first Joker game to the last go to the
//     sink, as the chess run's do.
//
// Memory: about 56 bytes per tables row are held and sorted (a known limit,
// docs/joker.md §8); Joker archives are far smaller than chess ones.

// jokerPass rates the Joker games of an archive into a sink.
type jokerPass struct {
	arch  *runArchive
	rules *rating.JokerRules
	kind  string  // the period kind
	win   *window // the periods this run writes (--until, --resume)
	sum   *JokerSummary
	out   sink
	// allowGap and log are the run's, for checkGaps.
	allowGap bool
	log      *slog.Logger
}

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

// jokerSentinels are the Validate errors, most specific first, with the reject
// kind of each; a reject reason starts with the sentinel's text.
var jokerSentinels = []struct {
	err  error
	kind archive.Kind
}{
	{rating.ErrJokerSeatCount, archive.KindJokerSeatCount},
	{rating.ErrJokerPulkaMismatch, archive.KindJokerPulkaMismatch},
	{rating.ErrJokerStoppedPulka, archive.KindJokerStoppedPulka},
	{rating.ErrJokerPlayerIndex, archive.KindJokerPlayerIndex},
	{rating.ErrJokerDuplicatePlayer, archive.KindJokerDuplicatePlayer},
	{rating.ErrJokerPlace, archive.KindJokerPlace},
	{rating.ErrJokerTiedPlaces, archive.KindJokerTiedPlaces},
	{rating.ErrJokerPlaceRanking, archive.KindJokerPlaceRanking},
	{rating.ErrJokerLeavers, archive.KindJokerLeavers},
	{rating.ErrJokerLeaverNotStopped, archive.KindJokerLeaverNotStopped},
}

// run reads the tables table and rates the Joker games (docs/joker.md). The summary
// gets its Joker part when the archive has a tables table.
func (j *jokerPass) run(ctx context.Context) error {
	if len(j.arch.TableFiles) == 0 {
		return nil
	}
	if err := j.rules.Check(); err != nil {
		return fmt.Errorf("joker rules: %w", err)
	}
	rows, tainted, err := j.readTables(ctx)
	if err != nil {
		return err
	}
	games := j.groupGames(rows, tainted)
	if err := j.checkGaps(rows, games); err != nil {
		return err
	}
	return j.rate(ctx, rows, games)
}

// readTables is step 1: every row is read, counted, and either kept or
// rejected. tainted holds the game_ids of rejected rows, so that the rest of
// such a game is rejected with a reason that says why.
func (j *jokerPass) readTables(ctx context.Context) ([]jokerRow, map[int64]bool, error) {
	cnt := j.arch.count("tables")
	tr := archive.NewReader(j.arch.FS, j.arch.TableFiles, archive.TableColumns)
	defer tr.Close()
	fileIdx := make(map[string]int32, len(j.arch.TableFiles))
	for i, f := range j.arch.TableFiles {
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
			jr, prob := j.checkTableRow(b, i)
			if prob.Kind != archive.KindNone {
				j.arch.reject("tables", b, i, prob)
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
func (j *jokerPass) checkTableRow(b *archive.Batch, i int) (jokerRow, archive.Problem) {
	jr := jokerRow{row: b.First + int64(i), tour: -1, pulka: -1}
	if b.Bad[i].Kind != archive.KindNone {
		return jr, b.Bad[i]
	}
	if col := b.Missing(i); col != "" {
		return jr, archive.MissingCell(col)
	}
	ints := func(c int) int64 { return b.Ints[c][i] }
	jr.game, jr.at = ints(archive.TableGameID), ints(archive.TablePlayedAt)
	if jr.at < jokerMinTime || jr.at >= jokerMaxTime {
		// A typo such as year 20250 would otherwise ask for a list per month
		// up to it.
		return jr, archive.Problemf(archive.KindOutOfRange, "played_at", "played_at: %s is outside the years 1900–2199", fmtMicros(jr.at))
	}
	if jr.player = j.arch.Players.Index(ints(archive.TablePlayerID)); jr.player < 0 {
		return jr, archive.Problemf(archive.KindUnknownPlayer, "", "unknown player %d", ints(archive.TablePlayerID))
	}
	if !b.Nulls[archive.TableTournamentID][i] {
		id := ints(archive.TableTournamentID)
		ti := j.arch.TournamentIndex(id)
		if ti < 0 {
			return jr, j.arch.UnknownTournament(id)
		}
		if d := j.arch.Tournaments[ti].Discipline; d != "joker" {
			return jr, archive.Problemf(archive.KindWrongDiscipline, "", "tournament %d is a %s tournament, not joker", id, d)
		}
		jr.tour = int32(ti)
	}
	if s := ints(archive.TableScore); s < math.MinInt32 || s > math.MaxInt32 {
		return jr, archive.Problemf(archive.KindOutOfRange, "score", "score: %d is out of range", s)
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
	return jr, archive.Problem{}
}

// jokerGameRef is a validated game: where its four rows start in the sorted
// rows, and its sort keys.
type jokerGameRef struct {
	at    int64
	game  int64
	first int
}

// groupGames is step 2: it sorts rows by game and seat, rejects bad
// games and returns the good ones in rating order (played_at, then game_id).
func (j *jokerPass) groupGames(rows []jokerRow, tainted map[int64]bool) []jokerGameRef {
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
	cnt := j.arch.count("tables")
	sum := j.sum
	var games []jokerGameRef
	var bad []int // positions of rows of rejected games
	badReason := map[int64]archive.Problem{}
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && rows[hi].game == rows[lo].game {
			hi++
		}
		sum.GamesRead++
		if reason := j.checkGame(rows[lo:hi], tainted); reason.Kind != archive.KindNone {
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
		j.arch.rejects.add(archive.RowError{File: j.arch.TableFiles[jr.file], Row: jr.row, Problem: badReason[jr.game], Values: j.tableValues(jr)})
	}
	sort.Slice(games, func(i, j int) bool {
		if games[i].at != games[j].at {
			return games[i].at < games[j].at
		}
		return games[i].game < games[j].game
	})
	return games
}

// checkGame checks the rows of one game_id together and returns the
// reject problem, if any. A reason starts with the rating package's sentinel
// text (or a short pipeline-level text) and names the game.
func (j *jokerPass) checkGame(seats []jokerRow, tainted map[int64]bool) archive.Problem {
	id := seats[0].game
	if tainted[id] {
		return archive.Problemf(archive.KindJokerSeatCount, "", "%v: another row of game %d was rejected", rating.ErrJokerSeatCount, id)
	}
	if len(seats) != 4 {
		return archive.Problemf(archive.KindJokerSeatCount, "", "%v: game %d has %d rows", rating.ErrJokerSeatCount, id, len(seats))
	}
	for _, s := range seats[1:] {
		switch {
		case s.at != seats[0].at:
			return archive.Problemf(archive.KindJokerPlayedAt, "", "joker seats disagree on played_at: game %d has %s and %s", id, fmtMicros(seats[0].at), fmtMicros(s.at))
		case s.tour != seats[0].tour:
			return archive.Problemf(archive.KindJokerTournament, "", "joker seats disagree on tournament_id: game %d", id)
		case s.pulka != seats[0].pulka:
			return archive.Problemf(archive.KindJokerPulkaMismatch, "", "%v: game %d has %s and %s", rating.ErrJokerPulkaMismatch, id, pulkaText(seats[0].pulka), pulkaText(s.pulka))
		}
	}
	g, err := jokerGameOf(seats)
	if err == nil {
		err = j.rules.Validate(&g)
	}
	if err == nil {
		return archive.Problem{}
	}
	for _, s := range jokerSentinels {
		if errors.Is(err, s.err) {
			detail := strings.TrimSuffix(err.Error(), ": "+s.err.Error())
			if detail == s.err.Error() {
				return archive.Problemf(s.kind, "", "%v: game %d", s.err, id)
			}
			// Name the player rather than the seat number: seats are in player_id order.
			return archive.Problemf(s.kind, "", "%v: game %d: %s", s.err, id, j.seatNames(seats, detail))
		}
	}
	return archive.Problemf(archive.KindJokerGame, "", "game %d: %v", id, err)
}

// seatNames appends the seats' player ids to a Validate message.
func (j *jokerPass) seatNames(seats []jokerRow, detail string) string {
	s := detail + " (seats: "
	for k, jr := range seats {
		if k > 0 {
			s += ", "
		}
		s += strconv.FormatInt(j.arch.Players.ID[jr.player], 10)
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
func (j *jokerPass) tableValues(jr *jokerRow) string {
	s := "game_id=" + strconv.FormatInt(jr.game, 10) + ";tournament_id="
	if jr.tour >= 0 {
		s += strconv.FormatInt(j.arch.Tournaments[jr.tour].ID, 10)
	}
	s += ";played_at=" + fmtMicros(jr.at) +
		";player_id=" + strconv.FormatInt(j.arch.Players.ID[jr.player], 10) +
		";place=" + strconv.Itoa(int(jr.place)) +
		";score=" + strconv.Itoa(int(jr.score)) +
		";left_table=" + strconv.FormatBool(jr.left) + ";stopped_pulka="
	if jr.pulka != -1 {
		s += strconv.Itoa(int(jr.pulka))
	}
	return s
}

// jokerDays returns the day (since 1970-01-01) of a played_at.
func jokerDays(us int64) int32 { return int32(floorDiv(us, 86400e6)) }

// rate is step 3: rate in order; the audit rows and the lists go to the sink.
func (j *jokerPass) rate(ctx context.Context, rows []jokerRow, games []jokerGameRef) error {
	if len(games) == 0 {
		return nil
	}
	// Lists go from the first game's period to the last's, whether or not a
	// period has games, and stop at --until, whose later games are left for a
	// later run: a run up to P and a full run write the same lists up to P.
	last := periodKey(j.kind, jokerDays(games[len(games)-1].at))
	if j.win.hasUntil {
		n := sort.Search(len(games), func(i int) bool {
			return periodKey(j.kind, jokerDays(games[i].at)) > j.win.until
		})
		games, last = games[:n], min(last, j.win.until)
	}
	if len(games) == 0 {
		return nil
	}
	var st rating.JokerState
	st.Grow(len(j.arch.Players.ID))
	var cards []output.JokerCard
	cur := periodKey(j.kind, jokerDays(games[0].at))
	for gi, ref := range games {
		if gi%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		k := periodKey(j.kind, jokerDays(ref.at))
		for ; cur < k; cur++ {
			if err := j.list(ctx, cur, &st); err != nil {
				return err
			}
		}
		seats := rows[ref.first : ref.first+4]
		g, err := jokerGameOf(seats)
		if err != nil {
			return fmt.Errorf("joker game %d: %w", ref.game, err)
		}
		ch, err := j.rules.Apply(&st, &g)
		if err != nil { // Validate passed, so this is a defect, not bad input
			return fmt.Errorf("joker game %d: %w", ref.game, err)
		}
		j.sum.GamesRated++
		if g.StoppedPulka != 0 {
			j.sum.GamesStopped++
		}
		cards = j.appendCards(cards, periodLabel(j.kind, k), ref, seats, &g, ch)
		if len(cards) >= cardsPerRowGroup {
			if err := j.out.jokerCards(ctx, cards); err != nil {
				return err
			}
			cards = cards[:0]
		}
	}
	for ; cur <= last; cur++ {
		if err := j.list(ctx, cur, &st); err != nil {
			return err
		}
	}
	return j.out.jokerCards(ctx, cards)
}

// appendCards appends the audit rows of one rated game, one per seat.
func (j *jokerPass) appendCards(cards []output.JokerCard, label string, ref jokerGameRef, seats []jokerRow, g *rating.JokerGame, ch [4]rating.JokerChange) []output.JokerCard {
	for s, c := range ch {
		jr := &seats[s]
		row := output.JokerCard{
			Period: label, GameID: ref.game, PlayedAt: ref.at, PlayerID: j.arch.Players.ID[jr.player],
			Place: jr.place, Score: jr.score, Left: jr.left,
			LevelBefore: c.Level, TableLevelSum: c.LevelSum, TableLevel: c.TableLevel,
			PlaceValue: c.PlaceBase, Multiplier: c.Multiplier, LeavePenalty: c.Penalty,
			PlayerChange: c.PlayerDelta, PlayerRating: c.PlayerRating, Floored: c.Floored,
			PersonalScore: c.PersonalScore, PersonalTransfer: c.PersonalTransfer, PersonalBonus: c.PersonalBonus,
			PersonalChange: c.PersonalDelta, PersonalRating: c.PersonalRating, Reason: c.Reason.String(),
		}
		if jr.tour >= 0 {
			row.TournamentID = ptr(j.arch.Tournaments[jr.tour].ID)
		}
		if g.StoppedPulka != 0 {
			row.StoppedPulka = ptr(int32(g.StoppedPulka))
		}
		cards = append(cards, row)
	}
	return cards
}

// list builds the Joker list as of the end of period key and hands it to the
// sink: every player with a Joker game so far, by player rating, then personal
// rating (both descending), then player_id.
func (j *jokerPass) list(ctx context.Context, key int, st *rating.JokerState) error {
	// Every run rates the Joker games from the start (they are cheap) and
	// writes every Joker list, also those an earlier run wrote: a correction
	// shows in them (the sink names a published list that changed).
	label := periodLabel(j.kind, key)
	var idx []int32
	for p, n := range st.Games {
		if n > 0 {
			idx = append(idx, int32(p))
		}
	}
	sort.Slice(idx, func(a, b int) bool {
		x, y := idx[a], idx[b]
		if st.PlayerRating[x] != st.PlayerRating[y] {
			return st.PlayerRating[x] > st.PlayerRating[y]
		}
		if st.PersonalRating[x] != st.PersonalRating[y] {
			return st.PersonalRating[x] > st.PersonalRating[y]
		}
		return x < y // dense order is player_id order
	})
	rows := make([]output.JokerListRow, len(idx))
	for i, p := range idx {
		lvl := j.rules.Level(st.PlayerRating[p])
		rows[i] = output.JokerListRow{
			Rank: int32(i + 1), PlayerID: j.arch.Players.ID[p], Name: j.arch.Players.Name[p],
			PlayerRating: st.PlayerRating[p], Level: int32(lvl), LevelName: j.rules.LevelName(lvl),
			PersonalRating: st.PersonalRating[p], GamesTotal: st.Games[p],
		}
	}
	j.sum.Lists++
	if j.sum.FirstList == "" {
		j.sum.FirstList = label
	}
	j.sum.LastList, j.sum.PlayersListed = label, len(rows)
	return j.out.jokerList(ctx, label, rows)
}

// jokerListHeader is the Joker list's CSV header.
const jokerListHeader = "rank,player_id,name,player_rating,level,level_name,personal_rating,games_total\n"

// writeJokerList writes lists/joker/LABEL.{csv,parquet} (a pool job).
func writeJokerList(stage *staging, label string, rows []output.JokerListRow) error {
	lf, err := createList(stage, output.JokerListCSV.Rel(label), output.JokerListParquet.Rel(label), jokerListHeader, output.JokerListSchema, appendJokerListCSV)
	if err != nil {
		return err
	}
	defer lf.abort()
	if err := lf.write(rows); err != nil {
		return err
	}
	return lf.finish()
}

// appendJokerListCSV appends the CSV lines of rows.
func appendJokerListCSV(b []byte, rows []output.JokerListRow) []byte {
	for _, row := range rows {
		b = csvfield.AppendInt(b, int64(row.Rank))
		b = append(b, ',')
		b = csvfield.AppendInt(b, row.PlayerID)
		b = append(b, ',')
		b = csvfield.Append(b, row.Name)
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.PlayerRating))
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.Level))
		b = append(b, ',')
		b = csvfield.Append(b, row.LevelName)
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.PersonalRating))
		b = append(b, ',')
		b = csvfield.AppendInt(b, int64(row.GamesTotal))
		b = append(b, '\n')
	}
	return b
}

// jokerCardWriter writes joker_cards.parquet, a row group at a time.
type jokerCardWriter struct {
	f *outFile
	w *parquet.GenericWriter[output.JokerCard]
}

func newJokerCardWriter(stage *staging) (*jokerCardWriter, error) {
	f, err := stage.create(output.JokerCards.Rel(""))
	if err != nil {
		return nil, err
	}
	return &jokerCardWriter{f: f, w: newParquetWriter[output.JokerCard](f, output.JokerCardSchema)}, nil
}

// write writes rows as a row group.
func (jw *jokerCardWriter) write(rows []output.JokerCard) error {
	if _, err := jw.w.Write(rows); err != nil {
		return fmt.Errorf("write joker_cards.parquet: %w", err)
	}
	if err := jw.w.Flush(); err != nil {
		return fmt.Errorf("write joker_cards.parquet: %w", err)
	}
	return nil
}

func (jw *jokerCardWriter) finish() error {
	if err := jw.w.Close(); err != nil {
		jw.f.abort()
		return fmt.Errorf("write joker_cards.parquet: %w", err)
	}
	return jw.f.finish()
}

func ptr[T any](v T) *T { return &v }
