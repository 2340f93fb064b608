package pipeline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/school"
	"github.com/ratelist/ratelist/tiebreak"
)

// Per-stage benchmarks, in games (rows) per second, comparable with benchstat:
//
//	go test -run '^$' -bench . -count 6 ./pipeline > new.txt; benchstat old.txt new.txt

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

const benchGames = 200000

// benchArchive generates one 200k-game archive for all benchmarks of a run.
func benchArchive(b *testing.B) string {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "ratelist-bench-")
		if benchErr == nil {
			benchErr = generate.Archive(context.Background(), generate.Options{Players: 20000, Games: benchGames, Months: 12, Seed: 1, Dir: benchDir})
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

func games(b *testing.B, n int64, seconds float64) {
	b.ReportMetric(float64(n)/seconds, "games/s")
}

// BenchmarkValidateAndRate: the whole run without writing (validate mode):
// decode, validation, ordering and rating.
func BenchmarkValidateAndRate(b *testing.B) {
	dir := benchArchive(b)
	var rows int64
	for b.Loop() {
		sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		rows += sum.Tables["games"].Read
	}
	games(b, rows, b.Elapsed().Seconds())
}

// BenchmarkValidateAndRateFide: the same with the FIDE rule set, which rates
// per monthly period: its period close sorts a month's games by player.
func BenchmarkValidateAndRateFide(b *testing.B) {
	dir := benchArchive(b)
	rules, err := DefaultRules("fide")
	if err != nil {
		b.Fatal(err)
	}
	var rows int64
	for b.Loop() {
		sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Rules: rules, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		rows += sum.Tables["games"].Read
	}
	games(b, rows, b.Elapsed().Seconds())
}

// BenchmarkRun: end to end, writing every output.
func BenchmarkRun(b *testing.B) {
	dir := benchArchive(b)
	var rows int64
	for b.Loop() {
		out := filepath.Join(b.TempDir(), "o")
		sum, err := Run(context.Background(), Options{Archive: os.DirFS(dir), Out: out, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		rows += sum.Tables["games"].Read
	}
	games(b, rows, b.Elapsed().Seconds())
}

// collectTournaments loads the bench archive's tournaments once, as standings
// inputs.
func collectTournaments(b *testing.B) []*tiebreak.Tournament {
	var ts []*tiebreak.Tournament
	err := ForEachTournament(context.Background(), benchArchive(b), func(t *tiebreak.Tournament) error {
		ts = append(ts, t)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return ts
}

// BenchmarkRate: the school rule set alone, tournament by tournament.
func BenchmarkRate(b *testing.B) {
	ts := collectTournaments(b)
	maxP := 0
	var evs []*rating.Event
	var n int64
	for _, t := range ts {
		ev := &rating.Event{ID: t.ID}
		for _, g := range t.Games {
			// Standings indexes are per tournament; spread them over a global range.
			ev.Games = append(ev.Games, rating.Game{White: int32(g.White) + int32(t.ID%1000)*64, Black: -1, WhiteResult: g.WhiteResult})
			if g.Black >= 0 {
				ev.Games[len(ev.Games)-1].Black = int32(g.Black) + int32(t.ID%1000)*64
				ev.Games[len(ev.Games)-1].BlackResult = g.BlackResult
			}
			maxP = max(maxP, 64*1000+len(t.Players))
		}
		evs = append(evs, ev)
		n += int64(len(t.Games))
	}
	var rows int64
	for b.Loop() {
		st := rating.NewState(maxP + 1)
		for i := range st.Category {
			st.Category[i] = int8(1 + i%4)
		}
		r := school.NewRater(school.Defaults(), st)
		for _, ev := range evs {
			r.Rate(st, ev)
		}
		rows += n
	}
	games(b, rows, b.Elapsed().Seconds())
}

// BenchmarkStandings: the default chess tiebreaks of every tournament and its
// CSV, as a standings job does it (one reused tiebreak.Engine), without the file.
func BenchmarkStandings(b *testing.B) {
	ts := collectTournaments(b)
	codes := tiebreak.DefaultCodes("chess")
	var e tiebreak.Engine
	var rows int64
	for b.Loop() {
		for _, t := range ts {
			st, err := e.Standings(t, codes, tiebreak.Options{})
			if err != nil {
				b.Fatal(err)
			}
			e.CSV(codes, st)
			rows += int64(len(t.Games))
		}
	}
	games(b, rows, b.Elapsed().Seconds())
}

// BenchmarkOrder: ordering, as run does it before rating: loading the players
// and tournaments, pass one over the games' tournament_id column (rows per
// tournament) and the rating order of the tournaments.
func BenchmarkOrder(b *testing.B) {
	dir := benchArchive(b)
	var rows int64
	for b.Loop() {
		p := &producer{}
		load, err := newArchiveLoad(os.DirFS(dir), p, time.Time{})
		if err != nil {
			b.Fatal(err)
		}
		g, gctx := errgroup.WithContext(context.Background())
		g.Go(func() error { return load.players(gctx) })
		g.Go(func() error { return load.tournaments(gctx) })
		arch, err := load.done(context.Background(), g.Wait(), newRejectSink(nil))
		if err != nil {
			b.Fatal(err)
		}
		p.open(arch)
		opt := Options{}
		if err := opt.fill(); err != nil {
			b.Fatal(err)
		}
		if _, err := newRater(&opt, arch, p.order, &Summary{}); err != nil {
			b.Fatal(err)
		}
		rows += p.gameRows
	}
	games(b, rows, b.Elapsed().Seconds())
}

// BenchmarkWriteList: one 200k-player list, sorted and written as CSV and
// Parquet (rows/s): school's (no columns of its own) and Glicko-2's (three
// float columns, no k). Entries are in player order, ratings at random, so
// that the writer reads them in rank order at random places, as in a run.
func BenchmarkWriteList(b *testing.B) {
	const n = 200000
	for _, add := range []*listAdded{nil, benchGlickoAdded()} {
		name := "school"
		if add != nil {
			name = "glicko2"
		}
		b.Run(name, func(b *testing.B) {
			l := benchList(n, add)
			ps := archive.Players{ID: make([]int64, n), Name: make([]string, n)}
			for i := range n {
				ps.ID[i], ps.Name[i] = int64(10001+i), fmt.Sprintf("Ivanov%d, Ivan", i%5000)
			}
			lp, err := listPlayersOf(&ps)
			if err != nil {
				b.Fatal(err)
			}
			for i := range l.entries {
				p := l.entries[i].p
				l.entries[i].listPlayer, l.entries[i].shape = lp.of[p], lp.shape[p]
			}
			l.names = lp.names
			var rows int64
			for b.Loop() {
				s, err := newStaging(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				if err := writeList(s, &ps, "2025-01", l, false); err != nil {
					b.Fatal(err)
				}
				rows += n
			}
			b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

// benchGlickoAdded is what Glicko-2's lists add: two values at 2 decimals
// (ranked by the first), one at 6, and no k.
func benchGlickoAdded() *listAdded {
	return listAddedOf(nil, []rating.Column{
		{Name: "glicko_rating", Type: rating.Float64, Decimals: 2}, {Name: "rd", Type: rating.Float64, Decimals: 2},
		{Name: "volatility", Type: rating.Float64, Decimals: 6}}, true, "glicko_rating")
}

// benchList is a list of n players in player order with ratings at random;
// with add, Glicko-2-like values of its columns.
func benchList(n int, add *listAdded) *listData {
	rnd := rand.New(rand.NewPCG(3, 4))
	l := &listData{add: add, infos: []listInfo{{category: "2"}, {flags: "p"}}}
	for i := range n {
		r := 1000 + rnd.Float64()*1500
		e := listEntry{p: int32(i), rating: int32(math.Round(r)), change: int32(rnd.IntN(31) - 15), hasChange: i%7 != 0,
			gamesPeriod: int32(rnd.IntN(9)), gamesTotal: int32(30 + rnd.IntN(200)), k: 15, isNew: i%7 == 0}
		if add != nil {
			e.k, e.info = 0, int32(i%3/2)
			l.addRow(add, []rating.Value{{Float: math.Round(r*100) / 100}, {Float: math.Round((50+rnd.Float64()*300)*100) / 100},
				{Float: math.Round((0.06+rnd.Float64()*1e-3)*1e6) / 1e6}})
		}
		l.entries = append(l.entries, e)
	}
	return l
}

// heldTournament is a tournament as the rating goroutine hands it to the
// sink: its rows with the start ratings noted.
type heldTournament struct {
	t    *archive.Tournament
	rows []gameRow
}

// holdSink keeps the tournaments handed to it.
type holdSink struct {
	validateSink
	players *archive.Players
	held    []heldTournament
}

func (s *holdSink) start(ctx context.Context, g *errgroup.Group, players *archive.Players, keepBefore, lastList string) error {
	s.players = players
	return nil
}

func (s *holdSink) tournament(ctx context.Context, t *archive.Tournament, rows tourRows, period string) error {
	s.held = append(s.held, heldTournament{t, rows.rows})
	return nil
}

// BenchmarkStandingsJob: what a standings job does per tournament before the
// files (school rules): the engine's input from the rows, the standings, and
// the rows for the period's file (games/s).
func BenchmarkStandingsJob(b *testing.B) {
	opt := Options{Archive: os.DirFS(benchArchive(b)), Workers: 1}
	if err := opt.fill(); err != nil {
		b.Fatal(err)
	}
	hold := &holdSink{}
	if _, err := execute(context.Background(), &opt, hold, newRejectSink(nil)); err != nil {
		b.Fatal(err)
	}
	s := &writeSink{players: hold.players, opt: &opt}
	sc := &standingsScratch{local: newLocal(len(hold.players.ID))}
	var fb fileBatch
	var rows int64
	for b.Loop() {
		for _, h := range hold.held {
			c, err := s.appendStandings(&fb, sc, standingsJob{t: h.t, rows: tourRows{rows: h.rows}})
			if err != nil {
				b.Fatal(err)
			}
			s.std.cols.Put(c)
			rows += int64(len(h.rows))
		}
	}
	games(b, rows, b.Elapsed().Seconds())
}
