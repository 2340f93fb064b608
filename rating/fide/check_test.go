package fide

import (
	"strings"
	"testing"
)

// TestFideCheckNamesKey: every impossible FIDE setting is refused with its key.
func TestFideCheckNamesKey(t *testing.T) {
	for key, mod := range map[string]func(*Settings){
		"fide.cap":                 func(f *Settings) { f.Cap = 0 },
		"fide.k_new":               func(f *Settings) { f.KNew = -40 },
		"fide.k_junior":            func(f *Settings) { f.KJunior = 0 },
		"fide.k_high":              func(f *Settings) { f.KHigh = -1 },
		"fide.kn_max":              func(f *Settings) { f.KNMax = -1 },
		"fide.initial_games":       func(f *Settings) { f.InitialGames = 0 },
		"fide.hypothetical_rating": func(f *Settings) { f.HypotheticalRating = 0 },
		"fide.initial_max":         func(f *Settings) { f.InitialMax = -1 },
		"fide.floor":               func(f *Settings) { f.Floor = -1 },
		"fide.step_per_point":      func(f *Settings) { f.StepPerPoint = -1 },
		"fide.new_games":           func(f *Settings) { f.NewGames = -1 },
		"fide.pool_months":         func(f *Settings) { f.PoolMonths = -1 },
		"fide.close_days":          func(f *Settings) { f.CloseDays = -1 },
	} {
		f := Defaults()
		mod(&f)
		err := f.Check()
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: Check = %v, want an error naming it", key, err)
		}
	}
}
