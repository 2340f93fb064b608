package school

import (
	"testing"

	"github.com/ratelist/ratelist/rating"
)

// g is a game: white, black, and white's score in half points (2 win, 1 draw, 0 loss).
func g(w, b int32, ws int) rating.Game {
	code := [3][2]byte{{'0', '1'}, {'=', '='}, {'1', '0'}}[ws]
	return rating.Game{White: w, Black: b, WhiteResult: code[0], BlackResult: code[1]}
}

func established(st *rating.State, ratings ...int32) {
	for i, r := range ratings {
		st.Rated[i], st.Rating[i], st.GamesTotal[i], st.Tournaments[i] = true, r, 40, 5
	}
}

func TestRateEstablished(t *testing.T) {
	// Player 0 (1500, 40 games → K 15) meets 1600, 1600, 1700, 1500 and scores
	// 1 + 1 + ½ + ½ = 3. Ra = 6400/4 = 1600, D = −100 → rating.PD .36, We = 4 × .36 = 1.44,
	// change = 15 × (3 − 1.44) = 23.4 → 23 → 1523.
	st := rating.NewState(5)
	established(st, 1500, 1600, 1600, 1700, 1500)
	r := NewRater(Defaults(), st)
	cards := r.Rate(st, &rating.Event{Games: []rating.Game{g(0, 1, 2), g(2, 0, 0), g(0, 3, 1), g(4, 0, 1), g(1, 2, 1)}})
	c := cards[0]
	if c.Games != 4 || c.Score2 != 6 || c.OppAverage != 1600 || c.D != -100 || c.Expected != 144 || c.K != 15 || c.ChangeExact != 2340 || c.Change != 23 {
		t.Fatalf("card 0 = %+v", c)
	}
	if st.Rating[0] != 1523 || st.GamesTotal[0] != 44 || st.Tournaments[0] != 6 {
		t.Errorf("state after: rating %d games %d tournaments %d", st.Rating[0], st.GamesTotal[0], st.Tournaments[0])
	}
	// Player 1 played 2 games (< 4): unchanged, but the games count.
	if c := cards[1]; c.Reason != ReasonMinGames || c.Change != 0 || st.Rating[1] != 1600 || st.GamesTotal[1] != 42 || st.Tournaments[1] != 5 {
		t.Errorf("min games: card %+v, rating %d, games %d, tournaments %d", c, st.Rating[1], st.GamesTotal[1], st.Tournaments[1])
	}
}

func TestRateUnratedOpponentsAndUnplayed(t *testing.T) {
	// Player 0 (1800) plays 4 rated opponents and player 5, who is unrated and has no
	// category: that game is not rated. A forfeit and a W/D/L game are not rated either.
	st := rating.NewState(7)
	established(st, 1800, 1800, 1800, 1800, 1800)
	r := NewRater(Defaults(), st)
	gs := []rating.Game{g(0, 1, 2), g(0, 2, 2), g(0, 3, 2), g(0, 4, 2), g(0, 5, 2),
		{White: 0, Black: 6, WhiteResult: '+', BlackResult: '-'},
		{White: 6, Black: 0, WhiteResult: 'L', BlackResult: 'W'}}
	st.Rated[6], st.Rating[6] = true, 1800
	cards := r.Rate(st, &rating.Event{Games: gs})
	// n = 4, W = 4, Ra 1800, D 0 → We 2.00, K 15 × 2 = 30.
	if c := cards[0]; c.Games != 4 || c.Score2 != 8 || c.Change != 30 {
		t.Errorf("card 0 = %+v, want n 4, W 4, change 30", c)
	}
	if c := cards[5]; c.RatedAfter || c.Reason != ReasonNoInitial || st.Rated[5] {
		t.Errorf("player without category in stage one: %+v", c)
	}
}

func TestRateStage1Newcomer(t *testing.T) {
	// Stage one: newcomer 0 has category 3 → 1600 at the start, K 40. Opponents 1–4 at
	// 1600. Score 3 of 4: D 0, We 2.00, 40 × 1 = 40 → 1640. The opponents' games count
	// (the newcomer was rated at the start). Newcomer 5 has Elo 1900 → 2000 (floor).
	st := rating.NewState(6)
	established(st, 0, 1600, 1600, 1600, 1600)
	st.Rated[0], st.Rating[0], st.GamesTotal[0], st.Tournaments[0] = false, 0, 0, 0
	st.Category[0] = 3
	st.Elo[5] = 1900
	r := NewRater(Defaults(), st)
	cards := r.Rate(st, &rating.Event{Games: []rating.Game{g(0, 1, 2), g(0, 2, 2), g(0, 3, 2), g(0, 4, 0), g(5, 1, 1)}})
	if c := cards[0]; c.Reason != ReasonInitialStage1 || c.K != 40 || c.Change != 40 || st.Rating[0] != 1640 || st.Tournaments[0] != 1 || st.GamesTotal[0] != 4 ||
		!c.RatedUsed || c.Used != 1600 || c.RatedBefore {
		t.Errorf("newcomer: card %+v, rating %d", c, st.Rating[0])
	}
	// Opponent 1 (K 15) lost to 0 and drew 5 (2000): n 2 < 4 → unchanged but counted.
	if c := cards[1]; c.Games != 2 || c.Reason != ReasonMinGames {
		t.Errorf("opponent 1: %+v", c)
	}
	// Newcomer 5 gets 2000 from the Elo floor although he played only one game;
	// that tournament does not count for K (rating not computed).
	if c := cards[5]; c.Reason != ReasonInitialStage1 || st.Rating[5] != 2000 || st.Tournaments[5] != 0 || st.GamesTotal[5] != 1 {
		t.Errorf("newcomer 5: card %+v, rating %d, tournaments %d", c, st.Rating[5], st.Tournaments[5])
	}
}

func TestRateStage2Newcomer(t *testing.T) {
	// Stage two pinned: newcomer 0 (category 1, ignored in stage two) scores 3/4 vs
	// 1600, 1700, 1600, 1700 → Ra 1650, 1 point above 50% = 2 half points → +40 → 1690.
	// The opponents' games against him are not rated (he was unrated at the start).
	s := Defaults()
	s.Stage = 2
	st := rating.NewState(5)
	established(st, 0, 1600, 1700, 1600, 1700)
	st.Rated[0], st.Rating[0], st.GamesTotal[0], st.Tournaments[0] = false, 0, 0, 0
	st.Category[0] = 1
	r := NewRater(s, st)
	cards := r.Rate(st, &rating.Event{Games: []rating.Game{g(0, 1, 2), g(2, 0, 0), g(0, 3, 2), g(4, 0, 2)}})
	if c := cards[0]; c.Reason != ReasonInitialStage2 || st.Rating[0] != 1690 || st.GamesTotal[0] != 4 || st.Tournaments[0] != 1 || c.Stage != 2 {
		t.Errorf("stage-two newcomer: card %+v, rating %d", c, st.Rating[0])
	}
	for p := 1; p < 5; p++ {
		if cards[p].Games != 0 || st.GamesTotal[p] != 40 {
			t.Errorf("opponent %d: %+v", p, cards[p])
		}
	}
	// A newcomer with 3 games gets nothing; one who scores 0 stays unrated.
	st2 := rating.NewState(5)
	established(st2, 0, 1600, 1700, 1600, 1700)
	st2.Rated[0] = false
	r2 := NewRater(s, st2)
	cards = r2.Rate(st2, &rating.Event{Games: []rating.Game{g(0, 1, 0), g(2, 0, 2), g(0, 3, 0), g(4, 0, 2)}})
	if c := cards[0]; c.Reason != ReasonNoInitial || st2.Rated[0] {
		t.Errorf("zero score: %+v", c)
	}
}

func TestStageSwitch(t *testing.T) {
	// Switch when MORE than Stage2Players players have ≥ Stage2Games games, after the
	// tournament that gets there; the next tournament runs in stage two.
	s := Defaults()
	s.Stage2Players, s.Stage2Games = 2, 10
	st := rating.NewState(4)
	established(st, 1600, 1600, 1600, 1600)
	for i := range st.GamesTotal {
		st.GamesTotal[i] = 6
	}
	r := NewRater(s, st)
	// Players 0–3 play 4 games each: every total becomes 10 → 4 players > 2.
	ev := &rating.Event{ID: 7, Games: []rating.Game{g(0, 1, 1), g(2, 3, 1), g(0, 2, 1), g(1, 3, 1), g(0, 3, 1), g(1, 2, 1), g(3, 0, 1), g(2, 1, 1)}}
	cards := r.Rate(st, ev)
	if cards[0].Stage != 1 || r.stage != 2 || r.stageFrom != 7 {
		t.Errorf("after the first tournament: card stage %d, rater stage %d from %d; want 1, 2 from 7", cards[0].Stage, r.stage, r.stageFrom)
	}
	// Exactly Stage2Players is not enough.
	st = rating.NewState(4)
	established(st, 1600, 1600, 1600, 1600)
	for i := range st.GamesTotal {
		st.GamesTotal[i] = 0
	}
	r = NewRater(s, st)
	r.Rate(st, &rating.Event{Games: []rating.Game{g(0, 1, 1), g(1, 0, 1), g(0, 1, 1), g(1, 0, 1), g(0, 1, 1), g(1, 0, 1), g(0, 1, 1), g(1, 0, 1), g(0, 1, 1), g(1, 0, 1)}})
	if r.stage != 1 {
		t.Errorf("2 players with 10 games, threshold more than 2: stage %d, want 1", r.stage)
	}
}

// TestSchoolState: the stage and the tournament that switched it on survive a
// snapshot, and show in the summary; a damaged snapshot is refused.
func TestSchoolState(t *testing.T) {
	st := rating.NewState(2)
	r := NewRater(Defaults(), st)
	r.stage, r.stageFrom = 2, 1042
	b, err := r.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	back := NewRater(Defaults(), st)
	if err := back.UnmarshalState(b, nil); err != nil || back.stage != 2 || back.stageFrom != 1042 {
		t.Errorf("restored stage %d from %d (%v), want 2 from 1042", back.stage, back.stageFrom, err)
	}
	got := Definition.Summary(back, st)
	if len(got) != 2 || got[0] != (rating.SummaryField{Key: "stage", Value: 2}) || got[1].Key != "stage2_from_tournament" || got[1].Value != 1042 {
		t.Errorf("summary fields %v, want stage 2 and stage2_from_tournament 1042", got)
	}
	for _, bad := range [][]byte{nil, {3, 0}, {1}, append(b, 0)} {
		if err := back.UnmarshalState(bad, nil); err == nil {
			t.Errorf("state %v restored, want an error", bad)
		}
	}
}

// TestReasonSpellings: the reason column of cards.parquet keeps its words.
func TestReasonSpellings(t *testing.T) {
	for r, want := range map[rating.Reason]string{
		ReasonRated: "rated", ReasonMinGames: "below-min-games", ReasonInitialStage1: "initial-stage1",
		ReasonInitialStage2: "initial-stage2", ReasonNoInitial: "unrated-no-result",
		0: "Reason(0)", 200: "Reason(200)",
	} {
		if got := r.String(); got != want {
			t.Errorf("Reason(%d) = %q, want %q", r, got, want)
		}
	}
}
