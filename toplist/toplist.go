package toplist

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ratelist/ratelist/day"
)

// Settings are the top lists' sizes and age limits: the [toplists] table of a
// rules file.
type Settings struct {
	Size          int   `toml:"size" json:"size"`                     // rows of each list (the site and `ratelist top`)
	GroupSize     int   `toml:"group_size" json:"group_size"`         // rows of each list on a federation's or a club's page
	JuniorAge     int   `toml:"junior_age" json:"junior_age"`         // juniors and girls: under this age
	SeniorAges    []int `toml:"senior_ages" json:"senior_ages"`       // one seniors list per age: this age or older
	AgeCategories []int `toml:"age_categories" json:"age_categories"` // one list per age: under this age
	ActiveMonths  int   `toml:"active_months" json:"active_months"`   // active: a rated game in this many months up to the list's end
}

// Defaults are FIDE's top lists: the top 100 open, women, juniors (U20),
// girls, seniors 50+ and 65+, the age categories U8 to U18 (each also for
// girls), active players.
func Defaults() Settings {
	return Settings{Size: 100, GroupSize: 10, JuniorAge: 20, SeniorAges: []int{50, 65},
		AgeCategories: []int{8, 10, 12, 14, 16, 18}, ActiveMonths: 12}
}

// Check refuses settings that make no list.
func (s *Settings) Check() error {
	var errs []error
	if s.Size < 1 {
		errs = append(errs, fmt.Errorf("toplists.size = %d: give 1 or more", s.Size))
	}
	if s.GroupSize < 1 {
		errs = append(errs, fmt.Errorf("toplists.group_size = %d: give 1 or more", s.GroupSize))
	}
	if s.JuniorAge < 1 || s.JuniorAge > 150 {
		errs = append(errs, fmt.Errorf("toplists.junior_age = %d: give an age from 1 to 150", s.JuniorAge))
	}
	for _, a := range append(slices.Clone(s.SeniorAges), s.AgeCategories...) {
		if a < 1 || a > 150 {
			errs = append(errs, fmt.Errorf("toplists: age %d: give ages from 1 to 150", a))
		}
	}
	if s.ActiveMonths < 0 {
		errs = append(errs, fmt.Errorf("toplists.active_months = %d: give 0 (no game needed) or more", s.ActiveMonths))
	}
	return errors.Join(errs...)
}

// List is one kind of top list: who may be on it.
type List struct {
	Name  string // open, women, juniors, girls, seniors50, u12, …
	Title string // "Open", "Women", "Juniors (U20)", …
	women bool   // women only
	under int    // age on 1 January under this (0: any)
	least int    // age on 1 January this or more (0: any)
}

// Lists are the lists the settings make, in the order pages show them.
func (s Settings) Lists() []List {
	j := strconv.Itoa(s.JuniorAge)
	ls := []List{
		{Name: "open", Title: "Open"},
		{Name: "women", Title: "Women", women: true},
		{Name: "juniors", Title: "Juniors (U" + j + ")", under: s.JuniorAge},
		{Name: "girls", Title: "Girls (U" + j + ")", under: s.JuniorAge, women: true},
	}
	for _, a := range s.SeniorAges {
		n := strconv.Itoa(a)
		ls = append(ls, List{Name: "seniors" + n, Title: "Seniors " + n + "+", least: a})
	}
	for _, a := range s.AgeCategories {
		n := strconv.Itoa(a)
		ls = append(ls, List{Name: "u" + n, Title: "U" + n, under: a}, List{Name: "girls-u" + n, Title: "Girls U" + n, under: a, women: true})
	}
	return ls
}

// Lookup returns the list called name.
func (s Settings) Lookup(name string) (List, bool) {
	for _, l := range s.Lists() {
		if l.Name == name {
			return l, true
		}
	}
	return List{}, false
}

// Names are the names of the lists, joined with "|", for messages.
func (s Settings) Names() string {
	var ns []string
	for _, l := range s.Lists() {
		ns = append(ns, l.Name)
	}
	return strings.Join(ns, "|")
}

// AgeLimited says whether the list asks for an age.
func (l List) AgeLimited() bool { return l.under > 0 || l.least > 0 }

// Player is a listed player with what the lists select on. BirthDate is
// days since 1970-01-01, NoDate when unknown; BirthYear 0 when unknown.
type Player struct {
	ID         int64
	Name       string
	Rating     int32
	Federation string
	Club       string
	Sex        string // m or w; anything else is unknown
	Title      string
	BirthYear  int32
	BirthDate  int32
	Active     bool
}

// NoDate is Player.BirthDate when the birth date is unknown.
const NoDate = -1 << 31

// Age is p's age on 1 January of year: from the birth date when known, else
// from the birth year as if born after 1 January; -1 when neither is known.
func (p *Player) Age(year int) int {
	if p.BirthDate != NoDate {
		b := day.Day(p.BirthDate).Time()
		age := year - b.Year()
		if b.Month() != time.January || b.Day() != 1 {
			age--
		}
		return age
	}
	if p.BirthYear > 0 {
		return year - int(p.BirthYear) - 1
	}
	return -1
}

// Admits says whether p may be on l in a list of year (ages on 1 January of
// year). A player of unknown sex is on no women's list, one of unknown age
// on no age-limited list.
func (l List) Admits(p *Player, year int) bool {
	if l.women && p.Sex != "w" {
		return false
	}
	if !l.AgeLimited() {
		return true
	}
	age := p.Age(year)
	if age < 0 {
		return false
	}
	return (l.under == 0 || age < l.under) && (l.least == 0 || age >= l.least)
}

// Filter narrows a list to a federation or a club ("": any).
type Filter struct {
	Federation, Club string
}

func (f Filter) keeps(p *Player) bool {
	return (f.Federation == "" || p.Federation == f.Federation) && (f.Club == "" || p.Club == f.Club)
}

// Row is one row of a top list: the player and his rank on it (players of
// equal rating share a rank).
type Row struct {
	Rank int
	*Player
}

// Select returns the first n active players of l (at most; n ≤ 0: all) among
// players in f, from players in rating-list order, for a list of year.
// Ranks count from 1; equal ratings share the rank of the first of them, and
// a tie at the n-th place is not cut.
func Select(players []Player, l List, year int, f Filter, n int) []Row {
	var rows []Row
	for i := range players {
		p := &players[i]
		if !p.Active || !f.keeps(p) || !l.Admits(p, year) {
			continue
		}
		rank := len(rows) + 1
		if k := len(rows); k > 0 && rows[k-1].Rating == p.Rating {
			rank = rows[k-1].Rank
		}
		if n > 0 && len(rows) >= n && rank != rows[len(rows)-1].Rank {
			break
		}
		rows = append(rows, Row{Rank: rank, Player: p})
	}
	return rows
}

// Active says whether a listed player counts as active at the end of a
// list's period (days since 1970-01-01): not flagged inactive (i) on the
// list, and, when months > 0, a rated game that ended in the months up to
// end (lastGame: the end of his last rated tournament, 0 when none known).
func Active(flags string, lastGame, end int32, months int) bool {
	for _, f := range strings.Fields(flags) {
		if f == "i" || f == "wi" {
			return false
		}
	}
	if months == 0 {
		return true
	}
	t := day.Day(end).Time()
	from := time.Date(t.Year(), t.Month()-time.Month(months), t.Day()+1, 0, 0, 0, 0, time.UTC)
	return lastGame != 0 && day.Day(lastGame) >= day.Of(from)
}

// Period is a list's period label (YYYY-MM, YYYY-Qn or YYYY): its year and
// last day (days since 1970-01-01).
func Period(label string) (year int, end int32, err error) {
	p, err := day.ParseLabel(label)
	if err != nil {
		return 0, 0, err
	}
	first, last := p.Bounds()
	return first.Year(), int32(last), nil
}

// Group is what a federation's or a club's statistics page shows of it.
type Group struct {
	Name    string
	Players int     // in the registry
	Rated   int     // on the list
	Active  int     // on the list and active
	Top     float64 // the average rating of its best active players (TopCount of them at most)
	Titles  []TitleCount
}

// TitleCount is how many players of a group hold a title.
type TitleCount struct {
	Title string
	N     int
}

// TopCount is how many best players a group's average is of.
const TopCount = 10

// Groups counts the players of each group (key: the federation or the club;
// players with an empty key are left out), players in rating-list order with
// Rating 0 for those not on the list; by name.
func Groups(players []Player, key func(*Player) string) []Group {
	at := map[string]int{}
	var gs []Group
	titles := map[string]map[string]int{}
	tops := map[string]int{}
	for i := range players {
		p := &players[i]
		k := key(p)
		if k == "" {
			continue
		}
		j, ok := at[k]
		if !ok {
			j = len(gs)
			at[k] = j
			gs = append(gs, Group{Name: k})
			titles[k] = map[string]int{}
		}
		g := &gs[j]
		g.Players++
		if p.Title != "" {
			titles[k][p.Title]++
		}
		if p.Rating == 0 {
			continue
		}
		g.Rated++
		if p.Active {
			g.Active++
			if tops[k] < TopCount {
				tops[k]++
				g.Top += float64(p.Rating)
			}
		}
	}
	for i := range gs {
		g := &gs[i]
		if n := tops[g.Name]; n > 0 {
			g.Top /= float64(n)
		}
		for t, n := range titles[g.Name] {
			g.Titles = append(g.Titles, TitleCount{t, n})
		}
		slices.SortFunc(g.Titles, func(a, b TitleCount) int {
			return cmp.Or(cmp.Compare(titleOrder(a.Title), titleOrder(b.Title)), cmp.Compare(a.Title, b.Title))
		})
	}
	slices.SortFunc(gs, func(a, b Group) int { return cmp.Compare(a.Name, b.Name) })
	return gs
}

// titleOrder puts FIDE's titles in their order, others after them.
func titleOrder(t string) int {
	if i := slices.Index([]string{"GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"}, t); i >= 0 {
		return i
	}
	return 100
}
