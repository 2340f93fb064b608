package rating

import "testing"

// TestScores: every pair of codes scores as the rules say: 1, = and 0 over
// the board, nothing else, and nothing for a bye.
func TestScores(t *testing.T) {
	half := map[byte]int32{'1': 2, '=': 1, '0': 0}
	for w := range 256 {
		for b := range 256 {
			g := Game{White: 1, Black: 2, WhiteResult: byte(w), BlackResult: byte(b)}
			ws, bs, ok := g.Scores()
			wh, wok := half[byte(w)]
			bh, bok := half[byte(b)]
			if ok != (wok && bok) || ok && (ws != wh || bs != bh) {
				t.Fatalf("%q %q: %d %d %v", byte(w), byte(b), ws, bs, ok)
			}
			g.Black = -1
			if _, _, ok := g.Scores(); ok {
				t.Fatalf("bye %q: scored", byte(w))
			}
		}
	}
}
