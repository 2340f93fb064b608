package importer

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/archive"
)

// pgnGame is a game that passed the checks, waiting for its tournament.
type pgnGame struct {
	file         string
	line         int
	round        int32 // 0 = not given
	date         *int32
	white, black PlayerInfo
	wres, bres   string
}

type pgnEvent struct {
	name, site, eventType string
	lo, hi                int32 // date bounds, 0 when none yet
	hasDate               bool
	games                 []pgnGame
	file                  string
	line                  int
}

// ImportPGN adds the games of PGN files. Games are grouped into tournaments by
// their Event and Site tags (across all files); each tournament runs from the
// earliest to the latest date of its games (Date, else EventDate; a partial date
// such as 2024.05.?? counts from the first to the last day it allows). Round "3"
// and "3.1" are round 3; a game without a round number goes to the first round in
// which neither player already has a game. Results 1-0, 0-1 and 1/2-1/2 become
// 1/0, 0/1 and =/=; an unfinished game (*) is skipped and counted. A game with a
// missing or malformed White, Black or Result tag is skipped with a Problem.
func ImportPGN(ctx context.Context, a *Archive, files []string, opt Options) (*Stats, error) {
	st := &Stats{}
	events := map[[2]string]*pgnEvent{}
	var order []*pgnEvent
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		st.Files++
		f, err := os.Open(name)
		if err != nil {
			st.FilesSkipped++
			st.skip(name, 0, 0, err)
			continue
		}
		r := NewPGNReader(f, name)
		for r.Next() {
			st.Read++
			g, ev, err := checkPGN(r.Game(), name)
			if err != nil {
				if err.Err == ErrUnfinished {
					st.Unfinished++
				}
				st.skip(err.File, err.Line, 1, err.Err)
				continue
			}
			key := [2]string{ev.name, ev.site}
			e := events[key]
			if e == nil {
				e = ev
				events[key] = e
				order = append(order, e)
			}
			if ev.hasDate {
				if !e.hasDate {
					e.lo, e.hi, e.hasDate = ev.lo, ev.hi, true
				}
				e.lo, e.hi = min(e.lo, ev.lo), max(e.hi, ev.hi)
			}
			if e.eventType == "" {
				e.eventType = ev.eventType
			}
			e.games = append(e.games, g)
		}
		f.Close()
		if err := r.Err(); err != nil {
			st.FilesSkipped++
			st.Problems = append(st.Problems, err.(*Problem))
		}
	}
	// Events sharing a name (different sites) are told apart by the site.
	names := map[string]int{}
	for _, e := range order {
		names[e.name]++
	}
	for _, e := range order {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		name := e.name
		if names[name] > 1 && e.site != "" {
			name += " (" + e.site + ")"
		}
		addEvent(a, e, name, opt, st)
	}
	return st, nil
}

func addEvent(a *Archive, e *pgnEvent, name string, opt Options, st *Stats) {
	n := int64(len(e.games))
	if !e.hasDate {
		st.skip(e.file, int64(e.line), n, fmt.Errorf("event %q: none of its %d games has a date (Date or EventDate tag): %w", name, n, ErrMalformed))
		return
	}
	t := archive.TournamentRow{Name: name, StartDate: e.lo, EndDate: e.hi, System: ptr(pgnSystem(e.eventType)),
		Discipline: ptr("chess"), Rated: ptr(!opt.Unrated)}
	if tid, dup := a.tourKey[tournamentKey(t.Name, t.StartDate, t.EndDate)]; dup {
		st.skip(e.file, int64(e.line), n, fmt.Errorf("event %q (%s to %s) is tournament %d: %w", name,
			dayString(t.StartDate), dayString(t.EndDate), tid, ErrDuplicate))
		return
	}
	// Players and rounds first: a game can still be skipped here.
	type key struct {
		p     int64
		round int32
	}
	busy := map[key]int{} // player in round → line of the game
	var rows []archive.GameRow
	add := func(g pgnGame, w, b int64, round int32) {
		busy[key{w, round}], busy[key{b, round}] = g.line, g.line
		rows = append(rows, archive.GameRow{Round: round, Date: g.date, WhiteID: w, BlackID: ptr(b), WhiteResult: g.wres, BlackResult: ptr(g.bres)})
	}
	var later []int
	ids := make([][2]int64, len(e.games))
	for i, g := range e.games {
		w, b := a.player(g.white, st), a.player(g.black, st)
		ids[i] = [2]int64{w, b}
		if w == b {
			st.skip(g.file, int64(g.line), 1, fmt.Errorf("White and Black are the same player %q: %w", g.white.Name, ErrMalformed))
			ids[i][0] = 0
			continue
		}
		if g.round == 0 {
			later = append(later, i)
			continue
		}
		if l, dup := busy[key{w, g.round}]; dup {
			st.skip(g.file, int64(g.line), 1, fmt.Errorf("%s already plays in round %d (line %d): %w", g.white.Name, g.round, l, ErrDuplicate))
			continue
		}
		if l, dup := busy[key{b, g.round}]; dup {
			st.skip(g.file, int64(g.line), 1, fmt.Errorf("%s already plays in round %d (line %d): %w", g.black.Name, g.round, l, ErrDuplicate))
			continue
		}
		add(g, w, b, g.round)
	}
	for _, i := range later {
		g, w, b := e.games[i], ids[i][0], ids[i][1]
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
			st.skip(g.file, int64(g.line), 1, fmt.Errorf("no round number and rounds 1–1000 are taken: %w", ErrMalformed))
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
	tid, isNew := a.addTournament(t)
	if !isNew {
		st.skip(e.file, int64(e.line), int64(len(rows)), fmt.Errorf("event %q (%s to %s) is tournament %d: %w", name,
			dayString(t.StartDate), dayString(t.EndDate), tid, ErrDuplicate))
		return
	}
	st.Tournaments++
	for i := range rows {
		rows[i].TournamentID = tid
	}
	a.games = append(a.games, rows...)
	st.Imported += int64(len(rows))
}

func dayString(d int32) string { return time.Unix(int64(d)*86400, 0).UTC().Format(time.DateOnly) }

// checkPGN turns a PGN game into a pgnGame and its event, or a Problem.
func checkPGN(g *PGNGame, file string) (pgnGame, *pgnEvent, *Problem) {
	bad := func(format string, args ...any) *Problem {
		return &Problem{File: file, Line: int64(g.Line), Err: fmt.Errorf(format+": %w", append(args, ErrMalformed)...)}
	}
	if g.Err != nil {
		return pgnGame{}, nil, g.Err
	}
	tag := func(name string) string {
		v := normName(g.Tags[name])
		if v == "?" || v == "-" {
			return ""
		}
		return v
	}
	out := pgnGame{file: file, line: g.Line}
	ev := &pgnEvent{name: tag("Event"), site: tag("Site"), eventType: tag("EventType"), file: file, line: g.Line}
	if ev.name == "" {
		ev.name = "?"
	}
	white, black := tag("White"), tag("Black")
	switch {
	case white == "":
		return out, nil, bad("no White tag")
	case black == "":
		return out, nil, bad("no Black tag")
	}
	res := tag("Result")
	if res == "" || res == "*" && g.Termination != "" {
		res = g.Termination
	}
	switch res {
	case "1-0":
		out.wres, out.bres = "1", "0"
	case "0-1":
		out.wres, out.bres = "0", "1"
	case "1/2-1/2", "½-½":
		out.wres, out.bres = "=", "="
	case "*":
		return out, nil, &Problem{File: file, Line: int64(g.Line), Err: ErrUnfinished}
	case "":
		return out, nil, bad("no Result tag and no result after the moves")
	default:
		return out, nil, bad("result %q", res)
	}
	if r := tag("Round"); r != "" {
		head, _, _ := strings.Cut(r, ".")
		n, err := strconv.Atoi(head)
		switch {
		case err != nil:
			// "Final", "?" and the like: no round number.
		case n < 1 || n > 1000:
			return out, nil, bad("round %q is outside 1–1000", r)
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
		if exact {
			out.date = ptr(lo)
		}
	}
	out.white = pgnPlayer(white, tag("WhiteFideId"), tag("WhiteElo"))
	out.black = pgnPlayer(black, tag("BlackFideId"), tag("BlackElo"))
	return out, ev, nil
}

func pgnPlayer(name, fideID, elo string) PlayerInfo {
	p := PlayerInfo{Name: name}
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
