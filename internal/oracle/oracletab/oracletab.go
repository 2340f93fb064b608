// Package oracletab is what the oracles (refelo, reffide) share, for tests
// only: reading an archive's CSV tables, FIDE's tables (from their one copy,
// rating/tables), result codes in half points and rounding in hundredths. It
// imports nothing of the product but those tables.
package oracletab

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/rating/tables"
)

// ReadCSV reads a CSV table whole: one map from header to trimmed cell per
// data row. A UTF-8 byte order mark is skipped.
func ReadCSV(path string) ([]map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			if i < len(r) {
				m[strings.TrimSpace(h)] = strings.TrimSpace(r[i])
			}
		}
		rows = append(rows, m)
	}
	return rows, nil
}

// Atoi is the integer in s; an oracle's input is the product's test archive,
// so a bad cell is a broken test and panics.
func Atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		panic(err)
	}
	return n
}

// OptInt is the integer in s, ok false when s is empty.
func OptInt(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	return Atoi(s), true
}

// ID64 is the id in s (panics as Atoi does).
func ID64(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic(err)
	}
	return n
}

// HalfPoints is a result code's score in half points; ok is false unless the
// game was played over the board.
func HalfPoints(code string) (int, bool) {
	switch code {
	case "1":
		return 2, true
	case "=", "½":
		return 1, true
	case "0":
		return 0, true
	}
	return 0, false
}

// RoundHalfUp returns num/den rounded half up (den > 0).
func RoundHalfUp(num, den int) int {
	n, d := 2*num+den, 2*den
	q := n / d
	if n%d != 0 && n < 0 {
		q--
	}
	return q
}

// RoundHalfAway returns num/den rounded half away from zero (den > 0).
func RoundHalfAway(num, den int) int {
	if num < 0 {
		return -RoundHalfAway(-num, den)
	}
	return (2*num + den) / (2 * den)
}

// pdRow is one row of FIDE's table 8.1.2, values in hundredths.
type pdRow struct {
	lo, hi    int // hi < 0: open-ended
	high, low int
}

var (
	dpTable = map[int]int{} // p in hundredths → dp; undefined entries absent
	pdRows  []pdRow
)

func init() {
	for p := 0; p <= 100; p++ {
		if dp, ok := tables.DP(p); ok {
			dpTable[p] = dp
		}
	}
	for _, r := range tables.PDRows() {
		pdRows = append(pdRows, pdRow{lo: r.Min, hi: r.Max, high: r.High, low: r.Low})
	}
}

// PD is FIDE's table 8.1.2: the expected score, in hundredths, of a player
// rated d above the opponent (no cap: the oracles apply theirs).
func PD(d int) int {
	a := max(d, -d)
	for _, r := range pdRows {
		if a >= r.lo && (r.hi < 0 || a <= r.hi) {
			if d >= 0 {
				return r.high
			}
			return r.low
		}
	}
	panic(fmt.Sprintf("oracletab: no PD row for %d", d))
}

// DP is FIDE's table 8.1.1: the rating difference for a score p in
// hundredths; ok is false where the table is undefined (0% and 100%).
func DP(p int) (dp int, ok bool) {
	dp, ok = dpTable[p]
	return dp, ok
}

// Tournament is a rated chess tournament of an archive with its games; its
// dates are ISO strings, which compare as dates.
type Tournament struct {
	ID         int64
	Start, End string
	Games      []Game
}

// Game is a games.csv row: a bye has no black player.
type Game struct {
	White, Black int64
	WR, BR       string
	Bye          bool
}

// RatedChess is the rated chess tournaments of tournaments.csv rows with
// their games.csv rows, in rating order: end date, start date, id.
func RatedChess(trows, grows []map[string]string) ([]*Tournament, error) {
	tours := map[int64]*Tournament{}
	var order []*Tournament
	for _, r := range trows {
		disc := strings.ToLower(r["discipline"])
		rated := true
		if r["rated"] != "" {
			var err error
			if rated, err = strconv.ParseBool(strings.ToLower(r["rated"])); err != nil {
				return nil, fmt.Errorf("tournament %s: rated %q", r["tournament_id"], r["rated"])
			}
		}
		if !(disc == "" || disc == "chess") || !rated {
			continue
		}
		t := &Tournament{ID: ID64(r["tournament_id"]), Start: r["start_date"], End: r["end_date"]}
		tours[t.ID] = t
		order = append(order, t)
	}
	for _, r := range grows {
		t := tours[ID64(r["tournament_id"])]
		if t == nil {
			continue
		}
		g := Game{White: ID64(r["white_id"]), WR: r["white_result"], BR: r["black_result"]}
		if r["black_id"] == "" {
			g.Bye = true
		} else {
			g.Black = ID64(r["black_id"])
		}
		t.Games = append(t.Games, g)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.End != b.End {
			return a.End < b.End
		}
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return a.ID < b.ID
	})
	return order, nil
}
