// Package officer answers a rating officer's everyday questions from a run's
// outputs and an archive, from the outside: it reads what `ratelist run` wrote
// (lists/*.parquet, cards.parquet, card_games.parquet) and the archive's tables, and writes files
// for other bodies and tables for people. It is the library behind
// `ratelist export`, `diff`, `player`, `cards` and `rate --trf`.
//
//   - ExportTRF writes one tournament of an archive as a TRF file.
//   - WriteList writes a list in the shapes of FIDE's list downloads (fixed-width
//     text, XML) or as CSV, joined with the players table when one is given.
//   - Diff compares two lists: entries, exits with their reasons, rank and
//     rating changes, the biggest movers.
//   - PlayerHistory and TournamentCards gather one player's lists and cards and
//     one tournament's cards.
//   - RateTRF rates one TRF file as a run of an archive holding only its
//     tournament does (imported, rated and read back in a scratch folder), and
//     says per player Ro, K, n, W, We and the change, and why each round that
//     rated nothing did not.
//
// Every table comes out as a Table, printed as aligned text or as CSV.
package officer
