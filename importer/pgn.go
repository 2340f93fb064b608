package importer

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/archive"
)

// pgnGame is a game that passed the checks, waiting for its tournament. It is
// kept small: a large file holds millions of games.
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

type pgnEvent struct {
	name, site, eventType string
	lo, hi                int32 // date bounds, when hasDate
	hasDate               bool
	games                 []pgnGame
	file                  int32
	line                  int64
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

// ParseMoveless reads the --moveless flag: played, forfeit or auto.
func ParseMoveless(s string) (Moveless, error) {
	switch s {
	case "auto":
		return MovelessAuto, nil
	case "played":
		return MovelessPlayed, nil
	case "forfeit":
		return MovelessForfeit, nil
	}
	return 0, fmt.Errorf("--moveless %q: want played, forfeit or auto: %w", s, ErrUsage)
}

// pgnImport is one PGN import: its files, events and players so far. Games share
// their strings and pointers: a large file holds millions of games.
type pgnImport struct {
	files   []string
	events  map[[2]string]*pgnEvent // by Event and Site
	order   []*pgnEvent
	players map[PlayerInfo]int32 // one copy of each name, however many games
	infos   []PlayerInfo
	ids     []int64           // player_id of infos[i], 0 until looked up
	texts   map[string]string // one copy of each Termination tag
	idPtrs  map[int64]*int64  // black_id values
	dayPtrs map[int32]*int32  // date values
}

func newPGNImport(files []string) *pgnImport {
	return &pgnImport{files: files, events: map[[2]string]*pgnEvent{}, players: map[PlayerInfo]int32{},
		texts: map[string]string{}, idPtrs: map[int64]*int64{}, dayPtrs: map[int32]*int32{}}
}

// shared returns the one pointer to v in m.
func shared[K comparable](m map[K]*K, v K) *K {
	p := m[v]
	if p == nil {
		p = &v
		m[v] = p
	}
	return p
}

// resultPtrs are the black_result values.
var resultPtrs = map[string]*string{"1": ptr("1"), "0": ptr("0"), "=": ptr("="), "+": ptr("+"), "-": ptr("-")}

// ImportPGN adds the games of PGN files. Games are grouped into tournaments by
// their Event and Site tags (across all files); each tournament runs from the
// earliest to the latest date of its games (Date, else EventDate; a partial date
// such as 2024.05.?? counts from the first to the last day it allows). Round "3"
// and "3.1" are round 3; a game without a round number goes to the first round in
// which neither player already has a game. Results 1-0, 0-1 and 1/2-1/2 become
// 1/0, 0/1 and =/=, or +/- and -/+ for a game without moves read as a forfeit
// (opt.Moveless); an unfinished game (*) is skipped and counted. A game with a
// missing or malformed White, Black or Result tag is skipped with a Problem. A file
// that is not UTF-8 is read as Windows-1252; a file cut short by a read error is
// skipped whole, its games counted as skipped.
func ImportPGN(ctx context.Context, a *Archive, files []string, opt Options) (*Stats, error) {
	st := &Stats{}
	im := newPGNImport(files)
	for i := range files {
		if err := im.readFile(ctx, int32(i), st); err != nil {
			return st, err
		}
	}
	// Events sharing a name (different sites) are told apart by the site.
	names := map[string]int{}
	total := 0
	for _, e := range im.order {
		names[e.name]++
		total += len(e.games)
	}
	a.games = slices.Grow(a.games, total)
	for k, e := range im.order {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		name := e.name
		if names[name] > 1 && e.site != "" {
			name += " (" + e.site + ")"
		}
		im.addEvent(a, e, name, opt, st)
		if a.err != nil {
			for _, rest := range im.order[k+1:] {
				st.Skipped += int64(len(rest.games))
			}
			st.abandon()
			return st, a.err
		}
		e.games = nil
	}
	return st, nil
}

// readFile reads one file, as UTF-8 when it is valid UTF-8, else as Windows-1252.
func (im *pgnImport) readFile(ctx context.Context, fi int32, st *Stats) error {
	name := im.files[fi]
	st.Files++
	f, err := os.Open(name)
	if err != nil {
		st.FilesSkipped++
		st.skip(name, 0, 0, err)
		return nil
	}
	defer f.Close()
	isUTF8, err := validUTF8(f)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		st.FilesSkipped++
		st.skip(name, 0, 0, fmt.Errorf("reading: %w", err))
		return nil
	}
	r := NewPGNReader(f, name)
	if !isUTF8 {
		r.DecodeWindows1252()
		st.note(name, 0, "not UTF-8: read as Windows-1252 (Latin-1)")
	}
	return im.readGames(ctx, r, fi, st)
}

// readGames reads the games of file fi. They are grouped on their own and joined
// to the import's events only once the whole file has been read.
func (im *pgnImport) readGames(ctx context.Context, r *PGNReader, fi int32, st *Stats) error {
	events := map[[2]string]*pgnEvent{}
	var order []*pgnEvent
	var kept int64
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		st.Read++
		g, ev, p := im.check(r.Game(), fi)
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
		e.games = append(e.games, g)
		kept++
	}
	if err := r.Err(); err != nil {
		if r.Partial() {
			st.Read++
			kept++
		}
		p := err.(*Problem)
		st.FilesSkipped++
		st.skip(p.File, p.Line, kept, fmt.Errorf("%w: the file is skipped whole, %d more games with it", p.Err, kept))
		return nil
	}
	for _, e := range order {
		key := [2]string{e.name, e.site}
		if all := im.events[key]; all != nil {
			all.join(e)
			all.games = append(all.games, e.games...)
		} else {
			im.events[key] = e
			im.order = append(im.order, e)
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

func (im *pgnImport) addEvent(a *Archive, e *pgnEvent, name string, opt Options, st *Stats) {
	n := int64(len(e.games))
	file := im.files[e.file]
	if !e.hasDate {
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
	start := len(a.games)
	var forfeits []*Problem
	withMoves := 0
	for i := range e.games {
		if e.games[i].moves {
			withMoves++
		}
	}
	add := func(g *pgnGame, w, b int64, round int32) {
		busy[key{w, round}], busy[key{b, round}] = g.line, g.line
		row := archive.GameRow{Round: round, WhiteID: w, BlackID: shared(im.idPtrs, b)}
		if g.dated {
			row.Date = shared(im.dayPtrs, g.date)
		}
		why := forfeit(g, withMoves, len(e.games), opt.Moveless)
		if why != "" {
			forfeits = append(forfeits, &Problem{File: im.files[g.file], Line: g.line, Err: fmt.Errorf("%s: %s %s %s: no moves, read as a forfeit: %s",
				name, im.infos[g.white].Name, pgnResult[g.result], im.infos[g.black].Name, why)})
		}
		var bres string
		row.WhiteResult, bres = resultCodes(g.result, why != "")
		row.BlackResult = resultPtrs[bres]
		a.games = append(a.games, row)
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
	rows := a.games[start:]
	if len(rows) == 0 {
		return
	}
	var rounds int32
	for _, g := range rows {
		rounds = max(rounds, g.Round)
	}
	t.Rounds = &rounds
	namesake, samename := a.namesake(t)
	tid, isNew := a.addTournament(t, rows)
	if !isNew {
		a.games = a.games[:start]
		if a.err != nil {
			st.Skipped += int64(len(rows))
		} else {
			st.skip(file, e.line, int64(len(rows)), fmt.Errorf("event %q (%s to %s) has the same games as tournament %d: %w", name,
				dayString(t.StartDate), dayString(t.EndDate), tid, ErrDuplicate))
		}
		return
	}
	st.Tournaments++
	if samename {
		st.note(file, e.line, "event %q (%s to %s) has the name and dates of tournament %d but other games: added as tournament %d",
			name, dayString(t.StartDate), dayString(t.EndDate), namesake, tid)
	}
	st.Imported += int64(len(rows))
	st.Forfeits += int64(len(forfeits))
	st.Notes = append(st.Notes, forfeits...)
}

func dayString(d int32) string { return time.Unix(int64(d)*86400, 0).UTC().Format(time.DateOnly) }

// check turns a PGN game into a pgnGame and its event, or a Problem.
func (im *pgnImport) check(g *PGNGame, fi int32) (pgnGame, pgnEvent, *Problem) {
	file := im.files[fi]
	out := pgnGame{file: fi, line: int64(g.Line), moves: g.Moves}
	ev := pgnEvent{file: fi, line: int64(g.Line)}
	bad := func(format string, args ...any) (pgnGame, pgnEvent, *Problem) {
		return out, ev, &Problem{File: file, Line: int64(g.Line), Err: fmt.Errorf(format+": %w", append(args, ErrMalformed)...)}
	}
	if g.Err != nil {
		return out, ev, g.Err
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
		return out, ev, &Problem{File: file, Line: int64(g.Line), Err: ErrUnfinished}
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
	out.white = im.player(pgnPlayer(white, tag("WhiteFideId"), tag("WhiteElo"), tag("WhiteTitle")))
	out.black = im.player(pgnPlayer(black, tag("BlackFideId"), tag("BlackElo"), tag("BlackTitle")))
	return out, ev, nil
}

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
