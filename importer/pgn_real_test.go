package importer

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/pipeline"
)

// importReal imports files of testdata/pgn (PROVENANCE.md) into a new archive.
func importReal(t *testing.T, files ...string) *imported {
	t.Helper()
	a, err := Open(filepath.Join(t.TempDir(), "archive"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		files[i] = filepath.Join("testdata", "pgn", f)
	}
	st, err := ImportPGN(context.Background(), a, files, Options{})
	return collect(t, a, checkStats(t, st, err))
}

// TestPGNRealBroadcast: round 1 of the FIDE Women's World Rapid 2024 broadcast,
// whose boards are written under two Site values (1.1–1.27 and 1.1–1.28), is
// one rapid tournament of 55 games in one round.
//
// Counted from the file: 55 games, 110 players, each with one game; 20 won by
// White, 23 by Black, 12 drawn, so 43 players have 1 point, 24 ½ and 43 0; Ju
// Wenjun won on board 1.1, Vaishali drew on the second site's board 1.1.
func TestPGNRealBroadcast(t *testing.T) {
	im := importReal(t, "fwwrc2024-round1.pgn")
	const name = "FIDE Women’s World Rapid Championships 2024"
	if im.st.Read != 55 || im.st.Imported != 55 || len(im.a.Tournaments) != 1 || len(im.a.Players) != 110 {
		t.Fatalf("%d read, %d imported, %d tournaments, %d players", im.st.Read, im.st.Imported, len(im.a.Tournaments), len(im.a.Players))
	}
	tr := im.ts[name]
	if *tr.TimeClass != "rapid" || *tr.Rounds != 1 || *tr.System != "swiss" || day.Day(tr.StartDate).String() != "2024-12-26" {
		t.Errorf("tournament %+v", tr)
	}
	count := map[float64]int{}
	s := im.scores(name)
	for _, p := range s {
		count[p]++
	}
	if count[1] != 43 || count[0.5] != 24 || count[0] != 43 || s["Ju, Wenjun"] != 1 || s["Vaishali, Rameshbabu"] != 0.5 {
		t.Errorf("scores: %v; Ju %v, Vaishali %v", count, s["Ju, Wenjun"], s["Vaishali, Rameshbabu"])
	}
	for _, p := range im.a.Players {
		if p.FideID == nil || p.FideRating == nil {
			t.Errorf("%s without FIDE id or rating", p.Name)
		}
	}
}

// TestPGNRealUTCDate: the UzChess Cup Masters 2025 export (lichess broadcast)
// has no Date and no Event but on its first game (`Round 1: Aravindh… -
// Praggnanandhaa R`): the days come from UTCDate, the 44 games without Event
// are one event named "?", the first game one of its own.
//
// Counted from the file (10 players, 9 rounds, 45 games): Praggnanandhaa,
// Abdusattorov and Sindarov 5½; Erigaisi 5; Yakubboev, Maghsoodloo and Rapport
// 4½; Vokhidov 4; Nepomniachtchi 3½; Aravindh 2½. Praggnanandhaa's ½ against
// Aravindh is the first game, so in "?" he has 5 from 8 games. The x.1 games
// carry UTCDate 2025.06.18, the others 06.19 to 06.27.
func TestPGNRealUTCDate(t *testing.T) {
	im := importReal(t, "uzchesscup2025.pgn")
	if im.st.Read != 45 || im.st.Imported != 45 || len(im.a.Tournaments) != 2 || len(im.a.Players) != 10 {
		t.Fatalf("%d read, %d imported, %d tournaments, %d players", im.st.Read, im.st.Imported, len(im.a.Tournaments), len(im.a.Players))
	}
	tr := im.ts["?"]
	if day.Day(tr.StartDate).String() != "2025-06-18" || day.Day(tr.EndDate).String() != "2025-06-27" || *tr.Rounds != 9 || len(im.games["?"]) != 44 {
		t.Errorf("tournament %s–%s, %d rounds, %d games", day.Day(tr.StartDate).String(), day.Day(tr.EndDate).String(), *tr.Rounds, len(im.games["?"]))
	}
	total := im.scores("?")
	for p, v := range im.scores("Round 1: Aravindh, Chithambaram VR. - Praggnanandhaa R") {
		total[p] += v
	}
	want := map[string]float64{
		"Praggnanandhaa R": 5.5, "Abdusattorov, Nodirbek": 5.5, "Sindarov, Javokhir": 5.5, "Erigaisi Arjun": 5,
		"Yakubboev, Nodirbek": 4.5, "Maghsoodloo, Parham": 4.5, "Rapport, Richard": 4.5, "Vokhidov, Shamsiddin": 4,
		"Nepomniachtchi, Ian": 3.5, "Aravindh, Chithambaram VR.": 2.5,
	}
	for p, w := range want {
		if total[p] != w {
			t.Errorf("%s: %v, want %v", p, total[p], w)
		}
	}
	if im.scores("?")["Praggnanandhaa R"] != 5 {
		t.Errorf("Praggnanandhaa in ?: %v", im.scores("?")["Praggnanandhaa R"])
	}
	sum, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(im.a.Dir), ArchiveName: im.a.Dir, Out: t.TempDir(), Workers: 1})
	if err != nil || sum.RowsRejected != 0 {
		t.Errorf("run: %v, %d rejected", err, sum.RowsRejected)
	}
}

// TestPGNRealEngineRoundRobin: an 8-engine round robin of cutechess-cli, two
// games a pairing under one Round number (1–7), is 56 games in 14 rounds, a
// round robin (every pair met twice), blitz by its TimeControl "40/30".
//
// Counted from the file: Komodo_14 13½ (lost no game, drew once with
// Ethereal), Ethereal 12½, SF_3000 9½, GNU_Chess 7½, SF_2500 6, SF_2000 5,
// KiyEngine_V6.1.3 2, SF_1500 0; the last three games are dated 2026-02-13.
func TestPGNRealEngineRoundRobin(t *testing.T) {
	im := importReal(t, "kiyengine-tournament.pgn")
	if im.st.Read != 56 || im.st.Imported != 56 || len(im.st.Problems) != 0 || len(im.a.Tournaments) != 1 || len(im.a.Players) != 8 {
		t.Fatalf("%d read, %d imported, problems %v, %d tournaments, %d players", im.st.Read, im.st.Imported, im.st.Problems, len(im.a.Tournaments), len(im.a.Players))
	}
	tr := im.ts["?"]
	if *tr.System != "round-robin" || *tr.Rounds != 14 || *tr.TimeClass != "blitz" || day.Day(tr.EndDate).String() != "2026-02-13" {
		t.Errorf("system %s, %d rounds, class %s, ends %s", *tr.System, *tr.Rounds, *tr.TimeClass, day.Day(tr.EndDate).String())
	}
	want := map[string]float64{"Komodo_14": 13.5, "Ethereal": 12.5, "SF_3000": 9.5, "GNU_Chess": 7.5, "SF_2500": 6,
		"SF_2000": 5, "KiyEngine_V6.1.3": 2, "SF_1500": 0}
	s := im.scores("?")
	for p, w := range want {
		if s[p] != w {
			t.Errorf("%s: %v, want %v", p, s[p], w)
		}
	}
	// Each engine plays once in each of the 14 rounds.
	perRound := map[[2]int64]int{}
	for _, g := range im.games["?"] {
		perRound[[2]int64{int64(g.Round), g.WhiteID}]++
		perRound[[2]int64{int64(g.Round), *g.BlackID}]++
	}
	if len(perRound) != 14*8 {
		t.Errorf("%d (round, engine) slots, want 112", len(perRound))
	}
	sum, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(im.a.Dir), ArchiveName: im.a.Dir, Out: t.TempDir(), Workers: 1})
	if err != nil || sum.RowsRejected != 0 {
		t.Errorf("run: %v, %d rejected", err, sum.RowsRejected)
	}
}
