// Package norms decides title norms (GM, IM, WGM, WIM) by FIDE's International
// Title Regulations (Handbook B.01, the edition effective 1 January 2024; articles
// below use its numbering). It is a pure library: its input is a Tournament of
// plain values (players with title, federation, sex and rating, and each
// player's rounds), its output one Result per player and title checked.
//
// The steps of Check are:
//
//  1. Choose the titles to check for each player (Titles): those above the
//     strongest title he holds, women's titles for women only.
//  2. Collect the player's played games; forfeits and byes are not games
//     (1.4.2), but in a 9-round event a forfeit win or a pairing-allocated bye
//     (U, or F as writers write it) makes 8 played games count as 9 (1.4.1c).
//  3. List the sets of games that may be counted (CheckPlayer): all of them; the
//     first k rounds only, unless the pairings were predetermined (1.4.1e); and
//     any of these without games against opponents the player defeated
//     (1.4.1f; in a round robin only when the whole event's opponents meet the
//     federation and title requirements).
//  4. Measure each set (measureUpTo): games, federations (1.4.3, 1.4.4; lifted
//     in the events 1.4.3 exempts, a large Swiss found by LargeSwiss), title
//     holders (1.4.5), the opponents' rating average with the rating floor
//     (1.4.6, 1.4.7), the performance and score (1.4.8, 1.4.9).
//  5. Report the set with the most games that gives a norm; without one, the set
//     of all games, with the requirements it fails.
//
// FromTRF converts a TRF file. WriteCSV and WriteText write the results; a
// Result also marshals to JSON with the IT1 certificate's figures (the
// opponents, with title, federation, rating and result).
package norms
