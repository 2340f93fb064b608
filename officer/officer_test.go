package officer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/rating"
)

func ptr[T any](v T) *T { return &v }

// writeOut writes lists and cards as a run's --out folder holds them.
func writeOut(t *testing.T, lists map[string][]output.ListRow, cards []output.Card) string {
	t.Helper()
	out := t.TempDir()
	if err := os.MkdirAll(filepath.Join(out, "lists"), 0o755); err != nil {
		t.Fatal(err)
	}
	for label, rows := range lists {
		if err := parquet.WriteFile(filepath.Join(out, "lists", label+".parquet"), rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := parquet.WriteFile(filepath.Join(out, "cards.parquet"), cards); err != nil {
		t.Fatal(err)
	}
	return out
}

// fixture: four lists; between 2025-02 and 2025-03 player 3 falls below the
// floor, player 4 (flagged inactive) and player 5 (no reason) leave, player 6
// enters new and player 7 returns.
func fixture(t *testing.T) string {
	e := func(rank int32, id int64, name string, rating int32, flags string) output.ListRow {
		return output.ListRow{Rank: rank, PlayerID: id, Name: name, Rating: rating, K: 20, Flags: flags}
	}
	return writeOut(t, map[string][]output.ListRow{
		"2025-01": {e(1, 1, "Ann", 2000, ""), e(2, 7, "Gus", 1500, "")},
		"2025-02": {e(1, 1, "Ann", 2000, ""), e(2, 2, "Bob", 1900, ""), e(3, 3, "Cid", 1450, ""), e(4, 4, "Dan", 1420, "i"), e(5, 5, "Eve", 1410, "")},
		"2025-03": {e(1, 2, "Bob", 1960, ""), e(2, 1, "Ann", 1990, ""), e(3, 6, "Fay", 1700, "new"), e(4, 7, "Gus", 1480, "")},
		"2024-12": {e(1, 1, "Ann", 1990, "new")},
	}, []output.Card{
		{Period: "2025-03", TournamentID: 9, PlayerID: 3, Name: "Cid", Games: 5, Score: 1, Change: -60, RatingBefore: ptr[int32](1450), Reason: "fide-below-floor"},
		{Period: "2025-03", TournamentID: 9, PlayerID: 2, Name: "Bob", Games: 5, Score: 4, Change: 60, RatingBefore: ptr[int32](1900), RatingAfter: ptr[int32](1960), K: ptr[int32](20), Reason: "fide-period"},
		{Period: "2025-02", TournamentID: 8, PlayerID: 3, Name: "Cid", Games: 4, Score: 2, Change: 0, Reason: "rated"},
	})
}

func TestDiffLists(t *testing.T) {
	out := fixture(t)
	from, to, err := LatestTwo(out, nil)
	if err != nil || from != "2025-02" || to != "2025-03" {
		t.Fatalf("latest two: %s %s %v", from, to, err)
	}
	if f, _, err := LatestTwo(out, []string{"2025-02"}); err != nil || f != "2025-01" {
		t.Errorf("list before 2025-02: %s %v", f, err)
	}
	if _, _, err := LatestTwo(out, []string{"2030-01"}); !errors.Is(err, ErrNoList) {
		t.Errorf("unknown list: %v", err)
	}
	d, err := DiffLists(out, from, to)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range d.Entries {
		got = append(got, e.Name+" "+e.Reason)
	}
	for _, e := range d.Exits {
		got = append(got, e.Name+" "+e.Reason)
	}
	want := []string{"Fay new", "Gus returned", "Cid below-floor", "Dan inactive", "Eve not-listed"}
	if !slices.Equal(got, want) {
		t.Errorf("entries and exits %q, want %q", got, want)
	}
	if len(d.Moves) != 2 {
		t.Fatalf("moves %+v", d.Moves)
	}
	if up := d.Movers(5, true); len(up) != 1 || up[0].Name != "Bob" {
		t.Errorf("gains %+v", up)
	}
	if down := d.Movers(5, false); len(down) != 1 || down[0].Name != "Ann" || down[0].RankAfter != 2 {
		t.Errorf("losses %+v", down)
	}
	var b bytes.Buffer
	if err := WriteTables(&b, CSV, d.Table()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "exit,3,Cid,3,,1450,,,below-floor\n") || !strings.Contains(b.String(), "move,2,Bob,2,1,1900,1960,+60,\n") {
		t.Errorf("diff CSV:\n%s", b.String())
	}
}

func TestPlayerHistory(t *testing.T) {
	out := fixture(t)
	lists, cards, err := PlayerHistory(out, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(lists.Rows) != 1 || lists.Rows[0][0] != "2025-02" || len(cards.Rows) != 2 || cards.Rows[1][0] != "2025-02" {
		t.Errorf("lists %q cards %q", lists.Rows, cards.Rows)
	}
	if _, _, err := PlayerHistory(out, 99); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("unknown player: %v", err)
	}
}

func TestTournamentCards(t *testing.T) {
	out := fixture(t)
	tb, err := TournamentCards(out, 9)
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Rows) != 2 || tb.Rows[1][1] != "Bob" {
		t.Errorf("rows %q", tb.Rows)
	}
	text := tb.DropEmptyColumns()
	if slices.Contains(text.Header, "opponent_id") || !slices.Contains(text.Header, "change") {
		t.Errorf("text columns %q", text.Header)
	}
	if _, err := TournamentCards(out, 77); !errors.Is(err, ErrNoCards) {
		t.Errorf("unknown tournament: %v", err)
	}
}

// TestFideTXTColumns: every line is as wide as FIDE's standard list, and each
// field starts at FIDE's column.
func TestFideTXTColumns(t *testing.T) {
	rows := []ListRow{{ID: 4100018, Name: "Ivanova, Anna", Federation: "RUS", Sex: "F", Title: "WGM", WTitle: "WGM", Rating: 2301, Games: 9, K: 20, BirthYear: 1999, Flag: "wi"}}
	var b bytes.Buffer
	if err := WriteList(&b, rows, "2025-06", FideTXT); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\r\n"), "\r\n")
	if lines[0] != "ID Number      Name                                                         Fed Sex Tit  WTit OTit           FOA JUN25 Gms K  B-day Flag" {
		t.Errorf("header %q", lines[0])
	}
	for _, l := range lines {
		if len(l) != 136 {
			t.Errorf("line of %d characters: %q", len(l), l)
		}
	}
	l := lines[1]
	for at, want := range map[int]string{0: "4100018", 15: "Ivanova, Anna", 76: "RUS", 80: "F", 84: "WGM", 89: "WGM", 113: "2301", 119: "9", 123: "20", 126: "1999", 132: "wi"} {
		if !strings.HasPrefix(l[at:], want+" ") && !strings.HasPrefix(l[at:], want) {
			t.Errorf("at %d: %q, want %q", at, l[at:min(len(l), at+8)], want)
		}
	}
	for period, code := range map[string]string{"2025-Q2": "JUN25", "2024": "DEC24", "2025-01": "JAN25"} {
		if got := monthCode(period); got != code {
			t.Errorf("monthCode(%s) = %s, want %s", period, got, code)
		}
	}
}

func TestListRows(t *testing.T) {
	list := []output.ListRow{{Rank: 1, PlayerID: 5, Name: "Ann", Rating: 2100, GamesPeriod: 4, K: 20, Flags: "i"}, {Rank: 2, PlayerID: 6, Name: "Bob", Rating: 2000}}
	players := map[int64]Player{5: {ID: 5, FideID: 900001, Federation: "ISL", Sex: "w", Title: "WFM", BirthYear: 2001}}
	rows := ListRows(list, players, true)
	want := ListRow{ID: 900001, Name: "Ann", Federation: "ISL", Sex: "F", Title: "WFM", WTitle: "WFM", Rating: 2100, Games: 4, K: 20, BirthYear: 2001, Flag: "wi"}
	if rows[0] != want || rows[1].ID != 0 || rows[1].Sex != "" {
		t.Errorf("rows %+v", rows)
	}
	if r := ListRows(list, nil, false); r[1].ID != 6 || r[0].Flag != "i" {
		t.Errorf("without players: %+v", r)
	}
	// The same player columns on the list itself, birth_date for birth_year.
	list[0].FideID, list[0].Federation, list[0].Sex, list[0].Title, list[0].BirthDate = 900001, "ISL", "w", "WFM", ptr[int32](11400)
	if rows := ListRows(list, nil, true); rows[0] != want {
		t.Errorf("from the list: %+v, want %+v", rows[0], want)
	}
}

// TestListWithoutK: a list of a rule set without K exports its K empty in
// every shape, and a list with K keeps its 0.
func TestListWithoutK(t *testing.T) {
	rows := []ListRow{{ID: 7, Name: "Ann", Rating: 1500, Games: 3}}
	k := func(f ListFormat, noK bool) string {
		rows[0].NoK = noK
		var b bytes.Buffer
		if err := WriteList(&b, rows, "2025-06", f); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if txt := strings.Split(k(FideTXT, true), "\r\n")[1]; txt[123:126] != "   " {
		t.Errorf("fide-txt K %q, want blank", txt[123:126])
	}
	if txt := strings.Split(k(FideTXT, false), "\r\n")[1]; txt[123:126] != "0  " {
		t.Errorf("fide-txt K %q, want 0", txt[123:126])
	}
	if x := k(FideXML, true); !strings.Contains(x, "<k></k>") {
		t.Errorf("fide-xml without K:\n%s", x)
	}
	if x := k(FideXML, false); !strings.Contains(x, "<k>0</k>") {
		t.Errorf("fide-xml with K:\n%s", x)
	}
	if c := k(ListCSV, true); !strings.HasSuffix(c, "\n7,Ann,,,,,1500,3,,,\n") {
		t.Errorf("csv without K:\n%s", c)
	}
	if c := k(ListCSV, false); !strings.HasSuffix(c, "\n7,Ann,,,,,1500,3,0,,\n") {
		t.Errorf("csv with K:\n%s", c)
	}
	out := fixture(t)
	if noK, err := ListWithoutK(out, "2025-01"); err != nil || noK {
		t.Errorf("fixture list: ListWithoutK = %v, %v; want false", noK, err)
	}
	if _, err := ListWithoutK(out, "2030-01"); !errors.Is(err, ErrNoList) {
		t.Errorf("missing list: %v, want ErrNoList", err)
	}
}

// TestReadOlderList: a list written without the player columns reads with
// them empty.
func TestReadOlderList(t *testing.T) {
	type older struct {
		Rank     int32  `parquet:"rank"`
		PlayerID int64  `parquet:"player_id"`
		Name     string `parquet:"name"`
		Rating   int32  `parquet:"rating"`
		Change   *int32 `parquet:"change,optional"`
		Flags    string `parquet:"flags"`
	}
	out := t.TempDir()
	os.MkdirAll(filepath.Join(out, "lists"), 0o755)
	if err := parquet.WriteFile(filepath.Join(out, "lists", "2025-01.parquet"), []older{{Rank: 1, PlayerID: 5, Name: "Ann", Rating: 2100, Flags: "i"}}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadList(out, "2025-01")
	if err != nil {
		t.Fatal(err)
	}
	if want := (output.ListRow{Rank: 1, PlayerID: 5, Name: "Ann", Rating: 2100, Flags: "i"}); len(got) != 1 || got[0] != want {
		t.Errorf("read %+v, want %+v", got, want)
	}
}

// TestCSVFormulaCells: the CSV outputs of export list, diff, player and cards
// write a text cell starting with =, +, - or @ with a leading ' so that
// spreadsheets do not run it; numbers (a change of -6) stay numbers.
func TestCSVFormulaCells(t *testing.T) {
	var b bytes.Buffer
	if err := WriteList(&b, []ListRow{{ID: 7, Name: "=HYPERLINK(\"x\")", Federation: "@A", Rating: 1500}}, "2025-06", ListCSV); err != nil {
		t.Fatal(err)
	}
	if row := strings.Split(b.String(), "\n")[1]; !strings.HasPrefix(row, `7,"'=HYPERLINK(""x"")",'@A,`) {
		t.Errorf("export list csv row %q", row)
	}
	b.Reset()
	tab := Table{Header: []string{"name", "change"}, Rows: [][]string{{"+1 Club", "-6"}, {"-x", "2.5"}}}
	if err := WriteTables(&b, CSV, tab); err != nil {
		t.Fatal(err)
	}
	if want := "name,change\n'+1 Club,-6\n'-x,2.5\n"; b.String() != want {
		t.Errorf("table csv %q, want %q", b.String(), want)
	}
}

// TestCardGames: a FIDE run's games in card_games.parquet show as cards of one
// game: on the player's history right before the row of their period, on the
// tournament's cards after its own rows, each with the Ro (rating_before) of
// its period's row and the player's name.
func TestCardGames(t *testing.T) {
	out := writeOut(t, nil, []output.Card{
		{Period: "2025-02", TournamentID: 7, PlayerID: 1, Name: "Ann", Reason: "fide-zero-first"},
		{Period: "2025-02", PlayerID: 1, Name: "Ann", Games: 2, Score: 1.5, OppAverage: ptr[int32](1850), Reason: "fide-initial-low"},
		{Period: "2025-02", PlayerID: 2, Name: "Bob", Games: 1, Score: 1, RatingBefore: ptr[int32](1900), K: ptr[int32](20),
			Expected: ptr(0.64), ChangeUnrounded: ptr(7.2), Change: 7, RatingAfter: ptr[int32](1907), Reason: "fide-period"},
	})
	games := []output.CardGame{
		{Period: "2025-02", PlayerID: 1, TournamentID: 7, EndDate: 20100, OpponentID: 2, OpponentRating: 1900, W: 1, Reason: "fide-pool-game"},
		{Period: "2025-02", PlayerID: 1, TournamentID: 8, EndDate: 20110, OpponentID: 3, OpponentRating: 1800, W: 0.5, Reason: "fide-pool-game"},
		{Period: "2025-02", PlayerID: 2, TournamentID: 7, EndDate: 20100, OpponentID: 1, OpponentRating: 1800, W: 1,
			D: ptr[int32](100), PD: ptr(0.64), ChangeUnrounded: ptr(7.2), Reason: "fide-game"},
	}
	if err := parquet.WriteFile(filepath.Join(out, "card_games.parquet"), games); err != nil {
		t.Fatal(err)
	}
	col := func(tb Table, name string) int { return slices.Index(tb.Header, name) }
	_, cards, err := PlayerHistory(out, 1)
	if err != nil {
		t.Fatal(err)
	}
	reason, opp := col(cards, "reason"), col(cards, "opponent_id")
	var got []string
	for _, r := range cards.Rows {
		got = append(got, r[1]+" "+r[reason]+" "+r[opp])
	}
	if want := []string{"7 fide-zero-first ", "7 fide-pool-game 2", "8 fide-pool-game 3", "0 fide-initial-low "}; !slices.Equal(got, want) {
		t.Errorf("player 1's cards %q, want %q", got, want)
	}
	tb, err := TournamentCards(out, 7)
	if err != nil {
		t.Fatal(err)
	}
	before, w, pd := col(tb, "rating_before"), col(tb, "w"), col(tb, "pd")
	got = nil
	for _, r := range tb.Rows {
		got = append(got, strings.Join([]string{r[1], r[col(tb, "reason")], r[before], r[w], r[pd], r[col(tb, "k")]}, " "))
	}
	want := []string{"Ann fide-zero-first    ", "Ann fide-pool-game  1  ", "Bob fide-game 1900 1 0.64 20"}
	if !slices.Equal(got, want) || !strings.Contains(tb.Title, "3 cards") {
		t.Errorf("tournament 7: %s\n%q, want %q", tb.Title, got, want)
	}
}

// TestPlayerAddedColumns: the player view shows the columns a rule set adds
// to its lists and cards, named and printed as it declares them.
func TestPlayerAddedColumns(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 60, Games: 2000, Months: 3, Seed: 5, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	def, ok := rating.Lookup("glicko2")
	if !ok {
		t.Skip("no rule set with columns of its own registered")
	}
	rules, err := pipeline.DefaultRules(def.Name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(dir), Out: out, Rules: rules, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	list, err := ReadList(out, mustLatest(t, out))
	if err != nil || len(list) == 0 {
		t.Fatalf("list: %v", err)
	}
	lists, cards, err := PlayerHistory(out, list[0].PlayerID)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(slices.Clip(listHeader), names(def.Columns.List)...); !slices.Equal(lists.Header, want) {
		t.Errorf("lists header %q, want %q", lists.Header, want)
	}
	for _, c := range slices.Concat(def.Columns.Cards, def.Columns.Games) {
		if !slices.Contains(cards.Header, c.Name) {
			t.Errorf("cards header %q lacks %s", cards.Header, c.Name)
		}
	}
	// The tournament's cards show the rule set's card columns too.
	var tour int64
	for _, r := range cards.Rows {
		if id, _ := strconv.ParseInt(r[1], 10, 64); id != 0 {
			tour = id
			break
		}
	}
	tc, err := TournamentCards(out, tour)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range def.Columns.Games {
		if !slices.Contains(tc.Header, c.Name) {
			t.Errorf("tournament %d cards header %q lacks %s", tour, tc.Header, c.Name)
		}
	}
	// Without K: k is empty on the lists and the cards, expected is on every card.
	if k := lists.Rows[len(lists.Rows)-1][slices.Index(listHeader, "k")]; def.Columns.NoK && k != "" {
		t.Errorf("list k = %q, want empty: the rule set has no K", k)
	}
	if noK, err := ListWithoutK(out, mustLatest(t, out)); err != nil || noK != def.Columns.NoK {
		t.Errorf("ListWithoutK = %v, %v; want %v", noK, err, def.Columns.NoK)
	}
	ck, ce := slices.Index(cards.Header, "k"), slices.Index(cards.Header, "expected")
	for _, r := range cards.Rows {
		if k, e := r[ck], r[ce]; def.Columns.NoK && (k != "" || e == "") {
			t.Errorf("card %q: k %q, expected %q; want no k and an expected score", r, k, e)
		}
	}
	// The first added list column as declared: its decimals, the rating's value.
	c := def.Columns.List[0]
	cell := lists.Rows[len(lists.Rows)-1][len(listHeader)]
	if dot := strings.IndexByte(cell, '.'); c.Decimals > 0 && (dot < 0 || len(cell)-dot-1 != c.Decimals) {
		t.Errorf("%s = %q: want %d decimals", c.Name, cell, c.Decimals)
	}
}

func mustLatest(t *testing.T, out string) string {
	t.Helper()
	ps, err := Periods(out)
	if err != nil || len(ps) == 0 {
		t.Fatalf("periods: %v %v", ps, err)
	}
	return ps[len(ps)-1]
}
