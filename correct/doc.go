// Package correct applies an officer's corrections to an archive (package
// archive; docs/operations.md): a corrected report over the tournament it
// corrects (Replace), a tournament removed (RemoveTournament), a player's
// fields set (SetPlayer, ImportPlayers) and two ids of one person merged
// (MergePlayers). It is the library behind `ratelist archive` and
// `ratelist import … --replace` and `import players`.
//
// Every correction works the same way, whatever form the tables have (CSV,
// Parquet, a folder of Parquet parts):
//
//  1. Read the small tables (players, tournaments) whole and check the
//     correction against them: an unknown id, a bad field or value, a merge
//     that would make a player meet himself is refused (ErrUsage) before
//     anything is written.
//  2. Write each changed file to a temporary file beside it, in its own form:
//     CSV stays CSV, Parquet keeps its schema; the large tables (games,
//     tables) are streamed row by row, and a file the correction does not
//     touch is not rewritten. Cells not corrected are copied as they were.
//  3. Append the correction to the archive log (LogFile), also through a
//     temporary file: when, what, old value → new value.
//  4. Rename the temporary files into place, the log last. An error before
//     this step removes them and leaves the archive byte for byte as it was.
package correct
