package correct

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/testutil"
)

var now = time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)

// forms builds the same small archive as CSV tables, as Parquet files, and
// as Parquet with games in a folder of two parts (a TRF imported into it),
// and Joker tables; it returns each archive's folder by form.
func forms(t *testing.T) map[string]string {
	t.Helper()
	base := t.TempDir()
	dirs := map[string]string{}
	for _, form := range []string{"csv", "parquet", "parts"} {
		dir := filepath.Join(base, form)
		err := generate.Archive(context.Background(), generate.Options{Players: 30, Games: 200, Months: 2, Seed: 3, Dir: dir,
			CSV: form == "csv", JokerGames: 4})
		if err != nil {
			t.Fatal(err)
		}
		if form == "parts" {
			a, err := importer.Open(dir, importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := importer.ImportTRF(context.Background(), a, []string{"../importer/testdata/swiss6.trf"}, importer.Options{}); err != nil {
				t.Fatal(err)
			}
			if _, err := a.Commit(); err != nil {
				t.Fatal(err)
			}
		}
		dirs[form] = dir
	}
	return dirs
}

// unchanged fails unless dir holds exactly the files of before.
func unchanged(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	after := testutil.Snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("%d files, were %d", len(after), len(before))
	}
	for f, b := range before {
		if after[f] != b {
			t.Errorf("%s changed", f)
		}
	}
}

// load reads the archive as the run does: nothing may be rejected.
func load(t *testing.T, dir string) *archive.Archive {
	t.Helper()
	a, err := archive.Load(context.Background(), os.DirFS(dir), func(e archive.RowError) { t.Errorf("rejected: %v", e.Error()) }, archive.Now(now))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// games counts each tournament's games and each player's games and Joker
// table rows, as the run reads them.
func games(t *testing.T, dir string) (byTournament, byPlayer, atTables map[int64]int) {
	t.Helper()
	fsys := os.DirFS(dir)
	byTournament, byPlayer, atTables = map[int64]int{}, map[int64]int{}, map[int64]int{}
	files, err := archive.Files(fsys, "games")
	if err != nil {
		t.Fatal(err)
	}
	r := archive.NewReader(fsys, files, archive.GameColumns)
	for r.Next() {
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			if b.Bad[i].Kind != archive.KindNone {
				t.Errorf("%s row %d: %v", b.File, b.First+int64(i), b.Bad[i].Reason)
			}
			byTournament[b.Ints[archive.GameTournamentID][i]]++
			byPlayer[b.Ints[archive.GameWhiteID][i]]++
			if !b.Nulls[archive.GameBlackID][i] {
				byPlayer[b.Ints[archive.GameBlackID][i]]++
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if files, err = archive.Files(fsys, "tables"); err != nil {
		t.Fatal(err)
	}
	r = archive.NewReader(fsys, files, archive.TableColumns)
	for r.Next() {
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			atTables[b.Ints[archive.TablePlayerID][i]]++
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return byTournament, byPlayer, atTables
}

func lastLog(t *testing.T, dir string) Entry {
	t.Helper()
	log, err := ReadLog(dir)
	if err != nil || len(log) == 0 {
		t.Fatalf("log: %v, %d entries", err, len(log))
	}
	return log[len(log)-1]
}

func TestSetPlayer(t *testing.T) {
	for form, dir := range forms(t) {
		t.Run(form, func(t *testing.T) {
			a := load(t, dir)
			i := a.Players.Index(10001)
			oldName := a.Players.Name[i]
			set := []Assignment{{Field: "name", Value: "Novák, Jan"}, {Field: "category", Value: "2"}, {Field: "club", Null: true},
				{Field: "fide_rating", Value: "1999"}, {Field: "title", Value: "im"}, {Field: "federation", Value: "cze"}, {Field: "birth_date", Value: "2008-02-29"},
				{Field: "fide_id", Value: "24100001"}}
			e, err := SetPlayer(context.Background(), dir, 10001, set, now)
			if err != nil {
				t.Fatal(err)
			}
			a = load(t, dir)
			i = a.Players.Index(10001)
			p := a.Players
			if p.Name[i] != "Novák, Jan" || p.Category[i] != 2 || p.Club[i] != "" || p.Elo[i] != 1999 ||
				p.Info[i].Title != "IM" || p.Info[i].Federation != "CZE" || p.Info[i].BirthDate != 13938 {
				t.Errorf("player after set-player: %s %d %q %d %+v", p.Name[i], p.Category[i], p.Club[i], p.Elo[i], p.Info[i])
			}
			if j := p.Index(10002); p.Name[j] == "" || p.Info[j].Title != "" {
				t.Errorf("another player changed: %q %+v", p.Name[j], p.Info[j])
			}
			logged := lastLog(t, dir)
			want := `2026-12-02T09:30:00Z set-player player 10001: name: "` + oldName + `" → "Novák, Jan"`
			if got := logged.String(); !strings.HasPrefix(got, want) || !strings.Contains(got, `title: null → "IM"`) || !strings.Contains(got, "fide_rating: ") || e.String() != got {
				t.Errorf("log:\n%s\nwant it to start\n%s", got, want)
			}

			// Setting what is there changes nothing, not even the log.
			before := testutil.Snapshot(t, dir)
			if e, err := SetPlayer(context.Background(), dir, 10001, set[:1], now); err != nil || len(e.Changes) != 0 {
				t.Errorf("same value again: %v %+v", err, e)
			}
			unchanged(t, dir, before)
			for _, bad := range []struct {
				id   int64
				a    Assignment
				want string
			}{
				{10001, Assignment{Field: "colour", Value: "x"}, `unknown field "colour"`},
				{10001, Assignment{Field: "player_id", Value: "5"}, "merge"},
				{10001, Assignment{Field: "name", Null: true}, "name cannot be empty"},
				{10001, Assignment{Field: "category", Value: "5"}, "category=5: out of range 1–4"},
				{10001, Assignment{Field: "birth_year", Value: "20x1"}, "birth_year=20x1: malformed integer"},
				{10001, Assignment{Field: "birth_date", Value: "2008-02-30"}, "birth_date=2008-02-30: malformed date"},
				{10001, Assignment{Field: "sex", Value: "x"}, "sex is m or w"},
				{10001, Assignment{Field: "club", Value: "a\tb"}, "control character"},
				{424242, Assignment{Field: "club", Value: "x"}, "no player 424242"},
				{10002, Assignment{Field: "fide_id", Value: "24100001"}, "fide_id 24100001 is player 10001's"},
			} {
				_, err := SetPlayer(context.Background(), dir, bad.id, []Assignment{bad.a}, now)
				if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), bad.want) {
					t.Errorf("%+v: %v, want %q", bad.a, err, bad.want)
				}
			}
			unchanged(t, dir, before)
		})
	}
}

func TestRemoveTournament(t *testing.T) {
	for form, dir := range forms(t) {
		t.Run(form, func(t *testing.T) {
			byT, _, _ := games(t, dir)
			n := byT[1002]
			if n == 0 {
				t.Fatal("no games of tournament 1002 to remove")
			}
			if _, err := RemoveTournament(context.Background(), dir, 1002, now); err != nil {
				t.Fatal(err)
			}
			a := load(t, dir)
			if a.TournamentIndex(1002) >= 0 || a.TournamentIndex(1001) < 0 {
				t.Error("tournament 1002 still there, or 1001 gone")
			}
			after, _, _ := games(t, dir)
			if after[1002] != 0 || after[1001] != byT[1001] {
				t.Errorf("games of 1002: %d, of 1001: %d (were %d)", after[1002], after[1001], byT[1001])
			}
			e := lastLog(t, dir)
			if e.Verb != "remove" || e.Tournament != 1002 || !strings.Contains(e.String(), "Yurga Round Robin 2024 (2024-09-16 to 2024-09-22)") ||
				!strings.Contains(e.String(), "games: "+strconv.Itoa(n)+" → 0") {
				t.Errorf("log: %s", e)
			}
			before := testutil.Snapshot(t, dir)
			if _, err := RemoveTournament(context.Background(), dir, 1002, now); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "no tournament 1002") {
				t.Errorf("removed twice: %v", err)
			}
			unchanged(t, dir, before)
		})
	}
}

func TestRemoveJokerTournament(t *testing.T) {
	dir := t.TempDir()
	err := generate.Archive(context.Background(), generate.Options{Players: 30, Games: 100, Months: 1, Seed: 5, Dir: dir, CSV: true})
	if err != nil {
		t.Fatal(err)
	}
	tables := "game_id,tournament_id,played_at,player_id,place,score,left_table,stopped_pulka\n" +
		"1,1001,2024-09-10T18:00:00Z,10001,1,30,,\n1,1001,2024-09-10T18:00:00Z,10002,2,10,,\n" +
		"2,,2024-09-11T18:00:00Z,10001,1,30,,\n2,,2024-09-11T18:00:00Z,10003,2,10,,\n"
	if err := os.WriteFile(filepath.Join(dir, "tables.csv"), []byte(tables), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := RemoveTournament(context.Background(), dir, 1001, now)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "tables.csv"))
	if got := string(b); got != "game_id,tournament_id,played_at,player_id,place,score,left_table,stopped_pulka\n2,,2024-09-11T18:00:00Z,10001,1,30,,\n2,,2024-09-11T18:00:00Z,10003,2,10,,\n" {
		t.Errorf("tables.csv:\n%s", got)
	}
	if !strings.Contains(e.String(), "Joker table rows: 2 → 0") {
		t.Errorf("log: %s", e)
	}
}

func TestMergePlayers(t *testing.T) {
	for form, dir := range forms(t) {
		t.Run(form, func(t *testing.T) {
			// A new id for a player already in the registry: 50001 has no games.
			f := filepath.Join(t.TempDir(), "new.csv")
			os.WriteFile(f, []byte("player_id,name,fide_id\n50001,\"Vorobyov, K.\",24100001\n"), 0o644)
			if _, err := ImportPlayers(context.Background(), dir, f, now); err != nil {
				t.Fatal(err)
			}
			_, byP, atT := games(t, dir)
			before := testutil.Snapshot(t, dir)
			for _, bad := range []struct {
				keep, drop int64
				want       string
			}{
				{10001, 10002, "both play in round"},
				{50001, 50001, "the same player"},
				{50001, 777, "no player 777 (drop)"},
			} {
				if _, err := MergePlayers(context.Background(), dir, bad.keep, bad.drop, now); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), bad.want) {
					t.Errorf("merge %d %d: %v, want %q", bad.keep, bad.drop, err, bad.want)
				}
			}
			unchanged(t, dir, before)

			// drop: a player with games and Joker table rows.
			var drop int64
			for id, n := range atT {
				if byP[id] > 0 && n > 0 && (drop == 0 || id < drop) {
					drop = id
				}
			}
			if drop == 0 {
				t.Fatal("no player with games and Joker table rows")
			}
			dropName := load(t, dir).Players.Name[load(t, dir).Players.Index(drop)]
			e, err := MergePlayers(context.Background(), dir, 50001, drop, now)
			if err != nil {
				t.Fatal(err)
			}
			a := load(t, dir)
			_, after, atAfter := games(t, dir)
			if a.Players.Index(drop) >= 0 || after[drop] != 0 || after[50001] != byP[drop] || atAfter[drop] != 0 || atAfter[50001] != atT[drop] {
				t.Errorf("after merge: %d in registry %v, games %d and %d (%d had %d), table rows %d and %d (had %d)", drop,
					a.Players.Index(drop) >= 0, after[drop], after[50001], drop, byP[drop], atAfter[drop], atAfter[50001], atT[drop])
			}
			i := a.Players.Index(50001)
			if a.Players.Name[i] != "Vorobyov, K." || a.Players.Info[i].FideID != 24100001 || a.Players.BirthYear[i] == 0 {
				t.Errorf("kept player: %q %+v born %d", a.Players.Name[i], a.Players.Info[i], a.Players.BirthYear[i])
			}
			d := strconv.FormatInt(drop, 10)
			if got := lastLog(t, dir).String(); got != e.String() || !strings.Contains(got, "games of player "+d+": "+strconv.Itoa(byP[drop])+" → 0") ||
				!strings.Contains(got, "Joker table rows of player "+d+": "+strconv.Itoa(atT[drop])+" → 0") ||
				!strings.Contains(got, "player "+d+`: "`+dropName+`" → null`) || !strings.Contains(got, "birth_year: null → ") {
				t.Errorf("log: %s", got)
			}
		})
	}
}

func TestMergeJokerTable(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "players.csv"), []byte("player_id,name\n1,A\n2,B\n3,C\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "tables.csv"), []byte("game_id,tournament_id,played_at,player_id,place,score\n7,,2024-09-11,1,1,30\n7,,2024-09-11,2,2,10\n8,,2024-09-12,3,1,5\n"), 0o644)
	before := testutil.Snapshot(t, dir)
	if _, err := MergePlayers(context.Background(), dir, 1, 2, now); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "both sit at Joker game 7 (tables.csv row 2)") {
		t.Errorf("merge at one table: %v", err)
	}
	unchanged(t, dir, before)
	if _, err := MergePlayers(context.Background(), dir, 1, 3, now); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "tables.csv"))
	if !strings.HasSuffix(string(b), "8,,2024-09-12,1,1,5\n") {
		t.Errorf("tables.csv:\n%s", b)
	}
}

func TestImportPlayers(t *testing.T) {
	for form, dir := range forms(t) {
		t.Run(form, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "fide.csv")
			os.WriteFile(f, []byte("Player_ID,FIDE_Rating,name,title\n10001,2105,,\n10002,,,WFM\n60000,1500,\"New, Nina\",\n"), 0o644)
			res, err := ImportPlayers(context.Background(), dir, f, now)
			if err != nil {
				t.Fatal(err)
			}
			if res.Rows != 3 || len(res.Changed) != 2 || len(res.Added) != 1 || res.Added[0].Player != 60000 {
				t.Errorf("result: %+v", res)
			}
			a := load(t, dir)
			p := a.Players
			i, j, k := p.Index(10001), p.Index(10002), p.Index(60000)
			if p.Elo[i] != 2105 || p.Name[i] == "" || p.Info[j].Title != "WFM" || k < 0 || p.Name[k] != "New, Nina" || p.Elo[k] != 1500 {
				t.Errorf("players: %d %q %+v %d", p.Elo[i], p.Name[i], p.Info[j], k)
			}
			log, _ := ReadLog(dir)
			if len(log) != 3 || log[2].String() != `2026-12-02T09:30:00Z import-players player 60000 from fide.csv: fide_rating: null → 1500; name: null → "New, Nina"` {
				t.Errorf("log: %v", log)
			}

			before := testutil.Snapshot(t, dir)
			for _, bad := range []struct{ file, want string }{
				{"player_id,fide_rating\n10001,2200\n10003,99999\n", "row 2 column fide_rating: fide_rating=99999: out of range"},
				{"player_id,elo\n10001,2200\n", `header column 2: unknown field "elo"`},
				{"name\nX\n", "no player_id column"},
				{"player_id,club,club\n10001,A,B\n", "header column 3: club given twice"},
				{"player_id,fide_rating\n70000,1500\n", "row 1 column name: player 70000 is new and needs a name"},
				{"player_id,club\n10001,A\n10001,B\n", "row 2 column player_id: player 10001 again (row 1)"},
				{"player_id,club\nx,A\n", `row 1 column player_id: "x" is not a player id`},
				{"player_id,fide_id\n10004,31000001\n10005,31000001\n", "row 2 column fide_id: fide_id 31000001 is player 10004's"},
			} {
				os.WriteFile(f, []byte(bad.file), 0o644)
				if _, err := ImportPlayers(context.Background(), dir, f, now); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), bad.want) {
					t.Errorf("%q: %v, want %q", bad.file, err, bad.want)
				}
			}
			unchanged(t, dir, before)
		})
	}
}

func TestReplace(t *testing.T) {
	for form, dir := range forms(t) {
		t.Run(form, func(t *testing.T) {
			byT, _, _ := games(t, dir)
			opt := importer.Options{Replace: 1001}
			e, st, err := Replace(context.Background(), dir, "trf", []string{"../importer/testdata/spring.trf"}, opt, now)
			if err != nil {
				t.Fatal(err)
			}
			if st.Imported != 8 || st.NewPlayers != 5 {
				t.Errorf("stats: %+v", st)
			}
			a := load(t, dir)
			tr := a.Tournaments[a.TournamentIndex(1001)]
			if tr.Name != "Spring Swiss 2025" || tr.Rounds != 3 || !tr.Rated || tr.Discipline != "chess" {
				t.Errorf("tournament 1001: %+v", tr)
			}
			after, _, _ := games(t, dir)
			if after[1001] != 8 || after[1003] != byT[1003] {
				t.Errorf("games of 1001: %d, of 1003: %d (were %d)", after[1001], after[1003], byT[1003])
			}
			if got := lastLog(t, dir).String(); got != e.String() || !strings.Contains(got, "replace tournament 1001 from spring.trf") ||
				!strings.Contains(got, "games: "+strconv.Itoa(byT[1001])+" → 8") || !strings.Contains(got, `name: "Mezhdurechensk Open 2024" → "Spring Swiss 2025"`) {
				t.Errorf("log: %s", got)
			}

			// The same file over another tournament is refused, naming 1001; so is
			// a second replacement file with two tournaments.
			before := testutil.Snapshot(t, dir)
			_, _, err = Replace(context.Background(), dir, "trf", []string{"../importer/testdata/spring.trf"}, importer.Options{Replace: 1003}, now)
			if !errors.Is(err, importer.ErrInArchive) || !strings.Contains(err.Error(), "tournament 1001") {
				t.Errorf("over 1003: %v", err)
			}
			_, _, err = Replace(context.Background(), dir, "trf", []string{"../importer/testdata/spring.trf"}, importer.Options{Replace: 999}, now)
			if !errors.Is(err, ErrUsage) {
				t.Errorf("over 999: %v", err)
			}
			unchanged(t, dir, before)

			// Replacing again with the same file keeps the games where they are.
			if _, _, err := Replace(context.Background(), dir, "trf", []string{"../importer/testdata/spring.trf"}, opt, now); err != nil {
				t.Fatal(err)
			}
			if again, _, _ := games(t, dir); again[1001] != 8 {
				t.Errorf("games of 1001 after a second replace: %d", again[1001])
			}
		})
	}
}

// TestPartsAndSchema: removing the only tournament of a part removes the
// part; a replacement of a tournament without games goes to a new part; a
// rewritten Parquet file keeps its schema.
func TestPartsAndSchema(t *testing.T) {
	dir := forms(t)["parts"]
	schemaOf := func(file string) string {
		f, err := os.Open(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		pf, err := openParquet(f, file)
		if err != nil {
			t.Fatal(err)
		}
		return pf.Schema().String()
	}
	part0 := schemaOf("games/part-0000.parquet")
	if _, err := RemoveTournament(context.Background(), dir, 1004, now); err != nil { // swiss6.trf, alone in part-0001
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "games/part-0001.parquet")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("part-0001: %v", err)
	}
	if _, err := RemoveTournament(context.Background(), dir, 1002, now); err != nil {
		t.Fatal(err)
	}
	if got := schemaOf("games/part-0000.parquet"); got != part0 {
		t.Errorf("schema after rewrite:\n%s\nwas:\n%s", got, part0)
	}
	// A tournament row without games, replaced: its games go to a new part.
	if _, err := RemoveTournament(context.Background(), dir, 1001, now); err != nil {
		t.Fatal(err)
	}
	tournaments, err := loadTable(dir, "tournaments")
	if err != nil {
		t.Fatal(err)
	}
	s := tournaments.sheets[0]
	if err := s.add(map[string]string{"tournament_id": "1001", "name": "Empty", "start_date": "2024-09-01", "end_date": "2024-09-01",
		"system": "swiss", "rounds": "1", "discipline": "chess", "rated": "true"}); err != nil {
		t.Fatal(err)
	}
	c := &change{dir: dir}
	if err := tournaments.write(c); err != nil {
		t.Fatal(err)
	}
	if err := c.apply(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Replace(context.Background(), dir, "trf", []string{"../importer/testdata/spring.trf"}, importer.Options{Replace: 1001}, now); err != nil {
		t.Fatal(err)
	}
	if byT, _, _ := games(t, dir); byT[1001] != 8 {
		t.Errorf("games of 1001: %d", byT[1001])
	}
	if _, err := os.Stat(filepath.Join(dir, "games/part-0001.parquet")); err != nil {
		t.Errorf("new part: %v", err)
	}
	load(t, dir)
}

// TestFailureChangesNothing: a correction that fails part way (a games file
// it cannot rewrite, an interrupt) leaves every file as it was, and no
// temporary file behind.
func TestFailureChangesNothing(t *testing.T) {
	dirs := forms(t)
	dir := dirs["csv"]
	g := filepath.Join(dir, "games.csv")
	b, _ := os.ReadFile(g)
	os.WriteFile(g, append(b, []byte("1002,9,10001,\"10002,1,0,,\n")...), 0o644) // a quote never closed
	before := testutil.Snapshot(t, dir)
	if _, err := RemoveTournament(context.Background(), dir, 1002, now); err == nil || !strings.Contains(err.Error(), "games.csv") {
		t.Errorf("remove over a broken games.csv: %v", err)
	}
	unchanged(t, dir, before)

	dir = dirs["parquet"]
	before = testutil.Snapshot(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RemoveTournament(ctx, dir, 1002, now); !errors.Is(err, context.Canceled) {
		t.Errorf("remove, interrupted: %v", err)
	}
	if _, err := MergePlayers(ctx, dir, 10001, 10002, now); !errors.Is(err, context.Canceled) {
		t.Errorf("merge, interrupted: %v", err)
	}
	unchanged(t, dir, before)
}

// TestReplacePGN: a PGN file of one event replaces a tournament; a file of
// two events is refused.
func TestReplacePGN(t *testing.T) {
	dir := forms(t)["csv"]
	pgn := func(events ...string) string {
		var b strings.Builder
		for _, ev := range events {
			for i, res := range []string{"1-0", "1/2-1/2"} {
				b.WriteString(`[Event "` + ev + `"]` + "\n" + `[Date "2024.10.05"]` + "\n" + `[Round "` + strconv.Itoa(i+1) + `"]` + "\n" +
					`[White "Belyaev, Mark"]` + "\n" + `[Black "Vorobyov, Kira"]` + "\n" + `[Result "` + res + `"]` + "\n\n1. e4 e5 " + res + "\n\n")
			}
		}
		f := filepath.Join(t.TempDir(), "event.pgn")
		os.WriteFile(f, []byte(b.String()), 0o644)
		return f
	}
	before := testutil.Snapshot(t, dir)
	_, _, err := Replace(context.Background(), dir, "pgn", []string{pgn("A", "B")}, importer.Options{Replace: 1001}, now)
	if !errors.Is(err, importer.ErrUsage) || !strings.Contains(err.Error(), "second tournament") {
		t.Errorf("two events: %v", err)
	}
	unchanged(t, dir, before)
	e, st, err := Replace(context.Background(), dir, "pgn", []string{pgn("Club Cup")}, importer.Options{Replace: 1001}, now)
	if err != nil {
		t.Fatal(err)
	}
	if st.Matched != 2 || st.NewPlayers != 0 || !strings.Contains(e.String(), `name: "Mezhdurechensk Open 2024" → "Club Cup"`) {
		t.Errorf("stats %+v, log %s", st, e)
	}
	byT, byP, _ := games(t, dir)
	if byT[1001] != 2 {
		t.Errorf("games of 1001: %d", byT[1001])
	}
	if byP[10001] == 0 || byP[10002] == 0 {
		t.Errorf("games of the matched players: %d %d", byP[10001], byP[10002])
	}
	load(t, dir)
}

// TestCellsKept: a correction to one player of a registry of thousands leaves
// every other cell as it was (Parquet values are copied out of the reader's
// buffers, which parquet-go may reuse).
func TestCellsKept(t *testing.T) {
	for _, csvForm := range []bool{false, true} {
		dir := t.TempDir()
		err := generate.Archive(context.Background(), generate.Options{Players: 5000, Games: 3000, Months: 1, Seed: 9, Dir: dir, CSV: csvForm})
		if err != nil {
			t.Fatal(err)
		}
		before := load(t, dir).Players
		if _, err := SetPlayer(context.Background(), dir, 12345, []Assignment{{Field: "name", Value: "Changed, Only"}}, now); err != nil {
			t.Fatal(err)
		}
		after := load(t, dir).Players
		if len(after.ID) != len(before.ID) {
			t.Fatalf("%d players, were %d", len(after.ID), len(before.ID))
		}
		for i, id := range before.ID {
			name := before.Name[i]
			if id == 12345 {
				name = "Changed, Only"
			}
			if after.ID[i] != id || after.Name[i] != name || after.Club[i] != before.Club[i] || after.BirthYear[i] != before.BirthYear[i] ||
				after.Category[i] != before.Category[i] || after.Elo[i] != before.Elo[i] {
				t.Fatalf("csv %v: player %d: %q %q, was %q %q", csvForm, id, after.Name[i], after.Club[i], before.Name[i], before.Club[i])
			}
		}
	}
}

// TestLock: while one correction holds the archive, another is refused
// (ErrBusy) and changes nothing.
func TestLock(t *testing.T) {
	dir := forms(t)["csv"]
	unlock, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	before := testutil.Snapshot(t, dir)
	if _, err := SetPlayer(context.Background(), dir, 10001, []Assignment{{Field: "club", Value: "X"}}, now); !errors.Is(err, ErrBusy) {
		t.Errorf("while locked: %v", err)
	}
	unchanged(t, dir, before)
	unlock()
	if _, err := SetPlayer(context.Background(), dir, 10001, []Assignment{{Field: "club", Value: "X"}}, now); err != nil {
		t.Errorf("after unlock: %v", err)
	}
}

// TestCSVKeepsItsForm: a CSV table written with a byte-order mark and CR LF
// line ends is rewritten so; the rows a correction does not touch keep their
// text.
func TestCSVKeepsItsForm(t *testing.T) {
	dir := t.TempDir()
	players := "\ufeffplayer_id,name,club\r\n1,\"Novak, Jan\",A\r\n2,Eva,B\r\n"
	games := "\ufefftournament_id,round,white_id,black_id,white_result,black_result\r\n1,1,1,2,1,0\r\n2,1,2,1,=,=\r\n"
	os.WriteFile(filepath.Join(dir, "players.csv"), []byte(players), 0o644)
	os.WriteFile(filepath.Join(dir, "tournaments.csv"), []byte("tournament_id,name,start_date,end_date\n1,A,2024-01-01,2024-01-01\n2,B,2024-02-01,2024-02-01\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "games.csv"), []byte(games), 0o644)
	if _, err := SetPlayer(context.Background(), dir, 2, []Assignment{{Field: "club", Value: "C"}}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := RemoveTournament(context.Background(), dir, 2, now); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "players.csv"))
	if got := string(b); got != "\ufeffplayer_id,name,club\r\n1,\"Novak, Jan\",A\r\n2,Eva,C\r\n" {
		t.Errorf("players.csv: %q", got)
	}
	b, _ = os.ReadFile(filepath.Join(dir, "games.csv"))
	if got := string(b); got != "\ufefftournament_id,round,white_id,black_id,white_result,black_result\r\n1,1,1,2,1,0\r\n" {
		t.Errorf("games.csv: %q", got)
	}
}

// TestPlayersFolder: a players table kept as a folder of Parquet parts is
// corrected part by part: only the part holding the player is rewritten, new
// players go to the last part.
func TestPlayersFolder(t *testing.T) {
	dir := forms(t)["parquet"]
	players, err := loadTable(dir, "players")
	if err != nil {
		t.Fatal(err)
	}
	s := players.sheets[0]
	os.MkdirAll(filepath.Join(dir, "players"), 0o755)
	for i, part := range [][][]cell{s.rows[:10], s.rows[10:]} {
		f, err := os.Create(filepath.Join(dir, "players", "part-000"+strconv.Itoa(i)+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		p := *s
		p.rows = part
		if err := p.writeParquet(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	os.Remove(filepath.Join(dir, "players.parquet"))
	first, _ := os.ReadFile(filepath.Join(dir, "players", "part-0000.parquet"))
	if _, err := SetPlayer(context.Background(), dir, 10025, []Assignment{{Field: "club", Value: "Z"}}, now); err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "p.csv")
	os.WriteFile(f, []byte("player_id,name\n70000,\"New, One\"\n"), 0o644)
	if _, err := ImportPlayers(context.Background(), dir, f, now); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "players", "part-0000.parquet")); !bytes.Equal(again, first) {
		t.Error("part-0000 rewritten")
	}
	a := load(t, dir)
	if i := a.Players.Index(10025); a.Players.Club[i] != "Z" || a.Players.Index(70000) < 0 || len(a.Players.ID) != 31 {
		t.Errorf("players: club %q, 70000 at %d, %d players", a.Players.Club[i], a.Players.Index(70000), len(a.Players.ID))
	}
}
