package toplist

import (
	"reflect"
	"testing"
	"time"
)

func days(y int, m time.Month, d int) int32 {
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func TestAge(t *testing.T) {
	tests := []struct {
		name string
		p    Player
		year int
		want int
	}{
		{"birth year only: as if born after 1 January", Player{BirthYear: 2013, BirthDate: NoDate}, 2025, 11},
		{"born on 1 January: a year older", Player{BirthDate: days(2013, 1, 1)}, 2025, 12},
		{"born on 2 January", Player{BirthDate: days(2013, 1, 2)}, 2025, 11},
		{"birth date wins over birth year", Player{BirthYear: 2000, BirthDate: days(2013, 1, 1)}, 2025, 12},
		{"unknown", Player{BirthDate: NoDate}, 2025, -1},
	}
	for _, tt := range tests {
		if got := tt.p.Age(tt.year); got != tt.want {
			t.Errorf("%s: Age(%d) = %d, want %d", tt.name, tt.year, got, tt.want)
		}
	}
}

func TestAdmits(t *testing.T) {
	s := Defaults()
	list := func(name string) List {
		l, ok := s.Lookup(name)
		if !ok {
			t.Fatalf("no list %s", name)
		}
		return l
	}
	girl12 := Player{Sex: "w", BirthYear: 2013, BirthDate: NoDate} // 11 on 1 January 2025
	boy12 := Player{Sex: "m", BirthYear: 2012, BirthDate: NoDate}  // 12: not U12
	junior := Player{Sex: "m", BirthYear: 2005, BirthDate: NoDate} // 19: U20
	senior := Player{Sex: "w", BirthYear: 1974, BirthDate: NoDate} // 50
	nosex := Player{BirthYear: 2013, BirthDate: NoDate}
	noage := Player{Sex: "w", BirthDate: NoDate}
	tests := []struct {
		list string
		p    Player
		want bool
	}{
		{"open", noage, true},
		{"u12", girl12, true},
		{"u12", boy12, false},
		{"u14", boy12, true},
		{"girls", girl12, true},
		{"girls", boy12, false},
		{"girls", nosex, false},
		{"juniors", junior, true},
		{"juniors", senior, false},
		{"seniors50", senior, true},
		{"seniors65", senior, false},
		{"women", senior, true},
		{"women", noage, true},
		{"u8", noage, false},
		{"girls-u12", girl12, true},
		{"girls-u12", boy12, false},
		{"girls-u14", Player{Sex: "m", BirthYear: 2013, BirthDate: NoDate}, false},
	}
	for _, tt := range tests {
		if got := list(tt.list).Admits(&tt.p, 2025); got != tt.want {
			t.Errorf("%s admits %+v: %v, want %v", tt.list, tt.p, got, tt.want)
		}
	}
}

func TestSelect(t *testing.T) {
	ps := []Player{
		{ID: 1, Rating: 2400, Club: "A", Active: true, BirthDate: NoDate},
		{ID: 2, Rating: 2300, Club: "B", Active: false, BirthDate: NoDate},
		{ID: 3, Rating: 2200, Club: "A", Active: true, BirthDate: NoDate},
		{ID: 4, Rating: 2200, Club: "B", Active: true, BirthDate: NoDate},
		{ID: 5, Rating: 2100, Club: "A", Active: true, BirthDate: NoDate},
	}
	open := Defaults().Lists()[0]
	ids := func(rows []Row) (out [][2]int64) {
		for _, r := range rows {
			out = append(out, [2]int64{int64(r.Rank), r.ID})
		}
		return out
	}
	tests := []struct {
		name string
		f    Filter
		n    int
		want [][2]int64
	}{
		{"inactive left out, tie shares a rank", Filter{}, 0, [][2]int64{{1, 1}, {2, 3}, {2, 4}, {4, 5}}},
		{"a tie at the last place is not cut", Filter{}, 2, [][2]int64{{1, 1}, {2, 3}, {2, 4}}},
		{"one club", Filter{Club: "A"}, 0, [][2]int64{{1, 1}, {2, 3}, {3, 5}}},
		{"first n", Filter{Club: "A"}, 1, [][2]int64{{1, 1}}},
	}
	for _, tt := range tests {
		if got := ids(Select(ps, open, 2025, tt.f, tt.n)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestActive(t *testing.T) {
	end := days(2025, 6, 30)
	tests := []struct {
		name   string
		flags  string
		last   int32
		months int
		want   bool
	}{
		{"played this month", "", days(2025, 6, 1), 12, true},
		{"played 12 months ago to the day after", "", days(2024, 7, 1), 12, true},
		{"played a day too early", "", days(2024, 6, 30), 12, false},
		{"never played", "", 0, 12, false},
		{"flagged inactive", "i", days(2025, 6, 1), 12, false},
		{"flagged inactive among others", "new i", days(2025, 6, 1), 12, false},
		{"no game needed", "", 0, 0, true},
		{"no game needed, flagged", "i", 0, 0, false},
	}
	for _, tt := range tests {
		if got := Active(tt.flags, tt.last, end, tt.months); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestPeriod(t *testing.T) {
	tests := []struct {
		label string
		year  int
		end   int32
	}{
		{"2025-02", 2025, days(2025, 2, 28)},
		{"2024-Q1", 2024, days(2024, 3, 31)},
		{"2024-Q4", 2024, days(2024, 12, 31)},
		{"2023", 2023, days(2023, 12, 31)},
	}
	for _, tt := range tests {
		y, e, err := Period(tt.label)
		if err != nil || y != tt.year || e != tt.end {
			t.Errorf("Period(%s) = %d, %d, %v; want %d, %d", tt.label, y, e, err, tt.year, tt.end)
		}
	}
	for _, bad := range []string{"", "2025-Q5", "25-01", "2025-13"} {
		if _, _, err := Period(bad); err == nil {
			t.Errorf("Period(%q): no error", bad)
		}
	}
}

func TestGroups(t *testing.T) {
	var ps []Player
	for i := range 12 {
		ps = append(ps, Player{ID: int64(i), Rating: int32(2500 - 10*i), Federation: "ENG", Active: i != 0, BirthDate: NoDate})
	}
	ps[1].Title, ps[2].Title, ps[3].Title = "IM", "GM", "IM"
	ps = append(ps, Player{ID: 99, Federation: "ENG", BirthDate: NoDate}, Player{ID: 100, BirthDate: NoDate})
	gs := Groups(ps, func(p *Player) string { return p.Federation })
	// Active 1..11; the ten best: ratings 2490 … 2400.
	want := []Group{{Name: "ENG", Players: 13, Rated: 12, Active: 11, Top: 2445, Titles: []TitleCount{{"GM", 1}, {"IM", 2}}}}
	if !reflect.DeepEqual(gs, want) {
		t.Errorf("Groups = %+v, want %+v", gs, want)
	}
}

func TestCheck(t *testing.T) {
	s := Defaults()
	if err := s.Check(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	s.Size, s.AgeCategories = 0, []int{0}
	if err := s.Check(); err == nil {
		t.Error("size 0 and age 0: no error")
	}
	if got := Defaults().Names(); got != "open|women|juniors|girls|seniors50|seniors65|u8|girls-u8|u10|girls-u10|u12|girls-u12|u14|girls-u14|u16|girls-u16|u18|girls-u18" {
		t.Errorf("Names = %s", got)
	}
}
