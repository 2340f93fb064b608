package report

import (
	"fmt"
	"io"
	"io/fs"

	"github.com/ratelist/ratelist/crosstable"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/tiebreak"
)

// TournamentCards returns what the cards of run out say of each player of
// tournament id, as its site page shows it: the rating he was rated with,
// his rating performance and his change (a per-period rule set's games
// summed, with one decimal). ok is false when the run rated none of it.
func TournamentCards(out string, id int64) (info map[int64]crosstable.Info, ok bool, err error) {
	p := output.Cards.Path(out, "")
	if !exists(p) {
		return nil, false, fmt.Errorf("read %s: %w", p, fs.ErrNotExist)
	}
	cs, err := readCards(p, output.CardGames.Path(out, ""))
	if err != nil {
		return nil, false, fmt.Errorf("read the cards of %s: %w", out, err)
	}
	info = map[int64]crosstable.Info{}
	for i := range cs.cards {
		c := &cs.cards[i]
		if c.TournamentID != id {
			continue
		}
		if _, seen := info[c.PlayerID]; seen {
			continue // the first card of a player, as the site's page takes it
		}
		var v crosstable.Info
		cardInfo(&v, c)
		info[c.PlayerID] = v
	}
	return info, len(info) > 0, nil
}

// TournamentStandings returns the standings run out wrote of tournament
// tt, as its site page shows them: the tiebreak codes and the rows, each
// with its player in tt. ok is false when the run wrote none.
func TournamentStandings(out string, tt *tiebreak.Tournament) (codes []string, entries []crosstable.Entry, ok bool, err error) {
	labels, err := output.StandingsPeriod.Keys(out)
	if err != nil {
		return nil, nil, false, err
	}
	st, err := readStandings(out, labels, func(id int64) bool { return id == tt.ID })
	if err != nil {
		return nil, nil, false, err
	}
	if st[tt.ID] == nil {
		return nil, nil, false, nil
	}
	codes, entries = st[tt.ID].entries(tt)
	return codes, entries, true, nil
}

// WriteStandingsPage writes the standings table x as a page of its own: the
// site's table markup and style, titled title, with no links to the site.
func WriteStandingsPage(w io.Writer, title string, x *crosstable.Table) error {
	css, err := assetFS.ReadFile("assets/style.css")
	if err != nil {
		return fmt.Errorf("write standings page: %w", err)
	}
	cols := siteCols(x.Cols)
	classes, style := stLayouts(x.Cols)
	b := append([]byte(nil), "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"...)
	b = appendEsc(b, title)
	b = append(b, "</title>\n<style>"...)
	b = append(b, styleSheet(css)...)
	b = append(b, style...)
	b = append(b, "</style>\n</head>\n<body>\n<main id=\"main\">\n<h1>"...)
	b = appendEsc(b, title)
	b = append(b, "</h1>\n<section aria-labelledby=\"st-h\" id=\"standings\">\n<h2 id=\"st-h\">Final standings</h2>\n"...)
	b = appendTableStart(b, "st", "list st "+classes, tourCaption(x), cols)
	for i := range x.Rows {
		b = appendTourRow(b, x, &x.Rows[i], func(int64) bool { return false })
	}
	b = appendTableEnd(b)
	b = appendTourLegend(b, x, "")
	b = append(b, "</section>\n</main>\n</body>\n</html>\n"...)
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write standings page: %w", err)
	}
	return nil
}
