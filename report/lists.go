package report

import (
	"context"
	"fmt"
	"html/template"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/output"
)

// listFile is the page of a list period; the latest rating list is index.html.
func (s *site) listFile(period string) string {
	if n := len(s.periods); n > 0 && period == s.periods[n-1] {
		return "index.html"
	}
	return "list-" + period + ".html"
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
		path := output.ListCSV.Path(s.opt.Out, p)
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
		path := output.JokerListCSV.Path(s.opt.Out, p)
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
	return readList(output.ListCSV.Path(s.opt.Out, s.periods[i]))
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
