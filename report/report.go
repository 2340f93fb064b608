package report

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
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
}

// PageSize is the number of list rows per page of the list table.
const PageSize = 100

// marker is the file that marks a folder as a site written by Build.
const marker = ".ratelist-site"

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets/*
var assetFS embed.FS

var pages = template.Must(template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html"))

// site is everything the pages are made from.
type site struct {
	opt      Options
	title    string
	sum      *summary
	periods  []string // rating lists, sorted
	jperiods []string // Joker lists, sorted
	latest   []listRow
	listed   map[int64]*listRow // latest list by player

	cards    []card
	byPlayer map[int64][]int32 // card indexes in rating order
	byTP     []int32           // card indexes sorted by (tournament, player)

	arch      *archive.Archive
	tours     map[int64]*tourInfo
	torder    []int64 // tournaments by end date, start date, id
	standings map[int64]*standings

	joker      map[int64][]jokerHist
	jokerCards map[int64][]jokerCard

	players []int64 // every player with a page, sorted
	names   map[int64]string
}

// tourInfo is one tournament: the archive row, its pairings and its standings.
type tourInfo struct {
	ID         int64
	Name       string
	Start, End int32
	System     string
	Rounds     int
	Discipline string
	Rated      bool
	Period     string
	Pairings   *tiebreak.Tournament
	byPlayer   map[int64][]int32 // player id → indexes into Pairings.Games
}

// jokerHist is one player's row in one Joker list.
type jokerHist struct {
	Period string
	jokerRow
}

// Build turns the outputs of a run in opt.Out into a static site in opt.Site.
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
	if err := s.load(ctx); err != nil {
		return nil, err
	}
	tmp, err := prepareSite(opt.Site)
	if err != nil {
		return nil, err
	}
	st, err := s.write(ctx, tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if err := swapSite(tmp, opt.Site); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	st.Site = opt.Site
	return st, nil
}

// prepareSite checks that dir may be (re)placed and returns a fresh folder
// beside it to build in.
func prepareSite(dir string) (string, error) {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return "", fmt.Errorf("site: %w", err)
	case len(ents) > 0 && !exists(filepath.Join(dir, marker)):
		return "", fmt.Errorf("site %s: folder is not empty and not a ratelist site; refusing to replace it", dir)
	}
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

// swapSite moves the finished site in tmp to dir, replacing an earlier site.
func swapSite(tmp, dir string) error {
	if exists(dir) {
		old := tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("site: %w", err)
		}
		defer os.RemoveAll(old)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("site: %w", err)
	}
	return nil
}

// load reads the run's outputs and the archive.
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
	s.names = map[int64]string{}
	s.listed = map[int64]*listRow{}
	if n := len(s.periods); n > 0 {
		if s.latest, err = readList(outPath(out, "lists", s.periods[n-1]+".csv")); err != nil {
			return err
		}
		for i := range s.latest {
			r := &s.latest[i]
			s.listed[r.ID] = r
			s.names[r.ID] = r.Name
		}
	}
	if p := outPath(out, "cards.parquet"); exists(p) {
		if s.cards, err = readCards(p); err != nil {
			return err
		}
	}
	s.byPlayer = map[int64][]int32{}
	s.byTP = make([]int32, len(s.cards))
	for i := range s.cards {
		c := &s.cards[i]
		s.byPlayer[c.PlayerID] = append(s.byPlayer[c.PlayerID], int32(i))
		s.byTP[i] = int32(i)
		if _, ok := s.names[c.PlayerID]; !ok {
			s.names[c.PlayerID] = c.Name
		}
	}
	sort.SliceStable(s.byTP, func(i, j int) bool {
		a, b := &s.cards[s.byTP[i]], &s.cards[s.byTP[j]]
		if a.TournamentID != b.TournamentID {
			return a.TournamentID < b.TournamentID
		}
		return a.PlayerID < b.PlayerID
	})
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
	if err := s.loadTournaments(ctx); err != nil {
		return err
	}
	s.players = make([]int64, 0, len(s.names))
	for id := range s.names {
		s.players = append(s.players, id)
	}
	sort.Slice(s.players, func(i, j int) bool { return s.players[i] < s.players[j] })
	return nil
}

// loadTournaments collects the tournaments from the archive and standings/.
func (s *site) loadTournaments(ctx context.Context) error {
	s.tours = map[int64]*tourInfo{}
	if s.opt.Archive != nil {
		a, err := pipeline.LoadArchive(ctx, s.opt.Archive)
		if err != nil {
			return fmt.Errorf("archive: %w", err)
		}
		s.arch = a
		for _, t := range a.Tournaments {
			s.tours[t.ID] = &tourInfo{ID: t.ID, Name: t.Name, Start: t.Start, End: t.End, System: t.System,
				Rounds: int(t.Rounds), Discipline: t.Discipline, Rated: t.Rated}
		}
		err = pipeline.ForEachTournamentFS(ctx, s.opt.Archive, func(t *tiebreak.Tournament) error {
			ti := s.tours[t.ID]
			if ti == nil {
				return nil
			}
			ti.Pairings = t
			ti.byPlayer = make(map[int64][]int32, len(t.Players))
			for gi, g := range t.Games {
				for _, p := range []int{g.White, g.Black} {
					if p >= 0 {
						id := t.Players[p].ID
						ti.byPlayer[id] = append(ti.byPlayer[id], int32(gi))
					}
				}
			}
			if ti.Rounds == 0 {
				ti.Rounds = t.Rounds
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("archive: %w", err)
		}
	}
	// Tournaments known only from their standings or their cards.
	st, err := readStandings(outPath(s.opt.Out, "standings"))
	if err != nil {
		return err
	}
	s.standings = st
	for id := range st {
		if s.tours[id] == nil {
			s.tours[id] = &tourInfo{ID: id, Name: fmt.Sprintf("Tournament %d", id)}
		}
	}
	for i := range s.cards {
		c := &s.cards[i]
		if c.TournamentID == 0 {
			continue
		}
		t := s.tours[c.TournamentID]
		if t == nil {
			t = &tourInfo{ID: c.TournamentID, Name: fmt.Sprintf("Tournament %d", c.TournamentID), End: c.EndDate, Start: c.EndDate}
			s.tours[c.TournamentID] = t
		}
		t.Rated = true
		t.Period = c.Period
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
	i := sort.Search(len(s.byTP), func(i int) bool {
		c := &s.cards[s.byTP[i]]
		return c.TournamentID > t || (c.TournamentID == t && c.PlayerID >= p)
	})
	if i < len(s.byTP) {
		if c := &s.cards[s.byTP[i]]; c.TournamentID == t && c.PlayerID == p {
			return c
		}
	}
	return nil
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

// write writes every file of the site into dir.
func (s *site) write(ctx context.Context, dir string) (*Stats, error) {
	st := &Stats{}
	for _, d := range []string{"assets", "data", "players", "tournaments"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, marker), []byte("written by ratelist report\n"), 0o644); err != nil {
		return nil, err
	}
	err := fs.WalkDir(assetFS, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := assetFS.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), b, 0o644)
	})
	if err != nil {
		return nil, err
	}
	n, err := s.writeLists(ctx, dir)
	if err != nil {
		return nil, err
	}
	st.Lists = n
	if err := s.writeTournamentIndex(dir); err != nil {
		return nil, err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.opt.Workers)
	for _, id := range s.torder {
		if gctx.Err() != nil {
			break
		}
		t := s.tours[id]
		g.Go(func() error { return s.writeTournament(dir, t) })
	}
	for _, id := range s.players {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error { return s.writePlayer(dir, id) })
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st.Tournaments = len(s.torder)
	st.Players = len(s.players)
	s.opt.Log.Info("report written", "site", s.opt.Site, "players", st.Players, "tournaments", st.Tournaments, "lists", st.Lists)
	return st, nil
}

// writeFile writes dir/rel through a buffer filled by fn.
func writeFile(dir, rel string, fn func(w io.Writer) error) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	if err := fn(w); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return f.Close()
}

func writePage(dir, rel, name string, data any) error {
	return writeFile(dir, rel, func(w io.Writer) error { return pages.ExecuteTemplate(w, name, data) })
}

// page is what every page template gets.
type page struct {
	Site   string // site title
	Title  string // page title
	Root   string // relative path to the site root: "" or "../"
	Nav    string // active navigation entry
	Latest string // latest list period
}

func (s *site) page(title, root, nav string) page {
	p := page{Site: s.title, Title: title, Root: root, Nav: nav}
	if n := len(s.periods); n > 0 {
		p.Latest = s.periods[n-1]
	}
	return p
}

// listFile is the page of a list period; the latest rating list is index.html.
func (s *site) listFile(period string) string {
	if n := len(s.periods); n > 0 && period == s.periods[n-1] {
		return "index.html"
	}
	return "list-" + period + ".html"
}

// listData is the compact JSON of a list, loaded by assets/list.js.
type listData struct {
	Kind  string   `json:"kind"` // "rating" or "joker"
	Cols  []string `json:"cols"`
	Clubs []string `json:"clubs"`
	Rows  [][]any  `json:"rows"`
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
	Rows       []listRow
	JokerRows  []jokerRow
	Clubs      []string
	Categories []string
	Earlier    []periodLink
	Joker      []periodLink
	Clubs0     map[int64]string
}

type periodLink struct {
	Period, File string
	Current      bool
}

func (s *site) periodLinks(cur string) (rating, joker []periodLink) {
	for i := len(s.periods) - 1; i >= 0; i-- {
		p := s.periods[i]
		rating = append(rating, periodLink{Period: p, File: s.listFile(p), Current: p == cur})
	}
	for i := len(s.jperiods) - 1; i >= 0; i-- {
		p := s.jperiods[i]
		joker = append(joker, periodLink{Period: p, File: "joker-" + p + ".html", Current: "joker-"+p == cur})
	}
	return rating, joker
}

func (s *site) writeLists(ctx context.Context, dir string) (int, error) {
	n := 0
	for i, p := range s.periods {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		rows := s.latest
		if i != len(s.periods)-1 {
			var err error
			if rows, err = readList(outPath(s.opt.Out, "lists", p+".csv")); err != nil {
				return n, err
			}
		}
		if err := s.writeRatingList(dir, p, rows); err != nil {
			return n, err
		}
		n++
	}
	for _, p := range s.jperiods {
		rows, err := readJokerList(outPath(s.opt.Out, "lists", "joker", p+".csv"))
		if err != nil {
			return n, err
		}
		if err := s.writeJokerList(dir, p, rows); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// clubIndex returns the sorted clubs of ids and each id's position in it.
func (s *site) clubIndex(ids []int64) ([]string, []int) {
	set := map[string]bool{}
	for _, id := range ids {
		if c := s.club(id); c != "" {
			set[c] = true
		}
	}
	clubs := make([]string, 0, len(set))
	for c := range set {
		clubs = append(clubs, c)
	}
	sort.Strings(clubs)
	pos := make([]int, len(ids))
	for i, id := range ids {
		pos[i] = -1
		if c := s.club(id); c != "" {
			pos[i] = sort.SearchStrings(clubs, c)
		}
	}
	return clubs, pos
}

func (s *site) writeRatingList(dir, period string, rows []listRow) error {
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
	data := listData{Kind: "rating", Clubs: clubs,
		Cols: []string{"rank", "player_id", "name", "rating", "change", "games_period", "games_total", "k", "category", "flags", "club"}}
	data.Rows = make([][]any, len(rows))
	for i, r := range rows {
		data.Rows[i] = []any{r.Rank, r.ID, r.Name, r.Rating, r.Change, r.GamesPeriod, r.GamesTotal, r.K, r.Category, r.Flags, pos[i]}
	}
	dataFile := "data/list-" + period + ".js"
	if err := writeData(dir, dataFile, &data); err != nil {
		return err
	}
	lp := listPage{page: s.page("Rating list "+period, "", "list"), Kind: "rating", Period: period,
		Rules: s.sum.Rules, Count: len(rows), DataFile: dataFile, Clubs: clubs}
	for c := range cats {
		lp.Categories = append(lp.Categories, c)
	}
	sort.Strings(lp.Categories)
	lp.Earlier, lp.Joker = s.periodLinks(period)
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
	gains := make([]listRow, 0, 10)
	for _, r := range rows {
		if r.Change > 0 {
			gains = append(gains, r)
		}
	}
	sort.SliceStable(gains, func(i, j int) bool {
		if gains[i].Change != gains[j].Change {
			return gains[i].Change > gains[j].Change
		}
		return gains[i].Rank < gains[j].Rank
	})
	lp.Gains = gains[:min(len(gains), 10)]
	for _, id := range s.torder {
		if t := s.tours[id]; t.Period == period {
			lp.Tours = append(lp.Tours, t)
		}
	}
	return writePage(dir, s.listFile(period), "list.html", &lp)
}

func (s *site) writeJokerList(dir, period string, rows []jokerRow) error {
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	clubs, pos := s.clubIndex(ids)
	data := listData{Kind: "joker", Clubs: clubs,
		Cols: []string{"rank", "player_id", "name", "player_rating", "level", "level_name", "personal_rating", "games_total", "club"}}
	data.Rows = make([][]any, len(rows))
	for i, r := range rows {
		data.Rows[i] = []any{r.Rank, r.ID, r.Name, r.PlayerRating, r.Level, r.LevelName, r.PersonalRating, r.GamesTotal, pos[i]}
	}
	dataFile := "data/joker-" + period + ".js"
	if err := writeData(dir, dataFile, &data); err != nil {
		return err
	}
	lp := listPage{page: s.page("Joker list "+period, "", "joker"), Kind: "joker", Period: period,
		Count: len(rows), DataFile: dataFile, Clubs: clubs}
	lp.Earlier, lp.Joker = s.periodLinks("joker-" + period)
	lp.Shown = min(len(rows), PageSize)
	lp.JokerRows = rows[:lp.Shown]
	lp.Clubs0 = map[int64]string{}
	for _, r := range lp.JokerRows {
		lp.Clubs0[r.ID] = s.club(r.ID)
	}
	return writePage(dir, "joker-"+period+".html", "list.html", &lp)
}

// writeData writes a list as a script that sets window.RATELIST_LIST, so that
// pages opened from file:// can load it with a <script> element.
func writeData(dir, rel string, d *listData) error {
	return writeFile(dir, rel, func(w io.Writer) error {
		b, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, "window.RATELIST_LIST="); err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		_, err = io.WriteString(w, ";\n")
		return err
	})
}

// tourIndexPage is tournaments.html.
type tourIndexPage struct {
	page
	Groups []tourGroup
}

type tourGroup struct {
	Period string
	Tours  []*tourInfo
}

func (s *site) writeTournamentIndex(dir string) error {
	tp := tourIndexPage{page: s.page("Tournaments", "", "tournaments")}
	for i := len(s.torder) - 1; i >= 0; i-- {
		t := s.tours[s.torder[i]]
		if n := len(tp.Groups); n == 0 || tp.Groups[n-1].Period != t.Period {
			tp.Groups = append(tp.Groups, tourGroup{Period: t.Period})
		}
		g := &tp.Groups[len(tp.Groups)-1]
		g.Tours = append(g.Tours, t)
	}
	return writePage(dir, "tournaments.html", "tournaments.html", &tp)
}
