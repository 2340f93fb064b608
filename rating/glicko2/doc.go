// Package glicko2 is the Glicko-2 rating system as a rule set (docs/glicko2.md):
// Glickman's "Example of the Glicko-2 system", steps 1–8, with the Illinois
// algorithm for the volatility. It is a pure library: plain Go values in and
// out, no I/O, no goroutines.
//
// A rating period is the list period. The steps, period by period:
//
//  1. Period.Add gathers the period's rated games (played results 1, =, 0
//     of rated chess tournaments).
//  2. Period.Close rates every player who played from the values at the
//     period's start, a new player from the initial values (Settings), with
//     Update: one player against all their games, on the Glicko-2 scale
//     (μ, φ, σ), returning the new values and the intermediates v, Δ, g and E.
//     Each player's CardRow goes to the caller, in player order.
//  3. It stores the new values in the State; every other listed player keeps
//     μ and σ while φ grows (Idle).
//  4. The list shows State.List's values (ListExtra); --resume saves the
//     State in full precision (State.MarshalBinary).
//
// Rater fits these to the pipeline's rating.RuleSet, and the package
// registers it as "glicko2" (Definition).
package glicko2
