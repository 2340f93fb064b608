// Package pipeline reads an archive, orders and validates its rows, drives the
// rule sets and writes the outputs of `ratelist run`.
//
// The processing steps of Run:
//
//  1. Load the small tables (players, tournaments) whole; players get dense
//     int32 indexes in player_id order. Bad rows go to rejects.
//  2. Pass one over games reads only the tournament_id column and counts each
//     tournament's rows, so that a tournament is known complete the moment its
//     last row has been read.
//  3. Pass two streams the games column by column in batches (CSV or Parquet
//     pages), validates each row, and holds it with its tournament. As soon as
//     the next tournament in rating order (end date, start date, id) is complete,
//     it is processed: the cross-row checks, the lists of the periods that end
//     before it, its rating (the rule set), its cards, and its standings (handed
//     to the worker pool). Memory therefore grows with players and with the
//     tournaments that are waiting for an earlier one, never with the games
//     already rated; an archive in roughly chronological order holds only a few
//     tournaments at a time.
//  4. After the last tournament, the remaining lists are written, and every
//     output is moved from a staging folder into --out (each rename atomic,
//     summary.json last). A failed run leaves nothing.
//
// Every input row is either used or rejected (rejects.csv names its file, row,
// reason and raw values); the summary's counts add up.
//
// Around these steps: a run holds an flock on --out (lock.go); after every
// list it saves the run's state (state.go), which --resume, --from and --until
// use (incremental.go); Joker tables are rated after the games (joker.go). The
// archive package reads the tables and loads players and tournaments. The
// files by stage: archive.go (the loaded archive with its row counts and
// rejects), run.go (the two passes and the pool), process.go (one
// tournament, lists, cards), output.go (staging and atomic commit),
// generate.go (synthetic archives), load.go (tournaments for other verbs).
package pipeline
