// Package rating holds the rule sets: pure functions and small state on plain Go
// values, with no I/O and no goroutines. One file per rule set:
//
//   - school.go, school_rate.go: the youth-school Elo system (school-elo.md);
//   - joker.go: the Joker card game's two ratings (joker.md);
//   - tables.go: FIDE's conversion tables (Table 1 p → dp, Table 2 D → PD),
//     embedded from tables/*.tsv.
//
// A rule set is data (a settings struct with toml tags, so a rules file can
// override any setting) plus a little code. The school system is applied in
// steps, tournament by tournament in rating order:
//
//  1. the pipeline fills a State with the registry facts (category, Elo);
//  2. SchoolRater.Rate takes one Event (a tournament's games) and computes
//     every participant's change from the ratings at the tournament's start;
//  3. it applies the changes, updates the game and tournament counts, and
//     evaluates the stage switch;
//  4. it returns one Card per participant: the audit trail.
//
// All arithmetic is integer: expected scores and changes are held in hundredths
// of a point, so rounding at .5 is exact.
package rating
