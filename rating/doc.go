// Package rating is the contract between the pipeline and the rule sets: what
// a rule set is, what it is handed and what it hands back. It holds no rule
// set itself; each is a package of its own (rating/school, rating/fide, ...)
// that owns its settings, its state, its card reasons and the columns it adds
// to lists and cards, and registers one Definition (package rating/all
// registers them all, one line each).
//
//   - ruleset.go: the RuleSet interface the pipeline drives (Rates, ListDay,
//     Rate, ClosePeriod, ListInfo), so tournament-by-tournament and
//     period-at-once systems fit one pipeline; Snapshotter and Restorer for
//     the rule set's own saved state; Definition and the registry;
//   - event.go: the plain values a rule set is handed and hands back: State,
//     Event, Game, Card, and the card reasons each rule set makes (NewReason);
//   - tables.go: the arithmetic the Elo rule sets share: FIDE's conversion
//     tables (Table 1 p → dp, Table 2 D → PD) from package rating/tables, the
//     change K × (W − We), rounding;
//   - tableset.go: the table rule sets, of games at tables of more than two
//     players (rows of the tables table), rated beside the rule set:
//     TableDefinition and its registry, TableRules (a game's check, a run's
//     TableRater: rate a game into card rows, a period's list), TableRow and
//     the rating order (TableKey), and TableFile, the rows of its files.
//
// Package rating/joker, the Joker card game's two ratings (docs/joker.md),
// is the table rule set of the joker discipline.
//
// A rule set is applied in steps, as the pipeline drives it:
//
//  1. the pipeline fills a State with the registry facts (category, Elo) and
//     makes the rule set's rater from its settings (Definition.New);
//  2. for each rated tournament in rating order that the rule set Rates, Rate
//     takes one Event (a tournament's games) and returns its cards;
//  3. at each list period's end, ClosePeriod finishes the period (a
//     period-at-once system rates it here) and hands on its cards;
//  4. ListInfo says who is on the list, with K, category and flags.
//
// Everything is plain Go values: no I/O, no goroutines.
package rating
