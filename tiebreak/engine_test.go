package tiebreak_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ratelist/ratelist/tiebreak"
)

// TestEngineReuse: one Engine over many tournaments of every size, code list,
// option, point system, adjustments and system name (errors included) gives
// what Standings and WriteCSV give on their own.
func TestEngineReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	lists := [][]string{
		tiebreak.DefaultCodes("chess"),
		{"DE", "BH", "FB", "AOB", "APRO", "APPO"},
		{"TURCAS", "SPREAD", "SCORE", "LJV/C1", "KS", "WIN", "REP", "ARO/M1", "SB/P"},
		{"BH", "XX"},
		{},
	}
	opts := []tiebreak.Options{{}, {Unplayed: tiebreak.Fide2009}, {AfterRound: 3}, {Unplayed: "bad"}}
	var e tiebreak.Engine
	for i := 0; i < 300; i++ {
		tt := genTournament(rng, i, i%3 == 2)
		if i%5 == 0 {
			tt = benchTournament(rng, int64(i))
		}
		switch i % 7 {
		case 1: // a point system of its own: the scores are not the results' half-points
			tt.Points = &tiebreak.PointSystem{Win: 6, Draw: 3, Loss: 1, ForfeitWin: 6, FullBye: 6, HalfBye: 3, ZeroBye: 1, PAB: 4}
		case 3: // adjustments in a round and in none
			tt.Adjustments = []tiebreak.Adjustment{{Player: 0, Round: 1, Points: -2}, {Player: len(tt.Players) - 1, Points: 3}}
		case 4: // a round robin by another name than the tournament before
			tt.System = "Berger"
		}
		if i%37 == 0 {
			tt.Games = append(tt.Games, tiebreak.Game{Round: 1, White: 0, Black: -1, WhiteResult: '?'})
		}
		codes := lists[rng.IntN(len(lists))]
		opt := opts[rng.IntN(len(opts))]
		want, wantErr := tiebreak.Standings(tt, codes, opt)
		got, err := e.Standings(tt, codes, opt)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("tournament %d %v: error %v, want %v", i, codes, err, wantErr)
		}
		if err != nil {
			continue
		}
		var csv bytes.Buffer
		if err := tiebreak.WriteCSV(&csv, codes, want); err != nil {
			t.Fatal(err)
		}
		if b := e.CSV(codes, got); !bytes.Equal(b, csv.Bytes()) {
			t.Fatalf("tournament %d %v:\n%s\nwant\n%s", i, codes, b, csv.Bytes())
		}
		if !slices.EqualFunc(got, want, func(a, b tiebreak.Row) bool { return a.Index == b.Index && a.Rank == b.Rank }) {
			t.Fatalf("tournament %d %v: rows differ", i, codes)
		}
	}
}
