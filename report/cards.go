package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/output"
)

// readCards reads cards.parquet column by column, a row group at a time, and
// the games of card_games.parquet (gamesPath; none when it is missing) beside
// it. The games of one player in one tournament (a per-period rule set's)
// become one row: games counted, scores, expected scores and exact changes
// summed, so a tournament shows once on the card, before the row of the
// period they were rated in, as they were rated. Per-game rows in cards.parquet itself (an older run's)
// fold the same way. Columns are read by name; a missing column reads as
// empty.
func readCards(path, gamesPath string) (*cardSet, error) {
	f, pf, err := openParquet(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := sameKinds(path, pf.Schema(), output.CardSchema); err != nil {
		return nil, err
	}
	games := &gameStream{path: gamesPath}
	rows := pf.NumRows()
	if exists(gamesPath) {
		gf, gpf, err := openParquet(gamesPath)
		if err != nil {
			return nil, err
		}
		defer gf.Close()
		if err := sameKinds(gamesPath, gpf.Schema(), output.CardGameSchema); err != nil {
			return nil, err
		}
		games.groups, games.schema = gpf.RowGroups(), gpf.Schema()
		n, err := foldedGames(gamesPath, games.schema, games.groups)
		if err != nil {
			return nil, err
		}
		rows += n
	}
	// Room for every row at once: growing the slice would hold up to twice its
	// size, and room for rows that never come would count against the memory
	// limit as if used.
	cs := &cardSet{names: map[int64]string{}, cards: make([]card, 0, rows)}
	idx := map[string]uint16{}
	// The value last interned: a column's runs of one value cost no lookup.
	last, lastI := "", -1
	intern := func(b []byte) uint16 {
		if lastI >= 0 && string(b) == last {
			return uint16(lastI)
		}
		i, ok := idx[string(b)]
		if !ok {
			i = uint16(len(cs.strs))
			idx[string(b)] = i
			cs.strs = append(cs.strs, string(b))
		}
		last, lastI = cs.strs[i], int(i)
		return i
	}
	games.intern = intern
	var rg cardColumns
	for _, g := range pf.RowGroups() {
		rg.reset(int(g.NumRows()))
		read := newTypedColumns(path, pf.Schema(), g)
		err := errors.Join(
			read.int64s("tournament_id", rg.tour),
			read.int32s("end_date", rg.end),
			read.int64s("player_id", rg.player),
			read.texts("period", func(i int, b []byte) { rg.c[i].Period = intern(b) }),
			read.texts("reason", func(i int, b []byte) { rg.c[i].Reason = intern(b) }),
			read.int32s("games", rg.games),
			read.float64s("score", rg.score),
			read.int32s("change", rg.change),
			read.int32s("rating_before", rg.before),
			read.int32s("rating_used", rg.used),
			read.int32s("opponents_average", rg.opp),
			read.int32s("d", rg.d),
			read.int32s("k", rg.k),
			read.int32s("rating_after", rg.after),
			read.float64s("expected", rg.expected),
			read.float64s("change_unrounded", rg.exact),
			read.float64s("w", rg.w),
			read.float64s("pd", rg.pd),
			read.texts("name", func(i int, b []byte) {
				if id := rg.player[i]; !hasKey(cs.names, id) {
					cs.names[id] = string(b)
				}
			}),
		)
		if err != nil {
			return nil, err
		}
		for i := range rg.c {
			c := rg.c[i]
			c.TournamentID, c.EndDate, c.PlayerID = rg.tour[i], rg.end[i], rg.player[i]
			c.Games, c.Score, c.Change = rg.games[i], rg.score[i], rg.change[i]
			c.RatingBefore, c.RatingUsed, c.OppAverage = rg.before[i], rg.used[i], rg.opp[i]
			c.D, c.K, c.RatingAfter = rg.d[i], rg.k[i], rg.after[i]
			c.Expected, c.ChangeUnrounded = rg.expected[i], rg.exact[i]
			if perGame(cs.strs[c.Reason]) {
				cs.addGame(c, rg.w[i], rg.pd[i])
				continue
			}
			if c.TournamentID == 0 { // a period's row: its games come first
				if err := games.fold(cs, &c); err != nil {
					return nil, err
				}
			}
			cs.cards = append(cs.cards, c)
		}
	}
	if err := games.load(); err != nil {
		return nil, err
	}
	if n := len(games.g) - games.at; n > 0 {
		g := &games.g[games.at]
		return nil, fmt.Errorf("read %s: player %d has games in %s but no row of that period in %s",
			gamesPath, g.PlayerID, cs.strs[g.Period], path)
	}
	return cs, nil
}

// foldedGames is how many rows the games of a card_games.parquet fold into:
// one per run of games with the same player, tournament, period and reason
// (cardSet.addGame).
func foldedGames(path string, schema *parquet.Schema, groups []parquet.RowGroup) (int64, error) {
	var folded int64
	var player, tour []int64
	var brk []bool // the period or the reason differs from the game before
	var last [2]string
	var lastPlayer, lastTour int64
	for _, rg := range groups {
		n := int(rg.NumRows())
		player, tour, brk = resize(player, n, 0), resize(tour, n, 0), resize(brk, n, false)
		read := newTypedColumns(path, schema, rg)
		text := func(j int) func(int, []byte) {
			return func(i int, b []byte) {
				if string(b) != last[j] {
					brk[i], last[j] = true, string(b)
				}
			}
		}
		err := errors.Join(
			read.int64s("player_id", player),
			read.int64s("tournament_id", tour),
			read.texts("period", text(0)),
			read.texts("reason", text(1)),
		)
		if err != nil {
			return 0, err
		}
		for i := range n {
			if brk[i] || folded == 0 || player[i] != lastPlayer || tour[i] != lastTour {
				folded++
			}
			lastPlayer, lastTour = player[i], tour[i]
		}
	}
	return folded, nil
}

// openParquet opens the Parquet file at path.
func openParquet(path string) (*os.File, *parquet.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	return f, pf, nil
}

// sameKinds checks that every column of want that the file (schema) has
// holds values of the same kind: a value read as another kind is garbage or
// a panic, where a file changed by hand must give an error.
func sameKinds(path string, schema, want *parquet.Schema) error {
	for _, p := range want.Columns() {
		w, _ := want.Lookup(p...)
		if c, ok := schema.Lookup(p...); ok && c.Node.Type().Kind() != w.Node.Type().Kind() {
			return fmt.Errorf("read %s: column %s is %s, not %s: %w", path, strings.Join(p, "."),
				c.Node.Type().Kind(), w.Node.Type().Kind(), ErrBadOutput)
		}
	}
	return nil
}

// columnReader returns a function that calls fn with each of the n values of
// the row group's column name (chunks), if the file has that column.
func columnReader(path string, schema *parquet.Schema, chunks []parquet.ColumnChunk, n int) func(name string, fn func(i int, v parquet.Value)) error {
	return func(name string, fn func(i int, v parquet.Value)) error {
		c, ok := schema.Lookup(name)
		if !ok {
			return nil
		}
		if err := eachValue(chunks[c.ColumnIndex], n, fn); err != nil {
			return fmt.Errorf("read %s: column %s: %w", path, name, err)
		}
		return nil
	}
}

// gameStream reads card_games.parquet a row group at a time, as readCards
// reaches the rows its games belong to.
type gameStream struct {
	path   string
	intern func([]byte) uint16
	schema *parquet.Schema
	groups []parquet.RowGroup
	g      []card    // the row group's games as cards of one game
	w, pd  []float64 // their score and expected score (NaN: none)
	ids    []int64   // their player, tournament and end date, as read
	tours  []int64
	ends   []int32
	at     int // the next game
}

// load reads the next row group once the games read are used up.
func (s *gameStream) load() error {
	for s.at == len(s.g) && len(s.groups) > 0 {
		rg := s.groups[0]
		s.groups = s.groups[1:]
		n := int(rg.NumRows())
		s.g, s.at = resize(s.g, n, card{RatingBefore: none, RatingUsed: none, OppAverage: none, D: none, RatingAfter: none, Expected: math.NaN()}), 0
		s.w, s.pd = resize(s.w, n, math.NaN()), resize(s.pd, n, math.NaN())
		exact := make([]float64, n)
		for i := range n {
			exact[i] = math.NaN()
		}
		g := s.g
		s.ids, s.tours, s.ends = resize(s.ids, n, 0), resize(s.tours, n, 0), resize(s.ends, n, 0)
		read := newTypedColumns(s.path, s.schema, rg)
		err := errors.Join(
			read.texts("period", func(i int, b []byte) { g[i].Period = s.intern(b) }),
			read.int64s("player_id", s.ids),
			read.int64s("tournament_id", s.tours),
			read.int32s("end_date", s.ends),
			read.texts("reason", func(i int, b []byte) { g[i].Reason = s.intern(b) }),
			read.float64s("w", s.w),
			read.float64s("pd", s.pd),
			read.float64s("change_unrounded", exact),
		)
		if err != nil {
			return err
		}
		for i := range g {
			g[i].PlayerID, g[i].TournamentID, g[i].EndDate = s.ids[i], s.tours[i], s.ends[i]
			g[i].Games, g[i].K, g[i].ChangeUnrounded = 1, none, exact[i]
		}
	}
	return nil
}

// fold adds the games of c's period and player that come next, as cards of
// one game with c's Ro, and c's K where the game was rated, to cs.
func (s *gameStream) fold(cs *cardSet, c *card) error {
	for {
		if err := s.load(); err != nil {
			return err
		}
		if s.at == len(s.g) {
			return nil
		}
		g := s.g[s.at]
		if g.Period != c.Period || g.PlayerID != c.PlayerID {
			return nil
		}
		g.RatingBefore = c.RatingBefore
		if !math.IsNaN(s.pd[s.at]) {
			g.K = c.K
		}
		cs.addGame(g, s.w[s.at], s.pd[s.at])
		s.at++
	}
}

// cardColumns holds one row group of cards.parquet, column by column; empty
// numbers are none or NaN.
type cardColumns struct {
	c                              []card
	tour, player                   []int64
	end, games, change             []int32
	score                          []float64
	before, used, opp, d, k, after []int32
	expected, exact, w, pd         []float64
}

func (r *cardColumns) reset(n int) {
	r.c = resize(r.c, n, card{})
	r.tour, r.player = resize(r.tour, n, 0), resize(r.player, n, 0)
	r.end, r.games, r.change = resize(r.end, n, 0), resize(r.games, n, 0), resize(r.change, n, 0)
	r.score = resize(r.score, n, 0)
	for _, p := range []*[]int32{&r.before, &r.used, &r.opp, &r.d, &r.k, &r.after} {
		*p = resize(*p, n, none)
	}
	for _, p := range []*[]float64{&r.expected, &r.exact, &r.w, &r.pd} {
		*p = resize(*p, n, math.NaN())
	}
}

// resize returns s with n elements, each set to v.
func resize[T any](s []T, n int, v T) []T {
	if cap(s) < n {
		s = make([]T, n)
	}
	s = s[:n]
	for i := range s {
		s[i] = v
	}
	return s
}

// eachValue calls fn with the index and the value of each of the n rows of a
// column chunk that is not nested. A value of a text column is valid only
// during the call.
func eachValue(cc parquet.ColumnChunk, n int, fn func(i int, v parquet.Value)) error {
	i := 0
	err := eachLeafValue(cc, func(v parquet.Value) error {
		if i == n {
			return fmt.Errorf("more than %d values", n)
		}
		fn(i, v)
		i++
		return nil
	})
	if err == nil && i != n {
		err = fmt.Errorf("%d values in %d rows", i, n)
	}
	return err
}

// eachLeafValue calls fn with each value of cc, page by page, and stops at
// its first error.
func eachLeafValue(cc parquet.ColumnChunk, fn func(v parquet.Value) error) error {
	pages := cc.Pages()
	defer pages.Close()
	buf := make([]parquet.Value, 1024)
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		vr := p.Values()
		for {
			m, err := vr.ReadValues(buf)
			for _, v := range buf[:m] {
				if err := fn(v); err != nil {
					parquet.Release(p)
					return err
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				parquet.Release(p)
				return err
			}
		}
		parquet.Release(p)
	}
}

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}
