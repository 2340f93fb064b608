// Package trf reads FIDE Tournament Report Files (TRF16, FIDE C.04 Annex 2), the
// format pairing programs export, and converts them to *tiebreak.Tournament.
//
// The steps are:
//
//  1. Read the file line by line (Read). Record 001 is a player with his round
//     triples; 012, 042, 052, 092 and XXR fill the header; other records are skipped.
//  2. Check every field by its columns (counted in characters, so UTF-8 names do not
//     shift them). Real-world files are read tolerantly: short lines, missing rounds,
//     lowercase codes and a blank result (= Z) are fine; a malformed field is
//     rejected with a *SyntaxError carrying file, line and column.
//  3. Convert to a tiebreak.Tournament (File.Tournament): one game per pairing,
//     colours and results from both players' records, byes as games without Black,
//     FIDE ids as player ids and FIDE ratings as ratings.
package trf
