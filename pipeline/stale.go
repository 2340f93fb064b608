package pipeline

import (
	"sort"

	"github.com/ratelist/ratelist/archive"
)

// Periods whose rated games changed after their list was written.
//
// A resumed run (--resume) rates only what ended after the last list. A
// tournament reported late, or corrected, whose list period is already on disk
// would then be silently left out. So every state keeps, per list period, a
// fingerprint of the rated tournaments' valid games rows; a resumed run compares
// the archive with it and names the periods that changed (log and summary),
// telling the officer to rerun with --from.

// periodHash is the fingerprint of one period: the sum (order does not matter)
// of a hash of each rated tournament's id and valid rows.
type periodHash struct {
	Key  int
	Hash uint64
}

// periodHashes are the fingerprints of this run's rated periods and of the
// resumed state's.
type periodHashes struct {
	this map[int]uint64
	old  []periodHash
}

// tournamentHash hashes a tournament's id and its valid games rows,
// independently of their order in the file: it finishes sum, the sum of
// rowHash over the rows (the producer adds them up as it reads the rows).
func tournamentHash(id int64, rows int, sum uint64) uint64 {
	return sum*1099511628211 + uint64(id) + uint64(rows)
}

// rowHash hashes one valid games row of tournament tid by its players' ids
// (black 0 for a bye), so that it can be taken while the row's ids are at hand.
func rowHash(tid, white, black int64, round int32, wres, bres byte) uint64 {
	return mix64(uint64(tid)*0x9e3779b97f4a7c15 ^ mix64(uint64(white)^uint64(round)<<48) ^
		mix64(uint64(black)^uint64(wres)<<48^uint64(bres)<<56))
}

// gameHash is rowHash of a row already held, by its players' dense indexes.
func gameHash(players *archive.Players, tid int64, g *gameRow) uint64 {
	black := int64(0)
	if g.black >= 0 {
		black = players.ID[g.black]
	}
	return rowHash(tid, players.ID[g.white], black, g.round, g.wres, g.bres)
}

// mix64 is SplitMix64's finaliser: every input bit affects every output bit.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// note adds a rated tournament to its period's fingerprint.
func (h *periodHashes) note(key int, th uint64) {
	if h.this == nil {
		h.this = map[int]uint64{}
	}
	h.this[key] += th
}

// saved returns the fingerprints a state after period key keeps: the resumed
// state's for the periods it covered (so a change there stays detectable), this
// run's for the rest.
func (h *periodHashes) saved(key int, w *window) []periodHash {
	var out []periodHash
	for _, ph := range h.old {
		if ph.Key < w.start && w.resumed {
			out = append(out, ph)
		}
	}
	for k, h := range h.this {
		if k <= key && (!w.resumed || k >= w.start) {
			out = append(out, periodHash{k, h})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// stale lists the periods before this run's first whose fingerprint in
// the archive differs from the one saved when their list was written.
func (h *periodHashes) stale(w *window, kind string) []string {
	if !w.resumed {
		return nil
	}
	old := map[int]uint64{}
	for _, ph := range h.old {
		old[ph.Key] = ph.Hash
	}
	keys := map[int]bool{}
	for k := range old {
		keys[k] = true
	}
	for k := range h.this {
		if k < w.start {
			keys[k] = true
		}
	}
	var stale []int
	for k := range keys {
		if k < w.start && old[k] != h.this[k] {
			stale = append(stale, k)
		}
	}
	sort.Ints(stale)
	var out []string
	for _, k := range stale {
		out = append(out, periodLabel(kind, k))
	}
	return out
}
