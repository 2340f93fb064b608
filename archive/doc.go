// Package archive is the archive a rating run reads: its tables and columns
// (the schema, written once here), the table reader, and the loaded players
// and tournaments.
//
// An archive is a folder holding the tables players (required), tournaments,
// games, tables (Joker), and teams and team_players (team competitions), each
// as NAME.parquet, NAME.csv or a folder NAME/
// of Parquet parts (Files). A Reader streams one table in batches of rows,
// column by column: CSV cells are parsed by the column's Type (csv.go);
// Parquet is read page by page, integers and dictionary-encoded result codes
// straight from page data (parquet.go), after the page headers have been
// checked against hostile sizes (guard.go). A cell that cannot be decoded
// marks its row bad (Batch.Bad) rather than failing the file; a file that
// cannot be read at all fails with ErrUnreadable or ErrMissingColumn.
//
// Load reads players and tournaments whole, checks every row and hands each
// rejected one on as a RowError (file, row, problem, values); the games and
// tables are left to the caller's Readers; LoadTeams reads and checks the two
// small team tables against the loaded archive. Open and its Loading do the same in
// steps, for a caller that loads the two tables at the same time; likewise a
// Reader's Prefetch decodes ahead on a goroutine the caller starts (Run). A Problem carries its Kind, set
// where the row is rejected (kind.go): rejects are grouped by it, never by
// their reason's text. docs/archive.md states every table,
// column and check for rating officers.
package archive
