package report

import (
	"slices"
	"sort"
	"strings"

	"github.com/ratelist/ratelist/crosstable"
)

// tourListFile is the page of the tournaments of a period.
func tourListFile(period string) string {
	if period == "" {
		return "tournaments-undated.html"
	}
	return "tournaments-" + period + ".html"
}

// tourIndexPage is tournaments.html (Periods) or tournaments-PERIOD.html (Groups).
type tourIndexPage struct {
	page
	Periods []tourPeriod
	Groups  []tourGroup
	Norms   int // tournaments.html: the norms made, linked when some
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
// tournaments.html links norms.html when the run made norms.
func (s *site) writeTournamentIndex(norms int) error {
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
	idx := tourIndexPage{page: s.page("Tournaments", "", "tournaments"), Norms: norms}
	var k, ik keyer
	ik.ints(int64(s.key), int64(norms))
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

// listIndexPage is lists.html (Years, Sets) or lists-YEAR.html (Rating,
// Tables).
type listIndexPage struct {
	page
	Years       []listYearLink
	Sets        []string // every table rule set's title
	Rating      []periodLink
	Tables      []tableLinks // a table rule set's lists, by Sets
	Year        string
	Provisional string
}

// tableLinks are a table rule set's lists of a year.
type tableLinks struct {
	Set   string // its title
	Lists []periodLink
}

type listYearLink struct {
	Year, File string
	Rating     int
	Tables     []int // each table rule set's lists, by Sets
}

// writeListIndex writes lists.html, the years newest first, and one page per
// year with its rating lists and each table rule set's: every list is linked from one page,
// and each page's key is what it links.
func (s *site) writeListIndex() error {
	byYear := map[string]*listIndexPage{}
	var years []string
	at := func(period string) *listIndexPage {
		y := listYear(period)
		if byYear[y] == nil {
			byYear[y] = &listIndexPage{page: s.page("Lists of "+y, "", "lists"), Year: y, Provisional: s.sum.Provisional,
				Tables: make([]tableLinks, len(s.tables))}
			for i, t := range s.tables {
				byYear[y].Tables[i].Set = t.def.Title
			}
			years = append(years, y)
		}
		return byYear[y]
	}
	for i := len(s.periods) - 1; i >= 0; i-- {
		p := at(s.periods[i])
		p.Rating = append(p.Rating, periodLink{s.periods[i], s.listFile(s.periods[i])})
	}
	for ti, t := range s.tables {
		for i := len(t.periods) - 1; i >= 0; i-- {
			p := at(t.periods[i])
			p.Tables[ti].Lists = append(p.Tables[ti].Lists, periodLink{t.periods[i], t.file(t.periods[i])})
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(years)))
	idx := listIndexPage{page: s.page("All lists", "", "lists")}
	var ik keyer
	ik.ints(int64(s.key))
	for _, t := range s.tables {
		idx.Sets = append(idx.Sets, t.def.Title)
		ik.str(t.def.Title)
	}
	for _, y := range years {
		p := byYear[y]
		l := listYearLink{Year: y, File: yearFile(y), Rating: len(p.Rating)}
		ik.str(l.File)
		ik.ints(int64(l.Rating))
		for _, t := range p.Tables {
			l.Tables = append(l.Tables, len(t.Lists))
			ik.ints(int64(len(t.Lists)))
		}
		idx.Years = append(idx.Years, l)
		var k keyer
		k.ints(int64(s.key))
		k.str(l.File)
		k.str(p.Provisional)
		lists := [][]periodLink{p.Rating}
		for _, t := range p.Tables {
			k.str(t.Set)
			lists = append(lists, t.Lists)
		}
		for _, ls := range lists {
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

// helpPage is the data of help.html: what each page kind shows.
type helpPage struct {
	page
	Codes []helpCode
}

type helpCode struct{ Code, Name string }

// writeHelp writes help.html, which the tables' legends link.
func (s *site) writeHelp() error {
	var k keyer
	k.ints(int64(s.key))
	key := k.sum()
	if s.out.kept("help.html", key) {
		return nil
	}
	h := helpPage{page: s.page("How to read the pages", "", "")}
	for c, n := range crosstable.TiebreakBases() {
		h.Codes = append(h.Codes, helpCode{c, n})
	}
	slices.SortFunc(h.Codes, func(a, b helpCode) int { return strings.Compare(a.Code, b.Code) })
	return s.putPage("help.html", "help.html", &h, key)
}
