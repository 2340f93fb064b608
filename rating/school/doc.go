// Package school is the youth-school Elo system (docs/school-elo.md) as a
// rating rule set, "school", the default one: its settings (the rules file's
// [school] table), its rater, which rates tournament by tournament and keeps
// the stage in force (its saved state and summary fields), and its card
// reasons.
//
// The system is applied tournament by tournament in rating order:
//
//  1. Rater.Rate takes one Event and computes every participant's change
//     from the ratings at the tournament's start;
//  2. it applies the changes, updates the game and tournament counts, and
//     evaluates the stage switch;
//  3. it returns one Card per participant: the audit trail.
//
// All arithmetic is integer: expected scores and changes are held in
// hundredths of a point, so rounding at .5 is exact.
package school
