package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/parquet-go/parquet-go"
)

// readCards reads cards.parquet column by column, a row group at a time. The
// per-game rows of one player in one tournament (FIDE) become one row: games
// counted, scores, expected scores and exact changes summed, so a tournament
// shows once on the card. Columns are read by name; a missing column reads as
// empty.
func readCards(path string) (*cardSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	// All rows at once: growing the slice would hold up to twice its size.
	// Under per-game rules most rows fold away and their room is never touched.
	cs := &cardSet{names: map[int64]string{}, cards: make([]card, 0, pf.NumRows())}
	idx := map[string]uint16{}
	intern := func(b []byte) uint16 {
		i, ok := idx[string(b)]
		if !ok {
			i = uint16(len(cs.strs))
			idx[string(b)] = i
			cs.strs = append(cs.strs, string(b))
		}
		return i
	}
	col := func(name string) int {
		if c, ok := pf.Schema().Lookup(name); ok {
			return c.ColumnIndex
		}
		return -1
	}
	var rg cardColumns
	for _, g := range pf.RowGroups() {
		n := int(g.NumRows())
		rg.reset(n)
		chunks := g.ColumnChunks()
		read := func(name string, fn func(i int, v parquet.Value)) error {
			c := col(name)
			if c < 0 {
				return nil
			}
			if err := eachValue(chunks[c], n, fn); err != nil {
				return fmt.Errorf("read %s: column %s: %w", path, name, err)
			}
			return nil
		}
		int32s := func(dst []int32) func(int, parquet.Value) {
			return func(i int, v parquet.Value) {
				if !v.IsNull() {
					dst[i] = v.Int32()
				}
			}
		}
		floats := func(dst []float64) func(int, parquet.Value) {
			return func(i int, v parquet.Value) {
				if !v.IsNull() {
					dst[i] = v.Double()
				}
			}
		}
		err := errors.Join(
			read("tournament_id", func(i int, v parquet.Value) { rg.c[i].TournamentID = v.Int64() }),
			read("end_date", func(i int, v parquet.Value) { rg.c[i].EndDate = v.Int32() }),
			read("player_id", func(i int, v parquet.Value) { rg.c[i].PlayerID = v.Int64() }),
			read("period", func(i int, v parquet.Value) { rg.c[i].Period = intern(v.ByteArray()) }),
			read("reason", func(i int, v parquet.Value) { rg.c[i].Reason = intern(v.ByteArray()) }),
			read("games", func(i int, v parquet.Value) { rg.c[i].Games = v.Int32() }),
			read("score", func(i int, v parquet.Value) { rg.c[i].Score = v.Double() }),
			read("change", func(i int, v parquet.Value) { rg.c[i].Change = v.Int32() }),
			read("rating_before", int32s(rg.before)),
			read("rating_used", int32s(rg.used)),
			read("opponents_average", int32s(rg.opp)),
			read("d", int32s(rg.d)),
			read("k", int32s(rg.k)),
			read("rating_after", int32s(rg.after)),
			read("expected", floats(rg.expected)),
			read("change_unrounded", floats(rg.exact)),
			read("w", floats(rg.w)),
			read("pd", floats(rg.pd)),
			read("name", func(i int, v parquet.Value) {
				if id := rg.c[i].PlayerID; !hasKey(cs.names, id) {
					cs.names[id] = string(v.ByteArray())
				}
			}),
		)
		if err != nil {
			return nil, err
		}
		for i := range rg.c {
			c := rg.c[i]
			c.RatingBefore, c.RatingUsed, c.OppAverage = rg.before[i], rg.used[i], rg.opp[i]
			c.D, c.K, c.RatingAfter = rg.d[i], rg.k[i], rg.after[i]
			c.Expected, c.ChangeUnrounded = rg.expected[i], rg.exact[i]
			if perGame(cs.strs[c.Reason]) {
				cs.addGame(c, rg.w[i], rg.pd[i])
				continue
			}
			cs.cards = append(cs.cards, c)
		}
	}
	return cs, nil
}

// cardColumns holds one row group of cards.parquet, column by column; empty
// numbers are none or NaN.
type cardColumns struct {
	c                              []card
	before, used, opp, d, k, after []int32
	expected, exact, w, pd         []float64
}

func (r *cardColumns) reset(n int) {
	r.c = resize(r.c, n, card{})
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
	pages := cc.Pages()
	defer pages.Close()
	buf := make([]parquet.Value, 1024)
	i := 0
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		vr := p.Values()
		for {
			m, err := vr.ReadValues(buf)
			for _, v := range buf[:m] {
				if i == n {
					parquet.Release(p)
					return fmt.Errorf("more than %d values", n)
				}
				fn(i, v)
				i++
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
	if i != n {
		return fmt.Errorf("%d values in %d rows", i, n)
	}
	return nil
}

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}
