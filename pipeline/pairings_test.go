package pipeline

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	ratelist "github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/tiebreak"
)

// pairingsOf reads the games table of fsys as the report does, a run of rows
// per tournament, committing each run when keep says so.
func pairingsOf(t *testing.T, fsys fs.FS, keep func(id int64) bool) (*Pairings, []int64) {
	t.Helper()
	a, err := LoadArchive(context.Background(), fsys)
	if err != nil {
		t.Fatal(err)
	}
	files, err := archive.Files(fsys, "games")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPairings(a)
	r := archive.NewReader(fsys, files, archive.GameColumns)
	defer r.Close()
	var last int64
	for r.Next() {
		b := r.Batch()
		for i := range b.N {
			if id := b.Ints[archive.GameTournamentID][i]; id != last {
				p.Commit(keep(last))
				last = id
			}
			p.Add(b, i)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	p.Commit(keep(last))
	ids := make([]int64, len(a.Tournaments))
	for i, tr := range a.Tournaments {
		ids[i] = tr.ID
	}
	return p, ids
}

// gamesText is a tournament's games with the players as ids, and its players
// as ids in id order: what does not depend on the players' order.
func gamesText(tt *tiebreak.Tournament) string {
	if tt == nil {
		return "none"
	}
	id := func(p int) int64 {
		if p < 0 {
			return 0
		}
		return tt.Players[p].ID
	}
	var ps []string
	for _, p := range tt.Players {
		ps = append(ps, fmt.Sprintf("%d %s", p.ID, p.Name))
	}
	slices.Sort(ps)
	s := fmt.Sprintf("rounds %d players %q\n", tt.Rounds, ps)
	for _, g := range tt.Games {
		s += fmt.Sprintf("%d %d-%d %c%c %v %d %d\n", g.Round, id(g.White), id(g.Black), g.WhiteResult, max(g.BlackResult, '.'), g.HasPoints, g.WhitePoints, g.BlackPoints)
	}
	return s
}

// TestPairings: the games Pairings holds are those a run hands to its
// standings, for every tournament, bad rows (a player paired twice in a
// round among them) left out.
func TestPairings(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers,
		"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Autumn Open,2025-01-10,2025-01-12,swiss,3,chess,true,
11,Winter Cup,2025-02-10,2025-02-12,round-robin,0,chess,false,
12,Empty,2025-03-10,2025-03-12,swiss,3,chess,true,
`,
		"games.csv": `tournament_id,round,white_id,black_id,white_result,black_result
10,1,1,2,1,0
10,1,3,4,=,=
10,2,1,3,0,1
10,2,2,4,+,-
10,3,1,4,1,1
10,3,2,3,X,0
10,4,1,2,1,0
10,3,1,1,1,0
10,3,5,2,1,0
99,1,1,2,1,0
10,3,2,3,1,0
10,3,4,3,0,1
10,2,1,,H,
11,1,4,3,1,0
11,1,2,,U,
11,2,3,2,=,=
12,1,1,2,1
`,
	})
	for name, fsys := range map[string]fs.FS{"planted": os.DirFS(dir), "demo": ratelist.Demo()} {
		t.Run(name, func(t *testing.T) {
			run := map[int64]string{}
			err := ForEachTournamentOfFS(context.Background(), fsys, nil, func(tt *tiebreak.Tournament) error {
				run[tt.ID] = gamesText(tt)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			p, ids := pairingsOf(t, fsys, func(int64) bool { return true })
			n := 0
			for _, id := range ids {
				tt, ok := p.Tournament(id)
				want, has := run[id]
				if !has {
					want = "none"
				}
				if got := gamesText(tt); !ok || got != want {
					t.Errorf("tournament %d: held (ok %v)\n%s\nwant, as a run has them:\n%s", id, ok, got, want)
				}
				if tt != nil {
					n++
				}
			}
			if n == 0 || n != len(run) {
				t.Errorf("%d tournaments with games, a run has %d", n, len(run))
			}
			if p.Held() != 0 {
				t.Errorf("%d rows still held after every tournament was taken", p.Held())
			}
		})
	}
}

// TestPairingsDropped: a tournament with a run of rows dropped has no
// pairings to give (ok false), even when its later rows were kept.
func TestPairingsDropped(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers,
		"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Autumn Open,2025-01-10,2025-01-12,swiss,3,chess,true,
11,Winter Cup,2025-02-10,2025-02-12,swiss,3,chess,true,
`,
		"games.csv": `tournament_id,round,white_id,black_id,white_result,black_result
10,1,1,2,1,0
11,1,1,2,1,0
10,2,1,3,0,1
`,
	})
	first := map[int64]bool{}
	p, _ := pairingsOf(t, os.DirFS(dir), func(id int64) bool {
		keep := first[id] // drop each tournament's first run only
		first[id] = true
		return keep
	})
	for _, id := range []int64{10, 11} {
		if tt, ok := p.Tournament(id); ok || tt != nil {
			t.Errorf("tournament %d: ok %v, pairings %v after rows of it were dropped", id, ok, tt)
		}
	}
}

// TestKeepSite: a run with KeepSite (run --report over a site `ratelist
// report` wrote) keeps Out/site, for the report to update; without it, the
// run removes it like any file it did not write.
func TestKeepSite(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers,
		"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Autumn Open,2025-01-10,2025-01-12,swiss,3,chess,true,
`,
		"games.csv": "tournament_id,round,white_id,black_id,white_result,black_result\n10,1,1,2,1,0\n10,1,3,4,=,=\n",
	})
	for _, keep := range []bool{true, false} {
		out := t.TempDir()
		run := func() {
			t.Helper()
			if _, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, KeepSite: keep}); err != nil {
				t.Fatal(err)
			}
		}
		run()
		site := map[string]string{"site/index.html": "page", "site/players/1.html": "page", "site/.ratelist-site": "written by ratelist report\n"}
		testutil.WriteFiles(t, out, site)
		run()
		for rel := range site {
			if _, err := os.Stat(filepath.Join(out, rel)); (err == nil) != keep {
				t.Errorf("keep %v: %s there: %v, want %v", keep, rel, err == nil, keep)
			}
		}
	}
}
