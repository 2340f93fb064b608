package report

import (
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

type oldCardRow struct {
	Period          string   `parquet:"period"`
	TournamentID    int64    `parquet:"tournament_id"`
	EndDate         int32    `parquet:"end_date,date"`
	PlayerID        int64    `parquet:"player_id"`
	Name            string   `parquet:"name"`
	RatingBefore    *int32   `parquet:"rating_before,optional"`
	Games           int32    `parquet:"games"`
	Score           float64  `parquet:"score"`
	OppAverage      *int32   `parquet:"opponents_average,optional"`
	D               *int32   `parquet:"d,optional"`
	Expected        *float64 `parquet:"expected,optional"`
	K               *int32   `parquet:"k,optional"`
	ChangeUnrounded *float64 `parquet:"change_unrounded,optional"`
	Change          int32    `parquet:"change"`
	RatingAfter     *int32   `parquet:"rating_after,optional"`
	Reason          string   `parquet:"reason"`
	PD              *float64 `parquet:"pd,optional"`
	W               *float64 `parquet:"w,optional"`
	RatingUsed      *int32   `parquet:"rating_used,optional"`
}

func oldReadCards(path string) (*cardSet, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := parquet.NewGenericReader[oldCardRow](f)
	defer r.Close()
	cs := &cardSet{names: map[int64]string{}, cards: make([]card, 0, r.NumRows())}
	idx := map[string]uint16{}
	intern := func(s string) uint16 {
		i, ok := idx[s]
		if !ok {
			i = uint16(len(cs.strs))
			idx[s] = i
			cs.strs = append(cs.strs, s)
		}
		return i
	}
	buf := make([]oldCardRow, 4096)
	for {
		n, err := r.Read(buf)
		for i := range buf[:n] {
			row := &buf[i]
			if _, ok := cs.names[row.PlayerID]; !ok {
				cs.names[row.PlayerID] = row.Name
			}
			c := card{TournamentID: row.TournamentID, PlayerID: row.PlayerID, EndDate: row.EndDate,
				Period: intern(row.Period), Reason: intern(row.Reason), Games: row.Games,
				RatingBefore: opt32(row.RatingBefore), RatingUsed: opt32(row.RatingUsed), OppAverage: opt32(row.OppAverage),
				D: opt32(row.D), K: opt32(row.K), Change: row.Change, RatingAfter: opt32(row.RatingAfter),
				Score: row.Score, Expected: optF(row.Expected), ChangeUnrounded: optF(row.ChangeUnrounded)}
			if perGame(row.Reason) {
				w, pd := math.NaN(), math.NaN()
				if row.W != nil {
					w = *row.W
				}
				if row.PD != nil {
					pd = *row.PD
				}
				cs.addGame(c, w, pd)
				continue
			}
			cs.cards = append(cs.cards, c)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return cs, nil
}

func TestZZCards(t *testing.T) {
	p := os.Getenv("ZZCARDS")
	if p == "" {
		t.Skip()
	}
	t0 := time.Now()
	a, err := oldReadCards(p)
	t.Logf("old %v", time.Since(t0))
	if err != nil {
		t.Fatal(err)
	}
	t0 = time.Now()
	b, err := readCards(p)
	t.Logf("new %v", time.Since(t0))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.cards) != len(b.cards) || !reflect.DeepEqual(a.names, b.names) {
		t.Fatalf("differ %d %d %v", len(a.cards), len(b.cards), reflect.DeepEqual(a.names, b.names))
	}
	for i := range a.cards {
		x, y := a.cards[i], b.cards[i]
		if a.str(x.Period) != b.str(y.Period) || a.str(x.Reason) != b.str(y.Reason) {
			t.Fatalf("card %d strs", i)
		}
		x.Period, x.Reason, y.Period, y.Reason = 0, 0, 0, 0
		if fmt.Sprint(x) != fmt.Sprint(y) {
			t.Fatalf("card %d: %v %v", i, a.cards[i], b.cards[i])
		}
	}
}
