// Package oracle holds test-only reference implementations, written from the
// rules independently of the product code, that the cross-check tests compare
// the product against value by value: refelo (the school Elo system), reffide
// (FIDE's rating regulations) and reftb (FIDE tiebreaks). refelo and reffide
// share their CSV reader, FIDE's tables and rounding through oracletab.
//
// Product packages must never import them: an oracle that the product uses
// can no longer catch the product's mistakes (TestNoProductImportsOracle).
package oracle
