package importer

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/trf"
)

// Fuzz targets of the import readers. None may panic; counts must add up.
//
//	go test -run '^$' -fuzz FuzzPGN -fuzztime 60s ./importer

func FuzzPGN(f *testing.F) {
	club, err := os.ReadFile("testdata/club.pgn")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(club)
	f.Add([]byte("[Event \"E\"]\n[Date \"2025.01.??\"]\n[Round \"2.1\"]\n[White \"a\"]\n[Black \"b\"]\n{open"))
	f.Add([]byte("1. e4 ( ( ) ) ) 1-0 [White \"x\\\\\"] *"))
	// Games without moves (a broadcast export), a forfeit among games with moves,
	// a Termination tag, Windows-1252 bytes and control characters in names.
	f.Add([]byte("[Event \"B\"]\n[Date \"2025.01.01\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n" +
		"[Event \"B\"]\n[Date \"2025.01.01\"]\n[White \"c\"]\n[Black \"d\"]\n[Result \"1/2-1/2\"]\n\n"))
	f.Add([]byte("[Event \"T\"]\n[Date \"2022.01.15\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n" +
		"[Event \"T\"]\n[Date \"2022.01.16\"]\n[Round \"2\"]\n[White \"D\xfcbov\"]\n[Black \"a\"]\n[Result \"0-1\"]\n\n{no show} 0-1\n\n" +
		"[Event \"T\"]\n[Date \"2022.01.17\"]\n[Round \"3\"]\n[White \"b\x01\t\x8c\"]\n[Black \"c\"]\n[Result \"0-1\"]\n[Termination \"abandoned\"]\n\n"))
	// Real broadcast exports (two Sites a round; UTCDate only), CR-only and mixed
	// line ends, a double round robin's "c.r" rounds, mini-matches, time classes.
	for _, name := range []string{"testdata/pgn/uzchesscup2025.pgn", "testdata/pgn/fwwrc2024-round1.pgn", "testdata/pgn/kiyengine-tournament.pgn"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 4000)])
	}
	f.Add([]byte("[Event \"E\"]\r[Date \"2025.01.01\"]\r[White \"a\"]\r[Black \"b\"]\r\r1. e4 1-0\r\r" +
		"[Event \"E\"]\r\n[UTCDate \"2025.01.02\"]\n[Date \"????.??.??\"]\r[White \"b\"]\r\n[Black \"a\"]\n\r\n0-1\n"))
	f.Add([]byte("[Event \"D\"]\n[Date \"2025.01.01\"]\n[Round \"1.1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n" +
		"[Event \"D\"]\n[Date \"2025.01.01\"]\n[Round \"1.2\"]\n[White \"a\"]\n[Black \"c\"]\n[Result \"0-1\"]\n\n" +
		"[Event \"D\"]\n[Date \"2025.01.02\"]\n[Round \"1.2\"]\n[White \"b\"]\n[Black \"a\"]\n[Result \"0-1\"]\n[TimeControl \"180+2\"]\n\n" +
		"[Event \"D\"]\n[Date \"2025.09.02\"]\n[Round \"2.1\"]\n[White \"c\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n[TimeControl \"15 min + 10 s\"]\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		a := newArchive(filepath.Join(dir, "archive"))
		name := filepath.Join(dir, "f.pgn")
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := ImportPGN(context.Background(), a, []string{name}, Options{})
		if errors.Is(err, ErrInArchive) {
			return // two events of the file with the same games: refused, nothing imported
		}
		if err != nil {
			t.Fatal(err)
		}
		games := newGames(t, a)
		if st.Read != st.Imported+st.Skipped || int64(len(games)) != st.Imported {
			t.Fatalf("counts: %+v, %d games", st, len(games))
		}
		codes := map[string]string{"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
		for _, g := range games {
			if g.Round < 1 || g.Round > 1000 || g.BlackID == nil || *g.BlackID == g.WhiteID || codes[g.WhiteResult] != *g.BlackResult {
				t.Fatalf("bad game %+v", g)
			}
		}
		for _, p := range a.Players {
			if !utf8.ValidString(p.Name) || strings.IndexFunc(p.Name, unicode.IsControl) >= 0 {
				t.Fatalf("name %q", p.Name)
			}
		}
		perTournament := map[int64]int64{}
		for _, g := range games {
			perTournament[g.TournamentID]++
		}
		kept := int64(0)
		for _, fs := range st.ByFile {
			kept += fs.Kept
		}
		if kept != st.Imported || len(perTournament) != len(a.Tournaments) {
			t.Fatalf("%d kept by file, %d imported; %d tournaments with games, %d tournaments", kept, st.Imported, len(perTournament), len(a.Tournaments))
		}
		type slot struct {
			t      int64
			round  int32
			player int64
		}
		busy := map[slot]bool{}
		for _, g := range games {
			for _, p := range []int64{g.WhiteID, *g.BlackID} {
				if busy[slot{g.TournamentID, g.Round, p}] {
					t.Fatalf("player %d paired twice in round %d", p, g.Round)
				}
				busy[slot{g.TournamentID, g.Round, p}] = true
			}
		}
		for _, tr := range a.Tournaments {
			if tr.TimeClass == nil || !archive.IsTimeClass(*tr.TimeClass) {
				t.Fatalf("time class %v", tr.TimeClass)
			}
			if !utf8.ValidString(tr.Name) || strings.IndexFunc(tr.Name, unicode.IsControl) >= 0 {
				t.Fatalf("tournament %q", tr.Name)
			}
		}
		for _, p := range st.Problems {
			if !strings.HasPrefix(p.Error(), name) {
				t.Fatalf("problem without the file: %v", p)
			}
		}
	})
}

func FuzzCSVTable(f *testing.F) {
	for _, name := range []string{"players", "tournaments", "games", "tables"} {
		data, err := os.ReadFile("../testdata/demo/" + name + ".csv")
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > 2000 {
			data = data[:bytes.LastIndexByte(data[:2000], '\n')+1]
		}
		f.Add(data, name)
	}
	f.Add([]byte("\ufeffgame_id,played_at,player_id\n1,2025-01-01T00:00:00+14:00,3\n\"x\n"), "tables")
	f.Fuzz(func(t *testing.T, data []byte, table string) {
		cols, ok := importColumns(table)
		if !ok {
			return
		}
		tab, _, err := NewCSVTable(bytes.NewReader(data), "f.csv", table)
		if err != nil {
			return
		}
		good := int64(0)
		for tab.Next() {
			good++
			if len(tab.Row()) != len(cols) {
				t.Fatal("row width")
			}
		}
		if tab.Err() == nil && tab.Read != good+int64(len(tab.Problems)) {
			t.Fatalf("read %d = %d good + %d bad?", tab.Read, good, len(tab.Problems))
		}
	})
}

// FuzzTRFImport: whatever the TRF reader accepts imports into games the rating
// run accepts (rounds in range, byes without Black, a real opponent otherwise).
func FuzzTRFImport(f *testing.F) {
	for _, name := range []string{"testdata/spring.trf", "testdata/swiss6.trf", "../testdata/trf-real/irish_junior_champs_2011.trf", "../testdata/trf-real/bunratty_masters_2011.trf", "../trf/testdata/lichess-shape.trf"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tf, err := trf.Read(bytes.NewReader(data), "f.trf")
		if err != nil {
			return
		}
		a := newArchive(t.TempDir())
		st := &Stats{}
		if err := importTRF(a, tf, "f.trf", Options{}, st); err != nil {
			return
		}
		games := newGames(t, a)
		if st.Read != st.Imported+st.Skipped || int64(len(games)) != st.Imported {
			t.Fatalf("counts: %+v, %d games", st, len(games))
		}
		for _, g := range games {
			if g.Round < 1 || g.BlackID == nil && !strings.Contains("HFUZ+-", g.WhiteResult) || g.BlackID != nil && *g.BlackID == g.WhiteID {
				t.Fatalf("bad game %+v", g)
			}
		}
	})
}
