package report

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/zeebo/xxh3"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/pipeline"
)

// A key is a hash of everything a file of the site is made from. Over an
// earlier site a file whose key is unchanged is kept without being made again,
// so a rebuild reads and renders only what changed: the pairings only of the
// tournaments whose key changed, the lists only when a list page changed.

// keyer builds a key from the values fed to it, in order. A long input
// (a key over every player) goes through a streaming hasher in parts: the
// same key, without a buffer that grows to tens of megabytes.
type keyer struct {
	b []byte
	h *xxh3.Hasher // the parts already hashed, nil when none
}

// keyerPart is the size of the parts a long input is hashed in.
const keyerPart = 64 << 10

func (k *keyer) ints(vs ...int64) {
	if len(k.b) >= keyerPart {
		k.spill()
	}
	for _, v := range vs {
		k.b = append(k.b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
	}
}

// spill hashes what k holds as a part of its input.
func (k *keyer) spill() {
	if k.h == nil {
		k.h = xxh3.New()
	}
	k.h.Write(k.b)
	k.b = k.b[:0]
}

func (k *keyer) float(f float64) { k.ints(int64(math.Float64bits(f))) }

func (k *keyer) str(s string) {
	k.ints(int64(len(s)))
	k.b = append(k.b, s...)
}

// sum returns the key, never 0 (0 is "unknown"), and empties k.
func (k *keyer) sum() uint64 {
	var v uint64
	if k.h != nil {
		k.spill()
		v = k.h.Sum64()
		k.h = nil
	} else {
		v = xxh3.Hash(k.b)
	}
	k.b = k.b[:0]
	return v | 1
}

// siteKey is the key of what every file depends on: the program that renders
// it, the title, the run's rules and periods.
func (s *site) siteKey() (uint64, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("report: %w", err)
	}
	h, err := fileHash(exe)
	if err != nil {
		return 0, fmt.Errorf("report: %w", err)
	}
	var k keyer
	k.ints(int64(h))
	k.str(s.title)
	k.str(s.sum.Rules)
	k.str(s.sum.Period)
	if s.arch != nil {
		k.ints(1)
	}
	return k.sum(), nil
}

// fileHash returns the hash of a file's content.
func fileHash(path string) (uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	h := xxh3.New()
	if _, err := io.Copy(h, f); err != nil {
		return 0, err
	}
	return h.Sum64(), nil
}

// tourFacts feeds what a tournament's row shows.
func (k *keyer) tourFacts(t *tourInfo) {
	k.ints(t.ID, int64(t.Start), int64(t.End), int64(t.Rounds))
	k.str(t.Name)
	k.str(t.System)
	k.str(t.Discipline)
	k.str(t.Period)
	if t.Rated {
		k.ints(1)
	}
}

// playerKey is the key of player id's page.
func (s *site) playerKey(k *keyer, id int64) uint64 {
	k.ints(int64(s.key), id)
	k.str(s.names[id])
	k.str(s.club(id))
	if s.arch != nil {
		if i := s.arch.Players.Index(id); i >= 0 {
			k.ints(int64(s.arch.Players.Category[i]))
		}
	}
	if li, ok := s.listed[id]; ok {
		r := &s.latest[li]
		k.ints(1, int64(r.Rating), int64(r.K), int64(r.GamesTotal))
		if r.NoK {
			k.ints(-1)
		}
		k.str(r.Flags)
	}
	for _, ci := range s.playerCards(id) {
		c := &s.cs.cards[ci]
		k.ints(c.TournamentID, int64(c.EndDate), int64(c.Games), int64(c.RatingBefore), int64(c.RatingUsed),
			int64(c.OppAverage), int64(c.D), int64(c.K), int64(c.Change), int64(c.RatingAfter))
		k.float(c.Score)
		k.float(c.Expected)
		k.float(c.ChangeUnrounded)
		k.str(s.cs.str(c.Period))
		k.str(s.cs.str(c.Reason))
		if c.PerGame {
			k.ints(1)
		}
		if h, ok := s.tourNameKey(c.TournamentID); ok {
			k.ints(int64(h))
		}
	}
	for _, t := range s.tables {
		t.key(k, id)
	}
	s.boardsKey(k, id)
	return k.sum()
}

// tourKey is the key of tournament t's page and rating report: its facts,
// its period's standings file, its players (their clubs, titles and
// federations) and their cards, and its games as the archive
// has them (pairs, a readPairKeys hash), each player with whether they have a page.
func (s *site) tourKey(k *keyer, t *tourInfo, pairs uint64) uint64 {
	k.ints(int64(s.key), int64(s.stHash[s.stFile[t.ID]]), int64(s.stPlayers[t.ID]), int64(pairs))
	k.tourFacts(t)
	if t.Reported {
		k.ints(1)
	}
	if s.hasTeams(t.ID) {
		k.ints(2)
	}
	cards := s.cs.cards
	i, _ := findTP(s, t.ID, 0)
	for ; i < len(s.byTP) && cards[s.byTP[i]].TournamentID == t.ID; i++ {
		c := &cards[s.byTP[i]]
		// Every number of the card: the page and the rating report show them.
		k.ints(c.PlayerID, int64(c.Ro()), int64(c.OppAverage), int64(c.Games), int64(c.K), int64(c.Change), int64(c.RatingBefore), int64(c.RatingAfter))
		k.float(c.Score)
		k.float(c.Expected)
		k.float(c.ChangeUnrounded)
		k.str(s.cs.str(c.Reason))
		k.ints(int64(s.nameKey(c.PlayerID)))
		if c.PerGame {
			k.ints(1)
		}
	}
	return k.sum()
}

// findTP returns the position in byTP of the first card of tournament t and
// player p or later.
func findTP(s *site, t, p int64) (int, bool) {
	cards := s.cs.cards
	lo, hi := 0, len(s.byTP)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		c := &cards[s.byTP[m]]
		if c.TournamentID < t || (c.TournamentID == t && c.PlayerID < p) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(s.byTP)
}

// maxHeldRows bounds the games rows readPairKeys holds for the tournaments
// whose key changed; beyond it their pairings come from rating the archive
// again (a full rebuild, as after a new version of the program).
const maxHeldRows = 1 << 21

// readPairKeys returns, per tournament, a hash of its rows of the archive's games
// table, each player with whether they have a page. Only tournaments whose
// key changed have their pairings read again: over an earlier site, the rows
// of those tournaments are held as they are read (nil when there is no
// earlier site or too many changed). The tournament keys (tourKey) it takes
// to tell which changed are returned too, by id.
func (s *site) readPairKeys(ctx context.Context) (map[int64]uint64, map[int64]uint64, *pipeline.Pairings, error) {
	out, keys := map[int64]uint64{}, map[int64]uint64{}
	if s.arch == nil {
		return out, keys, nil, nil
	}
	files, err := archive.Files(s.opt.Archive, "games")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("archive: %w", err)
	}
	var pairs *pipeline.Pairings
	if len(s.out.old) > 0 {
		pairs = pipeline.NewPairings(s.arch)
	}
	r := archive.NewReader(s.opt.Archive, files, archive.GameColumns)
	defer r.Close()
	page := func(id int64, null bool) uint64 {
		if null {
			return 2
		}
		if s.hasPage(id) {
			return 1
		}
		return 0
	}
	var k keyer
	var last int64
	var h uint64
	flush := func() {
		if last != 0 || h != 0 {
			out[last] = h
		}
		changed := false
		if t := s.tours[last]; t != nil { // a tournament's last flush has its whole hash
			keys[last] = s.tourKey(&k, t, h)
			changed = !s.out.has(tourPage(last), keys[last])
		}
		if pairs != nil {
			pairs.Commit(changed)
		}
	}
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		b := r.Batch()
		tid := b.Ints[archive.GameTournamentID]
		for i := range b.N {
			if t := tid[i]; t != last || b.Nulls[archive.GameTournamentID][i] {
				flush()
				last = t
				h = out[t]
			}
			for c := range b.Ints {
				if b.Ints[c] != nil {
					h = mix(h, uint64(b.Ints[c][i]))
				}
				if b.Nulls[c][i] {
					h = mix(h, 7)
				}
			}
			if p := b.Bad[i]; p.Kind != archive.KindNone {
				h = mix(h, uint64(p.Kind)<<32|uint64(len(p.Reason)))
			}
			h = mix(h, page(b.Ints[archive.GameWhiteID][i], b.Nulls[archive.GameWhiteID][i]))
			h = mix(h, page(b.Ints[archive.GameBlackID][i], b.Nulls[archive.GameBlackID][i]))
			if pairs != nil {
				pairs.Add(b, i)
			}
		}
		if pairs != nil && pairs.Held() > maxHeldRows {
			pairs = nil
		}
	}
	if err := r.Err(); err != nil {
		return nil, nil, nil, fmt.Errorf("archive: %w", err)
	}
	flush()
	return out, keys, pairs, nil
}

// mix adds v to the hash h (FNV-1a over the 8 bytes, one step).
func mix(h, v uint64) uint64 {
	h ^= v
	return h * 1099511628211
}

// mixString adds str to the hash h.
func mixString(h uint64, str string) uint64 {
	h = mix(h, uint64(len(str)))
	for i := 0; i < len(str); i++ {
		h = mix(h, uint64(str[i]))
	}
	return h
}

// readStandingsFiles reads the hash of each period's standings file (by
// label) and, per tournament, the label of the file holding it and a hash of
// its players, each with whether they have a page.
func (s *site) readStandingsFiles(out string) error {
	labels, err := output.StandingsPeriod.Keys(out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	s.stHash, s.stFile, s.stPlayers = map[string]uint64{}, map[int64]string{}, map[int64]uint64{}
	for _, label := range labels {
		p := output.StandingsPeriod.Path(out, label)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s.stHash[label] = xxh3.Hash(b)
		pf, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		if _, ok := pf.Schema().Lookup("tournament_id"); !ok {
			return fmt.Errorf("read %s: %w", p, ErrBadOutput)
		}
		if _, ok := pf.Schema().Lookup("player_id"); !ok {
			return fmt.Errorf("read %s: %w", p, ErrBadOutput)
		}
		if err := sameKinds(p, pf.Schema(), output.StandingsSchema); err != nil {
			return err
		}
		var tids, ids []int64
		for _, g := range pf.RowGroups() {
			n := int(g.NumRows())
			tids, ids = resize(tids, n, 0), resize(ids, n, 0)
			read := newTypedColumns(p, pf.Schema(), g)
			if err := errors.Join(read.int64s("tournament_id", tids), read.int64s("player_id", ids)); err != nil {
				return err
			}
			// A tournament's rows come together: its hash is looked up once.
			var last int64
			var h uint64
			for i, t := range tids {
				if i == 0 || t != last {
					if i > 0 {
						s.stPlayers[last] = h
					}
					last, h = t, s.stPlayers[t]
					s.stFile[t] = label
				}
				h = mix(mix(h, uint64(ids[i])), s.standingsKey(ids[i]))
			}
			if n > 0 {
				s.stPlayers[last] = h
			}
		}
	}
	return nil
}

// standingsKey is a hash of what a standings row shows of player id besides
// the standings file: whether he has a page, his club, title and federation.
func (s *site) standingsKey(id int64) uint64 {
	if s.stKeys != nil {
		if i := s.arch.Players.Index(id); i >= 0 {
			return s.stKeys[i]
		}
	}
	return s.standingsKeyOf(id)
}

func (s *site) standingsKeyOf(id int64) uint64 {
	var h uint64
	if s.hasPage(id) {
		h = 1
	}
	h = mixString(h, s.club(id))
	if in := s.info(id); in != nil {
		h = mixString(mixString(h, in.Title), in.Federation)
	}
	return h
}

// changesKey is the key of the changes page from one list to the next: both
// list files, the pages it links, and the players who fell below the floor
// in between (an exit's reason).
func (s *site) changesKey(k *keyer, from, to string, fromHash, toHash, pages uint64) uint64 {
	k.ints(int64(s.key), int64(fromHash), int64(toHash), int64(pages))
	k.str(from)
	k.str(to)
	k.str(s.listFile(from))
	k.str(s.listFile(to))
	below := s.fellBelowFloor(from, to)
	ids := make([]int64, 0, len(below))
	for id := range below {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	k.ints(ids...)
	return k.sum()
}

// pagesKey is the key of which players have a page (a changes page links
// them).
func (s *site) pagesKey() uint64 {
	ids := make([]int64, 0, len(s.names))
	for id := range s.names {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var k keyer
	k.ints(ids...)
	return k.sum()
}

// listKey returns the key of a list's page: the list file's hash, the
// clubs, its links (listNav), whether it is provisional and the period's
// tournaments.
func (s *site) listKey(k *keyer, kind, period string, file, clubs uint64, nav listNav) uint64 {
	k.ints(int64(s.key), int64(file), int64(clubs))
	k.str(kind)
	k.str(period)
	k.str(s.listFile(period))
	nav.key(k)
	if period == s.sum.Provisional {
		k.str("provisional")
	}
	if kind == "rating" {
		for _, t := range s.periodTours[period] {
			k.tourFacts(t)
		}
	}
	return k.sum()
}

// clubsKey is a hash of every player's club.
func (s *site) clubsKey() uint64 {
	var k keyer
	if s.arch != nil {
		for i, id := range s.arch.Players.ID {
			k.ints(id)
			k.str(s.arch.Players.Club[i])
		}
	}
	return k.sum()
}
