// Package joker is the Joker rule set (docs/joker.md): the two ratings of the
// Georgian card game for four players at a table, played in four sections
// called pulkas. Each player carries two numbers:
//
//   - the player rating, which moves up or down by the player's level and final
//     place (or by a leave penalty), and whose hundreds give the player's level;
//   - the personal rating, which only grows: by the final score, by transfers
//     from players who ended below zero, and by a bonus when someone left.
//
// Its input is the rows of the tables table, one per player per game (Row);
// its outputs are the values of the Joker lists (ListRow) and of the audit
// trail (Card). Like every rule set it is a pure library: no I/O, no
// goroutines, no maps. The caller reads and orders the rows and writes the
// values; a run goes in steps:
//
//  1. Map player ids to dense int32 indexes, keep each row that passes the
//     checks needing no other row as a Row (PlaceOf, PulkaOf), and grow a
//     State to cover the players (State.Grow).
//  2. Sort the rows by game and seat (CompareSeats) and check each game's
//     rows together with Rules.CheckGame; every row of a failing game is
//     rejected with its *GameError as the reason.
//  3. Rate the good games in rating order (Key.Compare: played_at, then
//     game_id) with Rules.Rate, which returns one Card per seat: everything
//     an audit row needs (level, table level, multiplier, changes, new
//     values, reason).
//  4. At the close of each list period (by Key.Day), take Rules.List: every
//     player with a game, ranked.
//
// Definition registers these steps as a table rule set (rating.TableRules):
// the pipeline's tables pass does steps 1 and 2's reading and sorting, and
// Rules.Start's rater does 3 and 4 into the rows of its files (CardFileRow,
// ListFileRow), whose columns and CSV form Definition declares.
//
// CheckGame and Rate allocate nothing for a valid game. Every run rates the
// Joker games from the first, so the state has no saved form. Settings come
// from DefaultRules, overridden key by key by the rules file's [joker] table
// (Name), and are checked with Rules.Check.
package joker
