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
)

// pgnGame is a game that passed the checks, waiting for the rest of its event.
type pgnGame struct {
	line         int64
	file         int32 // index in pgnImport.files
	round        int32 // 0 = not given
	date         int32 // the day, when dated
	dated        bool
	moves        bool   // the movetext holds moves
	result       byte   // '1' White won, '0' Black won, '=' draw
	white, black int32  // index in pgnImport.players
	notPlayed    string // the Termination tag, when it says the game was not played out
}

// pgnEvent is the games of one Event and Site. The first pass over the files
// counts them; the second holds them from the event's first game to its last.
type pgnEvent struct {
	name, site, eventType string
	lo, hi                int32 // date bounds, when hasDate
	hasDate               bool
	file                  int32
	line                  int64
	count, withMoves      int   // its games, and those with moves
	last                  int64 // the import's number of its last game (pgnImport.n)
	games                 []pgnGame
	done                  bool // its last game has been read again
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
	cp1252  []bool                  // files[i] is read as Windows-1252
	skipped []bool                  // files[i] is skipped whole
	events  map[[2]string]*pgnEvent // by Event and Site
	order   []*pgnEvent             // by first game
	names   []string                // order[i]'s tournament name
	next    int                     // order[next] is the first event not yet added
	n       int64                   // games that passed the checks, in the files that read
	players map[PlayerInfo]int32    // one copy of each name, however many games
	infos   []PlayerInfo
	ids     []int64           // player_id of infos[i], 0 until looked up
	texts   map[string]string // one copy of each Termination tag
}

func newPGNImport(files []string) *pgnImport {
	return &pgnImport{files: files, cp1252: make([]bool, len(files)), skipped: make([]bool, len(files)),
		events: map[[2]string]*pgnEvent{}, players: map[PlayerInfo]int32{}, texts: map[string]string{}}
}

// errChanged stops an import whose file reads differently the second time.
var errChanged = errors.New("changed while being imported (or cannot be read the same way twice); nothing was imported")

// ImportPGN adds the games of PGN files. Games are grouped into tournaments by
// their Event and Site tags (across all files); each tournament runs from the
// earliest to the latest date of its games (Date, else EventDate; a partial date
// such as 2024.05.?? counts from the first to the last day it allows). Round "3"
// and "3.1" are round 3; a game without a number goes to the first round in
// which neither player already has a game. Results 1-0, 0-1 and 1/2-1/2 become
// 1/0, 0/1 and =/=, or +/- and -/+ for a game without moves read as a forfeit
// (opt.Moveless); an unfinished game (*) is skipped and counted. A game with a
// missing or malformed White, Black or Result tag is skipped with a Problem. A file
// that is not UTF-8 is read as Windows-1252; a file cut short by a read error is
// skipped whole, its games counted as skipped.
//
// The files are read twice, so that memory does not grow with their size: first
// to count each event's games (how many have moves, its dates, where its last
// game is), then to add each event, in the order of first games, as soon as its
// last game is read, its games written to the new games part.
func ImportPGN(ctx context.Context, a *Archive, files []string, opt Options) (*Stats, error) {
	st := &Stats{report: opt.Report}
	im := newPGNImport(files)
	for i := range files {
		if err := im.countFile(ctx, int32(i), st); err != nil {
			st.abandon()
			return st, err
		}
	}
	// Events sharing a name (different sites) are told apart by the site.
	same := map[string]int{}
	for _, e := range im.order {
		same[e.name]++
	}
	for _, e := range im.order {
		name := e.name
		if same[name] > 1 && e.site != "" {
			name += " (" + e.site + ")"
		}
		im.names = append(im.names, name)
	}
	var n int64
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
	return st, nil
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

// countGames checks and counts the games of file fi, and records each event's
// games. A file whose reading fails part way is skipped whole: its games join no
// event.
func (im *pgnImport) countGames(ctx context.Context, r *PGNReader, fi int32, st *Stats) error {
	events := map[[2]string]*pgnEvent{}
	var order []*pgnEvent
	var kept int64
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		st.Read++
		g, ev, _, p := im.check(r.Game(), fi)
		if p != nil {
			if p.Err == ErrUnfinished {
				st.Unfinished++
			}
			st.skip(p.File, p.Line, 1, p.Err)
			continue
		}
		key := [2]string{ev.name, ev.site}
		e := events[key]
		if e == nil {
			e = new(pgnEvent)
			*e = ev
			events[key] = e
			order = append(order, e)
		}
		e.join(&ev)
		e.count++
		if g.moves {
			e.withMoves++
		}
		e.last = im.n + kept
		kept++
	}
	if err := r.Err(); err != nil {
		if r.Partial() {
			st.Read++
			kept++
		}
		p := err.(*Problem)
		im.skipped[fi] = true
		st.FilesSkipped++
		st.skip(p.File, p.Line, kept, fmt.Errorf("%w: the file is skipped whole, %d more games with it", p.Err, kept))
		return nil
	}
	im.n += kept
	for _, e := range order {
		key := [2]string{e.name, e.site}
		if all := im.events[key]; all != nil {
			all.join(e)
			all.count += e.count
			all.withMoves += e.withMoves
			all.last = e.last
		} else {
			im.events[key] = e
			im.order = append(im.order, e)
		}
	}
	return nil
}

// addFile is the second pass over file fi: it holds each game until its event's
// last game is read, then adds the events that are complete, in order. n counts
// the games that pass the checks, as countFile numbered them.
func (im *pgnImport) addFile(ctx context.Context, a *Archive, fi int32, n *int64, opt Options, st *Stats) error {
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
		g, ev, players, p := im.check(r.Game(), fi)
		if p != nil {
			continue // counted by countFile
		}
		e := im.events[[2]string{ev.name, ev.site}]
		if e == nil || e.done || *n > e.last {
			return fmt.Errorf("%s:%d: %w", name, g.line, errChanged)
		}
		if e.hasDate {
			g.white, g.black = im.player(players[0]), im.player(players[1])
			e.games = append(e.games, g)
		}
		e.done = *n == e.last
		*n++
		if e.done {
			if err := im.addDone(ctx, a, opt, st); err != nil {
				return err
			}
		}
	}
	if err := r.Err(); err != nil {
		return fmt.Errorf("%w: %w", err, errChanged)
	}
	return nil
}

// addDone adds the complete events that come next in order, as tournaments.
func (im *pgnImport) addDone(ctx context.Context, a *Archive, opt Options, st *Stats) error {
	for ; im.next < len(im.order) && im.order[im.next].done; im.next++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		e := im.order[im.next]
		im.addEvent(a, e, im.names[im.next], opt, st)
		e.games = nil
		if a.err != nil {
			return a.err
		}
	}
	return nil
}

// join widens e's dates to o's and takes o's event type when e has none.
func (e *pgnEvent) join(o *pgnEvent) {
	if o.hasDate {
		if !e.hasDate {
			e.lo, e.hi, e.hasDate = o.lo, o.hi, true
		}
		e.lo, e.hi = min(e.lo, o.lo), max(e.hi, o.hi)
	}
	if e.eventType == "" {
		e.eventType = o.eventType
	}
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
// archive; its games are those e holds.
func (im *pgnImport) addEvent(a *Archive, e *pgnEvent, name string, opt Options, st *Stats) {
	file := im.files[e.file]
	if !e.hasDate {
		n := int64(e.count)
		st.skip(file, e.line, n, fmt.Errorf("event %q: none of its %d games has a date (Date or EventDate tag): %w", name, n, ErrMalformed))
		return
	}
	t := archive.TournamentRow{Name: name, StartDate: e.lo, EndDate: e.hi, System: ptr(pgnSystem(e.eventType)),
		Discipline: ptr("chess"), Rated: ptr(!opt.Unrated)}
	// Players and rounds first: a game can still be skipped here.
	type key struct {
		p     int64
		round int32
	}
	busy := map[key]int64{} // player in round → line of the game
	rows := make([]archive.GameRow, 0, len(e.games))
	var forfeits []*Problem
	add := func(g *pgnGame, w, b int64, round int32) {
		busy[key{w, round}], busy[key{b, round}] = g.line, g.line
		row := archive.GameRow{Round: round, WhiteID: w, BlackID: ptr(b)}
		if g.dated {
			row.Date = ptr(g.date)
		}
		why := forfeit(g, e.withMoves, e.count, opt.Moveless)
		if why != "" {
			forfeits = append(forfeits, &Problem{File: im.files[g.file], Line: g.line, Err: fmt.Errorf("%s: %s %s %s: no moves, read as a forfeit: %s",
				name, im.infos[g.white].Name, pgnResult[g.result], im.infos[g.black].Name, why)})
		}
		var bres string
		row.WhiteResult, bres = resultCodes(g.result, why != "")
		row.BlackResult = &bres
		rows = append(rows, row)
	}
	var later []int
	ids := make([][2]int64, len(e.games))
	for i := range e.games {
		g := &e.games[i]
		white, black := im.infos[g.white], im.infos[g.black]
		w, b := im.playerID(a, g.white, st), im.playerID(a, g.black, st)
		ids[i] = [2]int64{w, b}
		if w == b {
			st.skip(im.files[g.file], g.line, 1, fmt.Errorf("White and Black are the same player %q: %w", white.Name, ErrMalformed))
			continue
		}
		if g.round == 0 {
			later = append(later, i)
			continue
		}
		if l, dup := busy[key{w, g.round}]; dup {
			st.skip(im.files[g.file], g.line, 1, fmt.Errorf("%s already plays in round %d (line %d): %w", white.Name, g.round, l, ErrDuplicate))
			continue
		}
		if l, dup := busy[key{b, g.round}]; dup {
			st.skip(im.files[g.file], g.line, 1, fmt.Errorf("%s already plays in round %d (line %d): %w", black.Name, g.round, l, ErrDuplicate))
			continue
		}
		add(g, w, b, g.round)
	}
	for _, i := range later {
		g, w, b := &e.games[i], ids[i][0], ids[i][1]
		r := int32(1)
		for {
			_, bw := busy[key{w, r}]
			_, bb := busy[key{b, r}]
			if !bw && !bb {
				break
			}
			r++
		}
		if r > 1000 {
			st.skip(im.files[g.file], g.line, 1, fmt.Errorf("no round number and rounds 1–1000 are taken: %w", ErrMalformed))
			continue
		}
		add(g, w, b, r)
	}
	if len(rows) == 0 {
		return
	}
	var rounds int32
	for _, g := range rows {
		rounds = max(rounds, g.Round)
	}
	t.Rounds = &rounds
	if !a.addTournament(t, rows, fmt.Sprintf("%s:%d", file, e.line)) {
		return // the import stops: ImportPGN counts every game as skipped
	}
	st.Tournaments++
	st.Imported += int64(len(rows))
	st.Forfeits += int64(len(forfeits))
	for _, p := range forfeits {
		st.keep(p, true)
	}
}

func dayString(d int32) string { return time.Unix(int64(d)*86400, 0).UTC().Format(time.DateOnly) }

// check turns a PGN game into a pgnGame, its event and its White and Black
// players (the pgnGame's white and black are left for the caller), or a Problem.
func (im *pgnImport) check(g *PGNGame, fi int32) (pgnGame, pgnEvent, [2]PlayerInfo, *Problem) {
	file := im.files[fi]
	out := pgnGame{file: fi, line: int64(g.Line), moves: g.Moves}
	ev := pgnEvent{file: fi, line: int64(g.Line)}
	var players [2]PlayerInfo
	bad := func(format string, args ...any) (pgnGame, pgnEvent, [2]PlayerInfo, *Problem) {
		return out, ev, players, &Problem{File: file, Line: int64(g.Line), Err: fmt.Errorf(format+": %w", append(args, ErrMalformed)...)}
	}
	if g.Err != nil {
		return out, ev, players, g.Err
	}
	for _, k := range pgnTextTags {
		if err := textError(k+" tag", g.Tags[k]); err != nil {
			return out, ev, players, &Problem{File: file, Line: int64(g.Line), Err: err}
		}
	}
	tag := func(name string) string {
		v := normName(g.Tags[name])
		if v == "?" || v == "-" {
			return ""
		}
		return v
	}
	ev.name, ev.site, ev.eventType = tag("Event"), tag("Site"), tag("EventType")
	if ev.name == "" {
		ev.name = "?"
	}
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
		return out, ev, players, &Problem{File: file, Line: int64(g.Line), Err: ErrUnfinished}
	case "":
		return bad("no Result tag and no result after the moves")
	default:
		return bad("result %q", res)
	}
	if r := tag("Round"); r != "" {
		head, _, _ := strings.Cut(r, ".")
		n, err := strconv.Atoi(head)
		switch {
		case err != nil:
			// "Final", "?" and the like: no round number.
		case n < 1 || n > 1000:
			return bad("round %q is outside 1–1000", r)
		default:
			out.round = int32(n)
		}
	}
	lo, hi, exact, ok := pgnDate(tag("Date"))
	if !ok {
		lo, hi, _, ok = pgnDate(tag("EventDate"))
	}
	if ok {
		ev.lo, ev.hi, ev.hasDate = lo, hi, true
		out.date, out.dated = lo, exact
	}
	if t := tag("Termination"); notPlayed(t) {
		if _, ok := im.texts[t]; !ok {
			im.texts[t] = t
		}
		out.notPlayed = im.texts[t]
	}
	players[0] = pgnPlayer(white, tag("WhiteFideId"), tag("WhiteElo"), tag("WhiteTitle"))
	players[1] = pgnPlayer(black, tag("BlackFideId"), tag("BlackElo"), tag("BlackTitle"))
	return out, ev, players, nil
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
	return day(from), day(to), exact, true
}

// pgnSystem maps the EventType tag to the tournaments table's system.
func pgnSystem(t string) string {
	t = strings.ToLower(t)
	switch {
	case strings.Contains(t, "rr") || strings.Contains(t, "robin") || strings.Contains(t, "tourn"):
		return "round-robin"
	case strings.Contains(t, "k.o") || strings.Contains(t, "ko") || strings.Contains(t, "knock"):
		return "knockout"
	case strings.Contains(t, "match"):
		return "match"
	}
	return "swiss"
}
