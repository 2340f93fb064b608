package report

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
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
	Lists       int // list pages (rating and table rule sets')
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

// site is everything the pages are made from, in four groups: the run's
// lists, its cards, the tournaments and the players with a page. The pairings
// are not held: each tournament's page is written as the archive hands it over.
type site struct {
	opt   Options
	title string
	key   uint64           // siteKey
	arch  *archive.Archive // nil without the archive
	out   *sink
	teams teamSite // the team competitions (teams.go)

	runLists
	cardIndex
	tourIndex
	playerIndex
}

// runLists are the run's summary and lists.
type runLists struct {
	sum     *summary
	periods []string // rating lists, sorted
	latest  []listRow
	added   []rating.Column // the rating lists' columns after flags, the rule set's own
	listed  map[int64]int32 // latest list by player: index into latest
	before  struct {        // the list before the latest, read once (readRatingList)
		once sync.Once
		rows []listRow
		err  error
	}
	tables []*tableSet // every registered table rule set's lists and cards
}

// cardIndex is cards.parquet and its two orders.
type cardIndex struct {
	cs       *cardSet
	byPlayer []int32 // card indexes by player, each player's in rating order
	byTP     []int32 // card indexes sorted by (tournament, player)
	// pidx and pstart, when the cards are bucketed by the archive's players,
	// say where each player's cards start in byPlayer, by dense index.
	pidx   *archive.Players
	pstart []int32
	// belowFloor is, by player, the periods of his cards that left him below
	// the rating floor (a reason for leaving the list).
	belowFloor map[int64][]string
}

// tourIndex is every tournament of the archive, the standings and the cards,
// and where its standings are.
type tourIndex struct {
	tours       map[int64]*tourInfo
	torder      []int64                // tournaments by end date, start date, id
	tourAt      []*tourInfo            // the archive's tournaments, by position
	tourNames   []uint64               // their nameKey's, by position: a player's key asks one per card
	periodTours map[string][]*tourInfo // in torder
	stFile      map[int64]string       // each tournament's standings file, by label
	stHash      map[string]uint64      // each standings file's content hash, by label
	stPlayers   map[int64]uint64       // a hash of each tournament's standings players
}

// playerIndex is who has a page.
type playerIndex struct {
	players []int64 // every player with a page, sorted
	names   map[int64]string
	// paged says, by the archive's dense index, whether a player has a page
	// (names has him): a games table asks for every row's two players.
	paged []bool
	// nameKeys are, by the archive's dense index, nameKey's: a games table's
	// rows and a tournament's cards are many, their players few.
	nameKeys []uint64
	stKeys   []uint64 // standingsKey's, by the archive's dense index
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
	// Paired says that the tournament's pairings were read and its page
	// written with its games.
	Paired bool
	// Reported says that the tournament has a rating report
	// (markRatingReports).
	Reported bool
	// nameKey is a hash of Name, for the keys of the player pages that show it.
	nameKey uint64
}

// Build turns the outputs of a run in opt.Out into a static site in opt.Site.
// Over an earlier site it rewrites only the files whose content changed.
func Build(ctx context.Context, opt Options) (*Stats, error) {
	if opt.Site == "" {
		opt.Site = output.Site.Path(opt.Out, "")
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

// write writes every file of the site into dir, over the site there if update.
func (s *site) write(ctx context.Context, dir string, update bool, man <-chan manifest) (*Stats, error) {
	k, err := openSink(dir, update, man)
	if err != nil {
		return nil, err
	}
	s.out = k
	st := &Stats{}
	if err := writeAssets(k); err != nil {
		return nil, err
	}
	if err := s.writeHelp(); err != nil {
		return nil, err
	}
	if err := s.loadTeams(ctx); err != nil {
		return nil, err
	}
	if err := s.writeTeams(); err != nil {
		return nil, err
	}
	// The lists, the top lists, the tournaments and the players are made at
	// the same time: each of the first three is mostly one goroutine's
	// reading. Rating the archive again, for tournaments whose pairings
	// were not held, waits for the others: it needs the memory.
	g, gctx := errgroup.WithContext(ctx)
	var others sync.WaitGroup
	others.Add(3)
	g.Go(func() (err error) {
		defer others.Done()
		st.Lists, err = s.writeLists(gctx)
		return err
	})
	g.Go(func() error {
		defer others.Done()
		return s.writeTopLists()
	})
	g.Go(func() error {
		defer others.Done()
		return s.writePlayers(gctx)
	})
	g.Go(func() (err error) {
		norms, err := s.writeNorms()
		if err != nil {
			return err
		}
		if err := s.writeTournamentIndex(norms); err != nil {
			return err
		}
		st.Rerated, err = s.writeTournaments(gctx, func() {
			others.Wait()
			s.before.rows = nil // only the lists and top lists read it: its memory is the rating's
		})
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
