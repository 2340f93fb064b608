package report

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/ratelist/ratelist/crosstable"
	"github.com/ratelist/ratelist/tiebreak"
)

// ratingPage is the rating report of tournament id: every player's card of
// it, as FIDE's rating server shows a rated tournament.
func ratingPage(id int64) string { return fmt.Sprintf("tournaments/%d-rating.html", id) }

// tourCards returns the positions in byTP of tournament id's cards.
func (s *site) tourCards(id int64) []int32 {
	i, _ := findTP(s, id, 0)
	j := i
	for j < len(s.byTP) && s.cs.cards[s.byTP[j]].TournamentID == id {
		j++
	}
	return s.byTP[i:j]
}

// maxReportedCards bounds the cards the rating reports show: the tournaments
// of the latest periods get one, as many periods as hold this many cards
// (always the latest), so that a big site stays within its size.
const maxReportedCards = 250_000

// markRatingReports marks the tournaments that get a rating report: those
// with cards of the latest periods, newest first, while their cards number
// at most maxReportedCards.
func (s *site) markRatingReports() {
	var periods []string
	for p := range s.periodTours {
		periods = append(periods, p)
	}
	slices.Sort(periods)
	total := 0
	for i := len(periods) - 1; i >= 0; i-- {
		n := 0
		for _, t := range s.periodTours[periods[i]] {
			n += len(s.tourCards(t.ID))
		}
		if total > 0 && total+n > maxReportedCards {
			return
		}
		total += n
		for _, t := range s.periodTours[periods[i]] {
			t.Reported = t.ID != 0 && len(s.tourCards(t.ID)) > 0
		}
	}
}

// hasRatingReport says whether tournament t has a rating report.
func (s *site) hasRatingReport(t *tourInfo) bool { return t.Reported }

// played says whether a result code is a game played over the board (a
// forfeit or a bye rates nothing).
func played(c byte) bool {
	switch crosstable.ResultText(c) {
	case "1", "½", "0":
		return true
	}
	return false
}

// opponents returns, by player id, the Ro of each opponent of a game played
// in tt in round order (none: an opponent without a rating), nil without
// the pairings.
func (s *site) opponents(t *tourInfo, tt *tiebreak.Tournament) map[int64][]int32 {
	if tt == nil {
		return nil
	}
	games := slices.Clone(tt.Games)
	slices.SortStableFunc(games, func(a, b tiebreak.Game) int { return a.Round - b.Round })
	out := map[int64][]int32{}
	ro := func(p int) int32 {
		if c := s.cardOf(t.ID, tt.Players[p].ID); c != nil {
			return c.Ro()
		}
		return none
	}
	for _, g := range games {
		if g.White < 0 || g.Black < 0 || !played(g.WhiteResult) || !played(g.BlackResult) {
			continue
		}
		w, b := tt.Players[g.White].ID, tt.Players[g.Black].ID
		out[w] = append(out[w], ro(g.Black))
		out[b] = append(out[b], ro(g.White))
	}
	return out
}

// renderRatingReport appends to b tournament t's rating report: per player, in
// the order of the cards (by player), the numbers of his card exactly as
// cards.parquet holds them, the opponents' ratings from the pairings (tt,
// nil when unknown) and the performance.
func (s *site) renderRatingReport(b []byte, t *tourInfo, tt *tiebreak.Tournament) []byte {
	cards := s.tourCards(t.ID)
	opp := s.opponents(t, tt)
	p := s.page("Rating report: "+t.Name, "../", "tournaments")
	p.Base, p.Self = "players/", "../"+ratingPage(t.ID) // each row links its player
	b = appendHead(slices.Grow(b, 2<<10+300*len(cards)), p)
	b = append(b, "<p class=crumb><a href=../"...)
	b = append(b, tourListFile(t.Period)...)
	b = append(b, ">Tournaments</a> › <a href=../"...)
	b = append(b, tourPage(t.ID)...)
	b = append(b, ">"...)
	b = appendEsc(b, t.Name)
	b = append(b, "</a></p>\n<h1>Rating report</h1>\n<p class=\"lead\">"...)
	b = appendEsc(b, t.Name)
	if t.End != 0 {
		b = append(b, ", ended "...)
		b = appendDate(b, t.End)
	}
	if t.Period != "" {
		b = append(b, ", rated into the list of "...)
		b = appendEsc(b, t.Period)
	}
	class := "compact rr"
	if opp != nil {
		class += " o" // the opponents' column: text
	}
	b = append(b, ".</p>\n<div class=scroll><table class=\""...)
	b = append(b, class...)
	b = append(b, "\">\n<caption>Every player's rating card of this tournament</caption>\n<thead><tr><th scope=\"col\">Player</th><th scope=\"col\" class=\"n\"><abbr title=\"rating the tournament was rated with\">Ro</abbr></th>"...)
	if opp != nil {
		b = append(b, "<th scope=\"col\">Opponents' ratings</th>"...)
	}
	b = append(b, "<th scope=\"col\" class=\"n\"><abbr title=\"opponents' average rating\">Ra</abbr></th><th scope=\"col\" class=\"n\"><abbr title=\"games rated\">n</abbr></th><th scope=\"col\" class=\"n\"><abbr title=\"score\">W</abbr></th><th scope=\"col\" class=\"n\"><abbr title=\"expected score\">We</abbr></th><th scope=\"col\" class=\"n\">K</th><th scope=\"col\" class=\"n\"><abbr title=\"K × (W − We)\">K(W−We)</abbr></th><th scope=\"col\" class=\"n\">Change</th><th scope=\"col\" class=\"n\">After</th><th scope=\"col\" class=\"n\"><abbr title=\"rating performance: Ra + dp\">Perf.</abbr></th><th scope=\"col\">Note</th></tr></thead>\n<tbody>\n"...)
	perGame := false
	// Rows are kept short (no end tags, no class per cell: .rr aligns
	// them): a big site has millions of cards.
	for _, ci := range cards {
		c := &s.cs.cards[ci]
		b = append(b, "<tr><th scope=row>"...)
		name := s.names[c.PlayerID]
		if s.hasPage(c.PlayerID) {
			b = append(b, "<a href="...)
			b = strconv.AppendInt(b, c.PlayerID, 10)
			b = append(b, ".html>"...)
			b = appendEsc(b, name)
			b = append(b, "</a>"...)
		} else {
			b = appendEsc(b, name)
		}
		b = appendOpt(append(b, "<td>"...), c.Ro())
		if opp != nil {
			b = append(b, "<td>"...)
			for i, r := range opp[c.PlayerID] {
				if i > 0 {
					b = append(b, ' ')
				}
				if r == none {
					b = append(b, "–"...)
				} else {
					b = strconv.AppendInt(b, int64(r), 10)
				}
			}
		}
		b = appendOpt(append(b, "<td>"...), c.OppAverage)
		b = strconv.AppendInt(append(b, "<td>"...), int64(c.Games), 10)
		b = strconv.AppendFloat(append(b, "<td>"...), c.Score, 'f', -1, 64)
		b = appendF(append(b, "<td>"...), c.Expected, 2)
		b = appendOpt(append(b, "<td>"...), c.K)
		b = appendF(append(b, "<td>"...), c.ChangeUnrounded, 1)
		switch cl := signClass(int(c.Change)); {
		case c.PerGame:
			perGame = true
			b = append(b, "<td>"...)
		case cl != "":
			b = appendSigned(append(append(append(b, "<td class="...), cl...), '>'), int(c.Change))
		default:
			b = appendSigned(append(b, "<td>"...), int(c.Change))
		}
		b = appendOpt(append(b, "<td>"...), c.RatingAfter)
		b = append(b, "<td>"...)
		if p, ok := performance(c); ok {
			b = strconv.AppendInt(b, int64(p), 10)
		}
		b = append(b, "<td>"...)
		b = appendEsc(b, cardNote(s.cs.str(c.Reason)))
		b = append(b, '\n')
	}
	b = append(b, "</table></div>\n<p class=\"muted small\">Ro: the rating the tournament was rated with (a new player's provisional rating while he has too few games for a first rating). Ra: the opponents' average, We: the expected score, K(W−We): the change before rounding, as the rating card holds them. Perf.: Ra plus the rating difference FIDE's table gives for the percentage scored."...)
	if perGame {
		b = append(b, " Under the FIDE rules a player's games are rated together at the end of the list period: these rows sum his games of this tournament, and the rounded change is on his player page, in the row of the period."...)
	}
	if opp == nil {
		b = append(b, " The opponents' ratings are shown when the report has the archive's pairings."...)
	}
	return appendFoot(append(b, "</p>\n"...))
}

// cardNote is a card's reason as the report's note: none for a game rated
// as usual, else the card's reason code (docs/operations.md lists them).
func cardNote(r string) string {
	switch r {
	case "rated", "fide-game":
		return ""
	}
	return r
}
