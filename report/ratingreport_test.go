package report

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/officer"
	"github.com/ratelist/ratelist/output"
)

// reportRows returns the rows of a rating report: the player's name, then
// the cells, as text.
func reportRows(html string) [][]string {
	var rows [][]string
	for _, line := range strings.Split(html, "\n") {
		if !strings.HasPrefix(line, "<tr><th scope=row>") {
			continue
		}
		name, rest, _ := strings.Cut(line, "<td")
		rest = "<td" + rest
		cells := []string{stripTags(name)}
		for _, c := range strings.Split(rest, "<td")[1:] {
			_, v, _ := strings.Cut(c, ">")
			cells = append(cells, stripTags(v))
		}
		rows = append(rows, cells)
	}
	return rows
}

func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestRatingReport: a rated tournament's rating report holds one row per
// card of cards.parquet (read here through package officer, not the
// report's reader) with the card's numbers; each player's opponents' ratings
// count his rated games and average to his Ra; the performance is Ra + dp,
// as worked by hand for one player; the tournament's page links the report.
func TestRatingReport(t *testing.T) {
	out := demoRun(t)
	site := demoSite(t)
	const id = 1043
	if page := readString(t, filepath.Join(site, tourPage(id))); !strings.Contains(page, `href=../tournaments/1043-rating.html>`) {
		t.Errorf("%s does not link its rating report", tourPage(id))
	}
	html := readString(t, filepath.Join(site, ratingPage(id)))
	if strings.Contains(html, "<script") || !strings.Contains(html, "<caption>") {
		t.Error("the rating report needs a script, or its table has no caption")
	}
	rows := reportRows(html)
	cards, err := officer.ReadCards(out, func(c *output.Card) bool { return c.TournamentID == id })
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(cards) || len(cards) == 0 {
		t.Fatalf("%d rows for %d cards", len(rows), len(cards))
	}
	opt := func(p *int32) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(int(*p))
	}
	for i, c := range cards {
		r := rows[i]
		// name, Ro, opponents, Ra, n, W, We, K, K(W−We), change, after, perf., note
		ro := c.RatingUsed
		if ro == nil {
			ro = c.RatingBefore
		}
		want := []string{c.Name, opt(ro), r[2], opt(c.OppAverage), strconv.Itoa(int(c.Games)), strconv.FormatFloat(c.Score, 'f', -1, 64)}
		for k, w := range want {
			if r[k] != w {
				t.Errorf("row %d (%s) cell %d: %q, want %q", i+1, c.Name, k, r[k], w)
			}
		}
		if opt(c.K) != r[7] || opt(c.RatingAfter) != r[10] || string(appendSigned(nil, int(c.Change))) != r[9] {
			t.Errorf("row %d (%s): K %q, change %q, after %q; the card: %s, %d, %s", i+1, c.Name, r[7], r[9], r[10], opt(c.K), c.Change, opt(c.RatingAfter))
		}
		var sum, n float64
		for _, f := range strings.Fields(r[2]) {
			if v, err := strconv.Atoi(f); err == nil {
				sum, n = sum+float64(v), n+1
			}
		}
		if c.RatingBefore != nil && int32(n) != c.Games {
			t.Errorf("row %d (%s): %v rated opponents, %d games", i+1, c.Name, n, c.Games)
		}
		if c.OppAverage != nil && n > 0 && math.Abs(sum/n-float64(*c.OppAverage)) > 0.5 {
			t.Errorf("row %d (%s): opponents %s average %.1f, Ra %d", i+1, c.Name, r[2], sum/n, *c.OppAverage)
		}
	}
	// Lebedev, Alisa: 4.5 of 8 against Ra 1619; 56 % is dp 43 in FIDE's table.
	found := false
	for _, r := range rows {
		if r[0] == "Lebedev, Alisa" {
			found = true
			if r[3] != "1619" || r[11] != "1662" {
				t.Errorf("Lebedev: Ra %s, performance %s; want 1619 and 1619 + 43 = 1662", r[3], r[11])
			}
		}
	}
	if !found {
		t.Error("no row of Lebedev, Alisa")
	}
}
