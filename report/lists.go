package report

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// listFile is the page of a list period; the latest rating list is index.html.
func (s *site) listFile(period string) string {
	if n := len(s.periods); n > 0 && period == s.periods[n-1] {
		return "index.html"
	}
	return "list-" + period + ".html"
}

// listPage is the data of a list page (index.html, list-*.html, and a
// table rule set's NAME-*.html).
type listPage struct {
	page
	Kind   string
	Period string
	Rules  string
	Count  int
	// Table is the list's table and its legend.
	Table      template.HTML
	Histogram  template.HTML
	HistAlt    string
	Gains      []listRow
	Tours      []*tourInfo
	ToursCount int
	ToursFile  string
	Clubs      []string
	Categories []string
	Links      listNav
	// Provisional says that the list is of a period still open on the run's
	// date: not final.
	Provisional bool
	// Set is a table rule set's list's rule set (its title), RankedBy the
	// column that ranks it, lower case.
	Set, RankedBy string
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
		page := s.listKey(&k, "rating", p, h, clubs, navOf(s.periods, p, s.listFile))
		keepPage := s.out.kept(s.listFile(p), page)
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
			if err := s.writeRatingList(p, rows, page); err != nil {
				return n, err
			}
		}
		if err := s.copyListCSV(&k, p, path, h); err != nil {
			return n, err
		}
		spare = prevEntries // list i-1's buffer is free for list i+1
		prev, prevHash, prevEntries, entries = rows, h, entries, nil
	}
	if err := s.writeListIndex(); err != nil {
		return n, err
	}
	for _, t := range s.tables {
		for _, p := range t.periods {
			n++
			path := tableListFile(t.def).Path(s.opt.Out, p)
			h, err := fileHash(path)
			if err != nil {
				return n, err
			}
			page := s.listKey(&k, t.def.Name, p, h, clubs, navOf(t.periods, p, t.file))
			if s.out.kept(t.file(p), page) {
				continue
			}
			head, recs, idAt, err := readTableList(path)
			if err != nil {
				return n, err
			}
			if err := s.writeTableList(t, p, head, recs, idAt, page); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// listCSV is the site's copy of a rating list's CSV file, gzip-compressed,
// beside its page: the whole list of an earlier period, whose page shows its
// top rows only. Compressed, a list of 200,000 players takes about 2.5 MB
// instead of 10.
func listCSV(period string) string { return "list-" + period + ".csv.gz" }

// earlierListRows is the number of rows an earlier list's page shows; its CSV
// file has them all. The latest list's page shows every row.
const earlierListRows = 1000

// shownRows is the number of a list's n rows its page shows: all on the
// latest list's page, the top earlierListRows on an earlier one's.
func shownRows(latest bool, n int) int {
	if latest {
		return n
	}
	return min(n, earlierListRows)
}

// copyListCSV copies the list file path (hash h) of period into the site,
// compressed, unless the site has it.
func (s *site) copyListCSV(k *keyer, period, path string, h uint64) error {
	k.ints(int64(s.key), int64(h))
	k.str(listCSV(period))
	key := k.sum()
	if s.out.kept(listCSV(period), key) {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("copy list %s: %w", period, err)
	}
	z, err := gzipped(filepath.Base(path), b)
	if err != nil {
		return fmt.Errorf("copy list %s: %w", period, err)
	}
	return s.out.put(listCSV(period), z, key)
}

// gzipped returns b gzip-compressed as the file name, without a time: the
// same bytes give the same file. klauspost's level 6 is a seventh of the
// standard library's best level's time for downloads a few percent larger.
func gzipped(name string, b []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, 6)
	if err != nil {
		return nil, err
	}
	w.Name = name
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readRatingList reads the rating list of period i (the latest is held;
// the one before it, which the top lists and the lists both read, is read
// once). The rows are shared: not to be changed.
func (s *site) readRatingList(i int) ([]listRow, error) {
	switch n := len(s.periods); i {
	case n - 1:
		return s.latest, nil
	case n - 2:
		b := &s.before
		b.once.Do(func() { b.rows, b.err = readList(output.ListCSV.Path(s.opt.Out, s.periods[i])) })
		return b.rows, b.err
	}
	return readList(output.ListCSV.Path(s.opt.Out, s.periods[i]))
}

// ratingCols are a rating list's columns; listTable fills them.
var ratingCols = []col{
	{head: "Rank", key: "rank"},
	{head: "Name", key: "name", text: true},
	{head: "Club", key: "club", text: true, extra: true},
	{head: "Rating", key: "rating", bold: true},
	{head: "Change", key: "change", title: "rating change since the list before"},
	{head: "Games", key: "games_period", title: "rated games this period", extra: true},
	{head: "Total", key: "games_total", title: "rated games in all", extra: true},
	{head: "K", key: "k", extra: true},
	{head: "Cat.", key: "category", title: "category", extra: true},
	{head: "Flags", key: "flags", text: true, extra: true},
}

// ratingShape is what a rating list's table has beyond ratingCols' fixed
// columns: K or not, and how many columns of the rule set's own.
type ratingShape struct {
	noK   bool // a rule set without K: no K column
	added int
}

// ratingShape is the shape of the run's lists: without K when its rule set
// declares none (rating.Columns.NoK; the site's key holds the rule set).
func (s *site) ratingShape() ratingShape {
	def, ok := rating.Lookup(s.sum.Rules)
	return ratingShape{noK: ok && def.Columns.NoK, added: len(s.added)}
}

// ratingCols are ratingCols (without K for a rule set without it) and the
// rule set's own columns after them, extra on a phone.
func (s *site) ratingCols(sh ratingShape) []col {
	cols := slices.Clip(ratingCols)
	if sh.noK {
		cols = slices.DeleteFunc(slices.Clone(cols), func(c col) bool { return c.key == "k" })
	}
	for _, c := range s.added {
		h := c.Title
		if h == "" {
			h = c.Name
		}
		cols = append(cols, col{head: appendEscString(h), key: c.Name, text: c.Type == rating.String, extra: true})
	}
	return cols
}

// listTableID is the id of a list page's table, which assets/list.js sorts,
// filters and pages.
const listTableID = "list"

func (s *site) writeRatingList(period string, rows []listRow, pageKey uint64) error {
	ratings := make([]int, len(rows))
	cats := map[string]bool{}
	flags := map[string]bool{}
	clubs := map[string]bool{}
	sh := s.ratingShape()
	cols := s.ratingCols(sh)
	shown := shownRows(s.listFile(period) == "index.html", len(rows))
	caption := "Rating list " + period + ": select a column heading to sort"
	if shown < len(rows) {
		caption = fmt.Sprintf("Rating list %s, the top %d of %d players: select a column heading to sort", period, shown, len(rows))
	}
	b := appendTableStart(make([]byte, 0, 110*shown+1024), listTableID, "list", caption, cols)
	for i := range rows {
		r := &rows[i]
		ratings[i] = r.Rating
		if i >= shown {
			continue
		}
		if r.Category != "" {
			cats[r.Category] = true
		}
		for _, f := range strings.Fields(r.Flags) {
			flags[f] = true
		}
		club := s.club(r.ID)
		if club != "" {
			clubs[club] = true
		}
		b = appendRatingRow(b, r, club, sh)
	}
	b = appendTableEnd(b)
	b = append(b, "<p class=\"legend\">Change: since the list before; empty for a player new to the list. <a href=\"help.html#list\">How to read the list</a></p>\n"...)
	b = appendFlagLegend(b, flags)
	if shown < len(rows) {
		b = fmt.Appendf(b, "<p class=\"legend\">This page shows the top %d players of the list. The whole list, all %d players, is the file <a href=\"%s\">%s</a> (CSV, compressed: unpack it, then open it in a spreadsheet); the latest list's page shows every player.</p>\n", shown, len(rows), listCSV(period), listCSV(period))
	} else {
		b = fmt.Appendf(b, "<p class=\"legend\">The list as a file: <a href=\"%s\">%s</a> (CSV, compressed).</p>\n", listCSV(period), listCSV(period))
	}
	lp := listPage{page: s.page("Rating list "+period, "", "list"), Kind: "rating", Period: period,
		Rules: s.sum.Rules, Count: len(rows), Clubs: sortedKeys(clubs), Categories: sortedKeys(cats), ToursFile: tourListFile(period)}
	lp.Style = tableCSS(listTableID, cols)
	lp.Table = template.HTML(b)
	lp.Links = navOf(s.periods, period, s.listFile)
	lp.Provisional = period == s.sum.Provisional
	if i := slices.Index(s.periods, period); i > 0 {
		lp.Prev, lp.ChangesFile = s.periods[i-1], changesFile(period)
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

// appendRatingRow appends a rating list's row of shape sh, with the player's
// club.
func appendRatingRow(b []byte, r *listRow, club string, sh ratingShape) []byte {
	b = append(b, "<tr><td>"...)
	b = strconv.AppendInt(b, int64(r.Rank), 10)
	b = appendNameCell(b, "", r.ID, r.Name)
	b = append(b, "<td>"...)
	b = appendEsc(b, club)
	b = append(b, "<td>"...)
	b = strconv.AppendInt(b, int64(r.Rating), 10)
	b = appendChange(b, r.Change, !r.NoChange)
	b = append(b, "<td>"...)
	b = strconv.AppendInt(b, int64(r.GamesPeriod), 10)
	b = append(b, "<td>"...)
	b = strconv.AppendInt(b, int64(r.GamesTotal), 10)
	if !sh.noK {
		b = append(b, "<td>"...)
		if !r.NoK {
			b = strconv.AppendInt(b, int64(r.K), 10)
		}
	}
	b = append(b, "<td>"...)
	b = appendEsc(b, r.Category)
	b = append(b, "<td>"...)
	b = appendEsc(b, r.Flags)
	for j := range sh.added {
		b = append(b, "<td>"...)
		b = appendEsc(b, field(r.Added, j))
	}
	b = append(b, '\n')
	return b
}

// appendNameCell appends a list row's name cell, the row's heading, linking
// the player's page (root: the path to the site's root).
func appendNameCell(b []byte, root string, id int64, name string) []byte {
	b = append(b, "<th scope=\"row\"><a href=\""...)
	b = append(b, root...)
	b = append(b, "players/"...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, ".html\">"...)
	b = appendEsc(b, name)
	return append(b, "</a>"...)
}

func sortedKeys(m map[string]bool) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
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
