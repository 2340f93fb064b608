// Package trf reads FIDE Tournament Report Files (TRF16, FIDE C.04 Annex 2, with
// JaVaFo's TRF(x) and the TRF-2026 records), the format pairing programs export, and
// converts them to *tiebreak.Tournament. It is the one TRF reader of every verb.
// Write writes a chess tournament back as TRF16 or TRF-2026, in the columns the
// reader reads.
//
// The steps are:
//
//  1. Decode the file (Read): UTF-8 when it is, else Windows-1252, one character a
//     byte so the columns stay (noted); a BOM is dropped.
//  2. Read it line by line; a line ends at LF, CRLF or CR alone. Record 001 is a
//     player with his round triples; 012, 042, 052, 132, 092, 142/XXR and 192 fill
//     the header; 013 and 310 are teams (File.Teams), 320 the teams'
//     pairing-allocated byes (File.TeamPABs), 300 their board orders
//     (File.BoardOrders); 162/XXS set the point system (File.Points); 202
//     (else 212) names the tie-breaks (File.Tiebreaks); other records are
//     skipped.
//  3. Check every field by its columns (counted in characters, so UTF-8 names do not
//     shift them). Real-world files are read tolerantly: short lines, missing rounds,
//     lowercase codes, the byes writers write (`0000 - =` is H, `+` F, `-` Z) are
//     fine; a malformed field the numbers depend on is rejected with a *SyntaxError
//     carrying file, line and column.
//  4. Once every record is in: settle the dates (resolveDates: ambiguous forms by
//     the file's other dates), write 240 and 299 into the rounds they name (299
//     points the results do not score becoming File.Adjustments), give each empty
//     result the bye the points column implies (impliedByes), and give each
//     player his team and board (applyTeams). What was chosen, and dates in no
//     known form, are in File.Warnings.
//  5. Convert to a tiebreak.Tournament (File.Tournament): one game per pairing,
//     colours and results from both players' records (records that contradict each
//     other are an error naming both lines), byes as games without Black, FIDE ids
//     as player ids and FIDE ratings as ratings, the point system and the 299
//     adjustments as they are; the system is round robin or Swiss by 192, 092 or
//     the pairings (systemOf). File.TeamTournament gives the same games with the
//     teams, for team standings.
//
// Check (check.go) runs the checks an arbiter wants before a file goes to FIDE,
// on the records as written and on the file as Read reads it, each finding with
// its line, column, code, severity and fix; Fix (fix.go) writes the corrections
// that have one answer only into a copy, every other byte kept.
package trf
