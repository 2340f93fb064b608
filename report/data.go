package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/toplist"
)

// listRow is one row of lists/PERIOD.csv.
type listRow struct {
	Rank        int
	ID          int64
	Name        string
	Rating      int
	Change      int
	NoChange    bool // change empty: not on the list before
	GamesPeriod int
	GamesTotal  int
	K           int
	NoK         bool // k empty: a rule set without K
	Category    string
	Flags       string
	Added       []string // the cells of the rule set's own columns, after flags (site.added)
}

// none marks an empty optional number in a card.
const none = math.MinInt32

// card is one row of a player's rating card, kept compact because a big run
// has millions: strings are interned, empty numbers are none or NaN.
type card struct {
	TournamentID    int64
	PlayerID        int64
	EndDate         int32
	Period, Reason  uint16 // indexes into cardSet.strs
	Games           int32
	RatingBefore    int32
	RatingUsed      int32
	OppAverage      int32
	D, K            int32
	Change          int32
	RatingAfter     int32
	Score           float64
	Expected        float64
	ChangeUnrounded float64
	// PerGame marks the folded per-game rows of one tournament (a per-period rule set): the
	// change is rounded once per period, on the period's row.
	PerGame bool
}

// Ro is the rating the tournament was rated with: rating_used (which also holds
// a newcomer's initial rating), else the rating before.
func (c *card) Ro() int32 {
	if c.RatingUsed != none {
		return c.RatingUsed
	}
	return c.RatingBefore
}

// cardSet is cards.parquet in file order (the rating order).
type cardSet struct {
	cards []card
	strs  []string // interned periods and reasons
	names map[int64]string
}

func (cs *cardSet) str(i uint16) string { return cs.strs[i] }

// perGame says whether reason is a per-game row of a per-period rule set.
func perGame(reason string) bool { return strings.HasSuffix(reason, "-game") }

// addGame folds a per-game row into the previous row when that is the same
// player's game in the same tournament.
// w and pd are the game's score and expected score when the file has them
// (else NaN: the row's score and expected score count).
func (cs *cardSet) addGame(c card, w, pd float64) {
	if math.IsNaN(w) {
		w = c.Score
	}
	if math.IsNaN(pd) {
		pd = c.Expected
	}
	if n := len(cs.cards); n > 0 {
		p := &cs.cards[n-1]
		if p.PerGame && p.PlayerID == c.PlayerID && p.TournamentID == c.TournamentID && p.Period == c.Period && p.Reason == c.Reason {
			p.Games++
			p.Score += w
			p.Expected += pd
			p.ChangeUnrounded += c.ChangeUnrounded
			return
		}
	}
	c.PerGame = true
	c.Games, c.Score, c.Expected = 1, w, pd
	c.OppAverage, c.D, c.RatingAfter, c.Change = none, none, none, 0
	cs.cards = append(cs.cards, c)
}

// summary is the part of summary.json the report uses.
type summary struct {
	Archive    string `json:"archive"`
	Rules      string `json:"rules"`
	Period     string `json:"period"`
	Tournament int    `json:"tournaments"`
	Rated      int    `json:"tournaments_rated"`
	Listed     int    `json:"players_listed"`
	// Provisional is the period listed while still open, "" when none.
	Provisional string `json:"provisional"`
	// TopLists are the rules file's top-list settings, nil for the defaults.
	TopLists *toplist.Settings `json:"toplists"`
}

// csvTable reads a CSV file with a header and returns, for each wanted column,
// its position (-1 when absent) and the records.
func csvTable(path string, want ...string) ([]int, [][]string, error) {
	head, recs, err := csvRecords(path)
	if err != nil {
		return nil, nil, err
	}
	pos := make([]int, len(want))
	for i, w := range want {
		pos[i] = -1
		for j, h := range head {
			if h == w {
				pos[i] = j
			}
		}
	}
	return pos, recs, nil
}

// csvRecords reads a CSV file with a header: the header and the records.
func csvRecords(path string) ([]string, [][]string, error) {
	text, err := readText(path)
	if err != nil {
		return nil, nil, err
	}
	recs, ok := splitPlainCSV(text)
	if !ok {
		r := csv.NewReader(strings.NewReader(text))
		if recs, err = r.ReadAll(); err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
	if len(recs) == 0 {
		return nil, nil, fmt.Errorf("read %s: %w", path, io.EOF)
	}
	return recs[0], recs[1:], nil
}

// readText reads the file at path as a string, into the string's own memory
// (not a byte slice copied).
func readText(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var sb strings.Builder
	if fi, err := f.Stat(); err == nil {
		sb.Grow(int(fi.Size()))
	}
	if _, err := io.Copy(&sb, f); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// splitPlainCSV splits CSV text into its records as encoding/csv would,
// fields sharing the text's memory, so that a rebuild's 25 lists cost no
// allocation per field. ok is false, and encoding/csv reads the text, when a
// quoted field holds a quote or a line break, a quote is out of place, or
// the records differ in length.
func splitPlainCSV(text string) (recs [][]string, ok bool) {
	n := -1
	var fields []string // every record's, in one array
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		if n < 0 {
			n = strings.Count(line, ",") + 1 // at least the header's fields
			lines := strings.Count(text, "\n") + 2
			fields = make([]string, 0, n*lines)
			recs = make([][]string, 0, lines)
		}
		rec := fields[len(fields):len(fields):cap(fields)]
		for {
			if strings.HasPrefix(line, `"`) {
				j := strings.IndexByte(line[1:], '"')
				if j < 0 {
					return nil, false
				}
				f, rest := line[1:1+j], line[2+j:]
				if rest != "" && rest[0] != ',' {
					return nil, false
				}
				rec = append(rec, f)
				if rest == "" {
					break
				}
				line = rest[1:]
				continue
			}
			i := strings.IndexByte(line, ',')
			if i < 0 {
				i = len(line)
			}
			if strings.IndexByte(line[:i], '"') >= 0 {
				return nil, false
			}
			rec = append(rec, line[:i])
			if i == len(line) {
				break
			}
			line = line[i+1:]
		}
		if len(recs) == 0 {
			n = len(rec)
		}
		if len(rec) != n {
			return nil, false
		}
		fields = fields[:len(fields)+n]
		recs = append(recs, rec[:n:n])
	}
	return recs, true
}

func field(rec []string, pos int) string {
	if pos < 0 || pos >= len(rec) {
		return ""
	}
	return rec[pos]
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func readList(path string) ([]listRow, error) {
	pos, recs, err := csvTable(path, "rank", "player_id", "name", "rating", "change", "games_period", "games_total", "k", "category", "flags")
	if err != nil {
		return nil, err
	}
	if pos[1] < 0 || pos[3] < 0 {
		return nil, fmt.Errorf("read %s: %w", path, ErrBadOutput)
	}
	rows := make([]listRow, len(recs))
	for i, rec := range recs {
		id, err := strconv.ParseInt(field(rec, pos[1]), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("read %s row %d: player_id: %w", path, i+1, err)
		}
		rows[i] = listRow{
			Rank: atoi(field(rec, pos[0])), ID: id, Name: field(rec, pos[2]), Rating: atoi(field(rec, pos[3])),
			Change: atoi(field(rec, pos[4])), NoChange: field(rec, pos[4]) == "", GamesPeriod: atoi(field(rec, pos[5])), GamesTotal: atoi(field(rec, pos[6])),
			K: atoi(field(rec, pos[7])), NoK: field(rec, pos[7]) == "", Category: field(rec, pos[8]), Flags: field(rec, pos[9]),
		}
		if pos[9] >= 0 && len(rec) > pos[9]+1 {
			rows[i].Added = rec[pos[9]+1:]
		}
	}
	return rows, nil
}

// addedColumns are the columns a rating list has after flags, the rule
// set's own, with the headings its declaration gives them (the registered
// rule set that declares exactly these list columns; their names otherwise).
func addedColumns(path string) ([]rating.Column, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Only the header is read: the list itself was read by readList.
	head, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	names := strings.Split(strings.TrimSuffix(head, "\n"), ",")
	i := slices.Index(names, "flags")
	if i < 0 || i == len(names)-1 {
		return nil, nil
	}
	names = names[i+1:]
	for _, d := range rating.Definitions() {
		if slices.EqualFunc(d.Columns.List, names, func(c rating.Column, n string) bool { return c.Name == n }) {
			return d.Columns.List, nil
		}
	}
	cols := make([]rating.Column, len(names))
	for i, n := range names {
		cols[i].Name = n
	}
	return cols, nil
}

// periods lists the periods of the files of kind f (a list) in out, sorted.
func periods(out string, f *output.File) ([]string, error) {
	ps, err := f.Keys(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return ps, err
}

func readSummary(path string) (*summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return &s, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
