// Package trf reads FIDE Tournament Report Files (TRF16, FIDE C.04 Annex 2, with
// JaVaFo's TRF(x) and the TRF-2026 records), the format pairing programs export, and
// converts them to *tiebreak.Tournament. Write writes a chess tournament back as
// TRF16 or TRF-2026, in the columns the reader reads.
//
// The steps are:
//
//  1. Read the file line by line (Read); a line ends at LF, CRLF or CR alone. Record
//     001 is a player with his round triples; 012, 042, 052, 092, 142/XXR and 192
//     fill the header; 162/XXS set the point system (File.Points); 240 and 299 are
//     written into the rounds they name once every 001 record is read, 299 points
//     the results do not score becoming File.Adjustments; other records are skipped.
//  2. Check every field by its columns (counted in characters, so UTF-8 names do not
//     shift them). Real-world files are read tolerantly: short lines, missing rounds,
//     lowercase codes and a blank result (= Z) are fine; a date in no known form is
//     a warning (File.Warnings); a malformed field the numbers depend on is rejected
//     with a *SyntaxError carrying file, line and column.
//  3. Convert to a tiebreak.Tournament (File.Tournament): one game per pairing,
//     colours and results from both players' records, byes as games without Black,
//     FIDE ids as player ids and FIDE ratings as ratings, the point system and the
//     299 adjustments as they are; the system is round robin or Swiss by 192, 092
//     or the pairings (systemOf).
package trf
