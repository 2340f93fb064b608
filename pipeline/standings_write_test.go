package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/internal/pqwrite"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/tiebreak"
)

// newParquetWriter returns parquet-go's writer of a Parquet output: its
// schema, with outputOptions; the column writer's files are its.
func newParquetWriter[T any](w io.Writer, schema *parquet.Schema) *parquet.GenericWriter[T] {
	return parquet.NewGenericWriter[T](w, append([]parquet.WriterOption{schema}, outputOptions...)...)
}

// wantStandingsRows is what a standings file holds for one tournament's
// standings: one row per player, the codes trimmed, an undefined value nil.
func wantStandingsRows(id int64, codes []string, rows []tiebreak.Row) []output.StandingsRow {
	out := make([]output.StandingsRow, len(rows))
	for i, r := range rows {
		out[i] = output.StandingsRow{TournamentID: id, Rank: int32(r.Rank), StartNo: int32(r.Player.StartNo),
			PlayerID: r.Player.ID, Name: r.Player.Name, Points: r.Points, Tiebreaks: []output.TiebreakCell{}}
		for k, v := range r.Values {
			c := output.TiebreakCell{Code: strings.TrimSpace(codes[k])}
			if v.OK {
				c.Value = &v.V
			}
			out[i].Tiebreaks = append(out[i].Tiebreaks, c)
		}
	}
	return out
}

// testStandings is one tournament's standings as the engine gives them.
type testStandings struct {
	id    int64
	codes []string
	rows  []tiebreak.Row
}

// makeStandings makes n rows with the codes; every third value is undefined.
func makeStandings(id int64, codes []string, n int) testStandings {
	s := testStandings{id: id, codes: codes, rows: make([]tiebreak.Row, n)}
	for i := range s.rows {
		s.rows[i] = tiebreak.Row{Rank: i/3 + 1, Points: float64(n-i) / 2, Values: make([]tiebreak.Value, len(codes)),
			Player: tiebreak.Player{ID: id*100000 + int64(i), StartNo: n - i, Name: fmt.Sprintf("Player %d, %s", i, strings.Repeat("x", i%7))}}
		for k := range codes {
			if (i+k)%3 != 0 {
				s.rows[i].Values[k] = tiebreak.Value{V: float64(i*k) / 4, OK: true}
			}
		}
	}
	return s
}

// writeStandingsCols writes the tournaments to w the way a period's standings
// file is written.
func writeStandingsCols(w io.Writer, ts []testStandings) error {
	cw, err := newColumnWriter(w, output.StandingsSchema)
	if err != nil {
		return err
	}
	p := &periodStandings{label: "test", w: cw}
	var c standingsCols // reused, as the standings jobs do
	for _, s := range ts {
		c.set(s.id, s.codes, s.rows)
		if err := p.writeCols(&c); err != nil {
			return err
		}
	}
	return p.w.Close()
}

// TestStandingsColumns: a standings file written column by column reads back,
// with parquet.GenericReader[output.StandingsRow], as the rows of its
// tournaments, including undefined values, tournaments without tiebreaks,
// padded codes, a tournament of one row and one of many pages; and it is the
// file GenericWriter[output.StandingsRow] writes from those rows (same
// schema, pages, statistics and index; no bounds for the codes).
func TestStandingsColumns(t *testing.T) {
	chess := []string{"BH:C1", " BH", "SB ", "WIN"}
	ts := []testStandings{
		makeStandings(11, chess, 20),
		makeStandings(12, nil, 70),
		makeStandings(13, []string{"DE"}, 1),
		makeStandings(14, chess, 40000),
		makeStandings(15, nil, 3),
		makeStandings(16, chess[:2], 130),
	}
	var want []output.StandingsRow
	for _, s := range ts {
		want = append(want, wantStandingsRows(s.id, s.codes, s.rows)...)
	}
	var got, ref bytes.Buffer
	if err := writeStandingsCols(&got, ts); err != nil {
		t.Fatal(err)
	}
	w := newParquetWriter[output.StandingsRow](&ref, output.StandingsSchema)
	for _, s := range ts {
		if _, err := w.Write(wantStandingsRows(s.id, s.codes, s.rows)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	f, err := parquet.OpenFile(bytes.NewReader(got.Bytes()), int64(got.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if f.Schema().String() != output.StandingsSchema.String() {
		t.Errorf("schema\n%s\nwant\n%s", f.Schema(), output.StandingsSchema)
	}
	value, _ := f.Schema().Lookup("tiebreaks", "list", "element", "value")
	if pages := len(f.OffsetIndexes()[value.ColumnIndex].PageLocations); pages < 2 {
		t.Errorf("tiebreak values in %d page(s): the test wants several", pages)
	}
	code, _ := f.Schema().Lookup("tiebreaks", "list", "element", "code")
	if st := f.Metadata().RowGroups[0].Columns[code.ColumnIndex].MetaData.Statistics; st.MinValue != nil || st.MaxValue != nil {
		t.Errorf("tiebreak codes have bounds %q..%q: outputOptions skips them", st.MinValue, st.MaxValue)
	}
	rd := parquet.NewGenericReader[output.StandingsRow](bytes.NewReader(got.Bytes()))
	defer rd.Close()
	var rows []output.StandingsRow
	buf := make([]output.StandingsRow, 1000)
	for {
		n, err := rd.Read(buf)
		for _, r := range buf[:n] {
			if r.Tiebreaks == nil {
				r.Tiebreaks = []output.TiebreakCell{}
			}
			rows = append(rows, r)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(rows[i], want[i]) {
			t.Fatalf("row %d: %s, want %s", i, fmtStandingsRow(rows[i]), fmtStandingsRow(want[i]))
		}
	}
	if err := pqwrite.SameCells(ref.Bytes(), got.Bytes()); err != nil {
		t.Errorf("GenericWriter's file and ours: %v", err)
	}
	if !bytes.Equal(got.Bytes(), ref.Bytes()) {
		t.Errorf("file of %d bytes differs from GenericWriter's of %d", got.Len(), ref.Len())
	}
}

func fmtStandingsRow(r output.StandingsRow) string {
	s := fmt.Sprintf("%+v", r)
	for _, c := range r.Tiebreaks {
		if c.Value != nil {
			s += fmt.Sprintf(" %s=%v", c.Code, *c.Value)
		} else {
			s += fmt.Sprintf(" %s=null", c.Code)
		}
	}
	return s
}

// BenchmarkWriteStandings: the bench archive's standings (default chess
// tiebreaks) written as one period's file (rows/s).
func BenchmarkWriteStandings(b *testing.B) {
	codes := tiebreak.DefaultCodes("chess")
	var e tiebreak.Engine
	var ts []testStandings
	n := 0
	for _, t := range collectTournaments(b) {
		st, err := e.Standings(t, codes, tiebreak.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ts = append(ts, testStandings{t.ID, codes, append([]tiebreak.Row(nil), st...)})
		for i := range st {
			ts[len(ts)-1].rows[i].Values = append([]tiebreak.Value(nil), st[i].Values...)
		}
		n += len(st)
	}
	rows := 0
	for b.Loop() {
		if err := writeStandingsCols(io.Discard, ts); err != nil {
			b.Fatal(err)
		}
		rows += n
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
