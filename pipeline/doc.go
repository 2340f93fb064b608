// Package pipeline reads an archive, orders and validates its rows, drives the
// rule sets and writes the outputs of `ratelist run`.
//
// A run is a chain of stages that pass values (execute in run.go starts them
// and draws the goroutines):
//
//  1. archiveLoad (archive.Open) loads the small tables (players, tournaments)
//     whole; players get dense int32 indexes in player_id order. Meanwhile the
//     producer's pass one reads only games.tournament_id and counts each
//     tournament's rows, so that a tournament is known complete the moment its
//     last row has been read.
//  2. The producer (produce.go) streams the games in batches, checks each row,
//     holds it with its tournament and, as soon as the next tournament in
//     rating order (end date, start date, id) is complete, checks its rows
//     together and hands them to the rater. Memory grows with players and with
//     the tournaments waiting for an earlier one, never with the games rated.
//  3. The rater (rate.go) owns the rating state and the rule set (registered
//     in package rating, found by name): it closes the list periods that end
//     before the tournament, rates it, and hands cards, lists, states and
//     standings input to the sink.
//  4. The tables pass (tables.go) reads the tables table after the games,
//     checks and orders its rows, hands each game to the table rule set of
//     its discipline (registered in package rating) and the rule set's lists
//     and card rows to the same sink, which writes them by the shapes the
//     rule set declares.
//  5. The sink (sink.go) decides what becomes of it: writeSink writes every
//     output into a staging folder (cards.go, lists.go, standings.go, state.go)
//     that moves into --out only when the whole run succeeded (output.go);
//     validateSink keeps nothing (validate); callbackSink hands tournaments to
//     a function (ForEachTournament, LoadTournament).
//
// Every input row is either used or rejected (rejects.csv names its file, row,
// reason and raw values; the summary counts rejects by their archive.Kind);
// the summary's counts add up.
//
// Around these steps: a run holds an flock on --out (lock.go); after every
// list it saves the run's state (state.go), which --resume, --from and --until
// use (incremental.go, stale.go). docs/architecture.md walks a newcomer
// through the data flow and where each kind of change goes.
package pipeline
