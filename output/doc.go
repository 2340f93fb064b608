// Package output owns the files a run writes: their table (Files: each kind's
// path, writer, whether a resumed run keeps it and whether the report reads
// it), from which the writers, the run's staging and resume, officer and
// report take their paths; and their record types, one Go type per Parquet
// output, whose parquet tags are the file's columns, their order and their
// encodings. It is the output side's twin of package archive, which owns the
// input schema.
//
// The pipeline writes these types; officer and report read them back. A reader
// reads by column name, so it may read a file written with fewer or more
// columns, and the encoding tags (dict, delta) cost it nothing.
//
//   - Card: cards.parquet, the audit trail;
//   - CardGame: card_games.parquet, the audit trail's games (FIDE);
//   - ListRow: lists/LABEL.parquet, a rating list;
//   - StandingsRow, TiebreakCell: standings/LABEL.parquet.
//
// A table rule set declares the rows of its files (rating.TableFile): its
// lists lists/NAME/LABEL.parquet and its cards NAME_cards.parquet have the
// schema of that row type (TableSchema), written by a RowsWriter.
//
// A rule set may add columns of its own to the lists and the card files
// (rating.Columns): Shape is such a file's schema and rows, the record
// type's columns with the added ones (ListShape, CardShape, CardGameShape),
// and AddedReader reads the added columns back.
package output
