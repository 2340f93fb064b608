package officer

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// Diff is what changed from one list to a later one.
type Diff struct {
	From, To string
	Entries  []Entry
	Exits    []Exit
	Moves    []Move // players on both lists whose rank or rating changed
}

// Entry is a player on the later list and not on the earlier one.
type Entry struct {
	output.ListRow
	Reason string // "new" (first list) or "returned"
}

// Exit is a player on the earlier list and not on the later one.
type Exit struct {
	output.ListRow
	Reason string
}

// Move is a player on both lists.
type Move struct {
	PlayerID                  int64
	Name                      string
	RankBefore, RankAfter     int32
	RatingBefore, RatingAfter int32
}

// The reasons an exit is given, as far as the outputs tell them.
const (
	ExitBelowFloor = "below-floor" // a card that took the player off the list (rating.Removes) between the lists
	ExitInactive   = "inactive"    // flagged i on the earlier list
	ExitUnknown    = "not-listed"  // the outputs do not say why
)

// LatestTwo picks the lists Diff compares when they are not given: the two
// latest, or the given one and the one before it.
func LatestTwo(out string, args []string) (from, to string, err error) {
	labels, err := Periods(out)
	if err != nil {
		return "", "", err
	}
	switch len(args) {
	case 2:
		return args[0], args[1], nil
	case 1:
		i := slices.Index(labels, args[0])
		if i < 0 {
			return "", "", fmt.Errorf("list %s: %w", args[0], ErrNoList)
		}
		if i == 0 {
			return "", "", fmt.Errorf("list %s is the first: give the earlier list too", args[0])
		}
		return labels[i-1], args[0], nil
	}
	if len(labels) < 2 {
		return "", "", fmt.Errorf("%s holds %d list(s): a diff needs two", out, len(labels))
	}
	return labels[len(labels)-2], labels[len(labels)-1], nil
}

// DiffLists compares the lists from and to of out. An exit's reason comes from
// the cards of the periods after from up to to (a card whose reason removes
// the player, rating.Removes) or
// from the earlier list's flags (i: inactive).
func DiffLists(out, from, to string) (*Diff, error) {
	before, err := ReadList(out, from)
	if err != nil {
		return nil, err
	}
	after, err := ReadList(out, to)
	if err != nil {
		return nil, err
	}
	gone := leavers(before, after)
	floor := map[int64]bool{}
	if len(gone) > 0 {
		cards, err := ReadCards(out, func(c *output.Card) bool {
			return gone[c.PlayerID] && c.Period > from && c.Period <= to && rating.Removes(c.Reason)
		})
		if err != nil {
			return nil, err
		}
		for _, c := range cards {
			floor[c.PlayerID] = true
		}
	}
	return Compare(from, to, before, after, floor), nil
}

// Compare is the diff of the lists before (labelled from) and after (to).
// belowFloor holds the players who fell below the rating floor in the periods
// after from up to to.
func Compare(from, to string, before, after []output.ListRow, belowFloor map[int64]bool) *Diff {
	// Most players are on both lists and most of them move.
	d := &Diff{From: from, To: to, Moves: make([]Move, 0, len(after))}
	was := make(map[int64]int32, len(before)) // a player's row in before
	for i := range before {
		was[before[i].PlayerID] = int32(i)
	}
	stays := make([]bool, len(before)) // by was's row: the player is on after too
	for i := range after {
		e := &after[i]
		j, ok := was[e.PlayerID]
		if !ok {
			reason := "returned"
			if hasFlag(e.Flags, "new") {
				reason = "new"
			}
			d.Entries = append(d.Entries, Entry{*e, reason})
			continue
		}
		stays[j] = true
		if old := &before[j]; old.Rank != e.Rank || old.Rating != e.Rating {
			d.Moves = append(d.Moves, Move{e.PlayerID, e.Name, old.Rank, e.Rank, old.Rating, e.Rating})
		}
	}
	for _, e := range before {
		if stays[was[e.PlayerID]] {
			continue
		}
		reason := ExitUnknown
		switch {
		case belowFloor[e.PlayerID]:
			reason = ExitBelowFloor
		case hasFlag(e.Flags, "i"):
			reason = ExitInactive
		}
		d.Exits = append(d.Exits, Exit{e, reason})
	}
	return d
}

// leavers is the players on before and not on after.
func leavers(before, after []output.ListRow) map[int64]bool {
	is := make(map[int64]bool, len(after))
	for _, e := range after {
		is[e.PlayerID] = true
	}
	gone := map[int64]bool{}
	for _, e := range before {
		if !is[e.PlayerID] {
			gone[e.PlayerID] = true
		}
	}
	return gone
}

// hasFlag tells whether a list's flags cell (flags separated by spaces or
// commas) holds flag.
func hasFlag(flags, flag string) bool {
	return slices.Contains(strings.FieldsFunc(flags, func(r rune) bool { return r == ' ' || r == ',' || r == ';' }), flag)
}

// Movers is the top moves by rating change: up (largest gains first) or down
// (largest losses first), ties by player_id.
func (d *Diff) Movers(n int, up bool) []Move {
	var m []Move
	for _, x := range d.Moves {
		if ch := x.RatingAfter - x.RatingBefore; (up && ch > 0) || (!up && ch < 0) {
			m = append(m, x)
		}
	}
	slices.SortFunc(m, func(a, b Move) int {
		ca, cb := a.RatingAfter-a.RatingBefore, b.RatingAfter-b.RatingBefore
		if !up {
			ca, cb = -ca, -cb
		}
		return cmp.Or(cmp.Compare(cb, ca), cmp.Compare(a.PlayerID, b.PlayerID))
	})
	return m[:min(n, len(m))]
}

var diffHeader = []string{"kind", "player_id", "name", "rank_before", "rank_after", "rating_before", "rating_after", "change", "reason"}

// Table is the whole diff as one table, for CSV: every entry, exit and move,
// with kind entry, exit or move.
func (d *Diff) Table() Table {
	t := Table{Header: diffHeader}
	for _, e := range d.Entries {
		t.Rows = append(t.Rows, []string{"entry", itoa(e.PlayerID), e.Name, "", itoa(e.Rank), "", itoa(e.Rating), "", e.Reason})
	}
	for _, e := range d.Exits {
		t.Rows = append(t.Rows, []string{"exit", itoa(e.PlayerID), e.Name, itoa(e.Rank), "", itoa(e.Rating), "", "", e.Reason})
	}
	for _, m := range d.Moves {
		t.Rows = append(t.Rows, moveRow("move", m))
	}
	return t
}

func moveRow(kind string, m Move) []string {
	return []string{kind, itoa(m.PlayerID), m.Name, itoa(m.RankBefore), itoa(m.RankAfter), itoa(m.RatingBefore), itoa(m.RatingAfter), signed(m.RatingAfter - m.RatingBefore), ""}
}

// Tables is the diff for people: a summary line, the entries, the exits and
// the top movers up and down.
func (d *Diff) Tables(top int) []Table {
	entries := Table{Title: fmt.Sprintf("Lists %s → %s: %d entries, %d exits, %d rank changes, %d rating changes\n\nEntries", d.From, d.To,
		len(d.Entries), len(d.Exits), d.RankChanges(), d.RatingChanges()), Header: []string{"rank", "player_id", "name", "rating", "reason"}}
	for _, e := range d.Entries {
		entries.Rows = append(entries.Rows, []string{itoa(e.Rank), itoa(e.PlayerID), e.Name, itoa(e.Rating), e.Reason})
	}
	exits := Table{Title: "Exits", Header: []string{"rank_before", "player_id", "name", "rating_before", "reason"}}
	for _, e := range d.Exits {
		exits.Rows = append(exits.Rows, []string{itoa(e.Rank), itoa(e.PlayerID), e.Name, itoa(e.Rating), e.Reason})
	}
	tables := []Table{entries, exits}
	for _, up := range []bool{true, false} {
		t := Table{Title: fmt.Sprintf("Biggest gains (top %d)", top), Header: []string{"player_id", "name", "rank_before", "rank_after", "rating_before", "rating_after", "change"}}
		if !up {
			t.Title = fmt.Sprintf("Biggest losses (top %d)", top)
		}
		for _, m := range d.Movers(top, up) {
			t.Rows = append(t.Rows, moveRow("", m)[1:8])
		}
		tables = append(tables, t)
	}
	return tables
}

// RankChanges is the number of players on both lists whose rank changed.
func (d *Diff) RankChanges() int {
	n := 0
	for _, m := range d.Moves {
		if m.RankBefore != m.RankAfter {
			n++
		}
	}
	return n
}

// RatingChanges is the number of players on both lists whose rating changed.
func (d *Diff) RatingChanges() int {
	n := 0
	for _, m := range d.Moves {
		if m.RatingBefore != m.RatingAfter {
			n++
		}
	}
	return n
}

// signed is a change with its sign: +12, -7, 0.
func signed(v int32) string {
	if v > 0 {
		return "+" + itoa(v)
	}
	return itoa(v)
}
