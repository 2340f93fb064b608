package school

import (
	"strings"
	"testing"
)

// TestSchoolCheckNamesKey: every impossible school setting is refused with its key.
func TestSchoolCheckNamesKey(t *testing.T) {
	for key, mod := range map[string]func(*Settings){
		"school.cap":                  func(s *Settings) { s.Cap = 0 },
		"school.k_new":                func(s *Settings) { s.KNew = -5 },
		"school.k_mid":                func(s *Settings) { s.KMid = 0 },
		"school.k_low":                func(s *Settings) { s.KLow = -1 },
		"school.k_high":               func(s *Settings) { s.KHigh = 0 },
		"school.category_rating[2]":   func(s *Settings) { s.CategoryRating[2] = 0 },
		"school.list_games":           func(s *Settings) { s.ListGames = -1 },
		"school.elo_floor":            func(s *Settings) { s.EloFloor = -1 },
		"school.step_points":          func(s *Settings) { s.StepPoints = -20 },
		"school.stage2_games":         func(s *Settings) { s.Stage2Games = -1 },
		"school.bands":                func(s *Settings) { s.Bands[1].Min = 2300 },
		"school.new_tournaments":      func(s *Settings) { s.NewTournaments = -2 },
		"school.min_games":            func(s *Settings) { s.MinGames = 0 },
		"school.stage":                func(s *Settings) { s.Stage = 3 },
		"school.mid_games":            func(s *Settings) { s.MidGames = -30 },
		"school.high_above":           func(s *Settings) { s.HighAbove = -1 },
		"school.few_games":            func(s *Settings) { s.FewGames = -1 },
		"school.stage2_players":       func(s *Settings) { s.Stage2Players = -1 },
		"school.new_tournaments_few_": func(s *Settings) { s.NewTournamentsFewGame = -1 },
	} {
		s := Defaults()
		s.Bands = append([]Band(nil), s.Bands...)
		mod(&s)
		err := s.Check()
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: Check = %v, want an error naming it", key, err)
		}
	}
	s := Defaults()
	if err := s.Check(); err != nil {
		t.Errorf("default: %v", err)
	}
}
