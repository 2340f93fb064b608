package trf

import (
	"os"
	"testing"
	"time"

	"github.com/ratelist/ratelist/tiebreak"
)

// TestRealFiles reads public files as their writers wrote them (testdata/trf-real,
// PROVENANCE.md there) and a file in lichess's exact layout. The counts are
// derived by hand from the files:
//
// Irish Junior Championship 2011 (Windows-1252, 34 players, 5 rounds): rounds
// without a game are `0000 -  `: R1 players 4 and 19, R4 14 and 24, R5 14 and 31,
// so 16+17+17+16+16 = 82 games. Their points columns imply the byes: 4 has 3.0 over
// results 2.5 (R1 ½), 19 2.0 over 1 (R1 1), 14 2.0 over 1 (R4, R5 ½ each), 24 2.0
// over 1 (R4 1), 31 1.0 over 0 (R5 1): six bye rows. Finnegan wins with 5/5.
//
// Bunratty Masters 2011 (UTF-8, 34 players, 6 rounds, DD.MM.YYYY dates, round
// dates 11.25.02 in no known form): empty rounds are `     -   `: R1 19 and 34,
// R3 18 and 24, R4 and R5 16 and 24, R6 24 and 25, so 16+17+16+16+16+16 = 97
// games. Byes: 16 R4 and R5 ½ each (2.5 over 1.5), 18, 19, 25 and 34 ½ each;
// 24's 0.5 is his results: zero-point byes, no rows. Jones wins with 5/6.
//
// lichess layout (7 players, 4 of 5 rounds played, stopped with 3–7 ongoing,
// `Z` on both sides: no game): R1 3 games and 4's PAB `U`; R2 3 games (7's forfeit
// win over 5 one of them) and 6's late-join `H`; R3 3 games, 5 absent (`-`
// without opponent: a zero-point bye, no row); R4 2 games, 5 absent: 11 games and
// 2 byes. Start "May 29, 2020"; 052 is empty (not finished).
func TestRealFiles(t *testing.T) {
	tests := []struct {
		file         string
		players      int
		games, byes  int
		start, end   string
		notUTF8      bool
		emptyNotes   int
		winner       string
		winnerPoints float64
	}{
		{"../testdata/trf-real/irish_junior_champs_2011.trf", 34, 82, 6, "2011-07-02", "2011-07-03", true, 5, "Finnegan, Mark", 5},
		{"../testdata/trf-real/bunratty_masters_2011.trf", 34, 97, 6, "2011-02-25", "2011-02-27", false, 5, "Jones, Gawain", 5},
		{"testdata/lichess-shape.trf", 7, 11, 2, "2020-05-29", "0001-01-01", false, 0, "alice-k", 3.5},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.Open(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			f, err := Read(src, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			tour, err := f.Tournament()
			if err != nil {
				t.Fatal(err)
			}
			games, byes := 0, 0
			for _, g := range tour.Games {
				if g.Black < 0 {
					byes++
				} else {
					games++
				}
			}
			if len(f.Players) != tt.players || games != tt.games || byes != tt.byes {
				t.Errorf("%d players, %d games, %d byes; want %d, %d, %d", len(f.Players), games, byes, tt.players, tt.games, tt.byes)
			}
			if f.Start.Format(time.DateOnly) != tt.start || f.End.Format(time.DateOnly) != tt.end {
				t.Errorf("dates %v %v", f.Start, f.End)
			}
			if got := len(warningsOf(f, ErrNotUTF8)) == 1; got != tt.notUTF8 || len(warningsOf(f, ErrEmptyResult)) != tt.emptyNotes {
				t.Errorf("warnings %v", f.Warnings)
			}
			rows, err := tiebreak.Standings(tour, []string{"BH"}, tiebreak.Options{})
			if err != nil {
				t.Fatal(err)
			}
			// Every player's standing equals the points column the writer computed.
			for _, r := range rows {
				if p := f.player(r.Player.StartNo); r.Points != p.Points {
					t.Errorf("%s: %g points, the file says %g", p.Name, r.Points, p.Points)
				}
			}
			if tt.notUTF8 && f.player(27).Name != "Ó Muireagáin, Colm" {
				t.Errorf("starting rank 27: %q", f.player(27).Name)
			}
			if rows[0].Player.Name != tt.winner || rows[0].Points != tt.winnerPoints || rows[1].Points >= rows[0].Points {
				t.Errorf("winner %s %g", rows[0].Player.Name, rows[0].Points)
			}
		})
	}
}
