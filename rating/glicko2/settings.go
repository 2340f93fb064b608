package glicko2

import (
	"fmt"
	"math"
)

// Settings are the Glicko-2 rule set's settings: the [glicko2] table of a
// rules file. Start from Defaults and override fields.
type Settings struct {
	// Tau is the system constant τ, which limits how fast the volatility moves.
	Tau float64 `toml:"tau"`
	// A new player starts, at the start of the period of their first rated
	// game, with InitialRating, InitialRD and InitialVolatility.
	InitialRating     float64 `toml:"initial_rating"`
	InitialRD         float64 `toml:"initial_rd"`
	InitialVolatility float64 `toml:"initial_volatility"`
	// Epsilon is the convergence tolerance of the volatility iteration: it
	// stops when |B − A| ≤ Epsilon.
	Epsilon float64 `toml:"epsilon"`
	// ProvisionalRD: a listed player whose printed RD is above it is flagged "p".
	ProvisionalRD float64 `toml:"provisional_rd"`
}

// Defaults returns the settings of Glickman's paper: τ = 0.5, a new player
// at 1500/350/0.06, ε = 0.000001, and "p" above RD 110.
func Defaults() Settings {
	return Settings{Tau: 0.5, InitialRating: 1500, InitialRD: 350, InitialVolatility: 0.06, Epsilon: 0.000001, ProvisionalRD: 110}
}

// minEpsilon is the smallest epsilon the iteration reaches in float64 at
// the log-volatilities of real play.
const minEpsilon = 1e-12

// Check reports settings that cannot work, naming the key.
func (s *Settings) Check() error {
	for _, v := range []struct {
		key string
		val float64
		min float64
		// strict: the value must be above min, not equal to it
		strict bool
	}{
		{"tau", s.Tau, 0, true},
		{"initial_rd", s.InitialRD, 0, true},
		{"initial_volatility", s.InitialVolatility, 0, true},
		{"epsilon", s.Epsilon, minEpsilon, false},
		{"provisional_rd", s.ProvisionalRD, 0, false},
		{"initial_rating", s.InitialRating, math.Inf(-1), true},
	} {
		switch {
		case math.IsNaN(v.val) || math.IsInf(v.val, 0):
			return fmt.Errorf("glicko2.%s = %v: want a finite number", v.key, v.val)
		case v.strict && v.val <= v.min:
			return fmt.Errorf("glicko2.%s = %v: want > %v", v.key, v.val, v.min)
		case !v.strict && v.val < v.min:
			return fmt.Errorf("glicko2.%s = %v: want ≥ %v", v.key, v.val, v.min)
		}
	}
	return nil
}

// initial is a new player's values on the Glicko-2 scale.
func (s *Settings) initial() Player {
	return FromGlicko(s.InitialRating, s.InitialRD, s.InitialVolatility)
}
