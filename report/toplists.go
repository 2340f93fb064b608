package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"hash/crc64"
	"slices"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/toplist"
)

// The top lists are written for the latest list only: one page and one CSV
// file per list kind, per federation and per club, so their number grows
// with the clubs, not with the clubs times the lists of every period.

// topFile is the page of a top list of the whole list; its CSV file is the
// same name with .csv.
func topFile(list string) string { return "top-" + list + ".html" }

// crcTable makes the hash in a group page's name.
var crcTable = crc64.MakeTable(crc64.ECMA)

// groupFile is the page of a federation ("fed") or a club ("club") in top/.
func groupFile(kind, name string) string {
	var b []byte
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b = append(b, byte(r))
		case len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, '-')
		}
		if len(b) >= 40 {
			break
		}
	}
	// The hash of the name tells apart names that read the same in ASCII.
	if len(b) > 0 && b[len(b)-1] != '-' {
		b = append(b, '-')
	}
	return fmt.Sprintf("top/%s-%s%06x.html", kind, b, crc64.Checksum([]byte(name), crcTable)&0xffffff)
}

func csvName(page string) string { return strings.TrimSuffix(page, ".html") + ".csv" }

// topData is what the top-list pages are made from.
type topData struct {
	settings toplist.Settings
	period   string
	year     int
	players  []toplist.Player // the latest list, in its order
	change   map[int64]int    // each player's rating change on the list
	prev     string           // the list before, "" for none
	prevYear int
	before   []toplist.Player // the list before, in its order
}

// topPlayers is a list's players as package toplist selects them: the
// archive's players table gives federation, club, sex, title and birth; the
// cards, each player's last rated game up to the end of period.
func (s *site) topPlayers(rows []listRow, period string, st toplist.Settings) ([]toplist.Player, error) {
	_, end, err := toplist.Period(period)
	if err != nil {
		return nil, err
	}
	ps := make([]toplist.Player, len(rows))
	for i, r := range rows {
		p := toplist.Player{ID: r.ID, Name: r.Name, Rating: int32(r.Rating), BirthDate: toplist.NoDate}
		if s.arch != nil {
			if j := s.arch.Players.Index(r.ID); j >= 0 {
				a := &s.arch.Players
				p.BirthYear, p.Club = a.BirthYear[j], a.Club[j]
				if a.Info != nil {
					in := a.Info[j]
					p.Federation, p.Sex, p.Title = in.Federation, in.Sex, in.Title
					if in.BirthDate != archive.NoDate {
						p.BirthDate = in.BirthDate
					}
				}
			}
		}
		var last int32
		for _, ci := range s.playerCards(r.ID) {
			if c := &s.cs.cards[ci]; c.Games > 0 && c.EndDate <= end && c.EndDate > last {
				last = c.EndDate
			}
		}
		p.Active = toplist.Active(r.Flags, last, end, st.ActiveMonths)
		ps[i] = p
	}
	return ps, nil
}

// topLists gathers what the top-list pages show: the latest list's players
// and each list's ranks on the list before.
func (s *site) topLists() (*topData, error) {
	n := len(s.periods)
	if n == 0 {
		return nil, nil
	}
	d := &topData{settings: toplist.Defaults(), period: s.periods[n-1], change: map[int64]int{}}
	if s.sum.TopLists != nil {
		d.settings = *s.sum.TopLists
		if err := d.settings.Check(); err != nil {
			return nil, fmt.Errorf("summary.json: %w", err)
		}
	}
	var err error
	if d.year, _, err = toplist.Period(d.period); err != nil {
		return nil, err
	}
	if d.players, err = s.topPlayers(s.latest, d.period, d.settings); err != nil {
		return nil, err
	}
	for _, r := range s.latest {
		if !r.NoChange {
			d.change[r.ID] = r.Change
		}
	}
	if n > 1 {
		d.prev = s.periods[n-2]
		rows, err := s.readRatingList(n - 2)
		if err != nil {
			return nil, err
		}
		if d.before, err = s.topPlayers(rows, d.prev, d.settings); err != nil {
			return nil, err
		}
		if d.prevYear, _, err = toplist.Period(d.prev); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// topKey is the key of every top-list file: what they show of every player
// of the list and of the list before, and which players have a page.
func (s *site) topKey(d *topData, pages uint64) uint64 {
	var k keyer
	k.ints(int64(s.key), int64(pages))
	k.str(d.period)
	k.str(d.prev)
	k.str(fmt.Sprint(d.settings))
	for _, p := range d.players {
		k.ints(p.ID, int64(p.Rating), int64(p.BirthYear), int64(p.BirthDate), int64(d.change[p.ID]))
		k.str(p.Name)
		k.str(p.Federation)
		k.str(p.Club)
		k.str(p.Sex)
		k.str(p.Title)
		if p.Active {
			k.ints(1)
		}
	}
	for _, p := range d.before {
		k.ints(p.ID, int64(p.Rating))
		k.str(p.Federation)
		k.str(p.Club)
		if p.Active {
			k.ints(1)
		}
	}
	return k.sum()
}

// topRow is one row of a top-list table.
type topRow struct {
	Rank     int
	Before   string // the rank on the list before, "new" when not on it
	ID       int64
	Name     string
	Link     bool
	Rating   int32
	Change   int
	Changed  bool // on the list before: Change holds
	Title    string
	Sex      string
	Fed      string
	Club     string
	Born     string
	ClubFile string
}

// topTable is one top list as a page shows it.
type topTable struct {
	Name, Title, File, CSV string
	Rows                   []topRow
}

// topPage is the data of top.html, a top-list page, and a federation's or a
// club's page.
type topPage struct {
	page
	Period, Prev, PrevFile, ChangesFile string
	Active                              int // active players on the list
	Heading                             string
	Tables                              []topTable
	CSV                                 string
	Lists                               []topTable // top.html: the lists, without rows
	Feds, Clubs                         int
	Size                                int
	// Stats is the statistics page's table (federations.html, clubs.html).
	Stats     []groupRow
	StatsKind string
}

// groupRow is a federation's or a club's row of its statistics page.
type groupRow struct {
	toplist.Group
	File   string
	Avg    string
	Titles string
}

// writeTopLists writes top.html, a page and a CSV file per top list, the
// statistics pages of the federations and the clubs, and a page and a CSV
// file per federation and per club, all of the latest list.
func (s *site) writeTopLists() error {
	d, err := s.topLists()
	if err != nil {
		return err
	}
	if d == nil { // no rating list: the navigation's page says so
		p := topPage{page: s.page("Top lists", "", "top")}
		return s.putPage("top.html", "top.html", &p, s.key)
	}
	key := s.topKey(d, s.pagesKey())
	reg := s.registry(d)
	feds := toplist.Groups(reg, func(p *toplist.Player) string { return p.Federation })
	clubs := toplist.Groups(reg, func(p *toplist.Player) string { return p.Club })
	lists := d.settings.Lists()

	// Every file's name, to keep them all when nothing changed.
	files := []string{"top.html", "federations.html", "clubs.html"}
	for _, l := range lists {
		files = append(files, topFile(l.Name), csvName(topFile(l.Name)))
	}
	for _, g := range feds {
		files = append(files, groupFile("fed", g.Name), csvName(groupFile("fed", g.Name)))
	}
	for _, g := range clubs {
		files = append(files, groupFile("club", g.Name), csvName(groupFile("club", g.Name)))
	}
	if !slices.ContainsFunc(files, func(f string) bool { return !s.out.has(f, key) }) {
		for _, f := range files {
			s.out.kept(f, key)
		}
		return nil
	}

	base := func(title, root string) topPage {
		p := topPage{page: s.page(title, root, "top"), Period: d.period, Prev: d.prev, Size: d.settings.Size}
		if d.prev != "" {
			p.PrevFile, p.ChangesFile = root+s.listFile(d.prev), root+changesFile(d.period)
		}
		for _, pl := range d.players {
			if pl.Active {
				p.Active++
			}
		}
		return p
	}
	// table selects list l of players (now) with the ranks on the same list
	// of before; each is the whole list or one federation's or club's part.
	table := func(l toplist.List, now, before []toplist.Player, n int, root string) topTable {
		t := topTable{Name: l.Name, Title: l.Title, File: topFile(l.Name), CSV: csvName(topFile(l.Name))}
		sel := toplist.Select(now, l, d.year, toplist.Filter{}, n)
		// The ranks before of the players shown only: a map of the whole
		// list before, per list and group, cost more than the selection.
		was := make(map[int64]int, len(sel))
		for _, r := range sel {
			was[r.ID] = -1
		}
		for _, r := range toplist.Select(before, l, d.prevYear, toplist.Filter{}, 0) {
			if _, ok := was[r.ID]; ok {
				was[r.ID] = r.Rank
			}
		}
		for _, r := range sel {
			row := topRow{Rank: r.Rank, ID: r.ID, Name: r.Name, Link: s.hasPage(r.ID), Rating: r.Rating,
				Title: r.Title, Sex: r.Sex, Fed: r.Federation, Club: r.Club, Born: born(r.Player)}
			row.Change, row.Changed = d.change[r.ID]
			if d.prev != "" {
				row.Before = "new"
				if k := was[r.ID]; k >= 0 {
					row.Before = strconv.Itoa(k)
				}
			}
			if r.Club != "" {
				row.ClubFile = root + groupFile("club", r.Club)
			}
			t.Rows = append(t.Rows, row)
		}
		return t
	}

	idx := base("Top lists "+d.period, "")
	idx.Feds, idx.Clubs = len(feds), len(clubs)
	for _, l := range lists {
		idx.Lists = append(idx.Lists, topTable{Name: l.Name, Title: l.Title, File: topFile(l.Name), CSV: csvName(topFile(l.Name))})
	}
	if err := s.putPage("top.html", "top.html", &idx, key); err != nil {
		return err
	}
	for _, l := range lists {
		p := base(fmt.Sprintf("Top %d %s %s", d.settings.Size, l.Title, d.period), "")
		t := table(l, d.players, d.before, d.settings.Size, "")
		p.Heading, p.Tables, p.CSV = fmt.Sprintf("Top %d %s", d.settings.Size, l.Title), []topTable{t}, t.CSV
		if err := s.putPage(t.File, "toplist.html", &p, key); err != nil {
			return err
		}
		if err := s.out.put(t.CSV, topCSV([]topTable{t}), key); err != nil {
			return err
		}
	}
	for _, kind := range []struct {
		name, title, file string
		gs                []toplist.Group
		key               func(*toplist.Player) string
	}{
		{"fed", "Federations", "federations.html", feds, func(p *toplist.Player) string { return p.Federation }},
		{"club", "Clubs", "clubs.html", clubs, func(p *toplist.Player) string { return p.Club }},
	} {
		now, before := partition(d.players, kind.key), partition(d.before, kind.key)
		st := base(kind.title+" "+d.period, "")
		st.StatsKind = kind.title
		for _, g := range kind.gs {
			st.Stats = append(st.Stats, groupRow{Group: g, File: groupFile(kind.name, g.Name), Avg: average(g), Titles: titles(g.Titles)})
			p := base(g.Name+" "+d.period, "../")
			p.Heading = g.Name
			p.CSV = strings.TrimPrefix(csvName(groupFile(kind.name, g.Name)), "top/")
			p.Stats = []groupRow{st.Stats[len(st.Stats)-1]}
			for _, l := range lists {
				t := table(l, now[g.Name], before[g.Name], d.settings.GroupSize, "../")
				t.File, t.CSV = "../"+t.File, ""
				p.Tables = append(p.Tables, t)
			}
			file := groupFile(kind.name, g.Name)
			if err := s.putPage(file, "toplist.html", &p, key); err != nil {
				return err
			}
			if err := s.out.put(csvName(file), topCSV(p.Tables), key); err != nil {
				return err
			}
		}
		if err := s.putPage(kind.file, "topstats.html", &st, key); err != nil {
			return err
		}
	}
	return nil
}

// partition splits players by key, each part in their order (counted
// first: each part is made at its size, not grown copy by copy).
func partition(players []toplist.Player, key func(*toplist.Player) string) map[string][]toplist.Player {
	n := map[string]int{}
	for i := range players {
		if k := key(&players[i]); k != "" {
			n[k]++
		}
	}
	out := make(map[string][]toplist.Player, len(n))
	for i := range players {
		if k := key(&players[i]); k != "" {
			if out[k] == nil {
				out[k] = make([]toplist.Player, 0, n[k])
			}
			out[k] = append(out[k], players[i])
		}
	}
	return out
}

// registry is every player of the archive's players table as Groups counts
// them: the listed ones from d (their rating and activity), the others
// unrated; without the archive, the listed players only.
func (s *site) registry(d *topData) []toplist.Player {
	if s.arch == nil {
		return d.players
	}
	a := &s.arch.Players
	out := append(make([]toplist.Player, 0, len(a.ID)+len(d.players)), d.players...)
	for j, id := range a.ID {
		if _, ok := s.listed[id]; ok {
			continue
		}
		p := toplist.Player{ID: id, Club: a.Club[j], BirthDate: toplist.NoDate}
		if a.Info != nil {
			p.Federation, p.Title = a.Info[j].Federation, a.Info[j].Title
		}
		out = append(out, p)
	}
	return out
}

func born(p *toplist.Player) string {
	if p.BirthYear > 0 {
		return strconv.Itoa(int(p.BirthYear))
	}
	if p.BirthDate != toplist.NoDate {
		return string(appendDate(nil, p.BirthDate)[:4])
	}
	return ""
}

func average(g toplist.Group) string {
	if g.Active == 0 {
		return ""
	}
	return strconv.FormatFloat(g.Top, 'f', 0, 64)
}

func titles(ts []toplist.TitleCount) string {
	var b []string
	for _, t := range ts {
		b = append(b, fmt.Sprintf("%d %s", t.N, t.Title))
	}
	return strings.Join(b, ", ")
}

// topCSV is the CSV file beside a top-list page: one row per player of each
// of its tables, the list named in the first column.
func topCSV(ts []topTable) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"list", "rank", "rank_before", "player_id", "name", "rating", "change", "title", "sex", "federation", "club", "birth_year"})
	t := func(s string) string { return csvfield.Text(archive.SafeText(s)) }
	for _, tb := range ts {
		for _, r := range tb.Rows {
			w.Write([]string{tb.Name, strconv.Itoa(r.Rank), r.Before, strconv.FormatInt(r.ID, 10), t(r.Name), strconv.Itoa(int(r.Rating)),
				change(r), t(r.Title), t(r.Sex), t(r.Fed), t(r.Club), r.Born})
		}
	}
	w.Flush()
	return b.Bytes()
}

func change(r topRow) string {
	if !r.Changed {
		return ""
	}
	return strconv.Itoa(r.Change)
}
