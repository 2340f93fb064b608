package pipeline

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/joker"
)

// jokerPlayers are the players of the hand-made Joker archives; Gus never
// plays Joker.
const jokerPlayers = `player_id,name,birth_year,category,fide_rating,club
1,Ann,,,,
2,Bob,,,,
3,Cid,,,,
4,Dan,,,,
5,Eve,,,,
6,Fay,,,,
7,Gus,,,,
`

// jokerTables holds four games, rows shuffled and in several time spellings.
// Game 9 and game 13 share played_at, so game_id orders them. The expected
// lists below were computed by hand from docs/joker.md:
//
// Game 10 (Jan 5, finished; all level 0, so m = 1): places 1..4 give
// 1: +15 → 15, 2: +5 → 5, 3: −0 → 0, 4: −1 floored → 0. Personal: scores
// 450, 230, 0, −350 give 4, 2, 0, 0; player 4's T = 3 gives 1 to each of
// the others: 1 → 5, 2 → 3, 3 → 1, 4 → 0.
//
// Game 11 (Jan 20, a DATE: midnight; stopped in pulka 2, player 5 left):
// leaver 5: −2 floored → 0; 1, 2, 6 unchanged (stopped early). Personal:
// scores 210, 50, −120, 130 give 2, 0, 0, 1; player 5's T = 1 gives 0 each
// and the remainder 1 to the best placed (player 1, 1st); the bonus is
// 5 × 2 = 10 for 1, 2, 6: 1 → 5+13 = 18, 2 → 3+10 = 13, 6 → 11, 5 → 0.
//
// Game 9 (Feb 3 12:00, stopped in pulka 4, player 3 left): leaver 3: −4
// floored → 0; the place table applies to the others: 4 (1st) +15 → 15,
// 5 (2nd) +5 → 5, 6 (3rd) −0 → 0. Personal: scores 100, 500, 300, 200
// give 1, 5, 3, 2, plus the bonus 20 for 4, 5, 6: 3 → 2, 4 → 25, 5 → 23,
// 6 → 33.
//
// Game 13 (Feb 3 12:00, after game 9; finished): 1 (4th) −1 → 14, 2 (3rd)
// −0 → 5, 3 (2nd) +5 → 5, 4 (1st) +15 → 30. Personal: scores −90, 10, 300,
// 600 give 0, 0, 3, 6 (player 1's T = 0 hands over nothing): 3 → 5, 4 → 31.
const jokerTables = `game_id,tournament_id,played_at,player_id,place,score,left_table,stopped_pulka
13,,2025-02-03 12:00:00,4,1,600,false,
10,,2025-01-05T10:00:00Z,1,1,450,false,
10,,2025-01-05T10:00:00Z,2,2,230,false,
9,,2025-02-03T12:00:00Z,3,4,100,true,4
9,,2025-02-03T12:00:00Z,4,1,500,false,4
11,,2025-01-20,1,1,210,false,2
11,,2025-01-20,2,3,50,,2
13,,2025-02-03 12:00:00,1,4,-90,false,
11,,2025-01-20,5,4,-120,true,2
11,,2025-01-20,6,2,130,false,2
10,,2025-01-05T10:00:00Z,3,3,0,false,
10,,2025-01-05T10:00:00Z,4,4,-350,false,
9,,2025-02-03T12:00:00Z,5,2,300,false,4
9,,2025-02-03T12:00:00Z,6,3,200,false,4
13,,2025-02-03 12:00:00,2,3,10,false,
13,,2025-02-03 12:00:00,3,2,300,false,
`

var jokerWantLists = map[string]string{
	"2025-01": `rank,player_id,name,player_rating,level,level_name,personal_rating,games_total
1,1,Ann,15,0,Teapot,18,2
2,2,Bob,5,0,Teapot,13,2
3,6,Fay,0,0,Teapot,11,1
4,3,Cid,0,0,Teapot,1,1
5,4,Dan,0,0,Teapot,0,1
6,5,Eve,0,0,Teapot,0,1
`,
	"2025-02": `rank,player_id,name,player_rating,level,level_name,personal_rating,games_total
1,4,Dan,30,0,Teapot,31,3
2,1,Ann,14,0,Teapot,18,3
3,5,Eve,5,0,Teapot,23,2
4,2,Bob,5,0,Teapot,13,3
5,3,Cid,5,0,Teapot,5,3
6,6,Fay,0,0,Teapot,33,2
`,
}

func jokerRun(t *testing.T, dir string, rules *Rules) (string, *Summary) {
	t.Helper()
	out := t.TempDir()
	opt := Options{Archive: os.DirFS(dir), ArchiveName: "a", Out: out, Workers: 2}
	if rules != nil {
		opt.Rules = *rules
	}
	sum, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return out, sum
}

func jokerListFiles(t *testing.T, out string) []string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(out, "lists", "joker"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestJokerHandComputed: an archive of players and tables only (no games, no
// tournaments) gives the hand-computed Joker lists and audit trail.
func TestJokerHandComputed(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{"players.csv": jokerPlayers, "tables.csv": jokerTables})
	out, sum := jokerRun(t, dir, nil)

	want := []string{"2025-01.csv", "2025-01.parquet", "2025-02.csv", "2025-02.parquet"}
	if got := jokerListFiles(t, out); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("joker lists %v, want %v", got, want)
	}
	for label, wantCSV := range jokerWantLists {
		got, err := os.ReadFile(filepath.Join(out, "lists", "joker", label+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != wantCSV {
			t.Errorf("list %s:\n%s\nwant:\n%s", label, got, wantCSV)
		}
		rows, err := parquet.ReadFile[joker.ListFileRow](filepath.Join(out, "lists", "joker", label+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		sb.WriteString(joker.Definition.List.CSVHeader)
		for _, r := range rows {
			fmt.Fprintf(&sb, "%d,%d,%s,%d,%d,%s,%d,%d\n", r.Rank, r.PlayerID, r.Name, r.PlayerRating, r.Level, r.LevelName, r.PersonalRating, r.GamesTotal)
		}
		if sb.String() != wantCSV {
			t.Errorf("list %s.parquet:\n%s\nwant:\n%s", label, sb.String(), wantCSV)
		}
	}

	if c := sum.Tables["tables"]; c == nil || c.Read != 16 || c.Used != 16 || c.Rejected != 0 {
		t.Errorf("tables counts %+v, want 16 read and used", c)
	}
	if sum.RowsRead != sum.RowsUsed+sum.RowsRejected {
		t.Errorf("summary: read %d != used %d + rejected %d", sum.RowsRead, sum.RowsUsed, sum.RowsRejected)
	}
	j := sum.Table(joker.Name)
	if j == nil || j.GamesRated != 4 || !slices.Equal(j.RuleSet, []rating.SummaryField{{Key: "games_stopped", Value: 2}}) || j.Lists != 2 || j.FirstList != "2025-01" || j.LastList != "2025-02" || j.PlayersListed != 6 {
		t.Errorf("joker summary %+v", j)
	}
	if sum.Lists != 0 || sum.TournamentsRated != 0 {
		t.Errorf("chess lists %d, tournaments rated %d: want none", sum.Lists, sum.TournamentsRated)
	}

	// The audit trail: 16 rows in rating order; spot-check the leavers.
	cards, err := parquet.ReadFile[joker.CardFileRow](filepath.Join(out, "joker_cards.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cards) != 16 {
		t.Fatalf("%d audit rows, want 16", len(cards))
	}
	var order []int64
	for k := 0; k < 16; k += 4 {
		order = append(order, cards[k].GameID)
	}
	if fmt.Sprint(order) != "[10 11 9 13]" {
		t.Errorf("games rated in order %v, want [10 11 9 13]", order)
	}
	leaver := cards[6] // game 11, seats by player_id 1, 2, 5, 6
	if leaver.PlayerID != 5 || leaver.Reason != "leave" || leaver.LeavePenalty != -2 || leaver.PlayerChange != 0 ||
		!leaver.Floored || leaver.StoppedPulka == nil || *leaver.StoppedPulka != 2 || !leaver.Left {
		t.Errorf("game 11 leaver row %+v", leaver)
	}
	if c := cards[4]; c.PlayerID != 1 || c.Reason != "stopped-early" || c.PersonalTransfer != 1 || c.PersonalBonus != 10 || c.PersonalRating != 18 {
		t.Errorf("game 11 player 1 row %+v", c)
	}
	if c := cards[9]; c.GameID != 9 || c.PlayerID != 4 || c.Reason != "place" || c.PlayerChange != 15 || c.Multiplier != 1 || c.Period != "2025-02" {
		t.Errorf("game 9 player 4 row %+v", c)
	}

	// Validate mode reads and rates the same but writes nothing.
	vs, err := Run(context.Background(), Options{Archive: os.DirFS(dir)})
	if err != nil {
		t.Fatal(err)
	}
	if vj := vs.Table(joker.Name); vj == nil || !reflect.DeepEqual(vj, j) {
		t.Errorf("validate joker summary %+v, run %+v", vj, j)
	}
}

// TestJokerParquetInput: the same archive in Parquet gives the same outputs.
func TestJokerParquetInput(t *testing.T) {
	csvDir, pqDir := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, csvDir, map[string]string{"players.csv": jokerPlayers, "tables.csv": jokerTables})
	var players []archive.PlayerRow
	recs, _ := csv.NewReader(strings.NewReader(jokerPlayers)).ReadAll()
	for _, r := range recs[1:] {
		id, _ := strconv.ParseInt(r[0], 10, 64)
		players = append(players, archive.PlayerRow{PlayerID: id, Name: r[1]})
	}
	var tables []archive.TableRow
	recs, _ = csv.NewReader(strings.NewReader(jokerTables)).ReadAll()
	for _, r := range recs[1:] {
		at, err := archive.ParseCell(archive.Time, r[2])
		if err != nil {
			t.Fatal(err)
		}
		n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
		tr := archive.TableRow{GameID: n(r[0]), PlayedAt: at, PlayerID: n(r[3]), Place: int32(n(r[4])),
			Score: int32(n(r[5])), LeftTable: ptr(r[6] == "true")}
		if r[7] != "" {
			tr.StoppedPulka = ptr(int32(n(r[7])))
		}
		tables = append(tables, tr)
	}
	if err := parquet.WriteFile(filepath.Join(pqDir, "players.parquet"), players); err != nil {
		t.Fatal(err)
	}
	if err := parquet.WriteFile(filepath.Join(pqDir, "tables.parquet"), tables); err != nil {
		t.Fatal(err)
	}
	a, _ := jokerRun(t, csvDir, nil)
	b, _ := jokerRun(t, pqDir, nil)
	sameTrees(t, "csv vs parquet", readTree(t, a), readTree(t, b), func(n string) bool { return n == "rejects.csv" })
}

// TestJokerRejects plants every kind of bad game; each row of a bad game lands
// in rejects.csv with its row number and a reason naming the problem, the
// good games are rated, and the counts add up.
func TestJokerRejects(t *testing.T) {
	const hdr = "game_id,tournament_id,played_at,player_id,place,score,left_table,stopped_pulka\n"
	type plant struct {
		name   string
		rows   string
		reason []string // per row, a prefix of the reason ("" = the row is used)
	}
	const seat = "joker game must have exactly 4 seats"
	plants := []plant{
		{"good", "1,,2025-03-01T10:00:00Z,1,1,300,false,\n1,,2025-03-01T10:00:00Z,2,2,200,false,\n1,,2025-03-01T10:00:00Z,3,3,100,false,\n1,,2025-03-01T10:00:00Z,4,4,0,false,\n",
			[]string{"", "", "", ""}},
		{"three seats", "2,,2025-03-02,1,1,0,false,\n2,,2025-03-02,2,2,0,false,\n2,,2025-03-02,3,3,0,false,\n",
			[]string{seat + ": game 2 has 3 rows", seat, seat}},
		{"five seats", "3,,2025-03-02,1,1,0,false,\n3,,2025-03-02,2,2,0,false,\n3,,2025-03-02,3,3,0,false,\n3,,2025-03-02,4,4,0,false,\n3,,2025-03-02,5,4,0,false,\n",
			[]string{seat + ": game 3 has 5 rows", seat, seat, seat, seat}},
		{"same player twice", "4,,2025-03-02,1,1,0,false,\n4,,2025-03-02,1,2,0,false,\n4,,2025-03-02,3,3,0,false,\n4,,2025-03-02,4,4,0,false,\n",
			[]string{"joker game must have 4 distinct players: game 4", "joker game must have 4 distinct", "joker game must have 4 distinct", "joker game must have 4 distinct"}},
		{"place 5", "5,,2025-03-02,1,1,0,false,\n5,,2025-03-02,2,2,0,false,\n5,,2025-03-02,3,5,0,false,\n5,,2025-03-02,4,4,0,false,\n",
			[]string{"joker place not in 1-4: game 5: seat 3: place 5", "joker place not in 1-4", "joker place not in 1-4", "joker place not in 1-4"}},
		{"tied places", "6,,2025-03-02,1,1,0,false,\n6,,2025-03-02,2,1,0,false,\n6,,2025-03-02,3,3,0,false,\n6,,2025-03-02,4,4,0,false,\n",
			[]string{"joker places tied: game 6", "joker places tied", "joker places tied", "joker places tied"}},
		{"pulka mismatch", "7,,2025-03-02,1,1,0,false,2\n7,,2025-03-02,2,2,0,false,2\n7,,2025-03-02,3,3,0,false,\n7,,2025-03-02,4,4,0,false,2\n",
			[]string{"joker seats disagree on stopped pulka: game 7", "joker seats disagree on stopped pulka", "joker seats disagree on stopped pulka", "joker seats disagree on stopped pulka"}},
		{"pulka 5", "8,,2025-03-02,1,1,0,false,5\n8,,2025-03-02,2,2,0,false,5\n8,,2025-03-02,3,3,0,false,5\n8,,2025-03-02,4,4,0,false,5\n",
			[]string{"joker stopped pulka not in 1-4: game 8", "joker stopped pulka not in 1-4", "joker stopped pulka not in 1-4", "joker stopped pulka not in 1-4"}},
		{"pulka 0", "16,,2025-03-02,1,1,0,false,0\n16,,2025-03-02,2,2,0,false,0\n16,,2025-03-02,3,3,0,false,0\n16,,2025-03-02,4,4,0,false,0\n",
			[]string{"joker stopped pulka not in 1-4: game 16", "joker stopped pulka not in 1-4", "joker stopped pulka not in 1-4", "joker stopped pulka not in 1-4"}},
		{"two leavers", "9,,2025-03-02,1,1,0,false,3\n9,,2025-03-02,2,2,0,false,3\n9,,2025-03-02,3,3,0,true,3\n9,,2025-03-02,4,4,0,true,3\n",
			[]string{"joker game has more than one leaver: game 9", "joker game has more than one leaver", "joker game has more than one leaver", "joker game has more than one leaver"}},
		{"leaver in a finished game", "10,,2025-03-02,1,1,0,false,\n10,,2025-03-02,2,2,0,false,\n10,,2025-03-02,3,3,0,false,\n10,,2025-03-02,4,4,0,true,\n",
			[]string{"joker leaver in a game played to the end: game 10", "joker leaver in a game played to the end", "joker leaver in a game played to the end", "joker leaver in a game played to the end"}},
		{"played_at differs", "11,,2025-03-02,1,1,0,false,\n11,,2025-03-02,2,2,0,false,\n11,,2025-03-03,3,3,0,false,\n11,,2025-03-02,4,4,0,false,\n",
			[]string{"joker seats disagree on played_at: game 11", "joker seats disagree on played_at", "joker seats disagree on played_at", "joker seats disagree on played_at"}},
		{"tournament differs", "12,50,2025-03-02,1,1,0,false,\n12,50,2025-03-02,2,2,0,false,\n12,,2025-03-02,3,3,0,false,\n12,50,2025-03-02,4,4,0,false,\n",
			[]string{"joker seats disagree on tournament_id: game 12", "joker seats disagree on tournament_id", "joker seats disagree on tournament_id", "joker seats disagree on tournament_id"}},
		{"unknown player", "13,,2025-03-02,1,1,0,false,\n13,,2025-03-02,99,2,0,false,\n13,,2025-03-02,3,3,0,false,\n13,,2025-03-02,4,4,0,false,\n",
			[]string{seat + ": another row of game 13", "unknown player 99", seat + ": another row of game 13", seat + ": another row of game 13"}},
		{"chess tournament", "14,51,2025-03-02,1,1,0,false,\n14,51,2025-03-02,2,2,0,false,\n14,51,2025-03-02,3,3,0,false,\n14,51,2025-03-02,4,4,0,false,\n",
			[]string{"tournament 51 is a chess tournament", "tournament 51 is a chess tournament", "tournament 51 is a chess tournament", "tournament 51 is a chess tournament"}},
		{"unknown tournament, bad cells", "15,77,2025-03-02,1,1,0,false,\n15,,yesterday,2,2,0,false,\n15,,2025-03-02,3,3,,false,\n15,,2025-03-02,4,4,0,maybe,\n",
			[]string{"unknown tournament 77", "played_at: malformed timestamp", "score: missing", "left_table: malformed boolean"}},
		{"year 20250", "18,,20250-03-02T10:00:00Z,1,1,0,false,\n18,,2025-03-02,2,2,0,false,\n18,,2025-03-02,3,3,0,false,\n18,,2025-03-02,4,4,0,false,\n",
			[]string{"played_at: malformed timestamp", seat + ": another row of game 18", seat, seat}},
		{"year 2300", "19,,2300-03-02,1,1,0,false,\n19,,2025-03-02,2,2,0,false,\n19,,2025-03-02,3,3,0,false,\n19,,2025-03-02,4,4,0,false,\n",
			[]string{"played_at: 2300-03-02T00:00:00Z is outside the years 1900", seat + ": another row of game 19", seat, seat}},
		{"good joker tournament game", "17,50,2025-03-04T09:30:00Z,5,1,700,false,\n17,50,2025-03-04T09:30:00Z,2,2,200,false,\n17,50,2025-03-04T09:30:00Z,3,3,100,false,\n17,50,2025-03-04T09:30:00Z,4,4,-300,false,\n",
			[]string{"", "", "", ""}},
	}
	body := hdr
	var want []string
	for _, p := range plants {
		body += p.rows
		want = append(want, p.reason...)
	}
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": jokerPlayers,
		"tournaments.csv": "tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n" +
			"50,Joker Cup,2025-03-01,2025-03-05,swiss,5,joker,true,\n51,Chess Open,2025-03-01,2025-03-05,swiss,5,chess,true,\n",
		"tables.csv": body,
	})
	out, sum := jokerRun(t, dir, nil)

	rejects := readRejects(t, out)
	got := map[int]string{}
	for _, r := range rejects {
		if r[0] != "tables.csv" {
			t.Errorf("reject from %s: %v", r[0], r)
			continue
		}
		row, _ := strconv.Atoi(r[1])
		if _, dup := got[row]; dup {
			t.Errorf("row %d rejected twice", row)
		}
		got[row] = r[2]
		if r[3] == "" || !strings.Contains(r[3], "game_id=") {
			t.Errorf("row %d: values %q", row, r[3])
		}
	}
	var rejected int64
	for i, w := range want {
		row := i + 1
		if w == "" {
			if reason, ok := got[row]; ok {
				t.Errorf("row %d (good) rejected: %s", row, reason)
			}
			continue
		}
		rejected++
		if !strings.HasPrefix(got[row], w) {
			t.Errorf("row %d: reason %q, want prefix %q", row, got[row], w)
		}
	}
	// Rejects come in source order: row-level ones as read, then the rows
	// of bad games.
	last := map[bool]int{}
	for _, r := range rejects {
		row, group := atoi(r[1]), strings.HasPrefix(r[2], "joker")
		if row <= last[group] {
			t.Errorf("rejects out of order at row %d", row)
		}
		last[group] = row
	}
	c := sum.Tables["tables"]
	if c.Read != int64(len(want)) || c.Rejected != rejected || c.Used != 8 || c.Read != c.Used+c.Rejected {
		t.Errorf("tables counts %+v, want read %d, used 8, rejected %d", c, len(want), rejected)
	}
	if sum.RowsRead != sum.RowsUsed+sum.RowsRejected || sum.RowsRejected != rejected {
		t.Errorf("summary rows: read %d, used %d, rejected %d", sum.RowsRead, sum.RowsUsed, sum.RowsRejected)
	}
	if j := sum.Table(joker.Name); j.GamesRated != 2 || j.GamesRejected != int64(len(plants)-2-2) {
		// "chess tournament" and "unknown tournament, bad cells" have no row left to form a game.
		t.Errorf("joker summary %+v", j)
	}
	list, err := os.ReadFile(filepath.Join(out, "lists", "joker", "2025-03.csv"))
	if err != nil {
		t.Fatal(err)
	}
	wantList := `rank,player_id,name,player_rating,level,level_name,personal_rating,games_total
1,5,Eve,15,0,Teapot,8,1
2,1,Ann,15,0,Teapot,3,1
3,2,Bob,10,0,Teapot,5,2
4,3,Cid,0,0,Teapot,3,2
5,4,Dan,0,0,Teapot,0,2
`
	if string(list) != wantList {
		t.Errorf("list after the good games:\n%s\nwant:\n%s", list, wantList)
	}
}

// TestJokerTiesAllowed: with allow_tied_places, 1,1,3,4 is rated (both 1st
// get the 1st-place value) and 1,1,2,3 is rejected as not a ranking.
func TestJokerTiesAllowed(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": jokerPlayers,
		"tables.csv": `game_id,tournament_id,played_at,player_id,place,score,left_table,stopped_pulka
1,,2025-03-01,1,1,300,false,
1,,2025-03-01,2,1,300,false,
1,,2025-03-01,3,3,100,false,
1,,2025-03-01,4,4,0,false,
2,,2025-03-02,1,1,300,false,
2,,2025-03-02,2,1,300,false,
2,,2025-03-02,3,2,100,false,
2,,2025-03-02,4,3,0,false,
`,
	})
	rules, _ := DefaultRules("school")
	jokerOf(rules).AllowTiedPlaces = true
	out, sum := jokerRun(t, dir, &rules)
	if j := sum.Table(joker.Name); j.GamesRated != 1 || j.GamesRejected != 1 {
		t.Errorf("joker summary %+v", j)
	}
	recs := testutil.ReadCSV(t, filepath.Join(out, "rejects.csv"))
	if len(recs) != 5 || !strings.HasPrefix(recs[1][2], joker.ErrPlaceRanking.Error()) {
		t.Errorf("rejects %v", recs)
	}
	list := testutil.ReadCSV(t, filepath.Join(out, "lists", "joker", "2025-03.csv"))
	if list[1][1] != "1" || list[1][3] != "15" || list[2][1] != "2" || list[2][3] != "15" {
		t.Errorf("list %v", list)
	}
}

// ---- An independent implementation of docs/joker.md, for random archives ----
//
// Written from the rules' text, map-based and simple; it shares no code with
// package rating/joker. It reads tables.csv with encoding/csv.

type refJokerSettings struct {
	threshold   int  // multiplier_threshold
	ratedFrom   int  // rated_from_pulka
	alsoPlaced  bool // leaver_also_placed
	leaveBonus5 int  // leave bonus per pulka: leaveBonus5 × pulka
}

type refSeat struct {
	player, place, score int
	left                 bool
}

type refGame struct {
	id, at int64
	pulka  int // 0 = finished
	seats  []refSeat
}

type refStanding struct{ player, personal, games int }

func refJoker(t *testing.T, tablesCSV string, s refJokerSettings) map[string]map[int]refStanding {
	t.Helper()
	recs := testutil.ReadCSV(t, tablesCSV)
	games := map[int64]*refGame{}
	for _, r := range recs[1:] {
		id, _ := strconv.ParseInt(r[0], 10, 64)
		at, err := time.Parse(time.RFC3339, r[2])
		if err != nil {
			t.Fatal(err)
		}
		p, _ := strconv.Atoi(r[3])
		place, _ := strconv.Atoi(r[4])
		score, _ := strconv.Atoi(r[5])
		pulka := 0
		if r[7] != "" {
			pulka, _ = strconv.Atoi(r[7])
		}
		g := games[id]
		if g == nil {
			g = &refGame{id: id, at: at.UnixMicro(), pulka: pulka}
			games[id] = g
		}
		g.seats = append(g.seats, refSeat{player: p, place: place, score: score, left: r[6] == "true"})
	}
	var order []*refGame
	for _, g := range games {
		if len(g.seats) != 4 {
			t.Fatalf("random archive: game %d has %d seats", g.id, len(g.seats))
		}
		order = append(order, g)
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].at != order[j].at {
			return order[i].at < order[j].at
		}
		return order[i].id < order[j].id
	})
	gains := [6][4]int{{15, 5, 0, -1}, {12, 4, -1, -3}, {9, 3, -2, -6}, {6, 2, -3, -9}, {3, 1, -4, -12}, {0, 0, -5, -15}}
	penalty := [6][4]int{{-1, -2, -3, -4}, {-4, -5, -6, -7}, {-8, -9, -10, -11}, {-12, -13, -14, -15}, {-16, -17, -18, -19}, {-20, -22, -24, -26}}
	level := func(r int) int { return min(r/100, 5) }
	pr, per, n := map[int]int{}, map[int]int{}, map[int]int{}
	lists := map[string]map[int]refStanding{}
	snapshot := func(month string) {
		m := map[int]refStanding{}
		for p := range n {
			m[p] = refStanding{pr[p], per[p], n[p]}
		}
		lists[month] = m
	}
	month := ""
	for _, g := range order {
		gm := time.UnixMicro(g.at).UTC().Format("2006-01")
		if month != "" && gm != month {
			snapshot(month)
		}
		month = gm
		// Levels and the table level before the game.
		lv := map[int]int{}
		sum := 0
		for _, st := range g.seats {
			lv[st.player] = level(pr[st.player])
			sum += lv[st.player]
		}
		table := sum / 4
		placeTable := g.pulka == 0 || g.pulka >= s.ratedFrom
		newPR := map[int]int{}
		for _, st := range g.seats {
			l := lv[st.player]
			change := 0
			if st.left {
				change += penalty[l][g.pulka-1]
			}
			if placeTable && (!st.left || s.alsoPlaced) {
				v := gains[l][st.place-1]
				if m := max(1, table-l); v > 0 && m >= s.threshold {
					v *= m
				}
				change += v
			}
			newPR[st.player] = max(0, pr[st.player]+change)
		}
		// Personal rating.
		add := map[int]int{}
		someoneLeft := false
		for _, st := range g.seats {
			someoneLeft = someoneLeft || st.left
		}
		for _, st := range g.seats {
			if st.score > 0 {
				add[st.player] += st.score / 100
			}
			if st.score < 0 {
				T := -st.score / 100
				var others []refSeat
				for _, o := range g.seats {
					if o.player != st.player {
						others = append(others, o)
					}
				}
				best := others[0]
				for _, o := range others {
					add[o.player] += T / 3
					if o.place < best.place || (o.place == best.place && o.score > best.score) ||
						(o.place == best.place && o.score == best.score && o.player < best.player) {
						best = o
					}
				}
				add[best.player] += T % 3
			}
		}
		if someoneLeft {
			for _, st := range g.seats {
				if !st.left {
					add[st.player] += s.leaveBonus5 * g.pulka
				}
			}
		}
		for _, st := range g.seats {
			pr[st.player] = newPR[st.player]
			per[st.player] += add[st.player]
			n[st.player]++
		}
	}
	snapshot(month)
	return lists
}

// TestJokerIndependent: on random generated archives the pipeline's Joker
// lists agree exactly with the independent implementation above, under the
// default settings and under changed ones.
func TestJokerIndependent(t *testing.T) {
	cases := []struct {
		seed   uint64
		months int
		games  int
		s      refJokerSettings
	}{
		{1, 3, 1500, refJokerSettings{2, 4, false, 5}},
		{2, 6, 4000, refJokerSettings{2, 4, false, 5}},
		{3, 2, 2500, refJokerSettings{2, 4, false, 5}},
		{4, 4, 3000, refJokerSettings{3, 3, true, 7}},
		{5, 5, 3000, refJokerSettings{1, 5, false, 2}},
	}
	for _, tc := range cases {
		if testing.Short() && tc.seed == 2 {
			continue // -short: seeds 1 and 3 check the same settings on smaller archives
		}
		t.Run(fmt.Sprintf("seed%d", tc.seed), func(t *testing.T) {
			dir := t.TempDir()
			err := generate.Archive(context.Background(), generate.Options{Players: 45, Games: 200, Months: tc.months, Seed: tc.seed,
				Dir: dir, CSV: true, JokerGames: tc.games})
			if err != nil {
				t.Fatal(err)
			}
			rules, _ := DefaultRules("school")
			jokerOf(rules).MultiplierThreshold = int32(tc.s.threshold)
			jokerOf(rules).RatedFromPulka = int8(tc.s.ratedFrom)
			jokerOf(rules).LeaverAlsoPlaced = tc.s.alsoPlaced
			for k := range jokerOf(rules).LeaveBonus {
				jokerOf(rules).LeaveBonus[k] = int32(tc.s.leaveBonus5 * (k + 1))
			}
			out, sum := jokerRun(t, dir, &rules)
			if sum.RowsRejected != 0 {
				t.Fatalf("%d rows rejected in a generated archive", sum.RowsRejected)
			}
			want := refJoker(t, filepath.Join(dir, "tables.csv"), tc.s)
			if n := sum.Table(joker.Name).Lists; n != len(want) || n != tc.months {
				t.Errorf("%d joker lists, the reference has %d, months %d", n, len(want), tc.months)
			}
			maxLevel, multiplied := 0, 0
			for month, ref := range want {
				list := testutil.ReadCSV(t, filepath.Join(out, "lists", "joker", month+".csv"))
				if len(list)-1 != len(ref) {
					t.Errorf("%s: %d players listed, reference %d", month, len(list)-1, len(ref))
				}
				for i, r := range list[1:] {
					id, _ := strconv.Atoi(r[1])
					w, ok := ref[id]
					wantRow := fmt.Sprintf("%d,%d,%d,%d", w.player, min(w.player/100, 5), w.personal, w.games)
					gotRow := strings.Join([]string{r[3], r[4], r[6], r[7]}, ",")
					if !ok || gotRow != wantRow {
						t.Errorf("%s: player %d: got %s, reference %s", month, id, gotRow, wantRow)
					}
					if r[0] != strconv.Itoa(i+1) {
						t.Errorf("%s: rank %s at position %d", month, r[0], i+1)
					}
					if i > 0 {
						p := list[i]
						a := []int{atoi(p[3]), atoi(p[6]), -atoi(p[1])}
						b := []int{atoi(r[3]), atoi(r[6]), -atoi(r[1])}
						if fmt.Sprint(a) != fmt.Sprint(b) && !(a[0] > b[0] || a[0] == b[0] && (a[1] > b[1] || a[1] == b[1] && a[2] > b[2])) {
							t.Errorf("%s: rank %d (%v) above rank %d (%v)", month, i, a, i+1, b)
						}
					}
					maxLevel = max(maxLevel, atoi(r[4]))
				}
			}
			cards, err := parquet.ReadFile[joker.CardFileRow](filepath.Join(out, "joker_cards.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			leaves, stoppedEarly := 0, 0
			for _, c := range cards {
				if c.Multiplier > 1 {
					multiplied++
				}
				switch c.Reason {
				case "leave":
					leaves++
				case "stopped-early":
					stoppedEarly++
				}
			}
			if len(cards) != 4*tc.games {
				t.Errorf("%d audit rows for %d games", len(cards), tc.games)
			}
			// The archive must exercise the rules, or agreement means little.
			if maxLevel < 3 || leaves == 0 || stoppedEarly == 0 || (tc.s.threshold <= 2 && multiplied == 0) {
				t.Errorf("weak archive: max level %d, %d multiplied gains, %d leaves, %d stopped-early", maxLevel, multiplied, leaves, stoppedEarly)
			}
		})
	}
}

func atoi(s string) int { v, _ := strconv.Atoi(s); return v }

// TestJokerUntil: --until also bounds the Joker lists: no Joker list after it,
// and the lists up to it equal a full run's.
func TestJokerUntil(t *testing.T) {
	dir := t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 120, Games: 3000, Months: 4, Seed: 17, Dir: dir, CSV: true, JokerGames: 800}); err != nil {
		t.Fatal(err)
	}
	full, part := t.TempDir(), t.TempDir()
	if _, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: full, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: part, Workers: 2, Until: "2024-10"}); err != nil {
		t.Fatal(err)
	}
	f, p := readTree(t, full), readTree(t, part)
	n := 0
	for name, b := range p {
		if !strings.HasPrefix(name, "lists/joker/") {
			continue
		}
		n++
		if label := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(name, "lists/joker/"), ".csv"), ".parquet"); label > "2024-10" {
			t.Errorf("--until 2024-10 wrote %s", name)
		}
		if !bytes.Equal(b, f[name]) {
			t.Errorf("%s differs from the full run's", name)
		}
	}
	if n == 0 {
		t.Fatal("no Joker list up to 2024-10: the test proves nothing")
	}
}

// TestJokerResume: a resumed run writes every Joker list again, equal to a
// full run's, and names none of the unchanged ones as changed.
func TestJokerResume(t *testing.T) {
	dir := t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 120, Games: 3000, Months: 4, Seed: 18, Dir: dir, CSV: true, JokerGames: 800}); err != nil {
		t.Fatal(err)
	}
	full, inc := t.TempDir(), t.TempDir()
	for _, o := range []Options{{Out: full}, {Out: inc, Until: "2024-10"}} {
		o.Archive, o.Workers = os.DirFS(dir), 2
		if _, err := Run(context.Background(), o); err != nil {
			t.Fatal(err)
		}
	}
	// Every run writes every Joker list again; unchanged, none is named changed.
	sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: inc, Workers: 2, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.ChangedLists) > 0 {
		t.Errorf("the resumed run names unchanged lists as changed: %v", sum.ChangedLists)
	}
	f, g := readTree(t, full), readTree(t, inc)
	for name, b := range f {
		if strings.HasPrefix(name, "lists/joker/") && !bytes.Equal(b, g[name]) {
			t.Errorf("%s differs from the full run's", name)
		}
	}
}

// TestJokerRowSize: a kept tables row stays at the 56 bytes docs/joker.md
// counts on for the memory of a Joker pass.
func TestJokerRowSize(t *testing.T) {
	if n := unsafe.Sizeof(tableRow{}); n > 56 {
		t.Errorf("tableRow is %d bytes, docs/joker.md §8 says about 56", n)
	}
}
