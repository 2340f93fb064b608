package importer

import (
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/ratelist/ratelist/archive"
)

// eventGap is the most days between two games of one Event name (and time
// class) that still belong to one event: a league's rounds a month or two
// apart stay one event, the same event held again months later is another.
const eventGap = 60

// pgnKey is what games share to be of one event, dates apart: the Event tag
// and the time class.
type pgnKey struct {
	name, class string
}

// pgnEvent is the games of one event: one Event name and time class, dates
// within eventGap of each other. The first pass over the files counts them, the
// second learns how they use round numbers (plan), the third places and spills
// them.
type pgnEvent struct {
	key       pgnKey
	eventType string
	lo, hi    int32 // date bounds, when hasDate
	hasDate   bool
	file      int32
	line      int64
	first     int64 // the import's number of its first game (pgnImport.n)
	last      int64 // and of its last
	count     int   // its games that passed the checks
	withMoves int   // those with moves

	// Second pass: who plays in which given round, and the sub-numbers
	// ("3.2") each given round holds.
	seen map[int32]*roundSeen // by pgnImport.who index
	subs map[int32]*bitset    // by given round
	plan roundPlan
	// A player's games so far in each given round, by pgnImport.who index and
	// round: the sub-number of a game whose round has none (sub).
	order map[[2]int32]int32

	// Third pass.
	index    int             // position in pgnImport.order
	name     string          // the tournament's name
	busy     map[int64]*play // by player_id: the rounds taken, for the round-robin test
	set      gameSet         // of the games written
	kept     int64           // games written to the spill
	forfeits int64
	perFile  map[int32]int64 // games written, by file
	rounds   int32           // the last round written
	done     bool            // its last game has been read again
}

// bitset is a set of small non-negative numbers.
type bitset []uint64

func (b *bitset) add(i int32) {
	for int(i>>6) >= len(*b) {
		*b = append(*b, 0)
	}
	(*b)[i>>6] |= 1 << (i & 63)
}

func (b bitset) has(i int32) bool { return int(i>>6) < len(b) && b[i>>6]&(1<<(i&63)) != 0 }

// or adds o's members to b.
func (b *bitset) or(o bitset) {
	for len(*b) < len(o) {
		*b = append(*b, 0)
	}
	for i, w := range o {
		(*b)[i] |= w
	}
}

// members lists b's members in order.
func (b bitset) members() []int32 {
	var m []int32
	for i, w := range b {
		for w != 0 {
			m = append(m, int32(i*64+bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return m
}

// roundSeen is the given rounds in which a player has one game (once) and
// more than one (twice).
type roundSeen struct{ once, twice bitset }

func (s *roundSeen) add(r int32) {
	if s.once.has(r) {
		s.twice.add(r)
	} else {
		s.once.add(r)
	}
}

func (s *roundSeen) merge(o *roundSeen) {
	for i := range min(len(s.once), len(o.once)) {
		if both := s.once[i] & o.once[i]; both != 0 {
			for len(s.twice) <= i {
				s.twice = append(s.twice, 0)
			}
			s.twice[i] |= both
		}
	}
	s.once.or(o.once)
	s.twice.or(o.twice)
}

// play is a player's games in an event so far: the rounds taken, how many, and
// the sum of the opponents' hashes (the round-robin test).
type play struct {
	rounds bitset
	games  int64
	opp    uint64
}

// noteRound records a numbered game of the first pass.
func (e *pgnEvent) noteRound(white, black, round, sub int32) {
	if e.seen == nil {
		e.seen, e.subs = map[int32]*roundSeen{}, map[int32]*bitset{}
	}
	for _, p := range []int32{white, black} {
		s := e.seen[p]
		if s == nil {
			s = new(roundSeen)
			e.seen[p] = s
		}
		s.add(round)
	}
	b := e.subs[round]
	if b == nil {
		b = new(bitset)
		e.subs[round] = b
	}
	b.add(sub)
}

// sub is the sub-number of a numbered game: its own ("3.2"), else its place
// among its players' games in that round so far (1 for the first): an engine
// match's or a double round robin's games written all as "Round 1" become
// sub-rounds like "1.1", "1.2". Each pass calls it once per game, in file order.
func (e *pgnEvent) sub(g *pgnGame, white, black int32) int32 {
	if g.sub > 0 {
		return g.sub
	}
	if e.order == nil {
		e.order = map[[2]int32]int32{}
	}
	kw, kb := [2]int32{white, g.round}, [2]int32{black, g.round}
	n := max(e.order[kw], e.order[kb]) + 1
	e.order[kw], e.order[kb] = n, n
	return min(n, 1000)
}

// absorb merges event o (of the same key) into e.
func (e *pgnEvent) absorb(o *pgnEvent) {
	if o.hasDate {
		if !e.hasDate {
			e.lo, e.hi, e.hasDate = o.lo, o.hi, true
		}
		e.lo, e.hi = min(e.lo, o.lo), max(e.hi, o.hi)
	}
	if e.eventType == "" {
		e.eventType = o.eventType
	}
	if o.first < e.first {
		e.first, e.file, e.line = o.first, o.file, o.line
	}
	e.last = max(e.last, o.last)
	e.count += o.count
	e.withMoves += o.withMoves
	if o.seen == nil {
		return
	}
	if e.seen == nil {
		e.seen, e.subs = o.seen, o.subs
		return
	}
	for p, s := range o.seen {
		if mine := e.seen[p]; mine != nil {
			mine.merge(s)
		} else {
			e.seen[p] = s
		}
	}
	for r, b := range o.subs {
		if mine := e.subs[r]; mine != nil {
			mine.or(*b)
		} else {
			e.subs[r] = b
		}
	}
}

// near tells whether days lo..hi are within eventGap of e's dates.
func (e *pgnEvent) near(lo, hi int32) bool {
	return e.hasDate && lo <= e.hi+eventGap && hi >= e.lo-eventGap
}

// pgnEvents is the events of a set of games, by key; undated holds, per key,
// the games without any date.
type pgnEvents struct {
	dated   map[pgnKey][]*pgnEvent
	undated map[pgnKey]*pgnEvent
	alias   map[pgnKey]pgnKey // a key of an unknown time class → the key its games joined
}

func newPGNEvents() pgnEvents {
	return pgnEvents{dated: map[pgnKey][]*pgnEvent{}, undated: map[pgnKey]*pgnEvent{}}
}

// join adds event o (one game, or the events of a file) to the set: it merges
// with every event of its key whose dates are within eventGap of its own. It
// returns the event o is now part of (o itself, copied, when it is new).
func (es *pgnEvents) join(o *pgnEvent) *pgnEvent {
	if !o.hasDate {
		if e := es.undated[o.key]; e != nil {
			e.absorb(o)
			return e
		}
		e := new(pgnEvent)
		*e = *o
		es.undated[o.key] = e
		return e
	}
	list := es.dated[o.key]
	var into *pgnEvent
	kept := list[:0]
	for _, e := range list {
		switch {
		case !e.near(o.lo, o.hi) && (into == nil || !e.near(into.lo, into.hi)):
			kept = append(kept, e)
		case into == nil:
			e.absorb(o)
			into = e
			kept = append(kept, e)
		default:
			into.absorb(e)
		}
	}
	if into == nil {
		into = new(pgnEvent)
		*into = *o
		kept = append(kept, into)
	}
	es.dated[o.key] = kept
	return into
}

// settleClasses gives the games whose time class is not known (no readable
// TimeControl, no Rapid or Blitz in the Event) a class: the one the other games
// of their Event name have when they all have the same, else standard. A
// broadcast that leaves TimeControl out of a few games keeps them in its event.
func (es *pgnEvents) settleClasses() {
	known := map[string]map[string]bool{}
	var unknown []pgnKey
	note := func(k pgnKey) {
		switch {
		case k.class == "":
			if !slices.Contains(unknown, k) {
				unknown = append(unknown, k)
			}
		case known[k.name] == nil:
			known[k.name] = map[string]bool{k.class: true}
		default:
			known[k.name][k.class] = true
		}
	}
	for k := range es.dated {
		note(k)
	}
	for k := range es.undated {
		note(k)
	}
	slices.SortFunc(unknown, func(a, b pgnKey) int { return strings.Compare(a.name, b.name) })
	es.alias = map[pgnKey]pgnKey{}
	for _, k := range unknown {
		to := pgnKey{k.name, archive.TimeStandard}
		if len(known[k.name]) == 1 {
			for c := range known[k.name] {
				to.class = c
			}
		}
		es.alias[k] = to
		list, u := es.dated[k], es.undated[k]
		delete(es.dated, k)
		delete(es.undated, k)
		for _, e := range list {
			e.key = to
			es.join(e)
		}
		if u != nil {
			u.key = to
			es.join(u)
		}
	}
}

// finish settles the set after the first pass: events of a key whose dates came
// within eventGap of each other are merged; a key's undated games join its
// first event when it has one, else stay an event of their own (which has no
// date). It returns every event in the order of first games.
func (es *pgnEvents) finish() []*pgnEvent {
	es.settleClasses()
	var all []*pgnEvent
	for k, list := range es.dated {
		sort.Slice(list, func(i, j int) bool { return list[i].lo < list[j].lo })
		merged := list[:1]
		for _, e := range list[1:] {
			if prev := merged[len(merged)-1]; e.lo <= prev.hi+eventGap {
				prev.absorb(e)
			} else {
				merged = append(merged, e)
			}
		}
		es.dated[k] = merged
		all = append(all, merged...)
	}
	for k, u := range es.undated {
		if list := es.dated[k]; len(list) > 0 {
			firstEv := list[0]
			for _, e := range list[1:] {
				if e.first < firstEv.first {
					firstEv = e
				}
			}
			firstEv.absorb(u)
			es.undated[k] = firstEv
		} else {
			all = append(all, u)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].first < all[j].first })
	return all
}

// find returns the event of a game of key k with dates lo..hi (dated), as
// finish left them; nil when none.
func (es *pgnEvents) find(k pgnKey, lo, hi int32, dated bool) *pgnEvent {
	if to, ok := es.alias[k]; ok {
		k = to
	}
	if !dated {
		return es.undated[k]
	}
	for _, e := range es.dated[k] {
		if lo <= e.hi && hi >= e.lo {
			return e
		}
	}
	return nil
}

// roundPlan maps a game's given round and sub-number ("3.2") to its round in
// the archive. A given round in which more than half of its players have more
// than one game is split: its sub-numbers are rounds of their own, in order (a
// double round robin's cycle 2, "2.4", is round n+4; a knockout's mini-match
// games 1.1, 1.2, 1.3 are three rounds). Otherwise the sub-number is a board
// and the round stays as given. The rounds after a split one move up.
type roundPlan struct {
	base  map[int32]int32   // given round → its (first) round in the archive
	subs  map[int32][]int32 // of a split round: its sub-numbers in order
	split int               // the split rounds
	last  int32             // the last round numbered games take
}

// round returns the archive round of a numbered game.
func (p *roundPlan) round(r, s int32) int32 {
	b := p.base[r]
	if subs, ok := p.subs[r]; ok {
		i, _ := slices.BinarySearch(subs, s)
		return b + int32(i)
	}
	return b
}

// makePlan builds e's roundPlan from the first pass and drops what it learnt.
func (e *pgnEvent) makePlan() {
	p := roundPlan{base: map[int32]int32{}, subs: map[int32][]int32{}}
	rounds := make([]int32, 0, len(e.subs))
	for r := range e.subs {
		rounds = append(rounds, r)
	}
	slices.Sort(rounds)
	players, twice := map[int32]int{}, map[int32]int{}
	for _, s := range e.seen {
		for _, r := range s.once.members() {
			players[r]++
		}
		for _, r := range s.twice.members() {
			twice[r]++
		}
	}
	shift := int32(0)
	for _, r := range rounds {
		p.base[r] = r + shift
		subs := e.subs[r].members()
		if len(subs) > 1 && 2*twice[r] > players[r] {
			p.subs[r] = subs
			p.split++
			shift += int32(len(subs) - 1)
		}
		p.last = r + shift
	}
	e.plan, e.seen, e.subs, e.order = p, nil, nil, nil
}

// roundRobin tells whether every pair of the event's players met equally often
// (at least once): each player's games and the sum of their opponents' hashes
// are what k meetings with every other player give.
func (e *pgnEvent) roundRobin() bool {
	n := int64(len(e.busy))
	if n < 2 || 2*e.kept%(n*(n-1)) != 0 {
		return false
	}
	k := 2 * e.kept / (n * (n - 1))
	var all uint64
	for id := range e.busy {
		all += mix(id)
	}
	for id, p := range e.busy {
		if p.games != k*(n-1) || p.opp != uint64(k)*(all-mix(id)) {
			return false
		}
	}
	return true
}

// mix is a player id's hash for the round-robin test (splitmix64's finaliser).
func mix(id int64) uint64 {
	x := uint64(id) + 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// take records a written game of players w and b in round r.
func (e *pgnEvent) take(w, b int64, r int32) {
	if e.busy == nil {
		e.busy = map[int64]*play{}
	}
	for _, s := range [2][2]int64{{w, b}, {b, w}} {
		p := e.busy[s[0]]
		if p == nil {
			p = new(play)
			e.busy[s[0]] = p
		}
		p.rounds.add(r)
		p.games++
		p.opp += mix(s[1])
	}
	e.rounds = max(e.rounds, r)
}

// taken tells whether player id already has a game in round r.
func (e *pgnEvent) taken(id int64, r int32) bool {
	p := e.busy[id]
	return p != nil && p.rounds.has(r)
}

// system is the tournaments table's system: as EventType names it, else
// round-robin when every pair met equally often, else swiss.
func (e *pgnEvent) system() string {
	if s := pgnSystem(e.eventType); s != "" {
		return s
	}
	if e.roundRobin() {
		return "round-robin"
	}
	return "swiss"
}
