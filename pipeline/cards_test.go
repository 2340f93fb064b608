package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"
	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/fide"
)

// cardRowOf is a card as a output.Card, field by field: the reference for the
// columns cardWriter.add fills.
func cardRowOf(a *runArchive, period string, tournament int64, end int32, c rating.Card) output.Card {
	row := output.Card{
		Period: period, TournamentID: tournament, EndDate: end, PlayerID: a.Players.ID[c.Player],
		Name: a.Players.Name[c.Player], Stage: int32(c.Stage), Games: c.Games, Score: float64(c.Score2) / 2,
		Change: c.Change, Reason: c.Reason.String(),
	}
	if c.RatedBefore {
		row.RatingBefore = ptr(c.Before)
	}
	if c.RatedAfter {
		row.RatingAfter = ptr(c.After)
	}
	if c.RatedUsed {
		row.RatingUsed = ptr(c.Used)
	}
	if c.Games > 0 {
		row.OppAverage = ptr(c.OppAverage)
	}
	if c.Tournament != 0 {
		row.TournamentID, row.EndDate = c.Tournament, c.End
	}
	if c.K > 0 {
		row.K = ptr(c.K)
		if !c.PeriodTotal {
			row.D = ptr(c.D)
		}
		row.Expected = ptr(float64(c.Expected) / 100)
		row.ChangeUnrounded = ptr(float64(c.ChangeExact) / 100)
	}
	return row
}

// gameRowOf is a per-game card as a output.CardGame, field by field: the
// reference for the columns cardWriter.add fills.
func gameRowOf(a *runArchive, period string, c rating.Card) output.CardGame {
	row := output.CardGame{
		Period: period, PlayerID: a.Players.ID[c.Player], TournamentID: c.Tournament, EndDate: c.End,
		OpponentID: a.Players.ID[c.Opponent], OpponentRating: c.OppRating, W: float64(c.Score2) / 2, Reason: c.Reason.String(),
	}
	if c.K > 0 {
		row.D, row.PD = ptr(c.D), ptr(float64(c.Expected)/100)
		row.ChangeUnrounded = ptr(float64(c.ChangeExact) / 100)
	}
	return row
}

// TestCardsFile: cards.parquet written column by column is byte for byte the
// file GenericWriter[output.Card] writes from the same rows, in row groups of
// cardsPerRowGroup rows, and card_games.parquet the file GenericWriter
// writes from the per-game cards; school cards and FIDE closes (some games
// rated, some pooled) mixed.
func TestCardsFile(t *testing.T) {
	const players = 500
	arch := &runArchive{Archive: &archive.Archive{Players: archive.Players{ID: make([]int64, players), Name: make([]string, players)}}}
	for i := range players {
		arch.Players.ID[i] = int64(7000 + i)
		arch.Players.Name[i] = string(rune('A'+i%26)) + "name"
	}
	arch.Players.Name[3] = ""                               // an empty string is a value too
	ts := benchCards(players, (cardsPerRowGroup/10+700)*10) // two row groups, the second partial
	closes := benchFideCards(players, 18*512)[:18]          // two row groups of games, the second partial (512 periods a chunk)
	for i := range closes {
		for j := range closes[i] {
			if c := &closes[i][j]; j%11 == 0 && c.PerGame { // a pooled game
				c.RatedBefore, c.Before, c.D, c.Expected, c.K, c.ChangeExact, c.Reason = false, 0, 0, 0, 0, 0, fide.ReasonPoolGame
			}
		}
	}

	out := t.TempDir()
	stage, err := newStaging(out)
	if err != nil {
		t.Fatal(err)
	}
	cw, err := newCardWriter(stage, &arch.Players, day.Month, plainCards)
	if err != nil {
		t.Fatal(err)
	}
	var g errgroup.Group
	g.Go(cw.run)
	ctx := context.Background()
	var want []output.Card
	var wantGames []output.CardGame
	for i, cs := range ts {
		tournament, end := int64(i+1), int32(19000+i%60)
		if i%97 == 0 {
			tournament = 0 // a period's close
		}
		if i%300 == 0 && len(closes) > 0 {
			tournament, cs, closes = 0, closes[0], closes[1:]
		}
		if err := cw.add(ctx, day.PeriodOf(day.Month, day.Day(end)).Key, tournament, end, cs); err != nil {
			t.Fatal(err)
		}
		period := day.Period{Kind: day.Month, Key: day.PeriodOf(day.Month, day.Day(end)).Key}.Label()
		for _, c := range cs {
			if c.PerGame {
				wantGames = append(wantGames, gameRowOf(arch, period, c))
			} else {
				want = append(want, cardRowOf(arch, period, tournament, end, c))
			}
		}
	}
	if len(closes) > 0 || len(wantGames) <= cardsPerRowGroup {
		t.Fatalf("%d closes left, %d games: not two row groups of games", len(closes), len(wantGames))
	}
	err = cw.flushAll(ctx)
	cw.close()
	if err := errors.Join(err, g.Wait()); err != nil {
		t.Fatal(err)
	}
	if err := cw.finish(); err != nil {
		t.Fatal(err)
	}
	if err := stage.commit(func(string) bool { return false }); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "cards.parquet"))
	if err != nil {
		t.Fatal(err)
	}

	ref := testutil.ParquetBytes(t, want, append(slices.Clip(outputOptions), output.CardSchema, parquet.MaxRowsPerRowGroup(cardsPerRowGroup))...)
	if !bytes.Equal(got, ref) {
		t.Fatalf("cards.parquet (%d bytes) differs from GenericWriter's file (%d bytes) for the same %d rows",
			len(got), len(ref), len(want))
	}
	got, err = os.ReadFile(filepath.Join(out, "card_games.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	ref = testutil.ParquetBytes(t, wantGames, append(slices.Clip(outputOptions), output.CardGameSchema, parquet.MaxRowsPerRowGroup(cardsPerRowGroup))...)
	if !bytes.Equal(got, ref) {
		t.Fatalf("card_games.parquet (%d bytes) differs from GenericWriter's file (%d bytes) for the same %d rows",
			len(got), len(ref), len(wantGames))
	}
}

// TestCardColumns: every column of cards.parquet and of card_games.parquet
// is filled by exactly one entry of cardColumns or gameColumns.
func TestCardColumns(t *testing.T) {
	for _, f := range []struct {
		name string
		row  any
		idx  []int
	}{{"cards.parquet", output.Card{}, cardLeaves}, {"card_games.parquet", output.CardGame{}, gameLeaves}} {
		leaves := parquet.SchemaOf(f.row).Columns()
		seen := map[int]bool{}
		for _, i := range f.idx {
			if seen[i] {
				t.Errorf("%s: column %v filled twice", f.name, leaves[i])
			}
			seen[i] = true
		}
		if len(seen) != len(leaves) {
			t.Errorf("%s: %d of %d columns filled", f.name, len(seen), len(leaves))
		}
	}
}

func ptr[T any](v T) *T { return &v }
