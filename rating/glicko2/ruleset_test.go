package glicko2

import (
	"bytes"
	"slices"
	"testing"

	"github.com/ratelist/ratelist/rating"
)

// TestRater drives the rule set as the pipeline does: only games played over
// the board are rated, all of a period's tournaments together; the whole
// ratings, game counts, list flags and cards follow.
func TestRater(t *testing.T) {
	d := &Definition
	s := d.Defaults()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	st := rating.NewState(5)
	r := d.New(s, st).(*Rater)
	if r.ListDay(20000) != 20000 {
		t.Error("ListDay is not the end date")
	}
	g := func(w, b int32, wr, br byte) rating.Game {
		return rating.Game{White: w, Black: b, WhiteResult: wr, BlackResult: br}
	}
	// Tournament 1: 0 beats 1, 2 draws 3; a forfeit of 4 and a bye of 4.
	r.Rate(st, &rating.Event{ID: 1, Games: []rating.Game{g(0, 1, '1', '0'), g(2, 3, '=', '='), g(4, 0, '-', '+'), g(4, -1, 'U', 0)}})
	// Tournament 2, same period: 1 beats 2; an unrated game of 4.
	if cards := r.Rate(st, &rating.Event{ID: 2, Games: []rating.Game{g(1, 2, '1', '0'), g(3, 4, 'W', 'L')}}); len(cards) != 0 {
		t.Errorf("Rate returned %d cards, want none before the close", len(cards))
	}
	if _, err := r.MarshalState(); err == nil {
		t.Error("MarshalState with a period open: no error")
	}
	var cards []rating.Card
	if err := r.ClosePeriod(st, 0, 30, func(c []rating.Card) error { cards = append(cards, c...); return nil }); err != nil {
		t.Fatal(err)
	}
	if st.Rated[4] || r.State().Listed[4] {
		t.Error("player 4 rated without a game played over the board")
	}
	wantGames := []int32{1, 2, 2, 1, 0}
	for p := range int32(4) {
		if !st.Rated[p] || st.Rating[p] != r.State().List(p).Rating() || st.GamesPeriod[p] != wantGames[p] || st.GamesTotal[p] != wantGames[p] {
			t.Errorf("player %d: rated %v rating %d games %d/%d, want the list's rating and %d games",
				p, st.Rated[p], st.Rating[p], st.GamesPeriod[p], st.GamesTotal[p], wantGames[p])
		}
		if on, k, cat, flags := r.ListInfo(st, p); !on || k != 0 || cat != "" || flags != "p" {
			t.Errorf("player %d: ListInfo = %v %d %q %q, want listed, provisional", p, on, k, cat, flags)
		}
	}
	// Player 1's cards: the two games in the order they came, then the total.
	var one []rating.Card
	for _, c := range cards {
		if c.Player == 1 {
			one = append(one, c)
		}
	}
	if len(one) != 3 || one[0].Opponent != 0 || one[0].Score2 != 0 || one[1].Opponent != 2 || one[1].Score2 != 2 ||
		!one[2].PeriodTotal || one[2].Reason != ReasonFirst || one[2].Before != 1500 || one[2].After != st.Rating[1] ||
		one[2].Games != 2 || one[2].Score2 != 2 {
		t.Errorf("player 1's cards = %+v", one)
	}
	// A second period: player 0 plays on until the RD falls below 110; 3 is idle.
	for range 12 {
		r.Rate(st, &rating.Event{Games: []rating.Game{g(0, 1, '=', '='), g(1, 0, '0', '1'), g(0, 2, '1', '0')}})
	}
	rd3 := r.State().RD[3]
	clear(st.GamesPeriod)
	cards = cards[:0]
	if err := r.ClosePeriod(st, 31, 59, func(c []rating.Card) error { cards = append(cards, c...); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, _, _, flags := r.ListInfo(st, 0); flags != "" || !(r.State().RD[0] < 110) {
		t.Errorf("player 0: RD %v flags %q, want below 110 and not provisional", r.State().RD[0], flags)
	}
	if last := cards[len(cards)-1]; last.Player != 2 || last.Reason != ReasonPeriod {
		t.Errorf("last card = %+v, want player 2's period", last)
	}
	if !(r.State().RD[3] > rd3) || st.GamesTotal[3] != 1 {
		t.Errorf("idle player 3: RD %v (was %v), games %d", r.State().RD[3], rd3, st.GamesTotal[3])
	}

	// --resume: the saved state, restored onto a registry with a player
	// added in front, rates on exactly as the original.
	saved, err := r.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	back := NewRater(Defaults(), rating.NewState(6))
	if err := back.UnmarshalState(saved, []int32{1, 2, 3, 4, 5}); err != nil {
		t.Fatal(err)
	}
	for p := range int32(5) {
		if back.State().Listed[p+1] != r.State().Listed[p] || back.State().R[p+1] != r.State().R[p] || back.State().RD[p+1] != r.State().RD[p] {
			t.Errorf("player %d not restored at %d", p, p+1)
		}
	}
	same := NewRater(Defaults(), rating.NewState(5))
	if err := same.UnmarshalState(saved, nil); err != nil {
		t.Fatal(err)
	}
	if again, _ := same.MarshalState(); !bytes.Equal(again, saved) {
		t.Error("restored state encodes differently")
	}
	if err := NewRater(Defaults(), rating.NewState(4)).UnmarshalState(saved, nil); err == nil {
		t.Error("a state of 5 players restored onto 4: no error")
	}
}

// TestEmitGames: the per-game rows EmitGames hands on are the per-game cards
// and values ClosePeriod hands on without it, in the same order, and the
// other cards are the same.
func TestEmitGames(t *testing.T) {
	type game struct {
		c    rating.Card
		vals [4]float64
	}
	run := func(emitGames bool) (cards []rating.Card, games []game) {
		st := rating.NewState(40)
		r := Definition.New(Definition.Defaults(), st).(*Rater)
		if emitGames {
			r.EmitGames(func(g *rating.GameRows) error {
				for i := range g.Len() {
					games = append(games, game{rating.Card{
						Player: g.Player[i], RatedBefore: true, Games: 1, Score2: g.Score2[i], Expected: g.Expected[i], Reason: g.Reason,
						PerGame: true, Opponent: g.Opponent[i], OppRating: g.OppRating[i], Tournament: g.Tournament[i], End: g.End[i],
					}, [4]float64{g.Values[0][i], g.Values[1][i], g.Values[2][i], g.Values[3][i]}})
				}
				return nil
			})
		}
		for period := range int32(3) {
			for ev := range int64(3) {
				var gs []rating.Game
				for i := range int32(2000) { // more than closeChunk: several hand-ons
					w, b := (i*7+int32(ev)+period)%40, (i*13+5)%40
					if w != b {
						gs = append(gs, rating.Game{White: w, Black: b, WhiteResult: "10="[i%3], BlackResult: "01="[i%3]})
					}
				}
				r.Rate(st, &rating.Event{ID: 10*int64(period) + ev, End: 30*period + 10, Games: gs})
			}
			err := r.ClosePeriod(st, 30*period, 30*period+29, func(c []rating.Card) error {
				row := make([]rating.Value, 8)
				for i, card := range c {
					if !card.PerGame {
						cards = append(cards, card)
						continue
					}
					r.CardValues(i, row[:4])
					// Before is the player's, which GameRows leave to the period row.
					card.Before = 0
					games = append(games, game{card, [4]float64{row[0].Float, row[1].Float, row[2].Float, row[3].Float}})
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return cards, games
	}
	cards, games := run(false)
	rowCards, rows := run(true)
	if len(games) == 0 || !slices.Equal(games, rows) {
		t.Errorf("EmitGames' %d rows differ from the %d per-game cards", len(rows), len(games))
	}
	if !slices.Equal(cards, rowCards) {
		t.Errorf("the period cards differ with EmitGames: %d against %d", len(rowCards), len(cards))
	}
}
