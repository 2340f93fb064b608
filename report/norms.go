package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"

	"github.com/zeebo/xxh3"

	"github.com/ratelist/ratelist/output"
)

// normsFile is the page of the norms the run made; the site has it only when
// the run made at least one.
const normsFile = "norms.html"

// normRow is one row of norms.csv as norms.html shows it.
type normRow struct {
	Period              string
	TournamentID        int64
	Tournament          string
	TourLink            bool
	PlayerID            int64
	Name                string
	Link                bool
	Title, Games, Score string
	Ra, Rp              string
}

// normsPage is the data of norms.html.
type normsPage struct {
	page
	Rows []normRow
}

// readNorms reads the run's norms.csv, newest period first, and its content
// hash; none (and 0) when the run wrote no such file.
func readNorms(path string) ([]normRow, uint64, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("report: %w", err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, 0, fmt.Errorf("read %s: no header: %w", path, ErrBadOutput)
	}
	at := map[string]int{}
	for i, h := range recs[0] {
		at[h] = i
	}
	cols := []string{"period", "tournament_id", "tournament", "player_id", "name", "norm_title", "games", "score", "ra", "rp"}
	for _, c := range cols {
		if _, ok := at[c]; !ok {
			return nil, 0, fmt.Errorf("read %s: no column %q: %w", path, c, ErrBadOutput)
		}
	}
	var rows []normRow
	for i, r := range recs[1:] {
		f := func(c string) string { return r[at[c]] }
		tid, err1 := strconv.ParseInt(f("tournament_id"), 10, 64)
		pid, err2 := strconv.ParseInt(f("player_id"), 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return nil, 0, fmt.Errorf("read %s: line %d: %w", path, i+2, err)
		}
		rows = append(rows, normRow{Period: f("period"), TournamentID: tid, Tournament: f("tournament"), PlayerID: pid, Name: f("name"),
			Title: f("norm_title"), Games: f("games"), Score: f("score"), Ra: f("ra"), Rp: f("rp")})
	}
	// The file's order within a period (tournament, player, title) holds.
	slices.SortStableFunc(rows, func(a, b normRow) int { return cmp.Compare(b.Period, a.Period) })
	return rows, xxh3.Hash(b), nil
}

// writeNorms writes norms.html when the run made a norm and returns how many
// it made. The page's key is norms.csv's content and which of its players
// and tournaments have a page.
func (s *site) writeNorms() (int, error) {
	rows, hash, err := readNorms(output.Norms.Path(s.opt.Out, ""))
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	var k keyer
	k.ints(int64(s.key), int64(hash))
	for i := range rows {
		r := &rows[i]
		r.Link, r.TourLink = s.hasPage(r.PlayerID), s.tour(r.TournamentID) != nil
		var b int64
		if r.Link {
			b |= 1
		}
		if r.TourLink {
			b |= 2
		}
		k.ints(b)
	}
	key := k.sum()
	if s.out.kept(normsFile, key) {
		return len(rows), nil
	}
	p := normsPage{page: s.page("Norms", "", "tournaments"), Rows: rows}
	return len(rows), s.putPage(normsFile, "norms.html", &p, key)
}
