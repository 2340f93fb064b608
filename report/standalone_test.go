package report

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/ratelist/ratelist/crosstable"
	"github.com/ratelist/ratelist/tiebreak"
)

// TestStandingsPage: the page of its own holds the site's table markup (the
// rows a tournament page writes, without the links to player pages), its
// style and its legend, and parses as one document.
func TestStandingsPage(t *testing.T) {
	tt := &tiebreak.Tournament{Rounds: 1, Players: []tiebreak.Player{{ID: 1, StartNo: 1, Name: "A <b>"}, {ID: 2, StartNo: 2, Name: "B"}},
		Games: []tiebreak.Game{{Round: 1, White: 0, Black: 1, WhiteResult: '1', BlackResult: '0'}}}
	x := crosstable.Build(crosstable.Input{Tournament: tt, Codes: []string{"BH/C1"}, Rated: true,
		Entries: []crosstable.Entry{{ID: 1, Rank: 1, StartNo: 1, Name: "A <b>", Points: "1", Tiebreaks: []string{"0"}, Player: 0}, {ID: 2, Rank: 2, StartNo: 2, Name: "B", Points: "0", Tiebreaks: []string{"1"}, Player: 1}},
		Info: func(e *crosstable.Entry) crosstable.Info {
			return crosstable.Info{Rating: 1500, Change: 7, HasChange: e.ID == 1}
		}})
	var b bytes.Buffer
	if err := WriteStandingsPage(&b, "Open & Co", x); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	var rows []byte
	for i := range x.Rows {
		rows = appendTourRow(rows, x, &x.Rows[i], func(int64) bool { return false })
	}
	for _, want := range []string{
		"<title>Open &amp; Co</title>",
		".h-rsng :is(td,th)",
		"<table class=\"list st h-rsng t-pbed\" id=st>\n<caption>Final standings and results by round</caption>",
		"<abbr title=\"Buchholz, cut 1\">BH/C1</abbr>",
		"<tbody>\n" + string(rows) + "</table>",
		"<tr><td>1<td>1<th scope=row>A &lt;b&gt;<td>1500<td>2w1<td>1<td>0<td><td>+7\n",
		"<p class=legend>Each round: the opponent's start number, the colour (w, b) and the result.</p>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page[strings.Index(page, "</style>"):])
		}
	}
	if strings.Contains(page, "href=") {
		t.Error("the page links the site")
	}
	if _, err := html.Parse(strings.NewReader(page)); err != nil {
		t.Fatal(err)
	}
}
