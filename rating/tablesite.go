package rating

// TableSite is how the site shows a table rule set's lists and its players'
// games: the report knows the rule set by this declaration alone, beside
// its name and title.
type TableSite struct {
	// List are the list's columns after rank, player_id and name, as the
	// site shows them; the list file's header gives their order, and a
	// column the file has but List lacks shows under its name, as text.
	List []SiteColumn
	// RankBy is the list column that ranks the list: shown bold, and named
	// in the list page's lead.
	RankBy string
	// Chart is the cards' column a player's page charts game by game ("":
	// no chart), ChartLabel its name in the chart's words, lower case.
	Chart, ChartLabel string
	// Changes is the cards' column whose changes from game to game a
	// player's page lists ("": none), ChangesLabel its name, lower case.
	Changes, ChangesLabel string
}

// SiteColumn is one list column as the site shows it.
type SiteColumn struct {
	Name    string // in the list file's header
	Heading string // the column's heading; "" is Name
	Text    bool   // text, aligned left; else a number, aligned right
	Phone   bool   // shown on a phone too; else on wider screens only
}

// Head is the site's heading of the column.
func (c *SiteColumn) Head() string {
	if c.Heading != "" {
		return c.Heading
	}
	return c.Name
}

// Column returns the declaration of list column name, or one that shows
// it under its name, as text.
func (s *TableSite) Column(name string) SiteColumn {
	for _, c := range s.List {
		if c.Name == name {
			return c
		}
	}
	return SiteColumn{Name: name, Text: true}
}
