package report

import (
	"slices"

	"github.com/ratelist/ratelist/officer"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// The changes page of a rating list shows what `ratelist diff` shows between
// it and the list before: entries, exits with their reason, how many ranks
// and ratings changed, and the biggest movers.

// changesFile is the page of the changes from the list before period to it.
func changesFile(period string) string { return "changes-" + period + ".html" }

// maxChangeRows is the number of entries, and of exits, a changes page shows,
// to keep it small; `ratelist diff` lists them all.
const maxChangeRows = 100

// topMovers is the number of biggest gains, and of losses, shown.
const topMovers = 10

// changesPage is the data of changes-PERIOD.html.
type changesPage struct {
	page
	From, To             string
	FromFile, ToFile     string
	Entries, Exits       []changeRow
	NEntries, NExits     int
	RankChanges, Ratings int
	Gains, Losses        []changeRow
	Max                  int
}

// changeRow is a player in one of the tables of a changes page; a rank is 0
// when the player is not on that list.
type changeRow struct {
	ID                        int64
	Link                      bool
	Name                      string
	RankBefore, RankAfter     int32
	RatingBefore, RatingAfter int32
	Change                    int
	Reason                    string
}

// reasonText is how the page words the diff's reasons.
var reasonText = map[string]string{
	"new":                  "new player",
	"returned":             "returned",
	officer.ExitBelowFloor: "fell below the rating floor",
	officer.ExitInactive:   "inactive",
	officer.ExitUnknown:    "not listed (no reason in the outputs)",
}

// writeChanges writes the changes page from the list from (rows before) to
// the list to (rows after), both as listEntries makes them.
func (s *site) writeChanges(from, to string, before, after []output.ListRow, key uint64) error {
	d := officer.Compare(from, to, before, after, s.fellBelowFloor(from, to))
	cp := changesPage{page: s.page("List changes "+to, "", "list"), From: from, To: to, FromFile: s.listFile(from),
		ToFile: s.listFile(to), NEntries: len(d.Entries), NExits: len(d.Exits), RankChanges: d.RankChanges(),
		Ratings: d.RatingChanges(), Max: maxChangeRows}
	for _, e := range d.Entries[:min(len(d.Entries), maxChangeRows)] {
		cp.Entries = append(cp.Entries, s.changeRow(e.PlayerID, e.Name, 0, e.Rank, 0, e.Rating, e.Reason))
	}
	for _, e := range d.Exits[:min(len(d.Exits), maxChangeRows)] {
		cp.Exits = append(cp.Exits, s.changeRow(e.PlayerID, e.Name, e.Rank, 0, e.Rating, 0, e.Reason))
	}
	for _, m := range d.Movers(topMovers, true) {
		cp.Gains = append(cp.Gains, s.changeRow(m.PlayerID, m.Name, m.RankBefore, m.RankAfter, m.RatingBefore, m.RatingAfter, ""))
	}
	for _, m := range d.Movers(topMovers, false) {
		cp.Losses = append(cp.Losses, s.changeRow(m.PlayerID, m.Name, m.RankBefore, m.RankAfter, m.RatingBefore, m.RatingAfter, ""))
	}
	return s.putPage(changesFile(to), "changes.html", &cp, key)
}

func (s *site) changeRow(id int64, name string, rankBefore, rankAfter, before, after int32, reason string) changeRow {
	r := changeRow{ID: id, Link: s.hasPage(id), Name: name, RankBefore: rankBefore, RankAfter: rankAfter,
		RatingBefore: before, RatingAfter: after, Change: int(after - before), Reason: reason}
	if t, ok := reasonText[reason]; ok {
		r.Reason = t
	}
	return r
}

// listEntries is a list as the diff takes it, in dst's room.
func listEntries(dst []output.ListRow, rows []listRow) []output.ListRow {
	out := slices.Grow(dst[:0], len(rows))[:len(rows)]
	for i, r := range rows {
		out[i] = output.ListRow{Rank: int32(r.Rank), PlayerID: r.ID, Name: r.Name, Rating: int32(r.Rating), Flags: r.Flags}
	}
	return out
}

// fellBelowFloor is the players with a card of the periods after from up to
// to that left them below the rating floor.
func (s *site) fellBelowFloor(from, to string) map[int64]bool {
	out := map[int64]bool{}
	for id, periods := range s.belowFloor {
		for _, p := range periods {
			if p > from && p <= to {
				out[id] = true
			}
		}
	}
	return out
}

// belowFloorCards is, by player, the periods of his cards that left him below
// the rating floor.
func belowFloorCards(cs *cardSet) map[int64][]string {
	out := map[int64][]string{}
	for i := range cs.cards {
		if c := &cs.cards[i]; rating.Removes(cs.str(c.Reason)) {
			out[c.PlayerID] = append(out[c.PlayerID], cs.str(c.Period))
		}
	}
	return out
}
