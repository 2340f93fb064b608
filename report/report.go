package report

import (
	"bytes"
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
)

// Options configure Build.
type Options struct {
	// Out is the output folder of a finished `ratelist run`.
	Out string
	// Site is the folder the site is written to (default Out/site). An existing
	// site there is replaced; any other non-empty folder is refused.
	Site string
	// Archive is the archive the run read, for clubs, tournament names and
	// pairings. Nil leaves clubs and crosstables out.
	Archive fs.FS
	// Title heads every page (default "Rating list").
	Title string
	// Workers is the number of pages written at once (default GOMAXPROCS).
	Workers int
	Log     *slog.Logger
}

// Stats says what Build wrote.
type Stats struct {
	Site        string
	Players     int // player pages
	Tournaments int // tournament pages
	Lists       int // list pages (rating and Joker)
	Files       int // files in the site
	Written     int // files written: new or changed
	Kept        int // files kept without being made again: made from what they were
	Removed     int // files of an earlier site removed
	// Rerated is the number of tournaments whose pairings came from rating
	// the archive again (every one in a first build); over an earlier site
	// the changed ones' are read with the keys.
	Rerated int
}

// PageSize is the number of list rows per page of the list table.
const PageSize = 100

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets/*
var assetFS embed.FS

var pages = template.Must(template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html"))

// site is everything the pages are made from. The pairings are not held: each
// tournament's page is written as the archive hands it over.
type site struct {
	opt      Options
	title    string
	sum      *summary
	periods  []string // rating lists, sorted
	jperiods []string // Joker lists, sorted
	latest   []listRow
	listed   map[int64]int32 // latest list by player: index into latest
	// belowFloor is, by player, the periods of his cards that left him below
	// the rating floor (a reason for leaving the list).
	belowFloor map[int64][]string

	cs       *cardSet
	byPlayer []int32 // card indexes by player, each player's in rating order
	byTP     []int32 // card indexes sorted by (tournament, player)

	arch      *archive.Archive
	tours     map[int64]*tourInfo
	torder    []int64           // tournaments by end date, start date, id
	stFile    map[int64]string  // each tournament's standings file, by label
	stHash    map[string]uint64 // each standings file's content hash, by label
	stPlayers map[int64]uint64  // a hash of each tournament's standings players

	key uint64 // siteKey

	joker      map[int64][]jokerHist
	jokerCards map[int64][]jokerCard

	players []int64 // every player with a page, sorted
	names   map[int64]string
	// paged says, by the archive's dense index, whether a player has a page
	// (names has him): a games table asks for every row's two players.
	paged []bool
	// clubs are the archive's clubs, sorted; clubNo is each player's, by
	// dense index (-1: none).
	clubs       []string
	clubNo      []int32
	periodTours map[string][]*tourInfo // in torder
	tourAt      []*tourInfo            // the archive's tournaments, by position
	out         *sink
}

// tourInfo is one tournament: the archive row and its list period.
type tourInfo struct {
	ID         int64
	Name       string
	Start, End int32
	System     string
	Rounds     int
	Discipline string
	Rated      bool
	Period     string
	// Paired says that the tournament's pairings were read and its data file
	// (tournaments/ID.js, the games) written.
	Paired bool
}

// jokerHist is one player's row in one Joker list.
type jokerHist struct {
	Period string
	jokerRow
}

// Build turns the outputs of a run in opt.Out into a static site in opt.Site.
// Over an earlier site it rewrites only the files whose content changed.
func Build(ctx context.Context, opt Options) (*Stats, error) {
	if opt.Site == "" {
		opt.Site = filepath.Join(opt.Out, "site")
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	s := &site{opt: opt, title: opt.Title}
	if s.title == "" {
		s.title = "Rating list"
	}
	// An earlier site's manifest is read while the outputs load.
	update, siteErr := checkSite(opt.Site)
	man := make(chan manifest, 1)
	if siteErr == nil && update {
		go func() { man <- readManifest(opt.Site) }()
	}
	if err := s.load(ctx); err != nil {
		return nil, err
	}
	if siteErr != nil {
		return nil, siteErr
	}
	dir := opt.Site
	if !update {
		var err error
		if dir, err = newSiteDir(opt.Site); err != nil {
			return nil, err
		}
	}
	st, err := s.write(ctx, dir, update, man)
	if err != nil {
		if !update {
			os.RemoveAll(dir)
		}
		return nil, err
	}
	if !update {
		if err := swapSite(dir, opt.Site); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	st.Site = opt.Site
	return st, nil
}

// checkSite says whether dir holds a site written here (to be updated in
// place), and refuses a non-empty folder that is not one.
func checkSite(dir string) (bool, error) {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("site: %w", err)
	case len(ents) == 0:
		return false, nil
	case !IsSite(dir):
		return false, fmt.Errorf("site %s: folder is not empty and not a ratelist site; refusing to replace it", dir)
	}
	return true, nil
}

// newSiteDir returns a fresh folder beside dir to build a new site in.
func newSiteDir(dir string) (string, error) {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("site: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".ratelist-site-")
	if err != nil {
		return "", fmt.Errorf("site: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it private
		os.RemoveAll(tmp)
		return "", fmt.Errorf("site: %w", err)
	}
	return tmp, nil
}

// swapSite moves the finished site in tmp to dir (absent or empty).
func swapSite(tmp, dir string) error {
	if exists(dir) {
		if err := os.Remove(dir); err != nil {
			return fmt.Errorf("site: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	return nil
}

// load reads the run's outputs and the archive's small tables.
func (s *site) load(ctx context.Context) error {
	out := s.opt.Out
	sum, err := readSummary(outPath(out, "summary.json"))
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s: %w", out, ErrNoRun)
	}
	if err != nil {
		return err
	}
	s.sum = sum
	if s.periods, err = periods(outPath(out, "lists")); err != nil {
		return err
	}
	if s.jperiods, err = periods(outPath(out, "lists", "joker")); err != nil {
		return err
	}
	if len(s.periods) == 0 && len(s.jperiods) == 0 {
		return fmt.Errorf("%s: %w", out, ErrNoList)
	}
	s.names = map[int64]string{}
	s.listed = map[int64]int32{}
	if n := len(s.periods); n > 0 {
		if s.latest, err = readList(outPath(out, "lists", s.periods[n-1]+".csv")); err != nil {
			return err
		}
		for i := range s.latest {
			r := &s.latest[i]
			s.listed[r.ID] = int32(i)
			s.names[r.ID] = r.Name
		}
	}
	// The archive's small tables load while the cards are read.
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
	if p := outPath(out, "cards.parquet"); exists(p) {
		if s.cs, err = readCards(p, outPath(out, "card_games.parquet")); err != nil {
			return err
		}
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
	s.joker = map[int64][]jokerHist{}
	for _, p := range s.jperiods {
		rows, err := readJokerList(outPath(out, "lists", "joker", p+".csv"))
		if err != nil {
			return err
		}
		for _, r := range rows {
			s.joker[r.ID] = append(s.joker[r.ID], jokerHist{Period: p, jokerRow: r})
			if _, ok := s.names[r.ID]; !ok {
				s.names[r.ID] = r.Name
			}
		}
	}
	s.jokerCards = map[int64][]jokerCard{}
	if p := outPath(out, "joker_cards.parquet"); exists(p) {
		jc, err := readJokerCards(p)
		if err != nil {
			return err
		}
		for _, c := range jc {
			s.jokerCards[c.PlayerID] = append(s.jokerCards[c.PlayerID], c)
		}
	}
	l := <-archc
	if l.err != nil {
		return fmt.Errorf("archive: %w", l.err)
	}
	if l.a != nil {
		s.arch = l.a
		s.paged = make([]bool, len(l.a.Players.ID))
		for i, id := range l.a.Players.ID {
			_, s.paged[i] = s.names[id]
		}
	}
	// The standings files are read while the cards are sorted.
	stErr := make(chan error, 1)
	go func() { stErr <- s.readStandingsFiles(outPath(s.opt.Out, "standings")) }()
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
			return true
		}
	}
	s.byPlayer = cardOrder(cards, func(c *card) int64 { return c.PlayerID })
	s.byTP = cardOrder(cards, func(c *card) int64 { return c.TournamentID })
	return false
}

// bucketOrder returns the indexes of order (nil: 0, 1, ...) grouped by their
// bucket (below nb), keeping their order within a bucket.
func bucketOrder(order, bucket []int32, nb int) []int32 {
	start := make([]int32, nb+1)
	for _, b := range bucket {
		start[b+1]++
	}
	for i := 1; i <= nb; i++ {
		start[i] += start[i-1]
	}
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
		if t.Period == "" && t.End != 0 {
			t.Period = periodLabel(s.sum.Period, t.End)
		}
		s.torder = append(s.torder, id)
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
	s.numberClubs()
	return nil
}

// periodLabel names the list period of a day, as the run's list files do.
func periodLabel(kind string, day int32) string {
	t := dayTime(day)
	switch kind {
	case "quarter":
		return fmt.Sprintf("%d-Q%d", t.Year(), (int(t.Month())+2)/3)
	case "year":
		return strconv.Itoa(t.Year())
	}
	return t.Format("2006-01")
}

func dayTime(day int32) time.Time { return time.Unix(int64(day)*86400, 0).UTC() }

// cardOf returns the card of player p in tournament t, or nil.
func (s *site) cardOf(t, p int64) *card {
	cards := s.cs.cards
	i := sort.Search(len(s.byTP), func(i int) bool {
		c := &cards[s.byTP[i]]
		return c.TournamentID > t || (c.TournamentID == t && c.PlayerID >= p)
	})
	if i < len(s.byTP) {
		if c := &cards[s.byTP[i]]; c.TournamentID == t && c.PlayerID == p {
			return c
		}
	}
	return nil
}

// playerCards returns the indexes of player id's cards, in rating order.
func (s *site) playerCards(id int64) []int32 {
	cards := s.cs.cards
	i := sort.Search(len(s.byPlayer), func(i int) bool { return cards[s.byPlayer[i]].PlayerID >= id })
	j := i
	for j < len(s.byPlayer) && cards[s.byPlayer[j]].PlayerID == id {
		j++
	}
	return s.byPlayer[i:j]
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

// write writes every file of the site into dir, over the site there if update.
func (s *site) write(ctx context.Context, dir string, update bool, man <-chan manifest) (*Stats, error) {
	k, err := openSink(dir, update, man)
	if err != nil {
		return nil, err
	}
	s.out = k
	st := &Stats{}
	err = fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := assetFS.ReadFile(p)
		if err != nil {
			return err
		}
		return k.put(p, b, 0)
	})
	if err != nil {
		return nil, err
	}
	// The lists, the tournaments and the players are made at the same time:
	// each of the first two is mostly one goroutine's reading. Rating the
	// archive again, for tournaments whose pairings were not held, waits
	// for the other two: it needs the memory.
	g, gctx := errgroup.WithContext(ctx)
	var others sync.WaitGroup
	others.Add(2)
	g.Go(func() (err error) {
		defer others.Done()
		st.Lists, err = s.writeLists(gctx)
		return err
	})
	g.Go(func() error {
		defer others.Done()
		return s.writePlayers(gctx)
	})
	g.Go(func() (err error) {
		if err := s.writeTournamentIndex(); err != nil {
			return err
		}
		st.Rerated, err = s.writeTournaments(gctx, others.Wait)
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if st.Removed, err = k.finish(); err != nil {
		return nil, err
	}
	st.Tournaments = len(s.torder)
	st.Players = len(s.players)
	st.Files = len(k.now)
	st.Written = k.written
	st.Kept = k.keptN
	s.opt.Log.Info("report written", "site", s.opt.Site, "players", st.Players, "tournaments", st.Tournaments,
		"lists", st.Lists, "files", st.Files, "written", st.Written, "kept", st.Kept, "removed", st.Removed, "rerated", st.Rerated)
	return st, nil
}

// tourPage is the page of tournament id.
func tourPage(id int64) string { return fmt.Sprintf("tournaments/%d.html", id) }

// writeTournaments writes the page and data file of every tournament whose
// key changed. Over an earlier site the pairings of those tournaments were
// held as the keys were read; the others in the archive (all, in a first
// build) come as the archive is rated again, and those without pairings
// after; wait is called before the archive is rated. The pages are rendered
// and written by a pool, from a copy of the pairings, so that the archive goes
// on reading meanwhile.
func (s *site) writeTournaments(ctx context.Context, wait func()) (rerated int, err error) {
	pairKeys, held, err := s.readPairKeys(ctx)
	if err != nil {
		return 0, err
	}
	keys := map[int64]uint64{}
	var k keyer
	for _, id := range s.torder {
		t := s.tours[id]
		key := s.tourKey(&k, t, pairKeys[id])
		html, data := tourPage(id), fmt.Sprintf("tournaments/%d.js", id)
		if s.out.kept(html, key) {
			s.out.kept(data, key) // the same key has the same files
			continue
		}
		keys[id] = key
	}
	want := func(id int64) bool { _, ok := keys[id]; return ok }
	stc := &standingsCache{dir: outPath(s.opt.Out, "standings"), files: s.stFile, want: want}
	g, gctx := errgroup.WithContext(ctx)
	type job struct {
		t  *tourInfo
		tt *tiebreak.Tournament
		st *standings
	}
	jobs := make(chan job, 64)
	for range s.opt.Workers {
		g.Go(func() error {
			for j := range jobs {
				page, data, err := s.renderTournament(j.t, j.tt, j.st)
				if err != nil {
					return err
				}
				key := keys[j.t.ID]
				if err := s.out.put(tourPage(j.t.ID), page, key); err != nil {
					return err
				}
				if data != nil {
					if err := s.out.put(fmt.Sprintf("tournaments/%d.js", j.t.ID), data, key); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	send := func(j job) error {
		select {
		case jobs <- j:
			return nil
		case <-gctx.Done():
			return gctx.Err()
		}
	}
	sendStandings := func(j job) error {
		st, err := stc.get(j.t.ID)
		if err != nil {
			return err
		}
		j.st = st
		return send(j)
	}
	err = func() error {
		defer close(jobs)
		// The tournaments in the games table whose pairings must come from
		// rating the archive again.
		again := map[int64]bool{}
		for _, id := range s.torder {
			if _, ok := pairKeys[id]; !ok || !want(id) {
				continue
			}
			if held == nil {
				again[id] = true
				continue
			}
			tt, ok := held.Tournament(id)
			if tt == nil {
				if !ok {
					again[id] = true
				}
				continue
			}
			st, err := stc.get(id)
			if err != nil {
				return err
			}
			// The held players are in id order, a run's by rating: the data
			// file is the same when the standings list every player first.
			if !standsAll(st, tt) {
				again[id] = true
				continue
			}
			t := s.tours[id]
			t.Paired = true
			if err := send(job{t: t, tt: tt, st: st}); err != nil {
				return err
			}
		}
		if len(again) > 0 && s.opt.Archive != nil {
			rerated = len(again)
			wait()
			err := pipeline.ForEachTournamentOfFS(gctx, s.opt.Archive, func(id int64) bool { return again[id] }, func(tt *tiebreak.Tournament) error {
				t := s.tours[tt.ID]
				if t == nil || t.Paired {
					return nil
				}
				t.Paired = true
				return sendStandings(job{t: t, tt: &tiebreak.Tournament{Rounds: tt.Rounds, Players: slices.Clone(tt.Players), Games: slices.Clone(tt.Games)}})
			})
			if err != nil {
				return fmt.Errorf("archive: %w", err)
			}
		}
		for _, id := range s.torder {
			if t := s.tours[id]; want(id) && !t.Paired {
				if err := sendStandings(job{t: t}); err != nil {
					return err
				}
			}
		}
		return nil
	}()
	if werr := g.Wait(); err == nil {
		err = werr
	}
	return rerated, err
}

// standsAll says whether the standings st list every player of tt.
func standsAll(st *standings, tt *tiebreak.Tournament) bool {
	if st == nil {
		return false
	}
	ids := make(map[int64]bool, len(st.Rows))
	for k, r := range st.Rows {
		ids[st.rowID(r, k)] = true
	}
	for _, p := range tt.Players {
		if !ids[p.ID] {
			return false
		}
	}
	return true
}

// standingsCache reads the standings of the tournaments being rendered a
// period's file at a time, as they come (in rating order, so by period),
// and holds the last few files' only.
type standingsCache struct {
	dir   string
	files map[int64]string // each tournament's file, by label
	want  func(int64) bool
	held  []heldStandings
}

type heldStandings struct {
	label string
	st    map[int64]*standings
}

// heldFiles is how many periods' standings are held: tournaments of
// neighbouring periods may come interleaved.
const heldFiles = 3

// get returns tournament id's standings, nil when it has none.
func (c *standingsCache) get(id int64) (*standings, error) {
	label, ok := c.files[id]
	if !ok {
		return nil, nil
	}
	for _, h := range c.held {
		if h.label == label {
			return h.st[id], nil
		}
	}
	st, err := readStandings(c.dir, []string{label}, c.want)
	if err != nil {
		return nil, err
	}
	if len(c.held) == heldFiles {
		c.held = c.held[1:]
	}
	c.held = append(c.held, heldStandings{label, st})
	return st[id], nil
}

// writePlayers writes the page of every player whose key changed, Workers at
// a time.
func (s *site) writePlayers(ctx context.Context) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.opt.Workers)
	const chunk = 512
	for from := 0; from < len(s.players); from += chunk {
		if gctx.Err() != nil {
			break
		}
		ids := s.players[from:min(from+chunk, len(s.players))]
		g.Go(func() error {
			var buf []byte
			var k keyer
			for _, id := range ids {
				rel, key := fmt.Sprintf("players/%d.html", id), s.playerKey(&k, id)
				if s.out.kept(rel, key) {
					continue
				}
				buf = s.renderPlayer(buf[:0], id)
				if err := s.out.put(rel, buf, key); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// page is what every page template gets.
type page struct {
	Site  string // site title
	Title string // page title
	Root  string // relative path to the site root: "" or "../"
	Nav   string // active navigation entry
}

func (s *site) page(title, root, nav string) page {
	return page{Site: s.title, Title: title, Root: root, Nav: nav}
}

// putPage renders the template name with data as the file rel.
func (s *site) putPage(rel, name string, data any, key uint64) error {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return s.out.put(rel, b.Bytes(), key)
}

// listFile is the page of a list period; the latest rating list is index.html.
func (s *site) listFile(period string) string {
	if n := len(s.periods); n > 0 && period == s.periods[n-1] {
		return "index.html"
	}
	return "list-" + period + ".html"
}

// tourListFile is the page of the tournaments of a period.
func tourListFile(period string) string {
	if period == "" {
		return "tournaments-undated.html"
	}
	return "tournaments-" + period + ".html"
}

// listPage is the data of a list page (index.html, list-*.html, joker-*.html).
type listPage struct {
	page
	Kind       string
	Period     string
	Rules      string
	Count      int
	Shown      int
	DataFile   string
	Histogram  template.HTML
	HistAlt    string
	Gains      []listRow
	Tours      []*tourInfo
	ToursCount int
	ToursFile  string
	Rows       []listRow
	JokerRows  []jokerRow
	Clubs      []string
	Categories []string
	Links      listNav
	// Provisional says that the list is of a period still open on the run's
	// date: not final.
	Provisional bool
	Clubs0      map[int64]string
	// Prev is the list before this one and ChangesFile the page of the
	// changes from it; empty for the first list.
	Prev, ChangesFile string
}

// maxListTours is the number of a period's tournaments a list page shows in
// full; beyond it the page links to the period's tournament page.
const maxListTours = 50

type periodLink struct {
	Period, File string
}

// listNav are a list page's links to other lists: the one before and after
// it of its kind, its year's index and the index of the years. A page links a
// bounded number of lists, so the site's links grow with the lists, not with
// their square.
type listNav struct {
	Prev, Next periodLink // File "": none
	Year       string
	YearFile   string
}

// listYear is the year of a period label (YYYY-MM, YYYY-Qn or YYYY).
func listYear(period string) string {
	if i := strings.IndexByte(period[1:], '-'); i >= 0 {
		return period[:i+1]
	}
	return period
}

// yearFile is the index page of a year's lists.
func yearFile(year string) string { return "lists-" + year + ".html" }

// jokerFile is the page of a Joker list.
func jokerFile(period string) string { return "joker-" + period + ".html" }

// navOf is the listNav of period among periods (sorted), whose pages file names.
func navOf(periods []string, period string, file func(string) string) listNav {
	n := listNav{Year: listYear(period), YearFile: yearFile(listYear(period))}
	if i, ok := slices.BinarySearch(periods, period); ok {
		if i > 0 {
			n.Prev = periodLink{periods[i-1], file(periods[i-1])}
		}
		if i+1 < len(periods) {
			n.Next = periodLink{periods[i+1], file(periods[i+1])}
		}
	}
	return n
}

// key adds the links of n to k.
func (n *listNav) key(k *keyer) {
	for _, s := range []string{n.Prev.Period, n.Prev.File, n.Next.Period, n.Next.File, n.YearFile} {
		k.str(s)
	}
}

// writeLists writes the list pages and their data files, and each list's
// changes page, at most two lists in memory at a time; a list whose page, data
// file and changes pages are kept is not read.
func (s *site) writeLists(ctx context.Context) (int, error) {
	n := 0
	clubs := s.clubsKey()
	pages := s.pagesKey()
	var k keyer
	var prev []listRow // list i-1, when it was read
	var prevHash uint64
	// Lists i-1 and i as the diff takes them (prevEntries nil: not made),
	// in two buffers used in turn.
	var prevEntries, entries []output.ListRow
	var spare []output.ListRow
	for i, p := range s.periods {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		n++
		path := outPath(s.opt.Out, "lists", p+".csv")
		h, err := fileHash(path)
		if err != nil {
			return n, err
		}
		data, page := s.listKeys(&k, "rating", p, h, clubs)
		dataFile := "data/list-" + p + ".js"
		keepData := s.out.kept(dataFile, data)
		keepPage := keepData && s.out.kept(s.listFile(p), page)
		var changes uint64
		keepChanges := i == 0
		if i > 0 {
			changes = s.changesKey(&k, s.periods[i-1], p, prevHash, h, pages)
			keepChanges = s.out.kept(changesFile(p), changes)
		}
		var rows []listRow
		if !keepPage || !keepChanges {
			if rows, err = s.readRatingList(i); err != nil {
				return n, err
			}
		}
		if !keepChanges {
			if prev == nil {
				if prev, err = s.readRatingList(i - 1); err != nil {
					return n, err
				}
			}
			if prevEntries == nil {
				prevEntries = listEntries(spare, prev)
				spare = nil
			}
			entries = listEntries(spare, rows)
			if err := s.writeChanges(s.periods[i-1], p, prevEntries, entries, changes); err != nil {
				return n, err
			}
		}
		if !keepPage {
			if err := s.writeRatingList(p, rows, !keepData, data, page); err != nil {
				return n, err
			}
		}
		spare = prevEntries // list i-1's buffer is free for list i+1
		prev, prevHash, prevEntries, entries = rows, h, entries, nil
	}
	if err := s.writeListIndex(); err != nil {
		return n, err
	}
	for _, p := range s.jperiods {
		n++
		path := outPath(s.opt.Out, "lists", "joker", p+".csv")
		h, err := fileHash(path)
		if err != nil {
			return n, err
		}
		data, page := s.listKeys(&k, "joker", p, h, clubs)
		dataFile := "data/joker-" + p + ".js"
		keepData := s.out.kept(dataFile, data)
		if keepData && s.out.kept(jokerFile(p), page) {
			continue
		}
		rows, err := readJokerList(path)
		if err != nil {
			return n, err
		}
		if err := s.writeJokerList(p, rows, !keepData, data, page); err != nil {
			return n, err
		}
	}
	return n, nil
}

// readRatingList reads the rating list of period i (the latest is held).
func (s *site) readRatingList(i int) ([]listRow, error) {
	if i == len(s.periods)-1 {
		return s.latest, nil
	}
	return readList(outPath(s.opt.Out, "lists", s.periods[i]+".csv"))
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

// listKeys returns the keys of a list's data file and page: the list file's
// hash and the clubs, and for the page also its links (listNav), whether it
// is provisional and the period's tournaments.
func (s *site) listKeys(k *keyer, kind, period string, file, clubs uint64) (data, page uint64) {
	k.ints(int64(s.key), int64(file), int64(clubs))
	k.str(kind)
	k.str(period)
	data = k.sum()
	k.ints(int64(data))
	k.str(s.listFile(period))
	nav := navOf(s.jperiods, period, jokerFile)
	if kind == "rating" {
		nav = navOf(s.periods, period, s.listFile)
	}
	nav.key(k)
	if period == s.sum.Provisional {
		k.str("provisional")
	}
	if kind == "rating" {
		for _, t := range s.periodTours[period] {
			k.tourFacts(t)
		}
	}
	return data, k.sum()
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

// numberClubs numbers the archive's clubs in sorted order, for clubIndex.
func (s *site) numberClubs() {
	if s.arch == nil {
		return
	}
	club := s.arch.Players.Club
	set := map[string]bool{}
	for _, c := range club {
		if c != "" {
			set[c] = true
		}
	}
	s.clubs = make([]string, 0, len(set))
	for c := range set {
		s.clubs = append(s.clubs, c)
	}
	sort.Strings(s.clubs)
	s.clubNo = make([]int32, len(club))
	for i, c := range club {
		s.clubNo[i] = -1
		if c != "" {
			s.clubNo[i] = int32(sort.SearchStrings(s.clubs, c))
		}
	}
}

// clubIndex returns the sorted clubs of ids and each id's position in it.
func (s *site) clubIndex(ids []int64) ([]string, []int) {
	pos := make([]int, len(ids))
	used := make([]int, len(s.clubs)) // 1 for a club of ids, then its position
	for i, id := range ids {
		pos[i] = -1
		if s.arch == nil {
			continue
		}
		if j := s.arch.Players.Index(id); j >= 0 && s.clubNo[j] >= 0 {
			pos[i] = int(s.clubNo[j])
			used[pos[i]] = 1
		}
	}
	var clubs []string
	for c, u := range used {
		if u != 0 {
			used[c] = len(clubs)
			clubs = append(clubs, s.clubs[c])
		}
	}
	for i, c := range pos {
		if c >= 0 {
			pos[i] = used[c]
		}
	}
	return clubs, pos
}

// listCols are the columns of a list's data file, by kind.
var listCols = map[string][]string{
	"rating": {"rank", "player_id", "name", "rating", "change", "games_period", "games_total", "k", "category", "flags", "club"},
	"joker":  {"rank", "player_id", "name", "player_rating", "level", "level_name", "personal_rating", "games_total", "club"},
}

func (s *site) writeRatingList(period string, rows []listRow, withData bool, dataKey, pageKey uint64) error {
	ids := make([]int64, len(rows))
	ratings := make([]int, len(rows))
	cats := map[string]bool{}
	for i, r := range rows {
		ids[i] = r.ID
		ratings[i] = r.Rating
		if r.Category != "" {
			cats[r.Category] = true
		}
	}
	clubs, pos := s.clubIndex(ids)
	dataFile := "data/list-" + period + ".js"
	if withData {
		if err := s.out.put(dataFile, ratingData(rows, clubs, pos), dataKey); err != nil {
			return err
		}
	}
	lp := listPage{page: s.page("Rating list "+period, "", "list"), Kind: "rating", Period: period,
		Rules: s.sum.Rules, Count: len(rows), DataFile: dataFile, Clubs: clubs, ToursFile: tourListFile(period)}
	for c := range cats {
		lp.Categories = append(lp.Categories, c)
	}
	sort.Strings(lp.Categories)
	lp.Links = navOf(s.periods, period, s.listFile)
	lp.Provisional = period == s.sum.Provisional
	if i := slices.Index(s.periods, period); i > 0 {
		lp.Prev, lp.ChangesFile = s.periods[i-1], changesFile(period)
	}
	lp.Shown = min(len(rows), PageSize)
	lp.Rows = rows[:lp.Shown]
	lp.Clubs0 = map[int64]string{}
	for _, r := range lp.Rows {
		lp.Clubs0[r.ID] = s.club(r.ID)
	}
	lp.HistAlt = fmt.Sprintf("Histogram of the ratings of the %d listed players, %s, in steps of 50 points", len(rows), period)
	hist, _, err := histogram(lp.HistAlt, ratings, 50)
	if err != nil {
		return err
	}
	lp.Histogram = hist
	lp.Gains = topGains(rows, 10)
	lp.ToursCount = len(s.periodTours[period])
	if lp.ToursCount <= maxListTours {
		lp.Tours = s.periodTours[period]
	}
	return s.putPage(s.listFile(period), "list.html", &lp, pageKey)
}

// topGains returns the n largest gains of rows, ties by rank, then in the
// order of rows.
func topGains(rows []listRow, n int) []listRow {
	top := make([]listRow, 0, n+1)
	for _, r := range rows {
		if r.Change <= 0 {
			continue
		}
		i := len(top)
		for i > 0 && (top[i-1].Change < r.Change || top[i-1].Change == r.Change && top[i-1].Rank > r.Rank) {
			i--
		}
		if i < n {
			top = slices.Insert(top, i, r)[:min(len(top)+1, n)]
		}
	}
	return top
}

// ratingData is a rating list's data file.
func ratingData(rows []listRow, clubs []string, pos []int) []byte {
	b := listDataHead(make([]byte, 0, 64*len(rows)), "rating", clubs)
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendInts(b, int64(r.Rank), r.ID)
		b = append(b, ',')
		b = appendJSONString(b, r.Name)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(r.Rating), 10)
		if r.NoChange {
			b = append(b, ",null,"...)
		} else {
			b = strconv.AppendInt(append(b, ','), int64(r.Change), 10)
			b = append(b, ',')
		}
		b = appendInts(b, int64(r.GamesPeriod), int64(r.GamesTotal), int64(r.K))
		b = append(b, ',')
		b = appendJSONString(b, r.Category)
		b = append(b, ',')
		b = appendJSONString(b, r.Flags)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(pos[i]), 10)
		b = append(b, ']')
	}
	return append(b, "]};\n"...)
}

func (s *site) writeJokerList(period string, rows []jokerRow, withData bool, dataKey, pageKey uint64) error {
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	clubs, pos := s.clubIndex(ids)
	dataFile := "data/joker-" + period + ".js"
	if withData {
		if err := s.out.put(dataFile, jokerData(rows, clubs, pos), dataKey); err != nil {
			return err
		}
	}
	lp := listPage{page: s.page("Joker list "+period, "", "joker"), Kind: "joker", Period: period,
		Count: len(rows), DataFile: dataFile, Clubs: clubs}
	lp.Links = navOf(s.jperiods, period, jokerFile)
	lp.Provisional = period == s.sum.Provisional
	lp.Shown = min(len(rows), PageSize)
	lp.JokerRows = rows[:lp.Shown]
	lp.Clubs0 = map[int64]string{}
	for _, r := range lp.JokerRows {
		lp.Clubs0[r.ID] = s.club(r.ID)
	}
	return s.putPage(jokerFile(period), "list.html", &lp, pageKey)
}

// jokerData is a Joker list's data file.
func jokerData(rows []jokerRow, clubs []string, pos []int) []byte {
	b := listDataHead(make([]byte, 0, 64*len(rows)), "joker", clubs)
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendInts(b, int64(r.Rank), r.ID)
		b = append(b, ',')
		b = appendJSONString(b, r.Name)
		b = append(b, ',')
		b = appendInts(b, int64(r.PlayerRating), int64(r.Level))
		b = append(b, ',')
		b = appendJSONString(b, r.LevelName)
		b = append(b, ',')
		b = appendInts(b, int64(r.PersonalRating), int64(r.GamesTotal), int64(pos[i]))
		b = append(b, ']')
	}
	return append(b, "]};\n"...)
}

// listDataHead starts a list's data file: a script that sets
// window.RATELIST_LIST to the list as compact JSON, so that pages opened from
// file:// can load it with a <script> element.
func listDataHead(b []byte, kind string, clubs []string) []byte {
	b = append(b, `window.RATELIST_LIST={"kind":"`...)
	b = append(b, kind...)
	b = append(b, `","cols":[`...)
	for i, c := range listCols[kind] {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, c)
	}
	b = append(b, `],"clubs":[`...)
	for i, c := range clubs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, c)
	}
	return append(b, `],"rows":[`...)
}

// tourIndexPage is tournaments.html (Periods) or tournaments-PERIOD.html (Groups).
type tourIndexPage struct {
	page
	Periods []tourPeriod
	Groups  []tourGroup
}

type tourPeriod struct {
	Period, File string
	Count        int
}

type tourGroup struct {
	Period string
	Tours  []*tourInfo
}

// writeTournamentIndex writes tournaments.html, the periods newest first, and
// one page per period with its tournaments; each page's key is what it lists.
func (s *site) writeTournamentIndex() error {
	// A tournament's period is its list's, which under per-period rules can
	// come after a later tournament's: the periods' groups, newest first.
	groups := make([]tourGroup, 0, len(s.periodTours))
	for period, ts := range s.periodTours {
		g := tourGroup{Period: period, Tours: slices.Clone(ts)}
		slices.Reverse(g.Tours)
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool { // each period once: a total order
		a, b := groups[i].Period, groups[j].Period
		if (a == "") != (b == "") {
			return b == ""
		}
		return a > b
	})
	idx := tourIndexPage{page: s.page("Tournaments", "", "tournaments")}
	var k, ik keyer
	ik.ints(int64(s.key))
	for _, g := range groups {
		f := tourListFile(g.Period)
		idx.Periods = append(idx.Periods, tourPeriod{Period: g.Period, File: f, Count: len(g.Tours)})
		ik.str(g.Period)
		ik.str(f)
		ik.ints(int64(len(g.Tours)))
		k.ints(int64(s.key))
		k.str(f)
		for _, t := range g.Tours {
			k.tourFacts(t)
		}
		key := k.sum()
		if s.out.kept(f, key) {
			continue
		}
		label := g.Period
		if label == "" {
			label = "undated"
		}
		tp := tourIndexPage{page: s.page("Tournaments "+label, "", "tournaments"), Groups: []tourGroup{g}}
		if err := s.putPage(f, "tournaments.html", &tp, key); err != nil {
			return err
		}
	}
	key := ik.sum()
	if s.out.kept("tournaments.html", key) {
		return nil
	}
	return s.putPage("tournaments.html", "tournaments.html", &idx, key)
}

// listIndexPage is lists.html (Years) or lists-YEAR.html (Rating, Joker).
type listIndexPage struct {
	page
	Years         []listYearLink
	Rating, Joker []periodLink
	Year          string
	Provisional   string
}

type listYearLink struct {
	Year, File    string
	Rating, Joker int
}

// writeListIndex writes lists.html, the years newest first, and one page per
// year with its rating and Joker lists: every list is linked from one page,
// and each page's key is what it links.
func (s *site) writeListIndex() error {
	byYear := map[string]*listIndexPage{}
	var years []string
	at := func(period string) *listIndexPage {
		y := listYear(period)
		if byYear[y] == nil {
			byYear[y] = &listIndexPage{page: s.page("Lists of "+y, "", "lists"), Year: y, Provisional: s.sum.Provisional}
			years = append(years, y)
		}
		return byYear[y]
	}
	for i := len(s.periods) - 1; i >= 0; i-- {
		p := at(s.periods[i])
		p.Rating = append(p.Rating, periodLink{s.periods[i], s.listFile(s.periods[i])})
	}
	for i := len(s.jperiods) - 1; i >= 0; i-- {
		p := at(s.jperiods[i])
		p.Joker = append(p.Joker, periodLink{s.jperiods[i], jokerFile(s.jperiods[i])})
	}
	sort.Sort(sort.Reverse(sort.StringSlice(years)))
	idx := listIndexPage{page: s.page("All lists", "", "lists")}
	var ik keyer
	ik.ints(int64(s.key))
	for _, y := range years {
		p := byYear[y]
		l := listYearLink{Year: y, File: yearFile(y), Rating: len(p.Rating), Joker: len(p.Joker)}
		idx.Years = append(idx.Years, l)
		ik.str(l.File)
		ik.ints(int64(l.Rating), int64(l.Joker))
		var k keyer
		k.ints(int64(s.key))
		k.str(l.File)
		k.str(p.Provisional)
		for _, ls := range [][]periodLink{p.Rating, p.Joker} {
			k.ints(int64(len(ls)))
			for _, pl := range ls {
				k.str(pl.Period)
				k.str(pl.File)
			}
		}
		if key := k.sum(); !s.out.kept(l.File, key) {
			if err := s.putPage(l.File, "lists.html", p, key); err != nil {
				return err
			}
		}
	}
	if key := ik.sum(); !s.out.kept("lists.html", key) {
		return s.putPage("lists.html", "lists.html", &idx, key)
	}
	return nil
}
