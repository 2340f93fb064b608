package school

import (
	"fmt"

	"github.com/ratelist/ratelist/rating"
)

// Settings holds every setting of the school Elo system (docs/school-elo.md, whose
// sections the § numbers below are). The zero value is not useful; start from
// Defaults and override fields (a rules file does this through the toml tags).
type Settings struct {
	// Stage-one initial ratings by category 1–4 (§5).
	CategoryRating [4]int32 `toml:"category_rating"`
	// A player with a FIDE Elo starts at max(Elo, EloFloor) when UseEloFloor,
	// at the Elo otherwise (§5).
	EloFloor    int32 `toml:"elo_floor"`
	UseEloFloor bool  `toml:"use_elo_floor"`
	// |D| above Cap counts as Cap (§2).
	Cap int32 `toml:"cap"`
	// K rules (§3): KNew while the player has completed fewer than NewTournaments
	// rated tournaments, or fewer than NewTournamentsFewGame while their total
	// games are ≤ FewGames; then KMid while total games < MidGames; then KLow for
	// ratings ≤ HighAbove and KHigh above it.
	KNew                  int32 `toml:"k_new"`
	NewTournaments        int32 `toml:"new_tournaments"`
	NewTournamentsFewGame int32 `toml:"new_tournaments_few_games"`
	FewGames              int32 `toml:"few_games"`
	KMid                  int32 `toml:"k_mid"`
	MidGames              int32 `toml:"mid_games"`
	KLow                  int32 `toml:"k_low"`
	KHigh                 int32 `toml:"k_high"`
	HighAbove             int32 `toml:"high_above"`
	// MinGames rated games in a tournament are needed for it to change a rating
	// (§4); ListGames total games to appear on a list.
	MinGames  int32 `toml:"min_games"`
	ListGames int32 `toml:"list_games"`
	// Stage two starts after the first tournament that leaves more than
	// Stage2Players players with at least Stage2Games games (§5).
	// Stage pins the stage: 0 = automatic switch, 1 or 2 = that stage always.
	Stage2Players int32 `toml:"stage2_players"`
	Stage2Games   int32 `toml:"stage2_games"`
	Stage         int   `toml:"stage"`
	// Stage-two initial rating above 50%: Ra + StepPoints for every half point (§5).
	StepPoints int32 `toml:"step_points"`
	// PerGame selects We = Σ rating.PD(Ro − Ri) instead of n × rating.PD(Ro − Ra) (§2).
	PerGame bool `toml:"per_game"`
	// Category bands printed in the list (§6): a rating ≥ Bands[i].Min and below
	// the previous band's Min gets Bands[i].Name. Highest band first.
	Bands []Band `toml:"bands"`
	// rating.TimeClasses are the tournaments' time classes it rates (standard, rapid,
	// blitz); the others are not rated. Not given: standard.
	TimeClasses rating.TimeClasses `toml:"time_classes,omitempty"`
}

// Band is one rating category band of the list's category column.
type Band struct {
	Name string `toml:"name"`
	Min  int32  `toml:"min"`
}

// Defaults returns the school system with the defaults of docs/school-elo.md.
func Defaults() Settings {
	return Settings{
		CategoryRating:        [4]int32{2000, 1800, 1600, 1400},
		EloFloor:              2000,
		UseEloFloor:           true,
		Cap:                   350,
		KNew:                  40,
		NewTournaments:        2,
		NewTournamentsFewGame: 3,
		FewGames:              18,
		KMid:                  25,
		MidGames:              30,
		KLow:                  15,
		KHigh:                 10,
		HighAbove:             2000,
		MinGames:              4,
		ListGames:             8,
		Stage2Players:         100,
		Stage2Games:           30,
		StepPoints:            20,
		Bands: []Band{
			{"CM", 2200}, {"1", 2000}, {"2", 1800}, {"3", 1600}, {"4", 1400},
		},
	}
}

// Check reports settings that cannot work, naming the first impossible key.
func (s *Settings) Check() error {
	for i, r := range s.CategoryRating {
		if r <= 0 {
			return fmt.Errorf("school.category_rating[%d] = %d: want > 0", i, r)
		}
	}
	for _, v := range []struct {
		key string
		val int32
		min int32
	}{
		{"cap", s.Cap, 1},
		{"k_new", s.KNew, 1}, {"k_mid", s.KMid, 1}, {"k_low", s.KLow, 1}, {"k_high", s.KHigh, 1},
		{"min_games", s.MinGames, 1}, {"list_games", s.ListGames, 0},
		{"new_tournaments", s.NewTournaments, 0}, {"new_tournaments_few_games", s.NewTournamentsFewGame, 0},
		{"few_games", s.FewGames, 0}, {"mid_games", s.MidGames, 0},
		{"elo_floor", s.EloFloor, 0}, {"high_above", s.HighAbove, 0},
		{"stage2_players", s.Stage2Players, 0}, {"stage2_games", s.Stage2Games, 0},
		{"step_points", s.StepPoints, 0},
	} {
		if v.val < v.min {
			return fmt.Errorf("school.%s = %d: want ≥ %d", v.key, v.val, v.min)
		}
	}
	if err := s.TimeClasses.Check("school"); err != nil {
		return err
	}
	if s.Stage < 0 || s.Stage > 2 {
		return fmt.Errorf("school.stage = %d: want 0 (automatic), 1 or 2", s.Stage)
	}
	for i, b := range s.Bands {
		if b.Min < 0 {
			return fmt.Errorf("school.bands: %q has min %d: want ≥ 0", b.Name, b.Min)
		}
		if i > 0 && b.Min >= s.Bands[i-1].Min {
			return fmt.Errorf("school.bands: %q must have a lower min than %q", b.Name, s.Bands[i-1].Name)
		}
	}
	return nil
}

// K returns the development coefficient for a player's next tournament from the
// counts before it (docs/school-elo.md §3): tournaments in which the rating was
// computed, total rated games, and the rating.
func (s *Settings) K(tournaments, games, rating int32) int32 {
	switch {
	case tournaments < s.NewTournaments,
		tournaments < s.NewTournamentsFewGame && games <= s.FewGames:
		return s.KNew
	case games < s.MidGames:
		return s.KMid
	case rating <= s.HighAbove:
		return s.KLow
	default:
		return s.KHigh
	}
}

// InitialStage1 is a first-time player's stage-one rating: by FIDE Elo (with
// the floor) when they have one, else by category 1–4; ok is false for a player
// with neither (docs/school-elo.md §5 and §9).
func (s *Settings) InitialStage1(category int8, elo int32) (r int32, ok bool) {
	if elo > 0 {
		if s.UseEloFloor && elo < s.EloFloor {
			return s.EloFloor, true
		}
		return elo, true
	}
	if category >= 1 && category <= 4 {
		return s.CategoryRating[category-1], true
	}
	return 0, false
}

// InitialStage2 is a first-time player's stage-two rating from n games against
// rated opponents averaging ra, with score w2 in half points (docs/school-elo.md
// §5). ok is false when the table is undefined (a zero score): the player stays
// unrated.
func (s *Settings) InitialStage2(ra int32, n, w2 int32) (r int32, ok bool) {
	if n <= 0 {
		return 0, false
	}
	switch {
	case w2 == n: // exactly 50%
		return ra, true
	case w2 > n: // Ra + step for every half point above 50%
		return ra + s.StepPoints*(w2-n), true
	}
	// p = W/n rounded half up to hundredths: W = w2/2, so p×100 = 50·w2/n.
	p := rating.RoundHalfUp(int64(50*w2), int64(n))
	dp, ok := rating.DP(int(p))
	if !ok {
		return 0, false
	}
	return ra + dp, true
}

// Category returns the band name for a rating, "" below the lowest band.
func (s *Settings) Category(r int32) string {
	for _, b := range s.Bands {
		if r >= b.Min {
			return b.Name
		}
	}
	return ""
}

// Expected returns We in hundredths: n × rating.PD(cap(ro − ra)) by default, or
// Σ rating.PD(cap(ro − ri)) with PerGame (docs/school-elo.md §2). D is the capped
// difference used by the default method.
func (s *Settings) Expected(ro int32, opp []int32, ra int32) (we int64, d int32) {
	return s.expected(ro, int32(len(opp)), opp, ra)
}

// expected is Expected for n rated games; opp is only read with PerGame.
func (s *Settings) expected(ro, n int32, opp []int32, ra int32) (we int64, d int32) {
	d = s.capD(ro - ra)
	if !s.PerGame {
		return int64(n) * int64(rating.PD(int(d))), d
	}
	for _, ri := range opp {
		we += int64(rating.PD(int(s.capD(ro - ri))))
	}
	return we, d
}

func (s *Settings) capD(d int32) int32 {
	if d > s.Cap {
		return s.Cap
	}
	if d < -s.Cap {
		return -s.Cap
	}
	return d
}

// AverageRating returns the average of rs rounded half up (docs/school-elo.md §2).
func AverageRating(rs []int32) int32 {
	var sum int64
	for _, r := range rs {
		sum += int64(r)
	}
	return int32(rating.RoundHalfUp(sum, int64(len(rs))))
}

// Definition is the school system's registry entry, "school" (the default rule set).
var Definition = rating.Definition{
	Name:     "school",
	Defaults: func() rating.Settings { s := Defaults(); return &s },
	New:      func(s rating.Settings, st *rating.State) rating.RuleSet { return NewRater(*s.(*Settings), st) },
	Summary: func(rs rating.RuleSet, st *rating.State) []rating.SummaryField {
		r := rs.(*Rater)
		return []rating.SummaryField{{Key: "stage", Value: int64(r.stage)}, {Key: "stage2_from_tournament", Value: r.stageFrom, OmitZero: true}}
	},
}

// Rates: rated chess tournaments of the time classes of its settings.
func (r *Rater) Rates(discipline, timeClass string) bool {
	return r.S.TimeClasses.RatesChess(discipline, timeClass)
}

// ListDay: the school list as of a period's last day takes in every tournament
// that ended in the period.
func (r *Rater) ListDay(end int32) int32 { return end }

// ClosePeriod: the school system applies changes tournament by tournament, so
// nothing is left to do at a period's end.
func (r *Rater) ClosePeriod(st *rating.State, first, last int32, emit func([]rating.Card) error) error {
	return nil
}

// ListInfo: listed after ListGames rated games (docs/school-elo.md §4), K for
// the next tournament, the category band (§6).
func (r *Rater) ListInfo(st *rating.State, p int32) (bool, int32, string, string) {
	s := &r.S
	if !st.Rated[p] || st.GamesTotal[p] < s.ListGames {
		return false, 0, "", ""
	}
	return true, s.K(st.Tournaments[p], st.GamesTotal[p], st.Rating[p]), s.Category(st.Rating[p]), ""
}

// The school system's card reasons.
var (
	ReasonRated         = rating.NewReason("rated")
	ReasonMinGames      = rating.NewReason("below-min-games")   // fewer than MinGames rated games: unchanged
	ReasonInitialStage1 = rating.NewReason("initial-stage1")    // stage-one initial rating, then rated
	ReasonInitialStage2 = rating.NewReason("initial-stage2")    // stage-two initial rating from performance
	ReasonNoInitial     = rating.NewReason("unrated-no-result") // newcomer who could not get a rating
)
