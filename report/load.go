package report

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/zeebo/xxh3"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/pipeline"
)

// load reads the run's outputs and the archive's small tables.
func (s *site) load(ctx context.Context) error {
	out := s.opt.Out
	sum, err := readSummary(output.Summary.Path(out, ""))
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s: %w", out, ErrNoRun)
	}
	if err != nil {
		return err
	}
	s.sum = sum
	if s.periods, err = periods(out, output.ListCSV); err != nil {
		return err
	}
	if s.tables, err = loadTables(out); err != nil {
		return err
	}
	if len(s.periods) == 0 && !slices.ContainsFunc(s.tables, func(t *tableSet) bool { return len(t.periods) > 0 }) {
		return fmt.Errorf("%s: %w", out, ErrNoList)
	}
	// The latest list and the archive's small tables load while the cards
	// are read.
	listc := make(chan error, 1)
	go func() { listc <- s.loadLatest() }()
	type loaded struct {
		a   *archive.Archive
		err error
	}
	archc := make(chan loaded, 1)
	if s.opt.Archive != nil {
		go func() {
			a, err := pipeline.LoadArchive(ctx, s.opt.Archive)
			archc <- loaded{a, err}
		}()
	} else {
		archc <- loaded{}
	}
	s.cs = &cardSet{names: map[int64]string{}}
	if p := output.Cards.Path(out, ""); exists(p) {
		if s.cs, err = readCards(p, output.CardGames.Path(out, "")); err != nil {
			return err
		}
	}
	if err := <-listc; err != nil {
		return err
	}
	s.belowFloor = belowFloorCards(s.cs)
	for id, name := range s.cs.names {
		if _, ok := s.names[id]; !ok {
			s.names[id] = name
		}
	}
	s.cs.names = nil
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, t := range s.tables {
		if err := t.read(out, s.names); err != nil {
			return err
		}
	}
	l := <-archc
	if l.err != nil {
		return fmt.Errorf("archive: %w", l.err)
	}
	if l.a != nil {
		s.arch = l.a
		s.indexPlayers()
	}
	// The standings files are read while the cards are sorted.
	stErr := make(chan error, 1)
	go func() { stErr <- s.readStandingsFiles(s.opt.Out) }()
	s.cardOrders()
	if err := <-stErr; err != nil {
		return err
	}
	if err := s.loadTournaments(); err != nil {
		return err
	}
	s.players = make([]int64, 0, len(s.names))
	for id := range s.names {
		s.players = append(s.players, id)
	}
	sort.Slice(s.players, func(i, j int) bool { return s.players[i] < s.players[j] })
	s.key, err = s.siteKey()
	return err
}

// loadLatest reads the latest rating list: the players on it and their
// names, first of all names.
func (s *site) loadLatest() error {
	s.names = map[int64]string{}
	s.listed = map[int64]int32{}
	n := len(s.periods)
	if n == 0 {
		return nil
	}
	var err error
	if s.latest, err = readList(output.ListCSV.Path(s.opt.Out, s.periods[n-1])); err != nil {
		return err
	}
	if s.added, err = addedColumns(output.ListCSV.Path(s.opt.Out, s.periods[n-1])); err != nil {
		return err
	}
	for i := range s.latest {
		r := &s.latest[i]
		s.listed[r.ID] = int32(i)
		s.names[r.ID] = r.Name
	}
	return nil
}

// indexPlayers sets, by the archive's dense index, who has a page and the
// hashes the keys take of each player.
func (s *site) indexPlayers() {
	ids := s.arch.Players.ID
	s.paged, s.nameKeys, s.stKeys = make([]bool, len(ids)), make([]uint64, len(ids)), make([]uint64, len(ids))
	for i, id := range ids {
		name, ok := s.names[id]
		s.paged[i], s.nameKeys[i] = ok, nameKey(name, ok)
	}
	for i, id := range ids { // after paged: standingsKeyOf asks hasPage
		s.stKeys[i] = s.standingsKeyOf(id)
	}
}

// cardOrders sets byPlayer and byTP. With the archive, whose dense indexes
// are in id order, the cards are bucketed by player and then by tournament,
// each stably, in linear time; without it, or with a card of a player or
// tournament it lacks, they are sorted (cardOrder), to the same order. It
// says whether they were bucketed.
func (s *site) cardOrders() bool {
	cards := s.cs.cards
	if a := s.arch; a != nil && (len(a.Tournaments) == 0 || a.Tournaments[0].ID > 0) {
		pb, tb := make([]int32, len(cards)), make([]int32, len(cards))
		ok := true
		for i := range cards {
			c := &cards[i]
			p, t := a.Players.Index(c.PlayerID), 0 // bucket 0: no tournament (id 0), before every id
			if c.TournamentID != 0 {
				t = a.TournamentIndex(c.TournamentID) + 1
			}
			if p < 0 || t < 0 || (t == 0 && c.TournamentID != 0) {
				ok = false
				break
			}
			pb[i], tb[i] = p, int32(t)
		}
		if ok {
			s.byPlayer = bucketOrder(nil, pb, len(a.Players.ID))
			s.byTP = bucketOrder(s.byPlayer, tb, len(a.Tournaments)+1)
			s.pidx, s.pstart = &a.Players, bucketStarts(pb, len(a.Players.ID))
			return true
		}
	}
	s.byPlayer = cardOrder(cards, func(c *card) int64 { return c.PlayerID })
	s.byTP = cardOrder(cards, func(c *card) int64 { return c.TournamentID })
	return false
}

// bucketStarts returns where each bucket (below nb) starts in the order
// bucketOrder makes, and at nb the end.
func bucketStarts(bucket []int32, nb int) []int32 {
	start := make([]int32, nb+1)
	for _, b := range bucket {
		start[b+1]++
	}
	for i := 1; i <= nb; i++ {
		start[i] += start[i-1]
	}
	return start
}

// bucketOrder returns the indexes of order (nil: 0, 1, ...) grouped by their
// bucket (below nb), keeping their order within a bucket.
func bucketOrder(order, bucket []int32, nb int) []int32 {
	start := bucketStarts(bucket, nb)
	out := make([]int32, len(bucket))
	for k := range bucket {
		i := int32(k)
		if order != nil {
			i = order[k]
		}
		b := bucket[i]
		out[start[b]] = i
		start[b]++
	}
	return out
}

// cardOrder returns the indexes of cards sorted by key, then by player, then
// in file order.
func cardOrder(cards []card, key func(*card) int64) []int32 {
	type k struct {
		key, player int64
		i           int32
	}
	ks := make([]k, len(cards))
	for i := range cards {
		ks[i] = k{key(&cards[i]), cards[i].PlayerID, int32(i)}
	}
	slices.SortFunc(ks, func(a, b k) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.player, b.player), cmp.Compare(a.i, b.i))
	})
	idx := make([]int32, len(ks))
	for i := range ks {
		idx[i] = ks[i].i
	}
	return idx
}

// loadTournaments collects the tournaments from the archive, standings/
// (readStandingsFiles) and the cards.
func (s *site) loadTournaments() error {
	s.tours = map[int64]*tourInfo{}
	if a := s.arch; a != nil {
		s.tourAt = make([]*tourInfo, len(a.Tournaments))
		for i, t := range a.Tournaments {
			s.tourAt[i] = &tourInfo{ID: t.ID, Name: t.Name, Start: t.Start, End: t.End, System: t.System,
				Rounds: int(t.Rounds), Discipline: t.Discipline, Rated: t.Rated}
			s.tours[t.ID] = s.tourAt[i]
		}
	}
	// Tournaments known only from their standings or their cards.
	for id := range s.stFile {
		if s.tours[id] == nil {
			s.tours[id] = &tourInfo{ID: id, Name: fmt.Sprintf("Tournament %d", id)}
		}
	}
	for _, i := range s.byTP {
		c := &s.cs.cards[i]
		if c.TournamentID == 0 {
			continue
		}
		t := s.tours[c.TournamentID]
		if t == nil {
			t = &tourInfo{ID: c.TournamentID, Name: fmt.Sprintf("Tournament %d", c.TournamentID), End: c.EndDate, Start: c.EndDate}
			s.tours[c.TournamentID] = t
		}
		t.Rated = true
		t.Period = s.cs.str(c.Period)
	}
	for id, t := range s.tours {
		t.nameKey = xxh3.HashString(t.Name)
		if t.Period == "" && t.End != 0 {
			t.Period = day.PeriodOf(day.Kind(s.sum.Period), day.Day(t.End)).Label()
		}
		s.torder = append(s.torder, id)
	}
	s.tourNames = make([]uint64, len(s.tourAt))
	for i, t := range s.tourAt {
		s.tourNames[i] = t.nameKey
	}
	sort.Slice(s.torder, func(i, j int) bool {
		a, b := s.tours[s.torder[i]], s.tours[s.torder[j]]
		if a.End != b.End {
			return a.End < b.End
		}
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.ID < b.ID
	})
	s.periodTours = map[string][]*tourInfo{}
	for _, id := range s.torder {
		t := s.tours[id]
		s.periodTours[t.Period] = append(s.periodTours[t.Period], t)
	}
	s.markRatingReports()
	return nil
}

// cardOf returns the card of player p in tournament t, or nil.
func (x *cardIndex) cardOf(t, p int64) *card {
	cards := x.cs.cards
	i := sort.Search(len(x.byTP), func(i int) bool {
		c := &cards[x.byTP[i]]
		return c.TournamentID > t || (c.TournamentID == t && c.PlayerID >= p)
	})
	if i < len(x.byTP) {
		if c := &cards[x.byTP[i]]; c.TournamentID == t && c.PlayerID == p {
			return c
		}
	}
	return nil
}

// playerCards returns the indexes of player id's cards, in rating order.
func (x *cardIndex) playerCards(id int64) []int32 {
	if x.pstart != nil {
		if i := x.pidx.Index(id); i >= 0 {
			return x.byPlayer[x.pstart[i]:x.pstart[i+1]]
		}
		return nil
	}
	cards := x.cs.cards
	i := sort.Search(len(x.byPlayer), func(i int) bool { return cards[x.byPlayer[i]].PlayerID >= id })
	j := i
	for j < len(x.byPlayer) && cards[x.byPlayer[j]].PlayerID == id {
		j++
	}
	return x.byPlayer[i:j]
}

// tourNameKey returns the nameKey of tournament id, and whether it is known.
func (s *site) tourNameKey(id int64) (uint64, bool) {
	if s.tourAt != nil {
		if i := s.arch.TournamentIndex(id); i >= 0 {
			return s.tourNames[i], true
		}
	}
	if t := s.tours[id]; t != nil {
		return t.nameKey, true
	}
	return 0, false
}

// tour returns tournament id, or nil.
func (s *site) tour(id int64) *tourInfo {
	if s.tourAt != nil {
		if i := s.arch.TournamentIndex(id); i >= 0 {
			return s.tourAt[i]
		}
	}
	return s.tours[id]
}

// hasPage says whether player id has a page.
func (s *site) hasPage(id int64) bool {
	if s.paged != nil {
		if i := s.arch.Players.Index(id); i >= 0 {
			return s.paged[i]
		}
	}
	_, ok := s.names[id]
	return ok
}

// nameKey is a hash of player id's name and whether he has a page, for the
// keys of the pages that show them.
func (s *site) nameKey(id int64) uint64 {
	if s.nameKeys != nil {
		if i := s.arch.Players.Index(id); i >= 0 {
			return s.nameKeys[i]
		}
	}
	name, ok := s.names[id]
	return nameKey(name, ok)
}

func nameKey(name string, paged bool) uint64 {
	h := xxh3.HashString(name) &^ 1
	if paged {
		h |= 1
	}
	return h
}

// club returns a player's club from the archive.
func (s *site) club(id int64) string {
	if s.arch == nil {
		return ""
	}
	if i := s.arch.Players.Index(id); i >= 0 {
		return s.arch.Players.Club[i]
	}
	return ""
}

// info returns what the archive says of a player for other bodies (title,
// federation), or nil.
func (s *site) info(id int64) *archive.PlayerInfo {
	if s.arch == nil || s.arch.Players.Info == nil {
		return nil
	}
	if i := s.arch.Players.Index(id); i >= 0 {
		return &s.arch.Players.Info[i]
	}
	return nil
}
