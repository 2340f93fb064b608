package importer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/pipeline"
)

// game is one PGN game with the given tags (name, value pairs) and result.
func game(result string, tags ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(tags); i += 2 {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", tags[i], tags[i+1])
	}
	fmt.Fprintf(&b, "[Result \"%s\"]\n\n%s\n\n", result, result)
	return b.String()
}

// imported is what an import made, for the tests: the tournaments and each
// one's games, by name.
type imported struct {
	a     *Archive
	st    *Stats
	games map[string][]archive.GameRow // by tournament name
	names map[int64]string             // player_id → name
	ts    map[string]archive.TournamentRow
}

func importShape(t *testing.T, opt Options, texts ...string) *imported {
	t.Helper()
	a, st := importPGN(t, opt, texts...)
	return collect(t, a, st)
}

func collect(t *testing.T, a *Archive, st *Stats) *imported {
	t.Helper()
	im := &imported{a: a, st: st, games: map[string][]archive.GameRow{}, names: map[int64]string{}, ts: map[string]archive.TournamentRow{}}
	byID := map[int64]string{}
	for _, tr := range a.Tournaments {
		im.ts[tr.Name] = tr
		byID[tr.TournamentID] = tr.Name
	}
	for _, p := range a.Players {
		im.names[p.PlayerID] = p.Name
	}
	for _, g := range newGames(t, a) {
		im.games[byID[g.TournamentID]] = append(im.games[byID[g.TournamentID]], g)
	}
	return im
}

// scores are each player's points in a tournament's games, by name.
func (im *imported) scores(tournament string) map[string]float64 {
	s := map[string]float64{}
	pts := map[string]float64{"1": 1, "=": 0.5, "0": 0, "+": 1, "-": 0}
	for _, g := range im.games[tournament] {
		s[im.names[g.WhiteID]] += pts[g.WhiteResult]
		s[im.names[*g.BlackID]] += pts[*g.BlackResult]
	}
	return s
}

// rounds lists the distinct rounds of a tournament's games, in order.
func (im *imported) rounds(tournament string) []int32 {
	var rs []int32
	for _, g := range im.games[tournament] {
		if !slices.Contains(rs, g.Round) {
			rs = append(rs, g.Round)
		}
	}
	slices.Sort(rs)
	return rs
}

// doubleRoundRobin is an n-player double round robin as cutechess-style
// "c.r" rounds: cycle c, round r (circle method), colours swapped in cycle 2.
func doubleRoundRobin(n int, round func(c, r, board int) string) string {
	var b strings.Builder
	for c := 1; c <= 2; c++ {
		for r := 1; r < n; r++ {
			for i := 0; i < n/2; i++ {
				w, k := (r+i)%(n-1), (r+n-1-i)%(n-1)
				if i == 0 {
					k = n - 1
				}
				if c == 2 {
					w, k = k, w
				}
				res := []string{"1-0", "0-1", "1/2-1/2"}[(c+r+i)%3]
				b.WriteString(game(res, "Event", "Engines", "Date", fmt.Sprintf("2025.03.%02d", c*7+r), "Round", round(c, r, i+1),
					"White", "Engine "+strconv.Itoa(w), "Black", "Engine "+strconv.Itoa(k)))
			}
		}
	}
	return b.String()
}

// TestPGNRoundShapes: every game of every way files number rounds is kept, in
// rounds the run accepts.
func TestPGNRoundShapes(t *testing.T) {
	cycleRound := func(c, r, _ int) string { return fmt.Sprintf("%d.%d", c, r) }
	roundBoard := func(c, r, board int) string { return fmt.Sprintf("%d.%d", (c-1)*5+r, board) }
	knockout := game("1-0", "Event", "Cup", "Date", "2025.04.01", "Round", "1.1", "White", "a", "Black", "b") +
		game("1/2-1/2", "Event", "Cup", "Date", "2025.04.01", "Round", "1.1", "White", "c", "Black", "d") +
		game("1/2-1/2", "Event", "Cup", "Date", "2025.04.02", "Round", "1.2", "White", "b", "Black", "a") +
		game("0-1", "Event", "Cup", "Date", "2025.04.02", "Round", "1.2", "White", "d", "Black", "c") +
		game("1-0", "Event", "Cup", "Date", "2025.04.03", "Round", "1.3", "White", "c", "Black", "d") + // a tiebreak game
		game("1/2-1/2", "Event", "Cup", "Date", "2025.04.04", "Round", "2.1", "White", "a", "Black", "c") +
		game("1-0", "Event", "Cup", "Date", "2025.04.05", "Round", "2.2", "White", "c", "Black", "a")
	match := game("1-0", "Event", "Match", "Date", "2025.05.01", "Round", "1.1", "White", "x", "Black", "y") +
		game("1/2-1/2", "Event", "Match", "Date", "2025.05.02", "Round", "1.2", "White", "y", "Black", "x") +
		game("0-1", "Event", "Match", "Date", "2025.05.03", "Round", "1.3", "White", "x", "Black", "y")
	// cutechess with -games 2: both games of a pairing carry the same round
	// number, colours reversed.
	sameRound := func(c, r, _ int) string { return strconv.Itoa(r) }
	tests := []struct {
		name, text, event string
		games             int
		rounds            []int32
		system            string
	}{
		{"pairs of games under one round number", doubleRoundRobin(6, sameRound), "Engines", 30, []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, "round-robin"},
		// 6 engines: 2 cycles of 5 rounds of 3 games; cycle 2's round r is round 5+r.
		{"double round robin c.r", doubleRoundRobin(6, cycleRound), "Engines", 30, []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, "round-robin"},
		{"double round robin r.board", doubleRoundRobin(6, roundBoard), "Engines", 30, []int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, "round-robin"},
		// Round 1's mini-matches are rounds 1–3 (game 3 a tiebreak), round 2's are 4 and 5.
		{"knockout mini-matches", knockout, "Cup", 7, []int32{1, 2, 3, 4, 5}, "swiss"},
		{"a match 1.1, 1.2, 1.3", match, "Match", 3, []int32{1, 2, 3}, "round-robin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im := importShape(t, Options{}, tt.text)
			if im.st.Read != int64(tt.games) || im.st.Imported != int64(tt.games) || len(im.st.Problems) != 0 {
				t.Fatalf("%d read, %d imported, problems %v", im.st.Read, im.st.Imported, im.st.Problems)
			}
			if got := im.rounds(tt.event); !slices.Equal(got, tt.rounds) {
				t.Errorf("rounds %v, want %v", got, tt.rounds)
			}
			tr := im.ts[tt.event]
			if *tr.System != tt.system || *tr.Rounds != tt.rounds[len(tt.rounds)-1] {
				t.Errorf("system %s, rounds %d", *tr.System, *tr.Rounds)
			}
			sum, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(im.a.Dir), ArchiveName: im.a.Dir, Out: t.TempDir(), Workers: 1})
			if err != nil || sum.RowsRejected != 0 {
				t.Errorf("run: %v, %d rows rejected %v", err, sum.RowsRejected, sum.RejectKinds)
			}
		})
	}
	// Cycle 2, round 3 of "c.r" is round 8: its games are those of cycle 2, round 3.
	im := importShape(t, Options{}, doubleRoundRobin(6, cycleRound))
	for _, g := range im.games["Engines"] {
		if g.Round == 8 && *g.Date != day0("2025-03-17") {
			t.Errorf("round 8 game dated %s, want cycle 2 round 3's 2025-03-17", day.Day(*g.Date).String())
		}
	}
}

func day0(s string) int32 {
	lo, _, _, _ := pgnDate(strings.ReplaceAll(s, "-", "."))
	return lo
}

// TestPGNPairedTwice: a player given two games in one round of boards keeps the
// first; the second is skipped with its reason.
func TestPGNPairedTwice(t *testing.T) {
	text := game("1-0", "Event", "Open", "Date", "2025.01.01", "Round", "1.1", "White", "a", "Black", "b") +
		game("1-0", "Event", "Open", "Date", "2025.01.01", "Round", "1.2", "White", "c", "Black", "d") +
		game("1-0", "Event", "Open", "Date", "2025.01.01", "Round", "1.3", "White", "e", "Black", "f") +
		game("0-1", "Event", "Open", "Date", "2025.01.01", "Round", "1.4", "White", "a", "Black", "g")
	im := importShape(t, Options{}, text)
	if im.st.Imported != 3 || im.st.Skipped != 1 || !errors.Is(im.st.Problems[0], ErrPairedTwice) {
		t.Fatalf("%+v", im.st)
	}
	if got := im.st.ByFile[0].Skipped["paired twice in a round"]; got != 1 {
		t.Errorf("per-file count %v", im.st.ByFile[0].Skipped)
	}
}

// TestPGNEventsByDates: Site never splits an event; the same Event name held
// again months later is another tournament; a league's rounds weeks apart stay
// one.
func TestPGNEventsByDates(t *testing.T) {
	g := func(date, round, w, b, site string) string {
		return game("1-0", "Event", "Club Championship", "Site", site, "Date", date, "Round", round, "White", w, "Black", b)
	}
	text := g("2024.03.01", "1", "a", "b", "Hall A") + g("2024.03.01", "1", "c", "d", "https://example.org/1") +
		g("2024.04.20", "2", "a", "c", "Hall B") + g("2024.04.20", "2", "b", "d", "") + // 50 days later: the same league
		g("2025.03.07", "1", "a", "d", "Hall A") + g("2025.03.07", "1", "b", "c", "Hall A") // a year later: another event
	im := importShape(t, Options{}, text)
	if len(im.a.Tournaments) != 2 || im.st.Imported != 6 {
		t.Fatalf("%d tournaments, %+v", len(im.a.Tournaments), im.st)
	}
	first, second := im.a.Tournaments[0], im.a.Tournaments[1]
	if day.Day(first.StartDate).String() != "2024-03-01" || day.Day(first.EndDate).String() != "2024-04-20" || day.Day(second.StartDate).String() != "2025-03-07" {
		t.Errorf("dates %s–%s, %s", day.Day(first.StartDate).String(), day.Day(first.EndDate).String(), day.Day(second.StartDate).String())
	}
	if first.Name != "Club Championship" || second.Name != "Club Championship" || im.st.ByFile[0].Events != 2 {
		t.Errorf("names %q, %q; %d events", first.Name, second.Name, im.st.ByFile[0].Events)
	}
	// Games out of date order, and a game that bridges two groups seen first.
	text = g("2024.01.01", "1", "a", "b", "") + g("2024.04.01", "3", "a", "b", "") + g("2024.02.15", "2", "a", "b", "")
	if im := importShape(t, Options{}, text); len(im.a.Tournaments) != 1 {
		t.Errorf("bridged: %d tournaments", len(im.a.Tournaments))
	}
}

// TestPGNUTCDate: lichess writes the day in UTCDate with Date "????.??.??".
func TestPGNUTCDate(t *testing.T) {
	text := game("1-0", "Event", "Arena", "Date", "????.??.??", "UTCDate", "2025.02.03", "UTCTime", "18:00:01", "White", "a", "Black", "b") +
		game("0-1", "Event", "Arena", "Date", "????.??.??", "UTCDate", "2025.02.04", "White", "a", "Black", "b")
	im := importShape(t, Options{}, text)
	tr := im.ts["Arena"]
	if im.st.Imported != 2 || day.Day(tr.StartDate).String() != "2025-02-03" || day.Day(tr.EndDate).String() != "2025-02-04" {
		t.Fatalf("%+v %s", im.st, day.Day(tr.StartDate).String())
	}
	for _, g := range im.games["Arena"] {
		if g.Date == nil {
			t.Errorf("game without its UTCDate: %+v", g)
		}
	}
	for _, tt := range []struct {
		date, utc, event string
		lo, hi           string
		exact            bool
	}{
		{"2025.02.03", "2025.02.02", "", "2025.02.03", "2025.02.03", true},
		{"2025.02.??", "2025.02.07", "", "2025.02.07", "2025.02.07", true},
		{"????.??.??", "", "2025.02.01", "2025.02.01", "2025.02.01", false},
		{"2025.??.??", "", "2025.02.01", "2025.01.01", "2025.12.31", false},
	} {
		lo, hi, exact, ok := gameDate(tt.date, tt.utc, tt.event)
		if !ok || lo != day0(tt.lo) || hi != day0(tt.hi) || exact != tt.exact {
			t.Errorf("%q %q %q: %s–%s exact %v", tt.date, tt.utc, tt.event, day.Day(lo).String(), day.Day(hi).String(), exact)
		}
	}
}

func TestTimeClassOf(t *testing.T) {
	tests := []struct{ tc, event, want string }{
		{"5400+30", "", "standard"},
		{"40/7200:3600", "", "standard"},
		{"3600", "", "standard"},
		{"900+10", "", "rapid"},
		{"600+5", "", "rapid"}, // 10 minutes + 5 increments of 60 = 15
		{"600", "", "blitz"},
		{"180+2", "", "blitz"},
		{"*180", "", "blitz"},
		{"60+0", "", "blitz"},
		{"15 min. + 10 s. per move", "", "rapid"},
		{"15 minutes + 10 seconds increment per move, starting from move 1", "", "rapid"},
		{"90 min + 30 sec", "", "standard"},
		{"3 min + 2 s", "", "blitz"},
		{"-", "World Blitz Championship", "blitz"},
		{"?", "Rated Bullet tournament https://lichess.org/tournament/x", "blitz"},
		{"", "FIDE Women’s World Rapid Championships 2024", "rapid"},
		{"", "Rapidly rising open", ""}, // not known
		{"?", "", ""},
		{"5400+30", "Rapid Open", "standard"}, // TimeControl wins
		{"", "Tata Steel Masters", ""},
	}
	for _, tt := range tests {
		if got := timeClassOf(tt.tc, tt.event); got != tt.want {
			t.Errorf("%q, %q: %s, want %s", tt.tc, tt.event, got, tt.want)
		}
	}
}

// TestPGNTimeClass: the time class goes to the tournament; a knockout's rapid
// and blitz tiebreaks are tournaments of their own beside the standard games.
func TestPGNTimeClass(t *testing.T) {
	g := func(round, w, b, tc, res string) string {
		return game(res, "Event", "World Cup", "Date", "2025.11.01", "Round", round, "White", w, "Black", b, "TimeControl", tc)
	}
	text := g("1.1", "a", "b", "5400+30", "1/2-1/2") + g("1.2", "b", "a", "5400+30", "1/2-1/2") +
		g("1.3", "a", "b", "900+10", "1-0") + g("1.4", "b", "a", "900+10", "1-0") + g("1.5", "a", "b", "180+2", "0-1")
	im := importShape(t, Options{}, text)
	want := map[string]struct {
		class string
		games int
	}{"World Cup": {"standard", 2}, "World Cup (rapid)": {"rapid", 2}, "World Cup (blitz)": {"blitz", 1}}
	if len(im.a.Tournaments) != 3 || im.st.Imported != 5 {
		t.Fatalf("%d tournaments, %+v", len(im.a.Tournaments), im.st)
	}
	for name, w := range want {
		tr, ok := im.ts[name]
		if !ok || *tr.TimeClass != w.class || len(im.games[name]) != w.games {
			t.Errorf("%s: %+v, %d games", name, tr, len(im.games[name]))
		}
	}
	// The run rates the standard tournament only, unless the rules name another class.
	out := t.TempDir()
	sum, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(im.a.Dir), ArchiveName: im.a.Dir, Out: out, Workers: 1})
	if err != nil || sum.RowsRejected != 0 {
		t.Fatalf("run: %v %+v", err, sum)
	}
}

// TestPGNUnknownTimeClass: a game without TimeControl joins the class of its
// event's other games; an event none of whose games says is standard.
func TestPGNUnknownTimeClass(t *testing.T) {
	g := func(event, round, w, b string, tc ...string) string {
		tags := []string{"Event", event, "Date", "2025.06.01", "Round", round, "White", w, "Black", b}
		if len(tc) > 0 {
			tags = append(tags, "TimeControl", tc[0])
		}
		return game("1-0", tags...)
	}
	text := g("Open", "1", "a", "b", "900+10") + g("Open", "1", "c", "d") + g("Open", "2", "a", "c", "900+10") +
		g("Club", "1", "a", "b") + g("Club", "2", "b", "a", "-") +
		g("Mixed", "1", "a", "b", "900+10") + g("Mixed", "2", "a", "b", "180+2") + g("Mixed", "3", "a", "b")
	im := importShape(t, Options{}, text)
	want := map[string]struct {
		class string
		games int
	}{"Open": {"rapid", 3}, "Club": {"standard", 2}, "Mixed": {"standard", 1}, "Mixed (rapid)": {"rapid", 1}, "Mixed (blitz)": {"blitz", 1}}
	if len(im.a.Tournaments) != len(want) {
		t.Fatalf("%d tournaments: %v", len(im.a.Tournaments), im.ts)
	}
	for name, w := range want {
		if tr, ok := im.ts[name]; !ok || *tr.TimeClass != w.class || len(im.games[name]) != w.games {
			t.Errorf("%s: %+v, %d games", name, tr, len(im.games[name]))
		}
	}
}

func TestPGNRoundRobinDetected(t *testing.T) {
	im := importShape(t, Options{}, tataSteel(""), broadcast())
	if s := *im.ts["Tata Steel Masters"].System; s != "round-robin" {
		t.Errorf("Tata Steel: %s", s)
	}
	if s := *im.ts["Open"].System; s != "swiss" {
		t.Errorf("broadcast Swiss: %s", s)
	}
	// EventType wins over detection.
	text := game("1-0", "Event", "E", "EventType", "swiss", "Date", "2025.01.01", "Round", "1", "White", "a", "Black", "b")
	if s := *importShape(t, Options{}, text).ts["E"].System; s != "swiss" {
		t.Errorf("EventType swiss: %s", s)
	}
}

// TestPGNLineEnds: LF, CRLF, CR, mixed line ends and a byte-order mark read the
// same games.
func TestPGNLineEnds(t *testing.T) {
	lf := tataSteel("")
	mixed := strings.Builder{}
	for i, line := range strings.SplitAfter(lf, "\n") {
		switch i % 3 {
		case 1:
			line = strings.TrimSuffix(line, "\n") + "\r\n"
		case 2:
			line = strings.TrimSuffix(line, "\n") + "\r"
		}
		mixed.WriteString(line)
	}
	// One game with CR-only line ends among LF ones.
	oneCR := pgnGameText("Tata Steel Masters", "14", "Late, A", "Late, B", "1-0", "1. e4") + // LF
		strings.ReplaceAll(pgnGameText("Tata Steel Masters", "14", "Late, C", "Late, D", "0-1", "1. d4"), "\n", "\r")
	want := importShape(t, Options{}, lf)
	for name, text := range map[string]string{
		"CRLF":  strings.ReplaceAll(lf, "\n", "\r\n"),
		"CR":    strings.ReplaceAll(lf, "\n", "\r"),
		"mixed": mixed.String(),
		"BOM":   "\ufeff" + strings.ReplaceAll(lf, "\n", "\r\n"),
	} {
		got := importShape(t, Options{}, text)
		if got.st.Imported != 91 || got.st.Forfeits != 4 || !slices.Equal(rowsOf(got), rowsOf(want)) {
			t.Errorf("%s: %+v", name, got.st)
		}
	}
	got := importShape(t, Options{}, lf+oneCR)
	if got.st.Read != 93 || got.st.Imported != 93 {
		t.Errorf("one CR-only game: %d read, %d imported", got.st.Read, got.st.Imported)
	}
	// A CR at a buffer's end followed by LF at the next one's start is one line end.
	r := NewPGNReader(strings.NewReader(strings.Repeat(" ", 64<<10-1)+"\r\n[White \"a\"]\r\n\r\n1-0"), "x.pgn")
	if !r.Next() || r.Game().Line != 2 {
		t.Errorf("CRLF across buffers: %+v", r.Game())
	}
}

// rowsOf is a tournament's games as comparable text.
func rowsOf(im *imported) []string {
	var rows []string
	for name, gs := range im.games {
		for _, g := range gs {
			rows = append(rows, fmt.Sprintf("%s %d %s %s %s %s", name, g.Round, im.names[g.WhiteID], im.names[*g.BlackID], g.WhiteResult, *g.BlackResult))
		}
	}
	slices.Sort(rows)
	return rows
}

// TestPGNFileStats: the summary per file: games read, kept, skipped by reason,
// events made.
func TestPGNFileStats(t *testing.T) {
	f0 := pgnGameText("A", "1", "a", "b", "1-0", "1. e4") + pgnGameText("A", "2", "a", "b", "*", "") +
		"[Event \"U\"]\n[White \"x\"]\n[Black \"y\"]\n[Result \"1-0\"]\n\n1-0\n\n"
	f1 := pgnGameText("A", "3", "b", "a", "0-1", "1. e4") + pgnGameText("B", "1", "c", "d", "1-0", "1. e4")
	_, st := importPGN(t, Options{}, f0, f1)
	got := []string{}
	for _, f := range st.ByFile {
		got = append(got, fmt.Sprintf("%s read %d kept %d events %d skipped %v", filepath.Base(f.Name), f.Read, f.Kept, f.Events, f.Skipped))
	}
	want := []string{
		"f0.pgn read 3 kept 1 events 1 skipped map[no date:1 unfinished:1]",
		"f1.pgn read 2 kept 2 events 1 skipped map[]",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPGNTagEscapes(t *testing.T) {
	r := NewPGNReader(strings.NewReader(`[White "a \"b\" c\\"] [Black "plain"] [Event "back\\slash \x"]`+"\n\n1-0\n"), "x.pgn")
	if !r.Next() {
		t.Fatal(r.Err())
	}
	g := r.Game()
	if g.Tags["White"] != `a "b" c\` || g.Tags["Black"] != "plain" || g.Tags["Event"] != `back\slash \x` {
		t.Errorf("%q", g.Tags)
	}
}
