package pipeline

import (
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/ratelist/ratelist/internal/arrowipc"
	"github.com/ratelist/ratelist/internal/csvfield"
)

// listRow is one row of a rating list (interface.md §3, in column order).
type listRow struct {
	Rank        int32  `parquet:"rank"`
	PlayerID    int64  `parquet:"player_id"`
	Name        string `parquet:"name"`
	Rating      int32  `parquet:"rating"`
	Change      *int32 `parquet:"change,optional"`
	GamesPeriod int32  `parquet:"games_period"`
	GamesTotal  int32  `parquet:"games_total"`
	K           int32  `parquet:"k"`
	Category    string `parquet:"category"`
	Flags       string `parquet:"flags"`
}

// emitList closes the current period, writes its list and moves to the next one.
func (r *runner) emitList() error {
	key := r.curPeriod
	label := periodLabel(r.opt.Period, key)
	r.curPeriod++
	st := r.st
	first, last := periodBounds(r.opt.Period, key)
	closed := r.rules.ClosePeriod(st, first, last)
	for _, c := range closed {
		if c.PeriodTotal && c.RatedBefore {
			r.sum.GamesRated += int64(c.Games)
		}
	}
	if err := r.addCards(0, last, closed); err != nil {
		return err
	}
	type entry struct {
		rating   int32
		p        int32
		k        int32
		category string
		flags    string
	}
	// Sort keys: highest rating first, then player_id (dense order is player_id
	// order), packed in one int64 so the sort moves 8 bytes, not an entry.
	keys := make([]int64, 0, len(r.prevRating)/2)
	for p := range st.Rated {
		if st.Rated[p] {
			keys = append(keys, int64(-st.Rating[p])<<32|int64(p))
		}
	}
	slices.Sort(keys)
	es := make([]entry, 0, len(keys))
	for _, key := range keys {
		p := int32(key & 0xffffffff)
		if listed, k, cat, flags := r.rules.ListInfo(st, p); listed {
			es = append(es, entry{st.Rating[p], p, k, cat, flags})
		}
	}
	rows := make([]listRow, len(es))
	for i, e := range es {
		p := e.p
		row := listRow{
			Rank: int32(i + 1), PlayerID: r.arch.Players.ID[p], Name: r.arch.Players.Name[p], Rating: st.Rating[p],
			GamesPeriod: st.GamesPeriod[p], GamesTotal: st.GamesTotal[p], K: e.k, Category: e.category, Flags: e.flags,
		}
		if r.prevOn[p] {
			ch := st.Rating[p] - r.prevRating[p]
			row.Change = &ch
		}
		if !r.everOn[p] {
			row.Flags = joinFlags("new", row.Flags)
		}
		rows[i] = row
	}
	clear(r.prevOn)
	for _, e := range es {
		r.prevOn[e.p], r.everOn[e.p], r.prevRating[e.p] = true, true, st.Rating[e.p]
	}
	clear(st.GamesPeriod)
	r.sum.Lists++
	if r.sum.FirstList == "" {
		r.sum.FirstList = label
	}
	r.sum.LastList, r.sum.PlayersListed = label, len(rows)
	if r.stage == nil {
		return nil
	}
	snap, err := r.snapshot(key)
	if err != nil {
		return err
	}
	if err := r.submit(func() error { return r.writeState(label, snap) }); err != nil {
		return err
	}
	return r.submit(func() error { return r.writeList(label, rows) })
}

// joinFlags joins list flags with a space, skipping empty ones.
func joinFlags(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

func (r *runner) writeList(label string, rows []listRow) error {
	o, err := r.stage.create("lists/" + label + ".csv")
	if err != nil {
		return err
	}
	o.WriteString("rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n")
	var b []byte
	for _, row := range rows {
		b = strconv.AppendInt(b[:0], int64(row.Rank), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, row.PlayerID, 10)
		b = append(b, ',')
		b = csvfield.Append(b, row.Name)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.Rating), 10)
		b = append(b, ',')
		if row.Change != nil {
			b = strconv.AppendInt(b, int64(*row.Change), 10)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.GamesPeriod), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.GamesTotal), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(row.K), 10)
		b = append(b, ',')
		b = csvfield.Append(b, row.Category)
		b = append(b, ',')
		b = csvfield.Append(b, row.Flags)
		b = append(b, '\n')
		o.Write(b)
	}
	if err := o.finish(); err != nil {
		return fmt.Errorf("write list %s: %w", label, err)
	}
	if err := writeParquet(r.stage, "lists/"+label+".parquet", rows); err != nil {
		return err
	}
	if r.opt.Arrow {
		return r.writeListArrow(label, rows)
	}
	return nil
}

// writeListArrow writes lists/LABEL.arrow through the Arrow adapter.
func (r *runner) writeListArrow(label string, rows []listRow) error {
	n := len(rows)
	cols := []arrowipc.Column{
		{Name: "rank", Int32: make([]int32, n)}, {Name: "player_id", Int64: make([]int64, n)},
		{Name: "name", String: make([]string, n)}, {Name: "rating", Int32: make([]int32, n)},
		{Name: "change", Int32: make([]int32, n), Null: make([]bool, n)},
		{Name: "games_period", Int32: make([]int32, n)}, {Name: "games_total", Int32: make([]int32, n)},
		{Name: "k", Int32: make([]int32, n)}, {Name: "category", String: make([]string, n)},
		{Name: "flags", String: make([]string, n)},
	}
	for i, row := range rows {
		cols[0].Int32[i], cols[1].Int64[i], cols[2].String[i], cols[3].Int32[i] = row.Rank, row.PlayerID, row.Name, row.Rating
		if row.Change != nil {
			cols[4].Int32[i] = *row.Change
		} else {
			cols[4].Null[i] = true
		}
		cols[5].Int32[i], cols[6].Int32[i], cols[7].Int32[i] = row.GamesPeriod, row.GamesTotal, row.K
		cols[8].String[i], cols[9].String[i] = row.Category, row.Flags
	}
	p, err := r.stage.path("lists/" + label + ".arrow")
	if err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return fmt.Errorf("create %s: %w", p, err)
	}
	if err := arrowipc.Write(f, cols); err != nil {
		f.Close()
		return fmt.Errorf("write lists/%s.arrow: %w", label, err)
	}
	return f.Close()
}
