package importer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ratelist/ratelist/archive"

	"github.com/ratelist/ratelist/internal/cp1252"
)

// pgnGameText is one game as a PGN file holds it; moves "" leaves the movetext
// out, as broadcast sites and pairing programs do.
func pgnGameText(event, round, white, black, result, moves string, tags ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Event \"%s\"]\n[Site \"Wijk aan Zee\"]\n[Date \"2022.01.15\"]\n[Round \"%s\"]\n[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n",
		event, round, white, black, result)
	for i := 0; i+1 < len(tags); i += 2 {
		fmt.Fprintf(&b, "[%s \"%s\"]\n", tags[i], tags[i+1])
	}
	b.WriteString("\n")
	if moves != "" {
		b.WriteString(moves + " " + result + "\n\n")
	}
	return b.String()
}

// importPGN imports PGN texts, one file each, into a new archive.
func importPGN(t *testing.T, opt Options, texts ...string) (*Archive, *Stats) {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i, text := range texts {
		name := filepath.Join(dir, "f"+strconv.Itoa(i)+".pgn")
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	a, err := Open(filepath.Join(dir, "archive"), opt)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ImportPGN(context.Background(), a, files, opt)
	return a, checkStats(t, st, err)
}

// newGames commits a and returns the games rows the import wrote.
func newGames(t testing.TB, a *Archive) []archive.GameRow {
	t.Helper()
	written, err := a.Commit()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range written {
		if filepath.Dir(w) == "games" {
			rows, err := readParquet[archive.GameRow](filepath.Join(a.Dir, w))
			if err != nil {
				t.Fatal(err)
			}
			return rows
		}
	}
	return nil
}

// broadcast is an 11-round Swiss of 110 players exported without moves: 605 games,
// 202 of them draws.
func broadcast(tags ...string) string {
	var b strings.Builder
	results := []string{"1-0", "0-1", "1/2-1/2"}
	for r := 1; r <= 11; r++ {
		for board := 0; board < 55; board++ {
			w, k := board, 55+(board+r)%55
			fmt.Fprint(&b, pgnGameText("Open", fmt.Sprintf("%d.%d", r, board+1), "P"+strconv.Itoa(w), "P"+strconv.Itoa(k),
				results[(r+board)%3], "", tags...))
		}
	}
	return b.String()
}

func TestPGNGamesWithoutMoves(t *testing.T) {
	a, st := importPGN(t, Options{}, broadcast())
	if st.Read != 605 || st.Imported != 605 || st.Forfeits != 0 || st.Tournaments != 1 {
		t.Fatalf("%d read, %d imported, %d forfeits, %d tournaments", st.Read, st.Imported, st.Forfeits, st.Tournaments)
	}
	for _, g := range newGames(t, a) {
		if !strings.Contains("10=", g.WhiteResult) {
			t.Fatalf("a game of a broadcast without moves is not played: %+v", g)
		}
	}
	if *a.Tournaments[0].Rounds != 11 {
		t.Errorf("%d rounds", *a.Tournaments[0].Rounds)
	}
}

// tataSteel is the shape of Tata Steel Masters 2022: a 14-player round robin with
// moves, except Dubov's last four games, lost without moves.
func tataSteel(termination string) string {
	const dubov = 3
	var b strings.Builder
	players := 14
	for r := 0; r < players-1; r++ {
		for i := 0; i < players/2; i++ {
			// Circle method: player 13 stays, the others rotate.
			w, k := (r+i)%(players-1), (r+players-1-i)%(players-1)
			if i == 0 {
				k = players - 1
			}
			white, black := name(w), name(k)
			result, moves, tags := []string{"1-0", "0-1", "1/2-1/2"}[(r+i)%3], "1. e4 e5 2. Nf3", []string(nil)
			if r >= 8 && r < 12 && (w == dubov || k == dubov) {
				result, moves = "1-0", ""
				if w == dubov {
					result = "0-1"
				}
				if termination != "" {
					tags = []string{"Termination", termination}
				}
			}
			fmt.Fprint(&b, pgnGameText("Tata Steel Masters", strconv.Itoa(r+1), white, black, result, moves, tags...))
		}
	}
	return b.String()
}

func name(i int) string {
	switch i {
	case 0:
		return "Carlsen, Magnus"
	case 3:
		return "Dubov, Daniil"
	}
	return "Player " + strconv.Itoa(i)
}

// TestPGNForfeits: Dubov's four moveless decisive games are forfeits; every other
// player, Carlsen included, keeps the 12 or 13 games played.
func TestPGNForfeits(t *testing.T) {
	a, st := importPGN(t, Options{}, tataSteel(""))
	if st.Read != 91 || st.Imported != 91 || st.Forfeits != 4 || len(st.Notes) != 4 {
		t.Fatalf("%d read, %d imported, %d forfeits, notes %v", st.Read, st.Imported, st.Forfeits, st.Notes)
	}
	if msg := st.Notes[0].Error(); !strings.Contains(msg, "Dubov, Daniil") || !strings.Contains(msg, "read as a forfeit") {
		t.Errorf("note: %s", msg)
	}
	ids := map[int64]string{}
	for _, p := range a.Players {
		ids[p.PlayerID] = p.Name
	}
	games := newGames(t, a)
	played, forfeits := map[string]int{}, map[string]int{}
	for _, g := range games {
		for _, side := range []struct {
			id  int64
			res string
		}{{g.WhiteID, g.WhiteResult}, {*g.BlackID, *g.BlackResult}} {
			if strings.Contains("+-", side.res) {
				forfeits[ids[side.id]]++
			} else {
				played[ids[side.id]]++
			}
		}
	}
	if played["Carlsen, Magnus"] != 12 || forfeits["Carlsen, Magnus"] != 1 {
		t.Errorf("Carlsen: %d played, %d forfeits", played["Carlsen, Magnus"], forfeits["Carlsen, Magnus"])
	}
	if played["Dubov, Daniil"] != 9 || forfeits["Dubov, Daniil"] != 4 {
		t.Errorf("Dubov: %d played, %d forfeits", played["Dubov, Daniil"], forfeits["Dubov, Daniil"])
	}
	for _, g := range games {
		if ids[g.WhiteID] == "Dubov, Daniil" && g.WhiteResult == "-" && *g.BlackResult != "+" {
			t.Errorf("forfeit codes %s/%s", g.WhiteResult, *g.BlackResult)
		}
	}
}

func TestPGNMoveless(t *testing.T) {
	tests := []struct {
		name     string
		mode     Moveless
		text     string
		forfeits int64
	}{
		{"broadcast stays played", MovelessAuto, broadcast(), 0},
		{"broadcast, Termination says forfeit", MovelessAuto, broadcast("Termination", "forfeit"), 605 - 202},
		{"broadcast, Termination abandoned", MovelessAuto, broadcast("Termination", "Abandoned"), 605 - 202},
		{"broadcast, Termination normal", MovelessAuto, broadcast("Termination", "normal"), 0},
		{"broadcast, Termination time forfeit", MovelessAuto, broadcast("Termination", "Time forfeit"), 0},
		{"Tata Steel", MovelessAuto, tataSteel(""), 4},
		{"Tata Steel, Termination rules infraction", MovelessAuto, tataSteel("rules infraction"), 4},
		{"--moveless played", MovelessPlayed, tataSteel("forfeit"), 0},
		{"--moveless forfeit, draws stay played", MovelessForfeit, broadcast(), 605 - 202},
		{"moveless draw in an event with moves", MovelessAuto,
			pgnGameText("E", "1", "a", "b", "1-0", "1. d4") + pgnGameText("E", "2", "a", "b", "1/2-1/2", "") +
				pgnGameText("E", "3", "a", "b", "0-1", "{White did not come} 1. e4"), 0},
		{"comment only is no move", MovelessAuto,
			pgnGameText("E", "1", "a", "b", "1-0", "1. d4") + pgnGameText("E", "2", "a", "b", "0-1", "{no show}") +
				pgnGameText("E", "3", "a", "b", "0-1", "1. e4"), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, st := importPGN(t, Options{Moveless: tt.mode}, tt.text)
			n := int64(0)
			for _, g := range newGames(t, a) {
				if strings.Contains("+-", g.WhiteResult) {
					n++
				}
			}
			if st.Forfeits != tt.forfeits || n != tt.forfeits || st.Imported != st.Read {
				t.Errorf("%d forfeits counted, %d in the games, want %d; %d read, %d imported", st.Forfeits, n, tt.forfeits, st.Read, st.Imported)
			}
		})
	}
}

func TestParseMoveless(t *testing.T) {
	for s, want := range map[string]Moveless{"auto": MovelessAuto, "played": MovelessPlayed, "forfeit": MovelessForfeit} {
		if got, err := ParseMoveless(s); got != want || err != nil {
			t.Errorf("%s: %v %v", s, got, err)
		}
	}
	if _, err := ParseMoveless("yes"); !errors.Is(err, ErrUsage) {
		t.Errorf("got %v", err)
	}
}

func TestPGNReaderMoves(t *testing.T) {
	tests := []struct {
		movetext string
		moves    bool
	}{
		{"1-0", false},
		{"{White did not appear} 1-0", false},
		{"1. $1 ! +- 0-1", false},
		{"1. e4 1-0", true},
		{"1.e4 1-0", true},
		{"1... Nf6 0-1", true},
		{"1. 0-0 1-0", true},
		{"1. O-O-O 1-0", true},
		{"(1. e4) 1-0", false},
	}
	for _, tt := range tests {
		r := NewPGNReader(strings.NewReader("[White \"a\"]\n\n"+tt.movetext+"\n"), "x.pgn")
		if !r.Next() || r.Game().Moves != tt.moves {
			t.Errorf("%q: moves %v, want %v", tt.movetext, r.Game() != nil && r.Game().Moves, tt.moves)
		}
	}
	if !isMove("Z0") || isMove("12...") || isMove("$14") {
		t.Error("isMove")
	}
}

// TestPGNLongLine: the game holding a line over the limit is skipped; the file
// goes on.
func TestPGNLongLine(t *testing.T) {
	in := "[White \"a\"]\n" + strings.Repeat("x", maxPGNLine+1) + "\n1-0\n\n[White \"b\"]\n\n0-1\n"
	r := NewPGNReader(strings.NewReader(in), "x.pgn")
	var got []string
	for r.Next() {
		if g := r.Game(); g.Err != nil {
			got = append(got, g.Err.Error())
		} else {
			got = append(got, g.Tags["White"]+" "+g.Termination)
		}
	}
	want := []string{"x.pgn:2: line longer than 1048576 bytes: malformed", "b 0-1"}
	if r.Err() != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, err %v", got, r.Err())
	}
	// A line of exactly the limit is read.
	r = NewPGNReader(strings.NewReader("[White \"a\"]\n{"+strings.Repeat("x", maxPGNLine-2)+"}\r\n1-0"), "x.pgn")
	if !r.Next() || r.Game().Err != nil || r.Game().Termination != "1-0" {
		t.Errorf("%+v", r.Game())
	}
}

// failAfter is a reader whose data ends in a read error.
type failAfter struct{ r io.Reader }

func (f failAfter) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, errors.New("input/output error")
	}
	return n, err
}

// TestPGNCounts: read = imported + skipped, whatever stops a game or a file.
func TestPGNCounts(t *testing.T) {
	good := pgnGameText("E", "1", "a", "b", "1-0", "1. e4")
	long := "[Event \"E\"]\n[White \"c\"]\n[Black \"d\"]\n[Result \"1-0\"]\n\n" + strings.Repeat("e4 ", maxPGNLine/3+1) + "\n\n"
	after := pgnGameText("E", "2", "a", "b", "0-1", "1. d4")
	_, st := importPGN(t, Options{}, good+long+after+"[Event \"E\"]\n\n[Event \"E\"]")
	if st.Read != 5 || st.Imported != 2 || st.FilesSkipped != 0 {
		t.Errorf("long line: %+v", st)
	}

	// A read error skips the file whole: the games read before it, and the
	// one it cut, are counted as skipped.
	st = &Stats{Files: 1}
	im := newPGNImport([]string{"x.pgn"}, st, Options{})
	r := NewPGNReader(failAfter{strings.NewReader(good + "[Event \"F\"]\n\n" + after + "[Event \"E\"]\n[White")}, "x.pgn")
	if err := im.countGames(context.Background(), r, 0, st); err != nil {
		t.Fatal(err)
	}
	if st.Read != 4 || st.Skipped != 4 || st.FilesSkipped != 1 || len(im.events.dated) != 0 {
		t.Errorf("read error: %+v, %d events", st, len(im.order))
	}
	if msg := st.Problems[len(st.Problems)-1].Error(); !strings.Contains(msg, "input/output error") {
		t.Errorf("problem: %s", msg)
	}
}

func TestPGNWindows1252(t *testing.T) {
	// "Müller, Jörg" and "Œstergård" in Windows-1252.
	latin := pgnGameText("Fr\xfchjahr", "1", "M\xfcller, J\xf6rg", "\x8cstergard, \xc5se", "1-0", "1. e4")
	a, st := importPGN(t, Options{}, latin)
	if st.Imported != 1 || len(st.Notes) != 1 || !strings.Contains(st.Notes[0].Error(), "Windows-1252") {
		t.Fatalf("%+v", st)
	}
	var names []string
	for _, p := range a.Players {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, "|") + "|" + a.Tournaments[0].Name; got != "Müller, Jörg|Œstergard, Åse|Frühjahr" {
		t.Errorf("got %q", got)
	}
	// A byte-order mark before Windows-1252 text is dropped too.
	a, st = importPGN(t, Options{}, "\ufeff"+latin)
	if st.Imported != 1 || len(st.Problems) != 0 || a.Players[0].Name != "Müller, Jörg" {
		t.Errorf("with a BOM: %v, %q", st.Problems, a.Players[0].Name)
	}
	// A UTF-8 file is read as UTF-8, even where its bytes would also be Latin-1.
	a, st = importPGN(t, Options{}, pgnGameText("E", "1", "Ã©a", "b", "1-0", "1. e4"))
	if a.Players[0].Name != "Ã©a" || len(st.Notes) != 0 {
		t.Errorf("got %q, %v", a.Players[0].Name, st.Notes)
	}
}

func TestDecodeWindows1252(t *testing.T) {
	var all []byte
	for c := 0; c < 256; c++ {
		all = append(all, byte(c))
	}
	s := cp1252.Decode(all)
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) != 256 {
		t.Fatalf("%q", s)
	}
	for i, want := range map[int]rune{0x41: 'A', 0x80: '€', 0x8A: 'Š', 0x9F: 'Ÿ', 0xA0: '\u00a0', 0xE9: 'é', 0xFF: 'ÿ'} {
		if got := []rune(s)[i]; got != want {
			t.Errorf("%#x: %q, want %q", i, got, want)
		}
	}
}

func TestValidUTF8(t *testing.T) {
	pad := strings.Repeat("a", 64<<10-1)
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"Müller", true},
		{pad + "ü" + pad, true}, // a character across two chunks
		{pad + "€", true},
		{pad + "\xe2\x82", false}, // cut at the end
		{"M\xfcller", false},
		{pad + "a\xfc", false},
	}
	for _, tt := range tests {
		got, err := validUTF8(strings.NewReader(tt.in))
		if err != nil || got != tt.want {
			t.Errorf("%q…: %v %v", tt.in[max(0, len(tt.in)-8):], got, err)
		}
	}
}

// TestPGNOutputText: whatever bytes a file holds, no control character reaches
// the archive: a tag value holding one (ESC, NUL, the C1 control Windows-1252
// leaves undefined) makes its game a problem naming the tag.
func TestPGNOutputText(t *testing.T) {
	a, st := importPGN(t, Options{}, pgnGameText("E\x1b[31m", "1", "a\xff\xfe", "b\x00\x9d", "1-0", "1. e4")+pgnGameText("E", "1", "a\xff", "b\x9d", "1-0", "1. e4"))
	if len(a.Players) != 0 || st.Skipped != 2 || len(st.Problems) != 2 {
		t.Fatalf("players %v, %+v", a.Players, st)
	}
	for i, want := range []string{"Event tag: control character U+001B at byte 2", "Black tag: control character U+009D at byte 2"} {
		if !strings.Contains(st.Problems[i].Error(), want) {
			t.Errorf("problem %q, want %q", st.Problems[i], want)
		}
	}
}

// BenchmarkPGNImport reads and groups 4,500 games, with moves and clock comments
// or without moves.
//
//	go test -run '^$' -bench PGNImport -benchmem ./importer
func BenchmarkPGNImport(b *testing.B) {
	var moves strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&moves, "%d. Nf3 {[%%clk 1:39:5%d]} Nf6 {[%%clk 1:39:40]} ", i, i%10)
	}
	for _, movetext := range []string{moves.String(), ""} {
		var text strings.Builder
		games := 0
		for ev := 0; ev < 100; ev++ {
			for r := 0; r < 9; r++ {
				for i := 0; i < 5; i++ {
					w, k := (r+i)%9, (r+9-i)%9
					if i == 0 {
						k = 9
					}
					text.WriteString(pgnGameText("Open "+strconv.Itoa(ev), strconv.Itoa(r+1), "Player "+strconv.Itoa(ev*7+w),
						"Player "+strconv.Itoa(ev*7+k), "1-0", movetext, "WhiteElo", "2100", "BlackElo", "2000"))
					games++
				}
			}
		}
		name := filepath.Join(b.TempDir(), "f.pgn")
		if err := os.WriteFile(name, []byte(text.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(map[bool]string{true: "moveless", false: "moves"}[movetext == ""], func(b *testing.B) {
			b.SetBytes(int64(text.Len()))
			b.ReportAllocs()
			for b.Loop() {
				a := newArchive("")
				st, err := ImportPGN(context.Background(), a, []string{name}, Options{})
				if err != nil || st.Imported != int64(games) {
					b.Fatalf("%v: %+v", err, st)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*games), "ns/game")
		})
	}
}

// TestPGNAmbiguousName: a name two archive players share matches neither; the
// import adds one new player for it, not one per game.
func TestPGNAmbiguousName(t *testing.T) {
	a, err := Open(filepath.Join(t.TempDir(), "archive"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for id := range int64(2) {
		a.Players = append(a.Players, archive.PlayerRow{PlayerID: id + 1, Name: "Smith, John"})
		a.index(len(a.Players) - 1)
	}
	a.nextPlayer = 3
	name := filepath.Join(t.TempDir(), "f.pgn")
	text := pgnGameText("E", "1", "Smith, John", "b", "1-0", "1. e4") + pgnGameText("E", "2", "b", "Smith, John", "1-0", "1. e4") +
		pgnGameText("E", "3", "Smith, John", "c", "1-0", "1. e4")
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := ImportPGN(context.Background(), a, []string{name}, Options{})
	checkStats(t, st, err)
	if st.NewPlayers != 3 || len(a.Players) != 5 {
		t.Errorf("%d new players, %d in all", st.NewPlayers, len(a.Players))
	}
}

// TestPGNEventOrder: events are added as soon as their last game is read, but
// take their ids in the order of their first games, also when they interleave
// or go on in a later file.
func TestPGNEventOrder(t *testing.T) {
	a, st := importPGN(t, Options{},
		pgnGameText("A", "1", "a", "b", "1-0", "1. e4")+pgnGameText("B", "1", "c", "d", "0-1", "1. d4")+
			pgnGameText("B", "2", "d", "c", "1-0", "1. c4")+pgnGameText("C", "1", "e", "f", "1/2-1/2", "1. f4"),
		pgnGameText("A", "2", "b", "a", "0-1", "1. e4"))
	if st.Read != 5 || st.Imported != 5 || st.Tournaments != 3 {
		t.Fatalf("%+v", st)
	}
	var names []string
	for _, tr := range a.Tournaments {
		names = append(names, fmt.Sprintf("%d %s", tr.TournamentID, tr.Name))
	}
	if got := strings.Join(names, ", "); got != "1 A, 2 B, 3 C" {
		t.Errorf("tournaments %s", got)
	}
	perTournament := map[int64]int{}
	for _, g := range newGames(t, a) {
		perTournament[g.TournamentID]++
	}
	if perTournament[1] != 2 || perTournament[2] != 2 || perTournament[3] != 1 {
		t.Errorf("games per tournament %v", perTournament)
	}
}

// TestPGNChangedBetweenReads: a file that reads otherwise the second time stops
// the import; Abort leaves no trace of it, not even the archive folder it made.
func TestPGNChangedBetweenReads(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.pgn")
	two := pgnGameText("A", "1", "a", "b", "1-0", "1. e4") + pgnGameText("A", "2", "b", "a", "1-0", "1. e4")
	if err := os.WriteFile(name, []byte(two), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(filepath.Join(dir, "archive"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := &Stats{}
	im := newPGNImport([]string{name}, st, Options{})
	if err := im.countFile(context.Background(), 0, st); err != nil {
		t.Fatal(err)
	}
	if err := im.settle(); err != nil {
		t.Fatal(err)
	}
	defer im.spill.close()
	changed := pgnGameText("A", "1", "a", "b", "1-0", "1. e4") + pgnGameText("B", "1", "b", "a", "1-0", "1. e4")
	if err := os.WriteFile(name, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := im.learnRounds(context.Background(), 0, &n, st); !errors.Is(err, errChanged) {
		t.Errorf("changed file: %v", err)
	}
	a.Abort()
	if _, err := os.Stat(a.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the archive folder is left: %v", err)
	}

	// A complete import whose archive folder is new writes it only on Commit's
	// success; Abort removes the games written so far.
	if err := os.WriteFile(name, []byte(two), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err = Open(filepath.Join(dir, "archive"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ImportPGN(context.Background(), a, []string{name}, Options{}); err != nil {
		t.Fatal(err)
	}
	if parts, _ := filepath.Glob(filepath.Join(a.Dir, ".games-*.tmp")); len(parts) != 1 {
		t.Fatalf("games part while importing: %v", parts)
	}
	a.Abort()
	if _, err := os.Stat(a.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the archive folder is left after Abort: %v", err)
	}
}
