package rating

import (
	"strings"
	"testing"
)

// TestSchoolCheckNamesKey: every impossible school setting is refused with its key.
func TestSchoolCheckNamesKey(t *testing.T) {
	for key, mod := range map[string]func(*School){
		"school.cap":                  func(s *School) { s.Cap = 0 },
		"school.k_new":                func(s *School) { s.KNew = -5 },
		"school.k_mid":                func(s *School) { s.KMid = 0 },
		"school.k_low":                func(s *School) { s.KLow = -1 },
		"school.k_high":               func(s *School) { s.KHigh = 0 },
		"school.category_rating[2]":   func(s *School) { s.CategoryRating[2] = 0 },
		"school.list_games":           func(s *School) { s.ListGames = -1 },
		"school.elo_floor":            func(s *School) { s.EloFloor = -1 },
		"school.step_points":          func(s *School) { s.StepPoints = -20 },
		"school.stage2_games":         func(s *School) { s.Stage2Games = -1 },
		"school.bands":                func(s *School) { s.Bands[1].Min = 2300 },
		"school.new_tournaments":      func(s *School) { s.NewTournaments = -2 },
		"school.min_games":            func(s *School) { s.MinGames = 0 },
		"school.stage":                func(s *School) { s.Stage = 3 },
		"school.mid_games":            func(s *School) { s.MidGames = -30 },
		"school.high_above":           func(s *School) { s.HighAbove = -1 },
		"school.few_games":            func(s *School) { s.FewGames = -1 },
		"school.stage2_players":       func(s *School) { s.Stage2Players = -1 },
		"school.new_tournaments_few_": func(s *School) { s.NewTournamentsFewGame = -1 },
	} {
		s := DefaultSchool()
		s.Bands = append([]Band(nil), s.Bands...)
		mod(&s)
		err := s.Check()
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: Check = %v, want an error naming it", key, err)
		}
	}
	s := DefaultSchool()
	if err := s.Check(); err != nil {
		t.Errorf("default: %v", err)
	}
}

// TestFideCheckNamesKey: every impossible FIDE setting is refused with its key.
func TestFideCheckNamesKey(t *testing.T) {
	for key, mod := range map[string]func(*Fide){
		"fide.cap":                 func(f *Fide) { f.Cap = 0 },
		"fide.k_new":               func(f *Fide) { f.KNew = -40 },
		"fide.k_junior":            func(f *Fide) { f.KJunior = 0 },
		"fide.k_high":              func(f *Fide) { f.KHigh = -1 },
		"fide.kn_max":              func(f *Fide) { f.KNMax = -1 },
		"fide.initial_games":       func(f *Fide) { f.InitialGames = 0 },
		"fide.hypothetical_rating": func(f *Fide) { f.HypotheticalRating = 0 },
		"fide.initial_max":         func(f *Fide) { f.InitialMax = -1 },
		"fide.floor":               func(f *Fide) { f.Floor = -1 },
		"fide.step_per_point":      func(f *Fide) { f.StepPerPoint = -1 },
		"fide.new_games":           func(f *Fide) { f.NewGames = -1 },
		"fide.pool_months":         func(f *Fide) { f.PoolMonths = -1 },
		"fide.close_days":          func(f *Fide) { f.CloseDays = -1 },
	} {
		f := DefaultFide()
		mod(&f)
		err := f.Check()
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: Check = %v, want an error naming it", key, err)
		}
	}
}
