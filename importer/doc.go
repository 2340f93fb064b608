// Package importer converts other formats into a ratelist archive (package
// archive; docs/archive.md): TRF16 tournament reports, PGN game collections and
// CSV tables, and FIDE's players list into the players table. It is the library
// behind `ratelist import trf|pgn|csv|fide-list`.
//
// The steps of a TRF or PGN import are:
//
//  1. Open the archive folder (Open) and read its players and tournaments tables,
//     which are small, and the games table once, to know each tournament by its
//     games. The games table is never rewritten: new games go into a new part.
//  2. Read each source file. A file or game that cannot be used is reported as a
//     *Problem with file and line (Options.Report, else Stats.Problems) and
//     skipped; the rest goes on.
//  3. Match players: by FIDE id (the players table's extra fide_id column), else by
//     exact name (spaces collapsed); a player found by neither is appended with the
//     next free player_id. A matched player's empty fields are filled in; values
//     already in the archive are never overwritten.
//  4. Give each new tournament the next tournament_id (Options.FirstID, default one
//     more than the largest id in the archive), in the order of the sources. A
//     tournament that looks like one already in the archive (the same games, or
//     the same name and overlapping dates) stops the import (ErrInArchive).
//     Options.Replace gives the one tournament of the sources an archive
//     tournament's id instead, and Options.Hold keeps the new tournaments for
//     the caller: package correct writes those into tables of any form.
//  5. Write each new tournament's games to the new games part, a temporary file:
//     a TRF file's as it is read; a PGN import's at the end, from the spill file
//     its last pass wrote (PGN files are read in passes: events and dates, then
//     rounds, then each game placed; see ImportPGN).
//  6. Commit: write players.parquet and tournaments.parquet (and teams.parquet,
//     team_players.parquet and team_byes.parquet, rewritten whole, when a TRF
//     file brought teams)
//     to temporary files,
//     then rename them and the games part (games/part-NNNN.parquet) into place;
//     or Abort: remove the games part, leaving the archive as it was. An archive
//     with a single games.parquet is first turned into the folder form
//     (games/part-0000.parquet).
//
// A CSV import (ImportCSV) re-encodes CSV tables to Parquet with the archive
// schema (archive.Tables, written as archive's Row types), checking every cell
// as the run reads it (archive.ParseCell); bad rows are reported with file and
// row and left out.
//
// A FIDE list import (ImportFideList) streams FIDE's players list
// (ReadFideList: fixed-width text or XML) into the players of an opened
// archive, matched on fide_id: there the list's federation, sex, title, birth
// year and standard rating replace the archive's, as the list is FIDE's word.
//
// Every count adds up: Stats.Read = Stats.Imported + Stats.Skipped.
package importer
