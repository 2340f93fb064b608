package report

import (
	"errors"
	"os"
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
	os.Mkdir(output.StandingsPeriod.Dir(dir), 0o755)
	if err := parquet.WriteFile(output.StandingsPeriod.Path(dir, "2025-01"), rows, output.StandingsSchema, parquet.MaxRowsPerRowGroup(2)); err != nil {
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

// TestReadStandingsOtherFiles: a standings file rewritten by another tool with
// every column optional reads the same; one whose name column holds numbers
// is an error, not a panic.
func TestReadStandingsOtherFiles(t *testing.T) {
	type cell struct {
		Code  *string  `parquet:"code,optional"`
		Value *float64 `parquet:"value,optional"`
	}
	type optional struct {
		TournamentID *int64   `parquet:"tournament_id,optional"`
		Rank         *int32   `parquet:"rank,optional"`
		StartNo      *int32   `parquet:"start_no,optional"`
		PlayerID     *int64   `parquet:"player_id,optional"`
		Name         *string  `parquet:"name,optional"`
		Points       *float64 `parquet:"points,optional"`
		Tiebreaks    []cell   `parquet:"tiebreaks,list"`
	}
	i64, i32, str, f64 := func(v int64) *int64 { return &v }, func(v int32) *int32 { return &v },
		func(v string) *string { return &v }, func(v float64) *float64 { return &v }
	dir := t.TempDir()
	os.Mkdir(output.StandingsPeriod.Dir(dir), 0o755)
	rows := []optional{
		{i64(7), i32(1), i32(1), i64(101), str("Ann"), f64(1), []cell{{str("BH"), f64(2)}, {str("SB"), nil}}},
		{i64(7), i32(2), i32(2), i64(102), str("Bob"), f64(0), []cell{{str("BH"), nil}, {str("SB"), f64(0.5)}}},
	}
	if err := parquet.WriteFile(output.StandingsPeriod.Path(dir, "2025-01"), rows); err != nil {
		t.Fatal(err)
	}
	got, err := readStandings(dir, []string{"2025-01"}, func(int64) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"1", "1", "101", "Ann", "1", "2", ""}, {"2", "2", "102", "Bob", "0", "", "0.5"}}
	if s := got[7]; s == nil || !slices.Equal(s.Header[5:], []string{"BH", "SB"}) || !slices.EqualFunc(s.Rows, want, slices.Equal) {
		t.Errorf("all-optional file: %+v, want rows %v", s, want)
	}

	type numberName struct {
		TournamentID int64                 `parquet:"tournament_id"`
		Name         int64                 `parquet:"name"`
		Tiebreaks    []output.TiebreakCell `parquet:"tiebreaks,list"`
	}
	if err := parquet.WriteFile(output.StandingsPeriod.Path(dir, "2025-02"), []numberName{{7, 12, nil}}); err != nil {
		t.Fatal(err)
	}
	if _, err := readStandings(dir, []string{"2025-02"}, func(int64) bool { return true }); !errors.Is(err, ErrBadOutput) {
		t.Errorf("name column of numbers: error %v, want ErrBadOutput", err)
	}
}
