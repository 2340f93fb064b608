package archive

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// stepFile is a file whose reads return at most step bytes, so that records
// are cut at every place a read can end.
type stepFile struct {
	data []byte
	step int
}

func (f *stepFile) Stat() (fs.FileInfo, error) { return nil, errors.New("no stat") }
func (f *stepFile) Close() error               { return nil }
func (f *stepFile) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), f.step)], f.data)
	f.data = f.data[n:]
	return n, nil
}

// csvRecords reads data as encoding/csv does, one line per record or error:
// the number of fields and the first need of them (all when need < 0).
func csvRecords(data []byte, need int) []string {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	var out []string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			out = append(out, "error: "+pe.Err.Error())
			continue
		}
		if err != nil {
			return append(out, "fatal: "+err.Error())
		}
		if need >= 0 && len(rec) > need {
			out = append(out, fmt.Sprintf("%d %q", len(rec), rec[:need]))
		} else {
			out = append(out, fmt.Sprintf("%d %q", len(rec), rec))
		}
	}
}

// scanRecords reads data with csvSource.next (reads of step bytes, max
// records at a time) and csvParser.record, in the form of csvRecords.
func scanRecords(data []byte, step, max, need int) []string {
	s := &csvSource{f: &stepFile{data, step}, read: 64}
	var out []string
	var buf []byte
	var starts []int
	for {
		text, st, err := s.next(buf, starts, max)
		if err != nil {
			return append(out, "fatal: "+err.Error())
		}
		if len(st) > max {
			return append(out, fmt.Sprintf("fatal: %d records, max %d", len(st), max))
		}
		for _, p := range st {
			_, kind, ok, _ := s.ps.record(text, p, need)
			switch {
			case !ok:
				out = append(out, "fatal: no record at a start")
			case kind != csvOK:
				out = append(out, "error: "+kind.err().Error())
			default:
				rec := make([]string, s.ps.n)
				if need >= 0 {
					rec = rec[:min(need, s.ps.n)]
				}
				for i := range rec {
					rec[i] = string(s.ps.field(text, i))
				}
				out = append(out, fmt.Sprintf("%d %q", s.ps.n, rec))
			}
		}
		if len(st) == 0 {
			if !s.eof {
				return append(out, "fatal: no records before the end")
			}
			return out
		}
		buf, starts = text, st
	}
}

var csvSeeds = []string{
	"a,b,c\n1,2,3\n",
	"a,b\r\n1,2\r\n\r\n\n3,4",
	"a,\"b\nc\"\r\nd,\"e\r\nf\"\n",
	"\"\"\"\"\n\"a\"\"b\",c\n",
	"\r", "\n\n\n", "a\r", "a\r\r\n", "\r\r\n\r\n",
	"\"a\"b,c\nd,e\n",
	"a\"b,c\nd,e\n",
	"\"unterminated\nx,y\n",
	"\"a\",\n,\"\"\n\"\"",
	"x,\"y\"\r", "\"a\r\"\n", "\"a\n\r\n\"\n", "\"a\r\r\"",
	"a,b\n\"\n", ",\n,,\n\"\",\"\"\n",
	"\ufeffplayer_id,name\n1,\"Doe, Ann\"\n",
}

// TestCSVRecords: the reader's records and errors are encoding/csv's, however
// reads and blocks cut the text.
func TestCSVRecords(t *testing.T) {
	for _, data := range csvSeeds {
		for _, need := range []int{-1, 0, 1, 2} {
			want := strings.Join(csvRecords([]byte(data), need), "\n")
			for _, step := range []int{1, 2, 3, 7, 1 << 20} {
				for _, max := range []int{1, 2, 3, batchRows} {
					if got := strings.Join(scanRecords([]byte(data), step, max, need), "\n"); got != want {
						t.Errorf("%q (reads of %d, %d records a block, %d fields split):\n got %s\nwant %s", data, step, max, need, got, want)
					}
				}
			}
		}
	}
}

// FuzzCSVRecords holds the reader to encoding/csv on arbitrary text: the same
// records, the same malformed records with the same error, in the same order.
//
//	go test -run '^$' -fuzz FuzzCSVRecords -fuzztime 60s ./archive
func FuzzCSVRecords(f *testing.F) {
	for i, s := range csvSeeds {
		f.Add([]byte(s), uint8(i), uint8(i%4))
	}
	f.Fuzz(func(t *testing.T, data []byte, step, max uint8) {
		want := strings.Join(csvRecords(data, -1), "\n")
		got := strings.Join(scanRecords(data, int(step)%16+1, int(max)%8+1, -1), "\n")
		if got != want {
			t.Errorf("reads of %d, %d records a block:\n got %s\nwant %s", int(step)%16+1, int(max)%8+1, got, want)
		}
		need := int(step) % 3
		want = strings.Join(csvRecords(data, need), "\n")
		if whole := strings.Join(scanRecords(data, len(data)+1, batchRows, need), "\n"); whole != want {
			t.Errorf("one read, %d fields split:\n got %s\nwant %s", need, whole, want)
		}
	})
}

// TestFastCell: the fast decoders agree with ParseCell wherever they answer.
func TestFastCell(t *testing.T) {
	for _, tc := range []struct {
		t    Type
		cell string
	}{
		{Int, "0"}, {Int, "-17"}, {Int, "+17"}, {Int, "007"}, {Int, "999999999999999999"}, {Int, "9223372036854775807"},
		{Int, "-"}, {Int, "1_000"}, {Int32, " 5"},
		{Date, "1970-01-01"}, {Date, "1969-12-31"}, {Date, "2024-02-29"}, {Date, "2023-02-29"}, {Date, "2100-02-29"},
		{Date, "2000-02-29"}, {Date, "0000-01-01"}, {Date, "0000-02-29"}, {Date, "9999-12-31"}, {Date, "2025-13-01"},
		{Date, "2025-00-10"}, {Date, "2025-01-00"}, {Date, "2025-04-31"}, {Date, "+025-01-01"}, {Date, "2025-+1-01"},
		{Date, "2025-01-+1"}, {Date, "2025/01/01"}, {Code, "½"}, {Code, "w"}, {Code, "X"},
	} {
		want, werr := ParseCell(tc.t, tc.cell)
		if got, ok := fastCell(tc.t, []byte(tc.cell)); ok && (werr != nil || got != want) {
			t.Errorf("fastCell(%d, %q) = %d; ParseCell: %d, %v", tc.t, tc.cell, got, want, werr)
		}
	}
	// Every day of years near the ends of the range and around 1970.
	for _, y := range []int{0, 1, 4, 100, 399, 400, 1900, 1969, 1970, 2000, 2024, 9999} {
		for d := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() == y; d = d.AddDate(0, 0, 1) {
			s := d.Format(time.DateOnly)
			want, _ := ParseCell(Date, s)
			if got, ok := fastDate([]byte(s)); !ok || got != want {
				t.Fatalf("fastDate(%q) = %d, %v; want %d", s, got, ok, want)
			}
		}
	}
}

// refRow is a row as the reader read CSV with encoding/csv, record by record.
type refRow struct {
	bad, values string
	nulls       []bool
	ints        []int64
	strs        []string
}

// refRows reads a table's CSV text with encoding/csv: the reference for rows,
// rejects and their values.
func refRows(t *testing.T, data []byte, cols []Column) []refRow {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	hdr, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	hdr = append([]string(nil), hdr...)
	hdr[0] = strings.TrimPrefix(hdr[0], "\ufeff")
	var rows []refRow
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return rows
		}
		row := refRow{nulls: make([]bool, len(cols)), ints: make([]int64, len(cols)), strs: make([]string, len(cols))}
		var pe *csv.ParseError
		switch {
		case errors.As(err, &pe):
			row.bad = "malformed CSV: " + pe.Err.Error()
		case err != nil:
			t.Fatal(err)
		case len(rec) != len(hdr):
			row.bad = fmt.Sprintf("wrong number of fields: %d, header has %d", len(rec), len(hdr))
		}
		if err == nil {
			var vals []string
			for i, v := range rec {
				h := "?"
				if i < len(hdr) {
					h = hdr[i]
				}
				vals = append(vals, Excerpt(h)+"="+Excerpt(v))
			}
			row.values = strings.Join(vals, ";")
			if len(row.values) > 20*ExcerptBytes {
				row.values = "\x00" // cut short: not compared
			}
		}
		spoilt := row.bad != ""
		for c, col := range cols {
			row.nulls[c] = true
			if spoilt {
				continue
			}
			cell := ""
			for j, h := range hdr {
				if strings.TrimSpace(h) == col.Name {
					cell = rec[j]
				}
			}
			cell = strings.TrimSpace(cell)
			switch {
			case cell == "":
			case col.Type == String:
				if msg := CheckText(cell); msg != "" {
					if row.bad == "" {
						row.bad = col.Name + ": " + msg
					}
					continue
				}
				row.nulls[c], row.strs[c] = false, cell
			default:
				v, err := ParseCell(col.Type, cell)
				if err == nil && col.Type == Int32 && (v < math.MinInt32 || v > math.MaxInt32) {
					err = fmt.Errorf("%d does not fit int32", v)
				}
				if err != nil {
					if row.bad == "" {
						row.bad = col.Name + ": " + err.Error()
					}
				} else {
					row.nulls[c], row.ints[c] = false, v
				}
			}
		}
		rows = append(rows, row)
	}
}

// brokenGames is a games table of n rows, with every kind of bad row in it.
func brokenGames(n int) []byte {
	var sb strings.Builder
	sb.WriteString("\ufefftournament_id,round,date,white_id,black_id,white_result,black_result,white_points,black_points,note\r\n")
	bad := []string{
		"10,1,2025-01-10,1,2,1,0,,,\"a, \"\"quoted\"\"\r\nnote\"",
		"10,1,2025-01-10,1,2,1,0,,",
		"10,1,2025-01-10,1,2,1,0,,,,extra",
		"10,1,2025-02-30,1,2,1,0,,,",
		"10,x,2025-01-10,1,2,1,0,,,",
		"10,1,2025-01-10,1,2,X,0,,,",
		"10,1,2025-01-10,1,2,½,½,,,",
		"10,1,2025-01-10,1,b\"ad,1,0,,,",
		"10,1,2025-01-10,1,2,\"1\"x,0,,,",
		"\"10\",\" 1 \",2025-01-10,1,,H,,,,",
		" 10 ,1, ,1,2,1,0,+3,-0,",
		"",
		"10,1,2025-01-10,99999999999999999999,2,1,0,,,",
	}
	for i := 0; i < n; i++ {
		if i%97 == 5 {
			sb.WriteString(bad[i/97%len(bad)])
		} else {
			fmt.Fprintf(&sb, "%d,%d,2025-01-%02d,%d,%d,1,0,,,", 10+i%7, 1+i%9, 1+i%28, i, i+1)
		}
		sb.WriteString("\n")
	}
	sb.WriteString("10,1,2025-01-10,1,2,1,0,,,\"unterminated\n10,1,2025-01-10,1,2,1,0,,,\n")
	return []byte(sb.String())
}

// TestCSVRowsAsBefore: rows, row numbers, rejects and their values read from a
// large table with bad rows are what encoding/csv record by record gives,
// whether blocks are parsed on one goroutine or two.
func TestCSVRowsAsBefore(t *testing.T) {
	data := brokenGames(3*batchRows + 77)
	for _, cols := range [][]Column{GameColumns, GameColumns[:1]} {
		csvRowsAsBefore(t, data, cols)
	}
}

// FuzzCSVRows holds the rows read from arbitrary records under each table's
// header (and a games header with its columns out of order and one more) to
// what encoding/csv record by record gives.
//
//	go test -run '^$' -fuzz FuzzCSVRows -fuzztime 60s ./archive
func FuzzCSVRows(f *testing.F) {
	headers := []struct {
		hdr  string
		cols []Column
	}{
		{"tournament_id,round,white_id,black_id,white_result,black_result,white_points,black_points\n", GameColumns},
		{"note,black_result,white_id,round,tournament_id,white_result,date,black_id\r\n", GameColumns},
		{"player_id,name,birth_year,category,fide_rating,club\n", PlayerColumns},
		{"tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n", TournamentColumns},
	}
	f.Add(uint8(0), []byte("10,1,3,4,1,0,,\n10,2,3,,h,,,\n10,1,-3,4,W,l,+1,\n10,1, 3,4,1,0\n"))
	f.Add(uint8(1), []byte("x,0,3,1,10,½,2025-01-10,4\r\n,1,3,1,10,=,2025-02-30,\n\"a\",0,3,1,10,1,,4\n"))
	f.Add(uint8(2), []byte("1,\"Doe, Ann\",2010,4,,Club\n2,Bob,99999999999999999999,,,\n3,Cid\xff,,,,\n"))
	f.Add(uint8(3), []byte("10,Open,2025-01-10,2025-01-12,swiss,3,chess,true,\n11,Cup,2025-01-10,2025-01-12,, 5 ,CHESS,no,BH\n"))
	f.Fuzz(func(t *testing.T, h uint8, body []byte) {
		tc := headers[int(h)%len(headers)]
		csvRowsAsBefore(t, append([]byte(tc.hdr), body...), tc.cols)
	})
}

func csvRowsAsBefore(t *testing.T, data []byte, cols []Column) {
	want := refRows(t, data, cols)
	r := NewReader(fstest.MapFS{"games.csv": {Data: data}}, []string{"games.csv"}, cols)
	defer r.Close()
	row := 0
	for r.Next() {
		b := r.Batch()
		for i := 0; i < b.N; i++ {
			if row >= len(want) {
				t.Fatalf("more rows than %d", len(want))
			}
			w := want[row]
			row++
			if b.First+int64(i) != int64(row) {
				t.Fatalf("row %d read as row %d", row, b.First+int64(i))
			}
			if b.Bad[i].Reason != w.bad || (w.bad != "" && w.values != "\x00" && b.Values(i) != w.values) {
				t.Errorf("row %d: %q, %q; want %q, %q", row, b.Bad[i].Reason, b.Values(i), w.bad, w.values)
			}
			for c := range cols {
				var got, want any = b.Nulls[c][i], w.nulls[c]
				switch {
				case w.nulls[c]:
				case cols[c].Type == String:
					got, want = b.Strs[c][i], w.strs[c]
				default:
					got, want = b.Ints[c][i], w.ints[c]
				}
				if b.Nulls[c][i] != w.nulls[c] || got != want {
					t.Errorf("row %d column %d: %v; want %v", row, c, got, want)
				}
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if row != len(want) {
		t.Errorf("read %d rows, want %d", row, len(want))
	}
}
