package report

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/officer"
)

// TestChangesPages: every list but the first links to its changes page, which
// says what `ratelist diff` says of the two lists; a changed list rewrites its
// own changes page and leaves the earlier ones as they were, and an exit shows
// its reason.
func TestChangesPages(t *testing.T) {
	out := t.TempDir()
	if err := os.CopyFS(out, os.DirFS(demoRun(t))); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	opt := Options{Out: out, Site: dir, Archive: ratelist.Demo()}
	if _, err := Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	labels, err := officer.Periods(out)
	if err != nil || len(labels) < 3 {
		t.Fatalf("demo lists %v, %v", labels, err)
	}
	s := &site{runLists: runLists{periods: labels}}
	for i, to := range labels {
		page := readString(t, filepath.Join(dir, s.listFile(to)))
		link := `<a href="` + changesFile(to) + `">`
		if i == 0 {
			if strings.Contains(page, "changes-") {
				t.Errorf("%s: the first list links to changes", to)
			}
			continue
		}
		if !strings.Contains(page, link) {
			t.Errorf("%s: no link %s", s.listFile(to), link)
		}
		d, err := officer.DiffLists(out, labels[i-1], to)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("%d entries, %d exits, %d rank changes, %d rating changes.", len(d.Entries), len(d.Exits), d.RankChanges(), d.RatingChanges())
		changes := readString(t, filepath.Join(dir, changesFile(to)))
		if !strings.Contains(changes, want) {
			t.Errorf("%s: no %q", changesFile(to), want)
		}
		if up := d.Movers(topMovers, true); len(up) > 0 && !strings.Contains(changes, fmt.Sprintf(`<a href="players/%d.html">`, up[0].PlayerID)) {
			t.Errorf("%s: the biggest gain (%d) is not shown", changesFile(to), up[0].PlayerID)
		}
	}

	// Player a leaves the latest list flagged inactive on the one before,
	// player b leaves it unflagged.
	last, prev := labels[len(labels)-1], labels[len(labels)-2]
	before := filepath.Join(dir, changesFile(prev))
	stBefore, _ := os.Stat(before)
	prevRows := testutil.ReadCSV(t, filepath.Join(out, "lists", prev+".csv"))
	a, b := prevRows[1][1], prevRows[2][1]
	prevRows[1][9] = strings.TrimSpace(prevRows[1][9] + " i")
	writeCSVRows(t, filepath.Join(out, "lists", prev+".csv"), prevRows)
	var kept [][]string
	for _, r := range testutil.ReadCSV(t, filepath.Join(out, "lists", last+".csv")) {
		if r[1] != a && r[1] != b {
			kept = append(kept, r)
		}
	}
	writeCSVRows(t, filepath.Join(out, "lists", last+".csv"), kept)
	if _, err := Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	changes := readString(t, filepath.Join(dir, changesFile(last)))
	for _, want := range []string{
		fmt.Sprintf(`<a href="players/%s.html">%s</a></td><td class="n">%s</td><td>inactive</td>`, a, prevRows[1][2], prevRows[1][3]),
		fmt.Sprintf(`<a href="players/%s.html">%s</a></td><td class="n">%s</td><td>not listed`, b, prevRows[2][2], prevRows[2][3]),
	} {
		if !strings.Contains(changes, want) {
			t.Errorf("%s: no exit %q", changesFile(last), want)
		}
	}
	if stAfter, _ := os.Stat(before); !os.SameFile(stBefore, stAfter) {
		// The list of prev changed (a's flag) so its own page is rewritten;
		// its changes page shows no flags and must stay.
		t.Errorf("%s was rewritten, though its lists' entries, exits and moves did not change", changesFile(prev))
	}
}

// TestBelowFloor: an exit after a card that left the player below the floor
// is given that reason, only for the periods the card falls in.
func TestBelowFloor(t *testing.T) {
	cs := &cardSet{strs: []string{"2025-02", "fide-below-floor", "fide-period"}}
	cs.cards = []card{{PlayerID: 7, Period: 0, Reason: 1}, {PlayerID: 8, Period: 0, Reason: 2}}
	s := &site{cardIndex: cardIndex{belowFloor: belowFloorCards(cs)}}
	if got := s.fellBelowFloor("2025-01", "2025-02"); len(got) != 1 || !got[7] {
		t.Errorf("2025-01 → 2025-02: %v, want player 7", got)
	}
	if got := s.fellBelowFloor("2025-02", "2025-03"); len(got) != 0 {
		t.Errorf("2025-02 → 2025-03: %v, want none", got)
	}
}

func writeCSVRows(t *testing.T, path string, rows [][]string) {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSplitPlainCSV: CSV text splits into the records encoding/csv reads;
// text it may not split (a quote or a line break in a quoted field, a stray
// quote, ragged records) is left to encoding/csv.
func TestSplitPlainCSV(t *testing.T) {
	for _, text := range []string{
		"a,b,c\n1,2,3\n",
		"a,b,c\r\n1,,3\r\n\r\n4,5,6",
		"a\n\nx\n",
		"a,b\n,\n",
		"",
		"r,id,name,x\n1,2,\"Doe, Jane\",\n2,3,\"\",4\n3,4,\"Roe\",\"5\"\r\n",
	} {
		got, ok := splitPlainCSV(text)
		want, err := csv.NewReader(strings.NewReader(text)).ReadAll()
		if !ok || err != nil || !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
			t.Errorf("%q: split %q (ok %v), encoding/csv %q (%v)", text, got, ok, want, err)
		}
	}
	for _, text := range []string{"a,b\n\"x\"\"y\",z\n", "a,b\n\"x\ny\",z\n", "a,b\n\"x\"y,z\n", "a,b\nx\"y,z\n", "a,b\n1\n"} {
		if got, ok := splitPlainCSV(text); ok {
			t.Errorf("%q: split %q, want it left to encoding/csv", text, got)
		}
	}
}

// TestTopGains: the largest gains, ties by rank and then in list order, as
// a stable sort of every gain gives them.
func TestTopGains(t *testing.T) {
	var rows []listRow
	for i := range 500 {
		rows = append(rows, listRow{Rank: (i * 7) % 50, ID: int64(i), Change: (i*13)%23 - 5})
	}
	var all []listRow
	for _, r := range rows {
		if r.Change > 0 {
			all = append(all, r)
		}
	}
	slices.SortStableFunc(all, func(a, b listRow) int {
		return cmp.Or(cmp.Compare(b.Change, a.Change), cmp.Compare(a.Rank, b.Rank))
	})
	for _, n := range []int{1, 10, 400} {
		if got, want := topGains(rows, n), all[:min(n, len(all))]; !slices.EqualFunc(got, want, func(a, b listRow) bool { return a.ID == b.ID && a.Rank == b.Rank && a.Change == b.Change }) {
			t.Errorf("top %d gains:\n%v\nwant\n%v", n, got, want)
		}
	}
}

// TestCardOrders: the cards bucketed by the archive's indexes are in the
// order of sorting them, by player and by tournament and player.
func TestCardOrders(t *testing.T) {
	s := &site{opt: Options{Out: demoRun(t), Archive: ratelist.Demo(), Log: slog.New(slog.DiscardHandler)}}
	if err := s.load(context.Background()); err != nil {
		t.Fatal(err)
	}
	cards := s.cs.cards
	byPlayer := cardOrder(cards, func(c *card) int64 { return c.PlayerID })
	byTP := cardOrder(cards, func(c *card) int64 { return c.TournamentID })
	if len(cards) == 0 || !slices.Equal(s.byPlayer, byPlayer) || !slices.Equal(s.byTP, byTP) {
		t.Errorf("%d cards: bucketed orders differ from the sorted ones", len(cards))
	}
	if !s.cardOrders() {
		t.Errorf("the demo's cards were sorted, not bucketed")
	}
	// Shuffled within a player, the buckets keep the order they are given.
	got := bucketOrder([]int32{3, 2, 1, 0}, []int32{1, 0, 1, 0}, 2)
	if want := []int32{3, 1, 2, 0}; !slices.Equal(got, want) {
		t.Errorf("bucketOrder = %v, want %v", got, want)
	}
}

// TestIsSite: a folder is a site Build wrote only when its marker is a
// regular file there; a missing marker, a folder or a link in its place is not.
func TestIsSite(t *testing.T) {
	dir := t.TempDir()
	site := func(name string) string { return filepath.Join(dir, name) }
	testutil.WriteFiles(t, dir, map[string]string{
		"site/" + marker: markerHead, "plain/index.html": "page", "elsewhere/" + marker: markerHead,
	})
	if err := os.MkdirAll(filepath.Join(site("folder"), marker), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(site("linked"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(site("elsewhere"), marker), filepath.Join(site("linked"), marker)); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"site": true, "plain": false, "folder": false, "linked": false, "missing": false} {
		if got := IsSite(site(name)); got != want {
			t.Errorf("IsSite(%s) = %v, want %v", name, got, want)
		}
	}
}

// TestKeysFollowPlayersAndTournaments: the hashes the keys take once per
// player or tournament (indexPlayers, loadTournaments) still change a
// tournament's key when one of its players is renamed or changes club, and a
// player's key when one of his tournaments is renamed.
func TestKeysFollowPlayersAndTournaments(t *testing.T) {
	out := demoRun(t)
	s := &site{opt: Options{Out: out, Archive: ratelist.Demo(), Log: slog.New(slog.DiscardHandler)}}
	if err := s.load(context.Background()); err != nil {
		t.Fatal(err)
	}
	var c *card
	for i := range s.cs.cards {
		if cc := &s.cs.cards[i]; cc.TournamentID != 0 && s.stFile[cc.TournamentID] != "" && s.arch.Players.Index(cc.PlayerID) >= 0 {
			c = cc
			break
		}
	}
	if c == nil {
		t.Fatal("no card of a tournament with standings")
	}
	tid, pid := c.TournamentID, c.PlayerID
	var k keyer
	tourKey := func() uint64 { return s.tourKey(&k, s.tours[tid], 0) }

	before := tourKey()
	s.names[pid] += " Renamed"
	s.indexPlayers()
	if tourKey() == before {
		t.Errorf("tournament %d: key unchanged after player %d was renamed", tid, pid)
	}

	before = tourKey()
	i := s.arch.Players.Index(pid)
	s.arch.Players.Club[i] += " Renamed"
	s.indexPlayers()
	if err := s.readStandingsFiles(out); err != nil {
		t.Fatal(err)
	}
	if tourKey() == before {
		t.Errorf("tournament %d: key unchanged after player %d changed club", tid, pid)
	}

	before = s.playerKey(&k, pid)
	ti := s.arch.TournamentIndex(tid)
	s.arch.Tournaments[ti].Name += " Renamed"
	s.torder = nil
	if err := s.loadTournaments(); err != nil {
		t.Fatal(err)
	}
	if s.playerKey(&k, pid) == before {
		t.Errorf("player %d: key unchanged after tournament %d was renamed", pid, tid)
	}
}
