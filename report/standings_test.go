package report

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/output"
)

// TestReadStandingsFile: the column-by-column reader gives each wanted
// tournament its header and records across row groups (a tournament's rows
// split between two), with an empty cell for an undefined tiebreak, no
// tiebreak columns for a tournament without codes, no player id for a row
// without one, and nothing of a tournament not wanted.
func TestReadStandingsFile(t *testing.T) {
	v := func(f float64) *float64 { return &f }
	tb := func(codes []string, vals ...*float64) []output.TiebreakCell {
		cells := make([]output.TiebreakCell, len(codes))
		for i, c := range codes {
			cells[i] = output.TiebreakCell{Code: c, Value: vals[i]}
		}
		return cells
	}
	codes := []string{"BH", "SB/C1"}
	rows := []output.StandingsRow{
		{TournamentID: 7, Rank: 1, StartNo: 2, PlayerID: 101, Name: "Ann, A", Points: 2.5, Tiebreaks: tb(codes, v(4), v(3.25))},
		{TournamentID: 7, Rank: 2, StartNo: 1, PlayerID: 102, Name: "Bob", Points: 1.5, Tiebreaks: tb(codes, nil, v(0))},
		{TournamentID: 7, Rank: 3, StartNo: 3, Name: "Cid", Points: 0, Tiebreaks: tb(codes, v(1), nil)},
		{TournamentID: 8, Rank: 1, StartNo: 1, PlayerID: 201, Name: "Dan", Points: 1},
		{TournamentID: 9, Rank: 1, StartNo: 1, PlayerID: 301, Name: "Eve", Points: 1, Tiebreaks: tb(codes, v(1), v(1))},
		{TournamentID: 8, Rank: 2, StartNo: 2, PlayerID: 202, Name: "Fay", Points: 0},
	}
	dir := t.TempDir()
	if err := parquet.WriteFile(filepath.Join(dir, "2025-01.parquet"), rows, output.StandingsSchema, parquet.MaxRowsPerRowGroup(2)); err != nil {
		t.Fatal(err)
	}
	got, err := readStandings(dir, []string{"2025-01"}, func(id int64) bool { return id != 9 })
	if err != nil {
		t.Fatal(err)
	}
	head := []string{"rank", "start_no", "player_id", "name", "points"}
	want := map[int64]*standings{
		7: {Header: append(slices.Clip(head), codes...), Rows: [][]string{
			{"1", "2", "101", "Ann, A", "2.5", "4", "3.25"},
			{"2", "1", "102", "Bob", "1.5", "", "0"},
			{"3", "3", "", "Cid", "0", "1", ""},
		}},
		8: {Header: head, Rows: [][]string{{"1", "1", "201", "Dan", "1"}, {"2", "2", "202", "Fay", "0"}}},
	}
	if len(got) != len(want) {
		t.Fatalf("%d tournaments read, want %d (9 is not wanted)", len(got), len(want))
	}
	for id, w := range want {
		g := got[id]
		if g == nil || !slices.Equal(g.Header, w.Header) || !slices.EqualFunc(g.Rows, w.Rows, slices.Equal) {
			t.Errorf("tournament %d: %+v, want %+v", id, g, w)
		}
	}
}
