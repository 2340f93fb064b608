package officer

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// roundTripCodes rank the standings compared: the defaults, and ARO, which
// reads the ratings the 001 records carry.
var roundTripCodes = []string{"BH/C1", "BH", "SB", "DE", "ARO"}

// standingsText is the standings by codes as CSV without the player_id column
// (TRF keeps FIDE ids, not the archive's player_ids).
func standingsText(t *testing.T, tt *tiebreak.Tournament, codes []string) string {
	t.Helper()
	rows, err := tiebreak.Standings(tt, codes, tiebreak.Options{})
	if err != nil {
		t.Fatalf("tournament %d: standings: %v", tt.ID, err)
	}
	for i := range rows {
		rows[i].Player.ID = 0
	}
	var b bytes.Buffer
	if err := tiebreak.WriteCSV(&b, codes, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// gameList is the games as "round white-black results" lines by names, sorted;
// rounds without a game (Z byes) are not games TRF keeps.
func gameList(tt *tiebreak.Tournament) []string {
	var out []string
	for _, g := range tt.Games {
		if g.Black < 0 {
			if g.WhiteResult != 'Z' {
				out = append(out, fmt.Sprintf("%d %s bye %c", g.Round, tt.Players[g.White].Name, g.WhiteResult))
			}
			continue
		}
		out = append(out, fmt.Sprintf("%d %s-%s %c%c", g.Round, tt.Players[g.White].Name, tt.Players[g.Black].Name, g.WhiteResult, g.BlackResult))
	}
	slices.Sort(out)
	return out
}

// chessTournaments is every tournament of the archive in fsys that TRF can carry.
func chessTournaments(t *testing.T, fsys fs.FS) []*tiebreak.Tournament {
	t.Helper()
	var out []*tiebreak.Tournament
	err := pipeline.ForEachTournamentFS(context.Background(), fsys, func(tt *tiebreak.Tournament) error {
		if strings.EqualFold(tt.Discipline, "chess") || tt.Discipline == "" {
			c := *tt
			c.Players, c.Games = slices.Clone(tt.Players), slices.Clone(tt.Games)
			out = append(out, &c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no chess tournaments")
	}
	return out
}

// checkTRFRoundTrip writes every chess tournament of fsys as TRF in both
// versions and reads it back as `standings --trf` does: same standings (with
// the rating tiebreak) and same games.
func checkTRFRoundTrip(t *testing.T, fsys fs.FS) {
	players, err := ReadPlayers(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range chessTournaments(t, fsys) {
		for _, v := range []trf.Version{trf.TRF16, trf.TRF26} {
			var b bytes.Buffer
			if err := WriteTRF(&b, tt, players, v); err != nil {
				t.Fatalf("tournament %d %s: %v", tt.ID, v, err)
			}
			back, err := trf.ReadTournament(bytes.NewReader(b.Bytes()), "export.trf")
			if err != nil {
				t.Fatalf("tournament %d %s: read back: %v\n%s", tt.ID, v, err, b.String())
			}
			if back.System != tt.System && tiebreak.IsRoundRobin(back.System) != tiebreak.IsRoundRobin(tt.System) {
				t.Errorf("tournament %d %s: system %q, read back %q", tt.ID, v, tt.System, back.System)
			}
			if want, got := standingsText(t, tt, roundTripCodes), standingsText(t, back, roundTripCodes); want != got {
				t.Errorf("tournament %d %s: standings differ\nwant:\n%s\ngot:\n%s", tt.ID, v, want, got)
			}
			if want, got := gameList(tt), gameList(back); !slices.Equal(want, got) {
				t.Errorf("tournament %d %s: games differ\nwant %q\ngot  %q", tt.ID, v, want, got)
			}
		}
	}
}

func TestTRFRoundTripDemo(t *testing.T) { checkTRFRoundTrip(t, ratelist.Demo()) }

func TestTRFRoundTripGenerated(t *testing.T) {
	dir := t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 120, Games: 3000, Months: 3, Seed: 17, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	checkTRFRoundTrip(t, os.DirFS(dir))
}

// TestTRFImportRoundTrip: a tournament exported and imported into an empty
// archive has the same games and standings (by the codes that do not read
// ratings: the new archive rates its players afresh).
func TestTRFImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	demo := ratelist.Demo()
	players, err := ReadPlayers(demo)
	if err != nil {
		t.Fatal(err)
	}
	codes := tiebreak.DefaultCodes("chess")
	src := t.TempDir()
	var files []string
	want := map[string]*tiebreak.Tournament{}
	for _, tt := range chessTournaments(t, demo) {
		var b bytes.Buffer
		if err := WriteTRF(&b, tt, players, trf.TRF16); err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(src, fmt.Sprintf("%d.trf", tt.ID))
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
		want[tournamentKey(tt)] = tt
	}
	dir := t.TempDir()
	a, err := importer.Open(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := importer.ImportTRF(ctx, a, files, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.FilesSkipped > 0 || st.Tournaments != len(files) {
		t.Fatalf("imported %d of %d files, %d skipped: %v", st.Tournaments, len(files), st.FilesSkipped, st.Problems)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	seen := 0
	err = pipeline.ForEachTournament(ctx, dir, func(got *tiebreak.Tournament) error {
		tt := want[tournamentKey(got)]
		if tt == nil {
			return fmt.Errorf("imported tournament %q is not one exported", got.Name)
		}
		seen++
		if w, g := withoutStartNo(standingsText(t, tt, codes)), withoutStartNo(standingsText(t, got, codes)); !slices.Equal(w, g) {
			t.Errorf("tournament %d: standings differ\nwant:\n%s\ngot:\n%s", tt.ID, w, g)
		}
		if w, g := gameList(tt), gameList(got); !slices.Equal(w, g) {
			t.Errorf("tournament %d: games differ\nwant %q\ngot  %q", tt.ID, w, g)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(want) {
		t.Errorf("%d tournaments read back, %d exported", seen, len(want))
	}
}

func tournamentKey(t *tiebreak.Tournament) string {
	return fmt.Sprintf("%s|%s|%s", t.Name, t.Start.Format("2006-01-02"), t.End.Format("2006-01-02"))
}

// withoutStartNo is the standings CSV's lines without start_no, sorted: the
// importing archive numbers its players by its own ratings, so start numbers,
// and the order of players who share a rank, change.
func withoutStartNo(csv string) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(csv), "\n") {
		f := strings.SplitN(line, ",", 3)
		out = append(out, f[0]+","+f[2])
	}
	slices.Sort(out)
	return out
}

// TestPlayersColumnsRoundTrip: the 001 fields a TRF carries (sex, title,
// federation, FIDE id, birth date) reach the players table through import trf,
// and an export of the imported tournament writes them back.
func TestPlayersColumnsRoundTrip(t *testing.T) {
	const file = `012 Columns Cup
042 2025/05/01
052 2025/05/02
XXR 1
001    1 wWGM Alpha, Ann                        2100 ISL      900001 2000/01/31  1.0    1     2 w 1
001    2 m  g Beta, Bob                         1900 NOR      900002 1990/00/00  0.0    2     1 b 0
`
	src := filepath.Join(t.TempDir(), "c.trf")
	if err := os.WriteFile(src, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, err := importer.Open(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importer.ImportTRF(context.Background(), a, []string{src}, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	players, err := ReadPlayers(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for id := int64(1); id <= 2; id++ {
		p := players[id]
		got = append(got, fmt.Sprintf("%s %s %s %s %d %d %s", p.Name, p.Sex, p.Title, p.Federation, p.FideID, p.BirthYear, p.BirthDate.Format("2006-01-02")))
	}
	want := []string{"Alpha, Ann w WGM ISL 900001 2000 2000-01-31", "Beta, Bob m GM NOR 900002 1990 0001-01-01"}
	if !slices.Equal(got, want) {
		t.Errorf("players %q, want %q", got, want)
	}
	var b bytes.Buffer
	if _, err := ExportTRF(context.Background(), &b, os.DirFS(dir), 1, trf.TRF16, true); err != nil {
		t.Fatal(err)
	}
	for _, rec := range []string{"001    1 wWGM Alpha, Ann                        2100 ISL      900001 2000/01/31", "001    2 m GM Beta, Bob                         1900 NOR      900002 1990 "} {
		if !strings.Contains(b.String(), rec) {
			t.Errorf("no %q in\n%s", rec, b.String())
		}
	}
}

// TestExportTRFRatingsDemo: export trf --rating run on every chess tournament
// of the demo gives each player his rating at the start, or, unrated then
// (his first events), the players table's fide_rating; only a player with
// neither is left blank, and ExportTRF counts those.
func TestExportTRFRatingsDemo(t *testing.T) {
	ctx := context.Background()
	demo := ratelist.Demo()
	players, err := ReadPlayers(demo)
	if err != nil {
		t.Fatal(err)
	}
	fromFide := 0
	for _, tt := range chessTournaments(t, demo) {
		var b bytes.Buffer
		blank, err := ExportTRF(ctx, &b, demo, tt.ID, trf.TRF16, false)
		if err != nil {
			t.Fatal(err)
		}
		want, wantBlank := map[int]int{}, 0
		for _, p := range tt.Players {
			r := p.Rating
			if r == 0 {
				r = int(players[p.ID].FideRating)
				if r > 0 {
					fromFide++
				}
			}
			if r == 0 {
				wantBlank++
			}
			want[p.StartNo] = r
		}
		if blank != wantBlank {
			t.Errorf("tournament %d: %d players counted blank, want %d", tt.ID, blank, wantBlank)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if !strings.HasPrefix(line, "001") {
				continue
			}
			r := []rune(line)
			sno, _ := strconv.Atoi(strings.TrimSpace(string(r[4:8])))
			got, _ := strconv.Atoi(strings.TrimSpace(string(r[48:52])))
			if got != want[sno] {
				t.Errorf("tournament %d start rank %d: rating %d, want %d", tt.ID, sno, got, want[sno])
			}
		}
	}
	if fromFide == 0 {
		t.Error("no player of the demo took his fide_rating: the test tests nothing")
	}
}
