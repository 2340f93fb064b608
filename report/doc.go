// Package report turns the outputs of a run (docs/operations.md) into a static,
// self-contained HTML site that a rating officer can upload as one folder.
//
// Input: the --out folder of a finished `ratelist run` (the files that
// output.Files marks as read by the report: summary.json, lists/,
// cards.parquet, card_games.parquet, standings/, norms.csv; and each table
// rule set's lists/NAME/ and NAME_cards.parquet) and, optionally, the archive the run read (for clubs, tournament
// names and dates and the pairings behind crosstables and games). Columns are read by name,
// so columns added to the outputs later are ignored.
//
// Output, in Options.Site (default OUT/site):
//
//	index.html               the latest rating list, its histogram, biggest gains and tournaments
//	list-PERIOD.html         earlier rating lists, same layout; each links its
//	                         neighbours and its year's index, never every list
//	lists.html               the years with lists; lists-YEAR.html: a year's lists
//	NAME-PERIOD.html         a table rule set's lists (rating.TableDefinition's
//	                         Name; its Title heads them)
//	top.html                 the latest list's top lists; top-LIST.html and .csv: one
//	                         top list; federations.html, clubs.html: their numbers;
//	                         top/fed-*.html, top/club-*.html (and .csv): their top lists
//	tournaments.html         the periods; tournaments-PERIOD.html: a period's tournaments
//	norms.html               the title norms the run made, newest period first (only when some)
//	tournaments/ID.html      facts; the standings with every round's games
//	tournaments/ID-rating.html  the rating report: every player's card of the tournament
//	players/ID.html          facts, the rating chart (SVG) and the rating card; a
//	                         section per table rule set that lists the player,
//	                         made from its declaration (rating.TableSite)
//	help.html                how to read the tables; the tie-break codes
//	assets/style.css, list.js, site.js (searching, filtering, sorting: the
//	                         pages are whole without them)
//	.ratelist-site           the marker and the manifest: a content hash per file
//
// The steps of Build:
//
//  1. Read summary.json, the latest list, cards.parquet with the games of
//     card_games.parquet (into a compact array), the table rule sets' lists and cards, and the archive's players and
//     tournaments.
//  2. Write into a fresh folder beside Options.Site (moved into place at the
//     end), or over the site already there, writing only files whose content
//     hash differs from its manifest: the assets, one page per list (one
//     list in memory at a time), the tournament indexes, every
//     tournament's page as the archive hands over its pairings
//     (pipeline.ForEachTournamentOfFS), then every player's page, by a pool of
//     Options.Workers.
//  3. Remove the files of the earlier site that the new one does not have and
//     write the manifest.
//
// The files of the package follow the steps: reading the run's outputs
// (data.go, cards.go, standings.go) and indexing them (load.go); rendering
// the pages (pages.go for what every page shares, tables.go for the big
// tables, lists.go, tableset.go for the table rule sets, indexes.go, changes.go, charts.go, tournaments.go,
// tourtable.go, ratingreport.go, toplists.go, players.go) and the embedded assets
// and templates (assets.go); and the incremental update: a key per file of
// what it is made from (keys.go) and the manifest and atomic writes (sink.go).
//
// The pages need no network and no JavaScript: every number is in the HTML.
// Output is deterministic: the same inputs give the same bytes.
package report
