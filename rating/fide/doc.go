// Package fide is FIDE's rating regulations (docs/fide.md) as a rating rule
// set, "fide": its settings (the rules file's [fide] table, with the older
// versions as dated settings), its rater, which rates a whole monthly period
// at once against the period's starting list, its saved state for --resume,
// and its card reasons.
//
// A period is rated in steps:
//
//  1. Rater.ListDay says which monthly list takes a tournament in (the 1st of
//     the month after it ended, CloseDays later);
//  2. Rater.Rate gathers each tournament's rated games into that period;
//  3. Rater.ClosePeriod rates every player's games of the period from the
//     ratings at its start, pools the games of unrated players until they
//     earn an initial rating, and hands on a card per game and per player;
//  4. Rater.ListInfo lists the rated players, flagging the inactive ones.
package fide
