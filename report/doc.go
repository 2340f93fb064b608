// Package report turns the outputs of a run (interface.md §3) into a static,
// self-contained HTML site that a rating officer can upload as one folder.
//
// Input: the --out folder of a finished `ratelist run` (summary.json,
// lists/, lists/joker/, cards.parquet, joker_cards.parquet, standings/) and,
// optionally, the archive the run read (for clubs, tournament names and dates
// and the pairings behind crosstables and rating cards). Columns are read by
// name, so columns added to the outputs later are ignored.
//
// Output, in Options.Site (default OUT/site):
//
//	index.html               the latest rating list, its histogram, biggest gains and tournaments
//	list-PERIOD.html         earlier rating lists, same layout
//	joker-PERIOD.html        Joker lists
//	tournaments.html         every tournament, newest first
//	tournaments/ID.html      standings with tiebreak columns and the crosstable
//	players/ID.html          rating chart, rating card, games, Joker level history
//	data/*.js                each list as compact JSON in a script (file:// safe)
//	assets/style.css, list.js
//
// The steps of Build:
//
//  1. Read summary.json, the latest list, cards.parquet and the Joker lists and
//     cards; read the archive's players and tournaments, and each tournament's
//     pairings (pipeline.ForEachTournamentFS).
//  2. Build the site in a temporary folder beside Options.Site: the assets, one
//     page and one data file per list, tournaments.html, then every tournament
//     and player page, written in parallel by an errgroup pool of
//     Options.Workers.
//  3. Replace Options.Site with the new folder (an existing folder is replaced
//     only if it is a site written here: it holds the file .ratelist-site).
//
// The pages need no network: the charts are inline SVG drawn with
// gonum.org/v1/plot, the list table is rendered for its first PageSize rows in
// HTML and paged, searched, filtered and sorted by assets/list.js from the data
// file. Output is deterministic: the same inputs give the same bytes.
package report
