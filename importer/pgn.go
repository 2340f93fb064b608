package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
)

// pgnGame is a game that passed the checks.
type pgnGame struct {
	line      int64
	file      int32 // index in pgnImport.files
	round     int32 // the given round, 0 = not given
	sub       int32 // its sub-number ("3.2" → 2), 0 = none
	lo, hi    int32 // the days its date allows, when dated
	dated     bool
	exact     bool   // lo is the game's day
	moves     bool   // the movetext holds moves
	result    byte   // '1' White won, '0' Black won, '=' draw
	notPlayed string // the Termination tag, when it says the game was not played out
}

// Moveless says how a PGN game without moves is read.
type Moveless int

const (
	// MovelessAuto reads a decisive game without moves as a forfeit when its
	// Termination tag says it was not played out, or when most games of its
	// event have moves; otherwise as played.
	MovelessAuto Moveless = iota
	// MovelessPlayed reads every game without moves as played.
	MovelessPlayed
	// MovelessForfeit reads every decisive game without moves as a forfeit.
	MovelessForfeit
)

// ParseMoveless reads a Moveless by name: played, forfeit or auto.
func ParseMoveless(s string) (Moveless, error) {
	switch s {
	case "auto":
		return MovelessAuto, nil
	case "played":
		return MovelessPlayed, nil
	case "forfeit":
		return MovelessForfeit, nil
	}
	return 0, fmt.Errorf("%q: want played, forfeit or auto: %w", s, ErrUsage)
}

// pgnImport is one PGN import: its files, events and players so far.
type pgnImport struct {
	files   []string
	cp1252  []bool // files[i] is read as Windows-1252
	skipped []bool // files[i] is skipped whole
	events  pgnEvents
	order   []*pgnEvent // by first game
	next    int         // order[next] is the first event not yet added
	planned int         // events whose round plan is made
	n       int64       // games that passed the checks, in the files that read
	who     map[whoKey]int32
	players map[PlayerInfo]int32 // one copy of each name, however many games
	infos   []PlayerInfo
	ids     []int64           // player_id of infos[i], 0 until looked up
	texts   map[string]string // one copy of each Termination tag
	spill   *spill            // the games placed, until their events are added
	tids    []int64           // tournament_id of order[i], 0 when not added
	opt     Options
	fstats  []*FileStats // of files[i]
}

// whoKey is a player as the pass that learns rounds tells players apart.
type whoKey struct {
	name string
	fide int64
}

func newPGNImport(files []string, st *Stats, opt Options) *pgnImport {
	im := &pgnImport{files: files, cp1252: make([]bool, len(files)), skipped: make([]bool, len(files)), opt: opt,
		events: newPGNEvents(), who: map[whoKey]int32{}, players: map[PlayerInfo]int32{}, texts: map[string]string{}}
	for _, f := range files {
		im.fstats = append(im.fstats, st.fileStats(f))
	}
	return im
}

// errChanged stops an import whose file reads differently the second time.
var errChanged = errors.New("changed while being imported (or cannot be read the same way twice); nothing was imported")

// ImportPGN adds the games of PGN files. Games are grouped into tournaments by
// their Event tag, their time class and their dates (across all files; see
// docs/import.md): the Site tag plays no part. Round "3" is round 3; "3.2" is
// round 3, board or game 2 (roundPlan); a game without a number goes to the
// first round after the numbered ones in which neither player has a game.
// Results 1-0, 0-1 and 1/2-1/2 become 1/0, 0/1 and =/=, or +/- and -/+ for a
// game without moves read as a forfeit (opt.Moveless); an unfinished game (*) is
// skipped and counted. A game with a missing or malformed White, Black or Result
// tag is skipped with a Problem. A file that is not UTF-8 is read as
// Windows-1252; a file cut short by a read error is skipped whole, its games
// counted as skipped.
//
// After a first read that tests each file for UTF-8, the files are read three
// times, so that memory does not grow with the number of games: first to learn
// the events (their games, dates and where the
// last game is), then how each event numbers its rounds, then to place each game
// (its round, its players, its result) and write it to a spill file; each event
// becomes a tournament as soon as its last game is read, in the order of first
// games; the spilled games go to the new games part at the end.
func ImportPGN(ctx context.Context, a *Archive, files []string, opt Options) (*Stats, error) {
	st := &Stats{report: opt.Report}
	im := newPGNImport(files, st, opt)
	for i := range files {
		if err := im.countFile(ctx, int32(i), st); err != nil {
			st.abandon()
			return st, err
		}
	}
	if err := im.settle(); err != nil {
		st.abandon()
		return st, err
	}
	defer im.spill.close()
	var n int64
	for i := range files {
		if im.skipped[i] {
			continue
		}
		if err := im.learnRounds(ctx, int32(i), &n, st); err != nil {
			st.abandon()
			return st, err
		}
	}
	if n != im.n || im.planned != len(im.order) {
		st.abandon()
		return st, fmt.Errorf("%d games the second time, %d the first: %w", n, im.n, errChanged)
	}
	n = 0
	for i := range files {
		if im.skipped[i] {
			continue
		}
		if err := im.addFile(ctx, a, int32(i), &n, opt, st); err != nil {
			st.abandon()
			return st, err
		}
	}
	if n != im.n || im.next != len(im.order) {
		st.abandon()
		return st, fmt.Errorf("%d games the second time, %d the first: %w", n, im.n, errChanged)
	}
	if err := im.writeSpilled(ctx, a); err != nil {
		st.abandon()
		return st, err
	}
	return st, nil
}

// settle is the step after the first pass: the events in order, their names,
// and the spill file.
func (im *pgnImport) settle() error {
	im.order = im.events.finish()
	im.tids = make([]int64, len(im.order))
	classes := map[string]map[string]bool{}
	for _, e := range im.order {
		if classes[e.key.name] == nil {
			classes[e.key.name] = map[string]bool{}
		}
		classes[e.key.name][e.key.class] = true
	}
	for i, e := range im.order {
		e.index = i
		e.name = e.key.name
		if len(classes[e.key.name]) > 1 && e.key.class != archive.TimeStandard {
			e.name += " (" + e.key.class + ")"
		}
	}
	var err error
	im.spill, err = newSpill()
	return err
}

// open opens file fi as a PGNReader; the first time it tests whether the file is
// UTF-8, else reads it as Windows-1252.
func (im *pgnImport) open(fi int32, first bool, st *Stats) (*PGNReader, io.Closer, error) {
	name := im.files[fi]
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	if first {
		isUTF8, err := validUTF8(f)
		if err == nil {
			_, err = f.Seek(0, io.SeekStart)
		}
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("reading: %w", err)
		}
		if !isUTF8 {
			im.cp1252[fi] = true
			st.note(name, 0, "not UTF-8: read as Windows-1252 (Latin-1)")
		}
	}
	r := NewPGNReader(f, name)
	if im.cp1252[fi] {
		r.DecodeWindows1252()
	}
	return r, f, nil
}

// countFile is the first pass over file fi.
func (im *pgnImport) countFile(ctx context.Context, fi int32, st *Stats) error {
	name := im.files[fi]
	st.Files++
	r, f, err := im.open(fi, true, st)
	if err != nil {
		im.skipped[fi] = true
		st.FilesSkipped++
		st.skip(name, 0, 0, err)
		return nil
	}
	defer f.Close()
	return im.countGames(ctx, r, fi, st)
}

// whoIndex returns a player's index as the passes that learn rounds tell
// players apart: by name and FIDE id.
func (im *pgnImport) whoIndex(p PlayerInfo) int32 {
	k := whoKey{normName(p.Name), p.FideID}
	i, ok := im.who[k]
	if !ok {
		i = int32(len(im.who))
		im.who[k] = i
	}
	return i
}

// countGames checks and counts the games of file fi, and learns its events. A
// file whose reading fails part way is skipped whole: its games join no event.
func (im *pgnImport) countGames(ctx context.Context, r *PGNReader, fi int32, st *Stats) error {
	events := newPGNEvents()
	var kept int64
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		st.Read++
		im.fstats[fi].Read++
		g, key, eventType, _, p := im.check(r.Game(), fi)
		if p != nil {
			if errors.Is(p.Err, ErrUnfinished) {
				st.Unfinished++
			}
			st.skip(p.File, p.Line, 1, p.Err)
			continue
		}
		num := im.n + kept
		one := pgnEvent{key: key, eventType: eventType, lo: g.lo, hi: g.hi, hasDate: g.dated, file: fi, line: g.line,
			first: num, last: num, count: 1}
		if g.moves {
			one.withMoves = 1
		}
		events.join(&one)
		kept++
	}
	if err := r.Err(); err != nil {
		if r.Partial() {
			st.Read++
			im.fstats[fi].Read++
			kept++
		}
		p := err.(*Problem)
		im.skipped[fi] = true
		st.FilesSkipped++
		st.skip(p.File, p.Line, kept, fmt.Errorf("%w: the file is skipped whole, %d more games with it", p.Err, kept))
		return nil
	}
	im.n += kept
	for _, list := range events.dated {
		for _, e := range list {
			im.events.join(e)
		}
	}
	for _, e := range events.undated {
		im.events.join(e)
	}
	return nil
}

// readAgain reads file fi once more, after the first pass: each game that
// passed the checks is handed to fn with its event, last when it is the event's
// last game. n numbers those games across the files, as countFile did; a file
// that reads otherwise than the first time stops the import (errChanged).
func (im *pgnImport) readAgain(ctx context.Context, fi int32, n *int64, st *Stats,
	fn func(g *pgnGame, players [2]PlayerInfo, e *pgnEvent, last bool) error) error {
	name := im.files[fi]
	r, f, err := im.open(fi, false, st)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer f.Close()
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		g, key, _, players, p := im.check(r.Game(), fi)
		if p != nil {
			continue // counted by countFile
		}
		e := im.events.find(key, g.lo, g.hi, g.dated)
		if e == nil || *n < e.first || *n > e.last {
			return fmt.Errorf("%s:%d: %w", name, g.line, errChanged)
		}
		last := *n == e.last
		*n++
		if err := fn(&g, players, e, last); err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil {
		return fmt.Errorf("%w: %w", err, errChanged)
	}
	return nil
}

// learnRounds is the second pass over file fi: it learns how each event uses
// round numbers and makes its plan once its last game is read, so that only
// the events under way hold what they learn.
func (im *pgnImport) learnRounds(ctx context.Context, fi int32, n *int64, st *Stats) error {
	return im.readAgain(ctx, fi, n, st, func(g *pgnGame, players [2]PlayerInfo, e *pgnEvent, last bool) error {
		if g.round > 0 {
			w, b := im.whoIndex(players[0]), im.whoIndex(players[1])
			e.noteRound(w, b, g.round, e.sub(g, w, b))
		}
		if last {
			e.makePlan()
			im.planned++
		}
		return nil
	})
}

// addFile is the third pass over file fi: it places each game in its event and
// spills it, and adds the events that are complete, in order.
func (im *pgnImport) addFile(ctx context.Context, a *Archive, fi int32, n *int64, opt Options, st *Stats) error {
	return im.readAgain(ctx, fi, n, st, func(g *pgnGame, players [2]PlayerInfo, e *pgnEvent, last bool) error {
		if e.done {
			return fmt.Errorf("%s:%d: %w", im.files[fi], g.line, errChanged)
		}
		if e.hasDate {
			if err := im.place(a, e, g, players, opt, st); err != nil {
				return err
			}
		}
		e.done = last
		if last {
			return im.addDone(ctx, a, st)
		}
		return nil
	})
}

// place gives a game its players and round in event e and spills it, or skips
// it with a Problem.
func (im *pgnImport) place(a *Archive, e *pgnEvent, g *pgnGame, players [2]PlayerInfo, opt Options, st *Stats) error {
	file := im.files[g.file]
	wi, bi := im.player(players[0]), im.player(players[1])
	w, b := im.playerID(a, wi, st), im.playerID(a, bi, st)
	if w == b {
		st.skip(file, g.line, 1, fmt.Errorf("White and Black are the same player %q: %w", players[0].Name, ErrMalformed))
		return nil
	}
	var round int32
	if g.round > 0 {
		sub := e.sub(g, im.whoIndex(players[0]), im.whoIndex(players[1]))
		round = e.plan.round(g.round, sub)
		if round > 1000 {
			st.skip(file, g.line, 1, fmt.Errorf("round %d.%d is round %d once sub-rounds are counted, past 1000: %w", g.round, sub, round, ErrMalformed))
			return nil
		}
		for _, p := range [2]struct {
			id   int64
			name string
		}{{w, players[0].Name}, {b, players[1].Name}} {
			if e.taken(p.id, round) {
				st.skip(file, g.line, 1, fmt.Errorf("%s already plays in round %d: %w", p.name, round, ErrPairedTwice))
				return nil
			}
		}
	} else {
		round = e.plan.last + 1
		for e.taken(w, round) || e.taken(b, round) {
			round++
		}
		if round > 1000 {
			st.skip(file, g.line, 1, fmt.Errorf("no round number and rounds %d–1000 are taken: %w", e.plan.last+1, ErrMalformed))
			return nil
		}
	}
	e.take(w, b, round)
	why := forfeit(g, e.withMoves, e.count, opt.Moveless)
	if why != "" {
		e.forfeits++
		st.keep(&Problem{File: file, Line: g.line, Err: fmt.Errorf("%s: %s %s %s: no moves, read as a forfeit: %s",
			e.name, players[0].Name, pgnResult[g.result], players[1].Name, why)}, true)
	}
	wres, bres := resultCodes(g.result, why != "")
	e.set.add(&a.seed, round, w, b, resultByte(wres), resultByte(bres))
	e.kept++
	if e.perFile == nil {
		e.perFile = map[int32]int64{}
	}
	e.perFile[g.file]++
	date := int32(noDate)
	if g.exact {
		date = g.lo
	}
	return im.spill.write(spilled{event: int32(e.index), round: round, date: date, white: w, black: b, wres: wres[0], bres: bres[0]})
}

// addDone adds the complete events that come next in order, as tournaments.
func (im *pgnImport) addDone(ctx context.Context, a *Archive, st *Stats) error {
	for ; im.next < len(im.order) && im.order[im.next].done; im.next++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := im.order[im.next]
		im.addEvent(a, e, st)
		e.busy, e.perFile, e.order = nil, nil, nil
		if a.err != nil {
			return a.err
		}
	}
	return nil
}

// player returns the index of a player in im.infos, adding it when new.
func (im *pgnImport) player(p PlayerInfo) int32 {
	i, ok := im.players[p]
	if !ok {
		i = int32(len(im.infos))
		im.players[p] = i
		im.infos = append(im.infos, p)
		im.ids = append(im.ids, 0)
	}
	return i
}

// playerID returns the archive's player_id of im.infos[i], looking it up once.
func (im *pgnImport) playerID(a *Archive, i int32, st *Stats) int64 {
	if im.ids[i] == 0 {
		im.ids[i] = a.player(im.infos[i], st)
	}
	return im.ids[i]
}

// forfeit returns why a game is read as a forfeit, "" when it is read as played;
// withMoves of the games of its event have moves.
func forfeit(g *pgnGame, withMoves, games int, mode Moveless) string {
	switch {
	case g.moves || g.result == '=' || mode == MovelessPlayed:
		return ""
	case mode == MovelessForfeit:
		return "--moveless forfeit"
	case g.notPlayed != "":
		return fmt.Sprintf("Termination %q", g.notPlayed)
	case 2*withMoves > games:
		return fmt.Sprintf("decisive, and %d of the event's %d games have moves", withMoves, games)
	}
	return ""
}

// pgnResult is how a pgnGame's result is written in PGN.
var pgnResult = map[byte]string{'1': "1-0", '0': "0-1", '=': "1/2-1/2"}

// resultCodes are the archive's result codes of a pgnGame's result.
func resultCodes(result byte, forfeit bool) (white, black string) {
	switch {
	case result == '=':
		return "=", "="
	case result == '1' && forfeit:
		return "+", "-"
	case result == '1':
		return "1", "0"
	case forfeit:
		return "-", "+"
	}
	return "0", "1"
}

// notPlayed tells whether a Termination tag says the game was not played out.
// "Time forfeit" is a game played and lost on time, which a broadcast may export
// without its moves.
func notPlayed(termination string) bool {
	t := strings.ReplaceAll(strings.ToLower(termination), "time forfeit", "")
	for _, w := range []string{"forfeit", "abandon", "rules infraction", "no show", "not played", "default"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// addEvent adds a complete event as a tournament, unless it is already in the
// archive; its games are in the spill.
func (im *pgnImport) addEvent(a *Archive, e *pgnEvent, st *Stats) {
	file := im.files[e.file]
	if !e.hasDate {
		n := int64(e.count)
		st.skip(file, e.line, n, fmt.Errorf("event %q: none of its %d games has a date (Date, UTCDate or EventDate tag): %w", e.name, n, ErrNoDate))
		return
	}
	if e.kept == 0 {
		return
	}
	t := archive.TournamentRow{Name: e.name, StartDate: e.lo, EndDate: e.hi, System: ptr(e.system()),
		Discipline: ptr("chess"), Rated: ptr(!im.opt.Unrated), Rounds: ptr(e.rounds), TimeClass: ptr(e.key.class)}
	t, ok := a.addTournamentSet(t, e.set, fmt.Sprintf("%s:%d", file, e.line))
	if !ok {
		return // the import stops: ImportPGN counts every game as skipped
	}
	im.tids[e.index] = t.TournamentID
	st.Tournaments++
	im.fstats[e.file].Events++
	st.Imported += e.kept
	for f, n := range e.perFile {
		im.fstats[f].Kept += n
	}
	st.Forfeits += e.forfeits
}

// writeSpilled hands the spilled games of the events added to the archive
// (keepRows: the new games part, or kept for a replacement or Options.Hold),
// with their tournament ids, a run of one tournament's games at a time.
func (im *pgnImport) writeSpilled(ctx context.Context, a *Archive) error {
	rows := make([]archive.GameRow, 0, 4096)
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		if !a.keepRows(rows[0].TournamentID, rows) {
			return a.err
		}
		rows = rows[:0]
		return ctx.Err()
	}
	err := im.spill.each(func(g spilled) error {
		tid := im.tids[g.event]
		if tid == 0 {
			return nil
		}
		if len(rows) == cap(rows) || (len(rows) > 0 && rows[0].TournamentID != tid) {
			if err := flush(); err != nil {
				return err
			}
		}
		row := archive.GameRow{TournamentID: tid, Round: g.round, WhiteID: g.white, BlackID: ptr(g.black),
			WhiteResult: string(g.wres), BlackResult: ptr(string(g.bres))}
		if g.date != noDate {
			row.Date = ptr(g.date)
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// check turns a PGN game into a pgnGame, its event's key and type, and its
// White and Black players, or a Problem.
func (im *pgnImport) check(g *PGNGame, fi int32) (pgnGame, pgnKey, string, [2]PlayerInfo, *Problem) {
	file := im.files[fi]
	out := pgnGame{file: fi, line: int64(g.Line), moves: g.Moves}
	var key pgnKey
	var players [2]PlayerInfo
	bad := func(format string, args ...any) (pgnGame, pgnKey, string, [2]PlayerInfo, *Problem) {
		return out, key, "", players, &Problem{File: file, Line: int64(g.Line), Err: fmt.Errorf(format+": %w", append(args, ErrMalformed)...)}
	}
	if g.Err != nil {
		return out, key, "", players, g.Err
	}
	for _, k := range pgnTextTags {
		if err := textError(k+" tag", g.Tags[k]); err != nil {
			return out, key, "", players, &Problem{File: file, Line: int64(g.Line), Err: err}
		}
	}
	tag := func(name string) string {
		v := g.Tags[name]
		if !isNorm(v) {
			v = normName(v)
		}
		if v == "?" || v == "-" {
			return ""
		}
		return v
	}
	key.name = tag("Event")
	if key.name == "" {
		key.name = "?"
	}
	key.class = timeClassOf(tag("TimeControl"), key.name)
	white, black := tag("White"), tag("Black")
	switch {
	case white == "":
		return bad("no White tag")
	case black == "":
		return bad("no Black tag")
	}
	res := tag("Result")
	if res == "" || res == "*" && g.Termination != "" {
		res = g.Termination
	}
	switch res {
	case "1-0":
		out.result = '1'
	case "0-1":
		out.result = '0'
	case "1/2-1/2", "½-½":
		out.result = '='
	case "*":
		return out, key, "", players, &Problem{File: file, Line: int64(g.Line), Err: ErrUnfinished}
	case "":
		return bad("no Result tag and no result after the moves")
	default:
		return bad("result %q", res)
	}
	if r := tag("Round"); r != "" {
		parts := strings.Split(r, ".")
		n, err := strconv.Atoi(parts[0])
		switch {
		case err != nil:
			// "Final", "?" and the like: no round number.
		case n < 1 || n > 1000:
			return bad("round %q is outside 1–1000", r)
		default:
			out.round = int32(n)
			if len(parts) > 1 {
				if s, err := strconv.Atoi(parts[1]); err == nil && s >= 1 && s <= 1000 {
					out.sub = int32(s)
				}
			}
		}
	}
	out.lo, out.hi, out.exact, out.dated = gameDate(tag("Date"), tag("UTCDate"), tag("EventDate"))
	if t := tag("Termination"); notPlayed(t) {
		if _, ok := im.texts[t]; !ok {
			im.texts[t] = t
		}
		out.notPlayed = im.texts[t]
	}
	players[0] = pgnPlayer(white, tag("WhiteFideId"), tag("WhiteElo"), tag("WhiteTitle"))
	players[1] = pgnPlayer(black, tag("BlackFideId"), tag("BlackElo"), tag("BlackTitle"))
	return out, key, tag("EventType"), players, nil
}

// gameDate is a game's day: its Date when complete, else its UTCDate when
// complete (lichess writes Date "????.??.??"), else the span a partial Date,
// UTCDate or EventDate allows, in that order.
func gameDate(date, utc, event string) (lo, hi int32, exact, ok bool) {
	for i, s := range []string{date, utc, event} {
		l, h, ex, good := pgnDate(s)
		switch {
		case !good:
		case ex && i < 2:
			return l, h, true, true
		case !ok:
			lo, hi, ok = l, h, true
		}
	}
	return lo, hi, false, ok
}

// pgnTextTags are the tags whose text the archive keeps: a control character
// in one makes the game a problem (textError), as normName would otherwise
// quietly turn a tab or a line break into a space and keep NUL.
var pgnTextTags = []string{"Event", "Site", "White", "Black", "WhiteTitle", "BlackTitle", "EventType"}

func pgnPlayer(name, fideID, elo, title string) PlayerInfo {
	p := PlayerInfo{Name: name, Title: normTitle(title)}
	if id, err := strconv.ParseInt(fideID, 10, 64); err == nil && id > 0 {
		p.FideID = id
	}
	if r, err := strconv.Atoi(elo); err == nil && r > 0 && r <= 4000 {
		p.FideRating = int32(r)
	}
	return p
}

// pgnDate reads YYYY.MM.DD where any part may be ?? (also with - or / between).
// It returns the first and last day the date allows; exact when all parts are known.
func pgnDate(s string) (lo, hi int32, exact, ok bool) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '-' || r == '/' })
	if len(f) != 3 {
		return 0, 0, false, false
	}
	num := func(s string, lo, hi int) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil && n >= lo && n <= hi
	}
	y, ok := num(f[0], 1800, 2200)
	if !ok {
		return 0, 0, false, false
	}
	m, mok := num(f[1], 1, 12)
	d, dok := num(f[2], 1, 31)
	var from, to time.Time
	switch {
	case mok && dok:
		from = time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
		if from.Day() != d {
			return 0, 0, false, false // 2024.02.30
		}
		to, exact = from, true
	case mok:
		from = time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC)
		to = from.AddDate(0, 1, -1)
	default:
		from = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		to = time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC)
	}
	return int32(day.Of(from)), int32(day.Of(to)), exact, true
}

// pgnSystem maps the EventType tag to the tournaments table's system, "" when
// it names none.
func pgnSystem(t string) string {
	t = strings.ToLower(t)
	switch {
	case strings.Contains(t, "rr") || strings.Contains(t, "robin") || strings.Contains(t, "tourn"):
		return "round-robin"
	case strings.Contains(t, "k.o") || strings.Contains(t, "ko") || strings.Contains(t, "knock"):
		return "knockout"
	case strings.Contains(t, "match"):
		return "match"
	case strings.Contains(t, "swiss"):
		return "swiss"
	}
	return ""
}

// isNorm tells whether normName would leave s as it is: no space at either end,
// no run of spaces, no other white space.
func isNorm(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if i == 0 || i == len(s)-1 || s[i+1] == ' ' {
				return false
			}
		case c < ' ' || c >= 0x80:
			return false // control characters; other spaces are in multi-byte runes
		}
	}
	return true
}
