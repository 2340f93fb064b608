package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/joker"
)

// Joker ratings (docs/joker.md): the I/O around package rating/joker. The
// tables table holds one row per player per game. Unlike games, its rows
// cannot be rated as they stream past: a game's four rows may lie anywhere in
// the table, and games are rated in played_at order. So the Joker pass, after
// the games, has the chess run's shape in three steps:
//
//  1. read: every tables row is checked on its own (decoding, unknown player,
//     unknown or non-Joker tournament) and kept as a compact jokerRow;
//  2. check: the rows are sorted by game and seat, each game's rows are
//     checked together with joker.Rules.CheckGame, and every row of a bad
//     game is rejected with the same reason;
//  3. rate: the good games, in rating order, are rated with joker.Rules.Rate;
//     the audit rows (joker_cards.parquet) and the lists of every period
//     from the first Joker game to the last (joker.Rules.List) go to the
//     sink, as the chess run's do.
//
// Memory: about 56 bytes per tables row are held and sorted (a known limit,
// docs/joker.md §8); Joker archives are far smaller than chess ones.

// jokerPass rates the Joker games of an archive into a sink.
type jokerPass struct {
	def   *rating.TableDefinition
	arch  *runArchive
	rules *joker.Rules
	kind  day.Kind // the period kind
	win   *window  // the periods this run writes (--until, --resume)
	sum   *JokerSummary
	out   sink
	// allowGap and log are the run's, for checkGaps.
	allowGap bool
	log      *slog.Logger
}

// newTablesPass is the pass of the archive's tables table; the summary gets
// its part when there is a tables table.
func newTablesPass(opt *Options, arch *runArchive, win *window, out sink, sum *Summary) *jokerPass {
	rules, _ := opt.Rules.Settings(joker.Name).(*joker.Rules) // nil fails Check when there are tables
	j := &jokerPass{def: &joker.Definition, arch: arch, rules: rules, kind: opt.Period, win: win, out: out, allowGap: opt.AllowGap, log: opt.Log}
	if len(arch.TableFiles) > 0 {
		sum.Joker = &JokerSummary{}
		j.sum = sum.Joker
	}
	return j
}

// The accepted span of played_at, in microseconds since 1970-01-01 UTC.
var (
	jokerMinTime = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	jokerMaxTime = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
)

// jokerRow is one tables row that passed the row-level checks, with where it
// was read (for rejects and messages).
type jokerRow struct {
	joker.Row
	row  int64 // data-row number in its file
	file int32 // index into Archive.TableFiles
}

// tablesSummary is the part of summary.json of the table rule sets: its
// fields follow the others.
type tablesSummary struct {
	Joker *JokerSummary `json:"joker,omitempty"`
}

// tablesLastList is the last list the tables pass wrote ("" for none).
func (s *tablesSummary) tablesLastList() string {
	if s.Joker == nil {
		return ""
	}
	return s.Joker.LastList
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

// jokerKinds are the reject kinds of the CheckGame errors.
var jokerKinds = []struct {
	err  error
	kind archive.Kind
}{
	{joker.ErrSeatCount, archive.KindJokerSeatCount},
	{joker.ErrPlayedAtMismatch, archive.KindJokerPlayedAt},
	{joker.ErrTournamentMismatch, archive.KindJokerTournament},
	{joker.ErrPulkaMismatch, archive.KindJokerPulkaMismatch},
	{joker.ErrStoppedPulka, archive.KindJokerStoppedPulka},
	{joker.ErrPlayerIndex, archive.KindJokerPlayerIndex},
	{joker.ErrDuplicatePlayer, archive.KindJokerDuplicatePlayer},
	{joker.ErrPlace, archive.KindJokerPlace},
	{joker.ErrTiedPlaces, archive.KindJokerTiedPlaces},
	{joker.ErrPlaceRanking, archive.KindJokerPlaceRanking},
	{joker.ErrLeavers, archive.KindJokerLeavers},
	{joker.ErrLeaverNotStopped, archive.KindJokerLeaverNotStopped},
}

// jokerProblem is the reject problem of a CheckGame error.
func jokerProblem(err error) archive.Problem {
	for _, k := range jokerKinds {
		if errors.Is(err, k.err) {
			return archive.Problem{Kind: k.kind, Reason: err.Error()}
		}
	}
	return archive.Problem{Kind: archive.KindJokerGame, Reason: err.Error()}
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
	jr := jokerRow{row: b.First + int64(i)}
	jr.Tour = -1
	if b.Bad[i].Kind != archive.KindNone {
		return jr, b.Bad[i]
	}
	if col := b.Missing(i); col != "" {
		return jr, archive.MissingCell(col)
	}
	ints := func(c int) int64 { return b.Ints[c][i] }
	jr.Game, jr.At = ints(archive.TableGameID), ints(archive.TablePlayedAt)
	if jr.At < jokerMinTime || jr.At >= jokerMaxTime {
		// A typo such as year 20250 would otherwise ask for a list per month
		// up to it.
		return jr, archive.Problemf(archive.KindOutOfRange, "played_at", "played_at: %s is outside the years 1900–2199", joker.FormatTime(jr.At))
	}
	if jr.Player = j.arch.Players.Index(ints(archive.TablePlayerID)); jr.Player < 0 {
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
		jr.Tour = int32(ti)
	}
	if s := ints(archive.TableScore); s < math.MinInt32 || s > math.MaxInt32 {
		return jr, archive.Problemf(archive.KindOutOfRange, "score", "score: %d is out of range", s)
	}
	jr.Score = int32(ints(archive.TableScore))
	// Out-of-range places and pulkas are game-level problems (CheckGame names them).
	jr.Place = joker.PlaceOf(ints(archive.TablePlace))
	jr.Pulka = joker.PulkaOf(ints(archive.TableStoppedPulka), b.Nulls[archive.TableStoppedPulka][i])
	jr.Left = !b.Nulls[archive.TableLeftTable][i] && ints(archive.TableLeftTable) != 0
	return jr, archive.Problem{}
}

// checkGaps checks the stretches between the games, in rating order
// (gapCheck): one too long is a GapError naming the game before it.
func (j *jokerPass) checkGaps(rows []jokerRow, games []jokerGameRef) error {
	g := gapCheck{kind: j.kind, win: j.win, allow: j.allowGap, log: j.log, what: j.def.Title + " game"}
	for i := 1; i < len(games); i++ {
		a, b := games[i-1].Day(), games[i].Day()
		if empty, refuse := g.tooLong(a, b, day.PeriodOf(j.kind, day.Day(a)).Key, day.PeriodOf(j.kind, day.Day(b)).Key); refuse {
			r := &rows[games[i-1].first]
			return &GapError{File: j.arch.TableFiles[r.file], Row: r.row, EmptyLists: empty,
				What: fmt.Sprintf("%s game %d played %s", j.def.Title, games[i-1].Game, day.Day(a).String()),
				Next: fmt.Sprintf("%s game %d, played %s", j.def.Title, games[i].Game, day.Day(b).String())}
		}
	}
	return nil
}

// jokerGameRef is a checked game: its rating-order key and where its four
// rows start in the sorted rows.
type jokerGameRef struct {
	joker.Key
	first int
}

// groupGames is step 2: it sorts rows by game and seat, rejects bad
// games and returns the good ones in rating order.
func (j *jokerPass) groupGames(rows []jokerRow, tainted map[int64]bool) []jokerGameRef {
	// sort.Slice compares rows in place; slices.SortFunc copies both rows per
	// comparison.
	sort.Slice(rows, func(i, k int) bool {
		a, b := &rows[i], &rows[k]
		if c := joker.CompareSeats(&a.Row, &b.Row); c != 0 {
			return c < 0
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
	var seats []joker.Row
	for lo := 0; lo < len(rows); {
		hi := lo + 1
		for hi < len(rows) && rows[hi].Game == rows[lo].Game {
			hi++
		}
		sum.GamesRead++
		seats = seats[:0]
		for k := lo; k < hi; k++ {
			seats = append(seats, rows[k].Row)
		}
		if err := j.rules.CheckGame(seats, tainted[rows[lo].Game], j.arch.Players.ID); err != nil {
			sum.GamesRejected++
			badReason[rows[lo].Game] = jokerProblem(err)
			for k := lo; k < hi; k++ {
				bad = append(bad, k)
			}
		} else {
			games = append(games, jokerGameRef{Key: rows[lo].Key(), first: lo})
			cnt.Used += int64(hi - lo)
		}
		lo = hi
	}
	// Rejects go out in source order (file, then row).
	slices.SortFunc(bad, func(a, b int) int {
		return cmp.Or(cmp.Compare(rows[a].file, rows[b].file), cmp.Compare(rows[a].row, rows[b].row))
	})
	for _, k := range bad {
		jr := &rows[k]
		cnt.Rejected++
		j.arch.rejects.add(archive.RowError{File: j.arch.TableFiles[jr.file], Row: jr.row, Problem: badReason[jr.Game], Values: j.tableValues(jr)})
	}
	slices.SortFunc(games, func(a, b jokerGameRef) int { return a.Compare(b.Key) })
	return games
}

// tableValues renders a kept row for rejects.csv (the raw text is not kept).
func (j *jokerPass) tableValues(jr *jokerRow) string {
	s := "game_id=" + strconv.FormatInt(jr.Game, 10) + ";tournament_id="
	if jr.Tour >= 0 {
		s += strconv.FormatInt(j.arch.Tournaments[jr.Tour].ID, 10)
	}
	s += ";played_at=" + joker.FormatTime(jr.At) +
		";player_id=" + strconv.FormatInt(j.arch.Players.ID[jr.Player], 10) +
		";place=" + strconv.Itoa(int(jr.Place)) +
		";score=" + strconv.Itoa(int(jr.Score)) +
		";left_table=" + strconv.FormatBool(jr.Left) + ";stopped_pulka="
	if jr.Pulka != joker.PulkaNull {
		s += strconv.Itoa(int(jr.Pulka))
	}
	return s
}

// rate is step 3: rate in order; the audit rows and the lists go to the sink.
func (j *jokerPass) rate(ctx context.Context, rows []jokerRow, games []jokerGameRef) error {
	if len(games) == 0 {
		return nil
	}
	// Lists go from the first game's period to the last's, whether or not a
	// period has games, and stop at --until, whose later games are left for a
	// later run: a run up to P and a full run write the same lists up to P.
	last := day.PeriodOf(j.kind, day.Day(games[len(games)-1].Day())).Key
	if j.win.hasUntil {
		n := sort.Search(len(games), func(i int) bool {
			return day.PeriodOf(j.kind, day.Day(games[i].Day())).Key > j.win.until
		})
		games, last = games[:n], min(last, j.win.until)
	}
	if len(games) == 0 {
		return nil
	}
	var st joker.State
	st.Grow(len(j.arch.Players.ID))
	var cards []output.JokerCard
	cur := day.PeriodOf(j.kind, day.Day(games[0].Day())).Key
	for gi, ref := range games {
		if gi%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		k := day.PeriodOf(j.kind, day.Day(ref.Day())).Key
		for ; cur < k; cur++ {
			if err := j.list(ctx, cur, &st); err != nil {
				return err
			}
		}
		var seats [4]joker.Row
		for s := range seats {
			seats[s] = rows[ref.first+s].Row
		}
		game, err := j.rules.Rate(&st, seats[:])
		if err != nil { // CheckGame passed, so this is a defect, not bad input
			return fmt.Errorf("joker game %d: %w", ref.Game, err)
		}
		j.sum.GamesRated++
		if game[0].StoppedPulka != 0 {
			j.sum.GamesStopped++
		}
		cards = j.appendCards(cards, day.Period{Kind: j.kind, Key: k}.Label(), &game)
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
func (j *jokerPass) appendCards(cards []output.JokerCard, label string, game *[4]joker.Card) []output.JokerCard {
	for _, jc := range game {
		r, c := &jc.Row, &jc.Change
		row := output.JokerCard{
			Period: label, GameID: r.Game, PlayedAt: r.At, PlayerID: j.arch.Players.ID[r.Player],
			Place: r.Place, Score: r.Score, Left: r.Left,
			LevelBefore: c.Level, TableLevelSum: c.LevelSum, TableLevel: c.TableLevel,
			PlaceValue: c.PlaceBase, Multiplier: c.Multiplier, LeavePenalty: c.Penalty,
			PlayerChange: c.PlayerDelta, PlayerRating: c.PlayerRating, Floored: c.Floored,
			PersonalScore: c.PersonalScore, PersonalTransfer: c.PersonalTransfer, PersonalBonus: c.PersonalBonus,
			PersonalChange: c.PersonalDelta, PersonalRating: c.PersonalRating, Reason: c.Reason.String(),
		}
		if r.Tour >= 0 {
			row.TournamentID = ptr(j.arch.Tournaments[r.Tour].ID)
		}
		if jc.StoppedPulka != 0 {
			row.StoppedPulka = ptr(int32(jc.StoppedPulka))
		}
		cards = append(cards, row)
	}
	return cards
}

// list hands the Joker list as of the end of period key to the sink.
func (j *jokerPass) list(ctx context.Context, key int, st *joker.State) error {
	// Every run rates the Joker games from the start (they are cheap) and
	// writes every Joker list, also those an earlier run wrote: a correction
	// shows in them (the sink names a published list that changed).
	label := day.Period{Kind: j.kind, Key: key}.Label()
	list := j.rules.List(st)
	rows := make([]output.JokerListRow, len(list))
	for i, r := range list {
		rows[i] = output.JokerListRow{
			Rank: r.Rank, PlayerID: j.arch.Players.ID[r.Player], Name: j.arch.Players.Name[r.Player],
			PlayerRating: r.PlayerRating, Level: r.Level, LevelName: r.LevelName,
			PersonalRating: r.PersonalRating, GamesTotal: r.Games,
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
