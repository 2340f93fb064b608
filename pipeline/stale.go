package pipeline

import (
	"encoding/binary"
	"sort"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/rating"
)

// Periods whose inputs changed after their outputs were written.
//
// A resumed run (--resume, --from) rates only what ended after the state it
// starts from. A tournament reported late, corrected or withdrawn, or a
// player's registry row corrected, in a period already written would then be
// silently left out. So every state keeps, per list period, a fingerprint of
// everything that period's outputs were made from: each tournament's row, its
// valid games rows (every discipline, rated or not) and the registry rows of
// the players in them. A resumed run compares the archive with it and names
// the periods that changed, and every later one, whose ratings follow from
// them (log and summary), telling the officer to rerun with --from.

// periodHash is the fingerprint of one period: the sum (order does not matter)
// of tournamentHash over the tournaments of the period.
type periodHash struct {
	Key  int
	Hash uint64
}

// periodHashes are the fingerprints of this run's periods and of the resumed
// state's.
type periodHashes struct {
	this map[int]uint64
	old  []periodHash
	reg  []uint64 // registryHash per dense player index
	// teams fingerprint each team competition's team rows (runTeams.hashes).
	teams map[int64]uint64
	// startNow fingerprints what the rule set rated before any game (a
	// starting list, from the registry's Elo ratings): a change of it is a
	// change of the first period. startOld is the resumed state's.
	startOld, startNow uint64
	startChanged       bool
	oldFirst           int // the first list period of the resumed state's run
}

// startHashes notes who the rule set rated before any game, and with what.
func (h *periodHashes) startHashes(st *rating.State) {
	h.startNow = 0
	for p, rated := range st.Rated {
		if rated {
			h.startNow += mix64(h.reg[p] ^ mix64(uint64(st.Rating[p])))
		}
	}
}

// resumeStart compares the start of the resumed state with today's. A player
// added to the registry whom the rule set rates before any game (on its
// starting list: with a high enough fide_rating) is on every list of a full
// run, the published ones too: that is a change of the first list.
func (h *periodHashes) resumeStart(old uint64) {
	h.startOld, h.startChanged = old, old != h.startNow
}

// savedStart is the start a state keeps: the resumed one's while it differs
// (so that it stays detectable), else today's.
func (h *periodHashes) savedStart() uint64 {
	if h.startChanged {
		return h.startOld
	}
	return h.startNow
}

// registryHashes hashes every player's registry row: a correction of any field
// changes the fingerprint of every tournament the player played in. A player
// added to the registry is in no tournament written before, so he changes none.
func registryHashes(p *archive.Players) []uint64 {
	out := make([]uint64, len(p.ID))
	var b []byte
	for i := range p.ID {
		b = binary.AppendVarint(b[:0], p.ID[i])
		b = appendText(b, p.Name[i])
		b = binary.AppendVarint(b, int64(p.BirthYear[i]))
		b = binary.AppendVarint(b, int64(p.Category[i]))
		b = binary.AppendVarint(b, int64(p.Elo[i]))
		b = appendText(b, p.Club[i])
		// By value: a registry with no such field anywhere hashes as one whose
		// players all lack it (Info is nil until some player has one).
		in := archive.PlayerInfo{BirthDate: archive.NoDate}
		if p.Info != nil {
			in = p.Info[i]
		}
		b = binary.AppendVarint(b, in.FideID)
		b = appendText(appendText(appendText(b, in.Federation), in.Sex), in.Title)
		b = binary.AppendVarint(b, int64(in.BirthDate))
		out[i] = mix64(fnv64a(b))
	}
	return out
}

func appendText(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// rowHash is a valid games row's part of its tournament's fingerprint, with
// the registry hashes of its players (black's unused for a bye).
func rowHash(g *gameRow, white, black uint64) uint64 {
	if g.black < 0 {
		black = 0x5bd1e995
	}
	pts := uint64(0)
	if g.hasPts {
		pts = 1 | uint64(uint32(g.wpts))<<1 ^ uint64(uint32(g.bpts))<<33
	}
	return mix64(white ^ mix64(black^uint64(g.round)<<40^uint64(g.wres)<<48^uint64(g.bres)<<56) ^ mix64(pts))
}

// tournamentHashOf is the fingerprint of one tournament as its outputs see
// it: its row in the tournaments table, and its n valid games rows (in any
// order) with the registry rows of their players, whose rowHash values add
// up to sum.
func tournamentHashOf(t *archive.Tournament, n int, sum uint64) uint64 {
	var buf [128]byte // most tournaments' rows fit: no allocation
	b := binary.AppendVarint(buf[:0], t.ID)
	b = appendText(b, t.Name)
	b = binary.AppendVarint(b, int64(t.Start))
	b = binary.AppendVarint(b, int64(t.End))
	b = appendText(b, t.System)
	b = binary.AppendVarint(b, int64(t.Rounds))
	b = appendText(b, t.Discipline)
	if t.Rated {
		b = append(b, 1)
	}
	b = appendText(b, t.Tiebreaks)
	b = appendText(b, t.TimeClass)
	return mix64(fnv64a(b)+uint64(n)) + sum*1099511628211
}

// fnv64a is hash/fnv's FNV-1a, 64 bits, of b, without its allocation: the
// fingerprints of tournaments, registry rows and team tables.
func fnv64a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// mix64 is SplitMix64's finaliser: every input bit affects every output bit.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// note adds a tournament to its period's fingerprint.
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

// firstStale is the first period before this run's first whose outputs on
// disk differ from what the archive gives now: whose fingerprint differs
// from the one saved when it was written, or a list the archive no longer
// gives (its first rated tournament, or its last, moved). ok is false when
// none is.
func (h *periodHashes) firstStale(w *window, p *periods) (first int, ok bool) {
	if !w.resumed {
		return 0, false
	}
	note := func(k int) {
		if k < w.start && (!ok || k < first) {
			first, ok = k, true
		}
	}
	switch {
	case !p.any:
		note(h.oldFirst)
	case p.first != h.oldFirst:
		note(min(p.first, h.oldFirst))
	}
	if p.any && p.last < w.start-1 {
		note(p.last + 1)
	}
	if h.startChanged {
		note(p.first)
	}
	old := make(map[int]uint64, len(h.old))
	for _, ph := range h.old {
		old[ph.Key] = ph.Hash
	}
	for k, v := range old {
		if v != h.this[k] {
			note(k)
		}
	}
	for k, v := range h.this {
		if v != old[k] {
			note(k)
		}
	}
	return first, ok
}

// stale lists the periods whose written outputs differ from what the archive
// gives now: the first changed period and every period after it up to the
// last this run lists (or the last one kept), whose ratings follow from it;
// this run's own lists among them are written from stale ratings.
func (h *periodHashes) stale(w *window, p *periods) []string {
	first, ok := h.firstStale(w, p)
	if !ok {
		return nil
	}
	end := max(p.last, w.start-1)
	if p.provisional && end == p.last {
		end-- // a provisional list was never final: it is never named stale
	}
	var out []string
	for k := first; k <= end; k++ {
		out = append(out, day.Period{Kind: p.kind, Key: k}.Label())
	}
	return out
}
