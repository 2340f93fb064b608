// Package rating holds the rule sets: pure functions and small state on plain Go
// values, with no I/O and no goroutines. One file per rule set:
//
//   - ruleset.go: the RuleSet interface the pipeline drives (ListDay, Rate,
//     ClosePeriod, ListInfo), so tournament-by-tournament and period-at-once
//     systems fit one pipeline, and the registry: each rule set is one
//     Definition (name, default settings with Check, constructor, optional
//     summary fields; Snapshotter and Restorer for its saved state), which
//     the pipeline finds by name. A new rule set is a file with its RuleSet
//     and a Register call;
//   - school.go, school_rate.go: the youth-school Elo system (docs/school-elo.md),
//     whose rater keeps the stage in force (its saved state and summary fields);
//   - fide.go, fide_state.go: FIDE's rating regulations, rated per monthly
//     period (docs/fide.md), and the rater's saved state for --resume;
//   - package rating/glicko2: the Glicko-2 system, rated per list period
//     (docs/glicko2.md), a package of its own that registers itself;
//   - package rating/joker: the Joker card game's two ratings (docs/joker.md),
//     which rate tables of four rather than two-player games;
//   - event.go: the plain values they share (State, Event, Game, Card);
//   - tables.go: FIDE's conversion tables (Table 1 p → dp, Table 2 D → PD),
//     read from package rating/tables, their one embedded copy.
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
