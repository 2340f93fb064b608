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
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
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
	if c.Games > 0 && !c.PerGame {
		row.OppAverage = ptr(c.OppAverage)
	}
	if c.Tournament != 0 {
		row.TournamentID, row.EndDate = c.Tournament, c.End
	}
	if c.PerGame {
		row.OpponentID, row.OpponentRating = ptr(a.Players.ID[c.Opponent]), ptr(c.OppRating)
		row.W = ptr(float64(c.Score2) / 2)
		if c.K > 0 {
			row.PD = ptr(float64(c.Expected) / 100)
		}
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

// TestCardsFile: cards.parquet written column by column is byte for byte the
// file GenericWriter[output.Card] writes from the same rows, in row groups of
// cardsPerRowGroup rows.
func TestCardsFile(t *testing.T) {
	const players = 500
	arch := &runArchive{Archive: &archive.Archive{Players: archive.Players{ID: make([]int64, players), Name: make([]string, players)}}}
	for i := range players {
		arch.Players.ID[i] = int64(7000 + i)
		arch.Players.Name[i] = string(rune('A'+i%26)) + "name"
	}
	arch.Players.Name[3] = ""                           // an empty string is a value too
	ts := benchCards(players)[:cardsPerRowGroup/10+700] // two row groups, the second partial

	out := t.TempDir()
	stage, err := newStaging(out)
	if err != nil {
		t.Fatal(err)
	}
	cw, err := newCardWriter(stage, &arch.Players, PeriodMonth)
	if err != nil {
		t.Fatal(err)
	}
	var g errgroup.Group
	g.Go(cw.run)
	ctx := context.Background()
	var want []output.Card
	for i, cs := range ts {
		tournament, end := int64(i+1), int32(19000+i%60)
		if i%97 == 0 {
			tournament = 0 // a period's close
		}
		if err := cw.add(ctx, periodKey(PeriodMonth, end), tournament, end, cs); err != nil {
			t.Fatal(err)
		}
		period := periodLabel(PeriodMonth, periodKey(PeriodMonth, end))
		for _, c := range cs {
			want = append(want, cardRowOf(arch, period, tournament, end, c))
		}
	}
	err = cw.flush(ctx)
	close(cw.full)
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
}

// TestCardColumns: every column of cards.parquet is filled by exactly one
// entry of cardColumns.
func TestCardColumns(t *testing.T) {
	leaves := parquet.SchemaOf(output.Card{}).Columns()
	seen := map[int]bool{}
	for _, i := range cardColumnIndex {
		if seen[i] {
			t.Errorf("column %v filled twice", leaves[i])
		}
		seen[i] = true
	}
	if len(seen) != len(leaves) {
		t.Errorf("%d of %d columns filled", len(seen), len(leaves))
	}
}
