package officer

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/toplist"
)

// TopSettings are the top-list settings of the run in out: those its rules
// file set (summary.json's toplists), else the defaults.
func TopSettings(out string) (toplist.Settings, error) {
	path := filepath.Join(out, "summary.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return toplist.Defaults(), nil
	}
	if err != nil {
		return toplist.Settings{}, err
	}
	var sum struct {
		TopLists *toplist.Settings `json:"toplists"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		return toplist.Settings{}, fmt.Errorf("read %s: %w", path, err)
	}
	if sum.TopLists == nil {
		return toplist.Defaults(), nil
	}
	if err := sum.TopLists.Check(); err != nil {
		return toplist.Settings{}, fmt.Errorf("read %s: %w", path, err)
	}
	return *sum.TopLists, nil
}

// LastGames reads, from out's cards.parquet, the end of each player's last
// rated tournament with games (days since 1970-01-01).
func LastGames(out string) (map[int64]int32, error) {
	last := map[int64]int32{}
	_, err := ReadCards(out, func(c *output.Card) bool {
		if c.Games > 0 && c.EndDate > last[c.PlayerID] {
			last[c.PlayerID] = c.EndDate
		}
		return false
	})
	return last, err
}

// TopPlayers are the players of a list (in its order) as package toplist
// selects them: the list's own player columns, the players table (nil: none)
// for the club and the birth year and for what the list leaves empty, and
// whether each is active at the end of period (last: LastGames).
func TopPlayers(list []output.ListRow, players map[int64]Player, last map[int64]int32, period string, s toplist.Settings) ([]toplist.Player, error) {
	_, end, err := toplist.Period(period)
	if err != nil {
		return nil, err
	}
	out := make([]toplist.Player, len(list))
	for i, e := range list {
		p := players[e.PlayerID]
		t := toplist.Player{ID: e.PlayerID, Name: e.Name, Rating: e.Rating, Federation: cmp.Or(e.Federation, p.Federation),
			Club: p.Club, Sex: cmp.Or(e.Sex, p.Sex), Title: cmp.Or(e.Title, p.Title), BirthYear: p.BirthYear, BirthDate: toplist.NoDate,
			Active: toplist.Active(e.Flags, last[e.PlayerID], end, s.ActiveMonths)}
		switch {
		case e.BirthDate != nil:
			t.BirthDate = *e.BirthDate
		case !p.BirthDate.IsZero():
			t.BirthDate = int32(day.Of(p.BirthDate))
		}
		out[i] = t
	}
	return out, nil
}

// TopTable is a top list as a table.
func TopTable(title string, rows []toplist.Row) Table {
	t := Table{Title: title, Header: []string{"rank", "player_id", "name", "rating", "title", "federation", "club", "sex", "birth_year"}}
	for _, r := range rows {
		by := ""
		if r.BirthYear > 0 {
			by = itoa(r.BirthYear)
		} else if r.BirthDate != toplist.NoDate {
			by = day.Day(r.BirthDate).String()[:4]
		}
		t.Rows = append(t.Rows, []string{itoa(r.Rank), itoa(r.ID), r.Name, itoa(r.Rating), r.Title, r.Federation, r.Club, r.Sex, by})
	}
	return t
}
