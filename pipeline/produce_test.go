package pipeline

import (
	"context"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/generate"
	"github.com/ratelist/ratelist/internal/testutil"
)

// loadArchive loads the archive in dir for a producer, as a run does.
func loadArchive(tb testing.TB, dir string) (*producer, *runArchive) {
	tb.Helper()
	p := &producer{}
	load, err := newArchiveLoad(os.DirFS(dir), p, time.Time{})
	if err != nil {
		tb.Fatal(err)
	}
	g, gctx := errgroup.WithContext(context.Background())
	g.Go(func() error { return load.players(gctx) })
	g.Go(func() error { return load.tournaments(gctx) })
	arch, err := load.done(context.Background(), g.Wait(), newRejectSink(nil))
	if err != nil {
		tb.Fatal(err)
	}
	p.open(arch)
	return p, arch
}

// produce runs the producer p over its archive's games into take.
func produce(tb testing.TB, p *producer, take takeFunc) {
	tb.Helper()
	ctx := context.Background()
	games := p.gameReader()
	go games.Run(ctx)
	if err := p.run(ctx, games, take); err != nil {
		tb.Fatal(err)
	}
}

// TestProducerInterleaved: tournaments whose rows are interleaved are handed
// on complete, in rating order, without the rows rejected row by row or as a
// player's second pairing in a round.
func TestProducerInterleaved(t *testing.T) {
	dir := t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": goodPlayers,
		"tournaments.csv": `tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks
10,Autumn Open,2025-01-10,2025-01-12,swiss,3,chess,true,
11,Winter Open,2025-01-10,2025-01-11,swiss,3,chess,true,
12,Spring Open,2025-03-10,2025-03-11,swiss,2,chess,true,
`,
		"games.csv": `tournament_id,round,white_id,black_id,white_result,black_result
10,1,1,2,1,0
11,1,1,2,0,1
10,1,3,4,=,=
10,2,1,3,0,1
11,2,3,4,1,0
10,2,2,4,+,-
10,3,1,4,1,0
10,3,2,3,X,0
10,3,2,3,1,0
11,1,2,3,1,0
10,3,4,3,0,1
11,2,1,,H,
10,2,1,4,1,0
12,1,1,2,1,0
12,2,1,3,1,0
`,
	})
	p, arch := loadArchive(t, dir)
	reg := registryHashes(&arch.Players)
	p.fingerprint(reg)
	var seen []int64
	produce(t, p, func(_ context.Context, tt *archive.Tournament, held tourRows, sum uint64) error {
		rows := held.rows
		seen = append(seen, tt.ID)
		if got, want := tournamentHashOf(tt, len(rows), sum), tournamentHash(tt, rows, reg); got != want {
			t.Errorf("tournament %d: fingerprint %x from the producer's sum, want %x", tt.ID, got, want)
		}
		return nil
	})
	if got := arch.Counts["games"]; len(seen) != 3 || got.Rejected != 4 {
		t.Fatalf("tournaments %v, games %+v: want 3 tournaments and 4 rows rejected", seen, got)
	}
}

// BenchmarkProduce: the producer alone on the bench archive, into a take
// that keeps nothing: loading the players and tournaments with pass one over
// the games, then checking every games row (decoded on another goroutine, as
// in a run) and holding it with its tournament; in games per second and CPU
// time per op (every goroutine).
func BenchmarkProduce(b *testing.B) {
	dir := benchArchive(b)
	var rows int64
	cpu0 := testutil.CPUTime()
	for b.Loop() {
		p, _ := loadArchive(b, dir)
		produce(b, p, func(_ context.Context, _ *archive.Tournament, rows tourRows, _ uint64) error {
			rows.release()
			return nil
		})
		rows += p.gameRows
	}
	games(b, rows, b.Elapsed().Seconds())
	b.ReportMetric(float64(testutil.CPUTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// tournamentHash is tournamentHashOf computed from the rows themselves: what
// the producer's sums must come to.
func tournamentHash(t *archive.Tournament, rows []gameRow, reg []uint64) uint64 {
	var sum uint64
	for i := range rows {
		g := &rows[i]
		black := uint64(0)
		if g.black >= 0 {
			black = reg[g.black]
		}
		sum += rowHash(g, reg[g.white], black)
	}
	return tournamentHashOf(t, len(rows), sum)
}

// TestFNV64a: the fingerprint's FNV-1a is hash/fnv's, so that states saved
// before it still compare.
func TestFNV64a(t *testing.T) {
	for _, s := range []string{"", "a", "tournament 12 \x00\xff rows"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got, want := fnv64a([]byte(s)), h.Sum64(); got != want {
			t.Errorf("fnv64a(%q) = %x, want %x", s, got, want)
		}
	}
}

// TestRowSlab: a tournament's rows stay its own while it holds them, however
// many buffers are carved and released after, from its block or others, of
// its end date or later ones.
func TestRowSlab(t *testing.T) {
	var s rowSlab
	fill := func(h *tourRows, n int, v int64) {
		for range n {
			h.rows = append(h.rows, gameRow{at: rowAt(v)})
		}
	}
	kept := s.take(10, 0)
	fill(&kept, 10, -1)
	for i := range 5000 {
		n := int64(1 + i%700) // small ones carved, some of a block of their own
		end := int32(i / 100)
		s.closeBefore(end)
		h := s.take(n, end)
		fill(&h, int(n), int64(i))
		h.release()
	}
	for _, g := range kept.rows {
		if g.at != -1 {
			t.Fatalf("a held row became %d", g.at)
		}
	}
	kept.release()
	day := s.take(10, 100)
	day.release()
	if s.closeBefore(101); day.block.refs.Load() != 0 {
		t.Errorf("a block is held by %d after its end date was handed on", day.block.refs.Load())
	}
	if big := s.take(slabRows+1, 50); big.block != nil || cap(big.rows) != slabRows+1 {
		t.Errorf("a tournament of %d rows: block %v, room %d; want a buffer of its own", slabRows+1, big.block, cap(big.rows))
	}
}

// TestProducerSpill: with every waiting tournament's rows spilled to the
// temporary file, the producer hands on the same tournaments, rows and sums
// as when it holds them all in memory.
func TestProducerSpill(t *testing.T) {
	dir := t.TempDir()
	if err := generate.Archive(context.Background(), generate.Options{Players: 1000, Games: 100000, Months: 2, Seed: 3, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	type handedRows struct {
		id   int64
		rows []gameRow
		sum  uint64
	}
	run := func(spillAt int64) ([]handedRows, *producer) {
		p, _ := loadArchive(t, dir)
		p.spill.limit = spillAt
		var got []handedRows
		produce(t, p, func(_ context.Context, tt *archive.Tournament, held tourRows, sum uint64) error {
			got = append(got, handedRows{tt.ID, slices.Clone(held.rows), sum})
			held.release()
			return nil
		})
		return got, p
	}
	want, _ := run(math.MaxInt64)
	got, p := run(0)
	if p.spill.size == 0 {
		t.Fatal("no chunk of rows was written to the spill file")
	}
	if len(got) != len(want) {
		t.Fatalf("%d tournaments handed on, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].id != want[i].id || got[i].sum != want[i].sum || !slices.Equal(got[i].rows, want[i].rows) {
			t.Fatalf("tournament %d (#%d): rows or sum differ from the ones held in memory", want[i].id, i)
		}
	}
}
