package importer

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/zstdcodec"
)

// importColumns are the columns import writes for table: the archive's, and
// for players the extra PlayerInfoColumns (fide_id, federation, sex, title,
// birth_date).
func importColumns(table string) ([]archive.Column, bool) {
	t, ok := archive.Lookup(table)
	if table == "players" {
		return append(slices.Clip(t.Columns), archive.PlayerInfoColumns...), true
	}
	return t.Columns, ok
}

// cell is one decoded value.
type cell struct {
	null bool
	i    int64
	s    string
}

// CSVTable reads one CSV table, checking every cell against the archive schema.
// Like bufio.Scanner: for r.Next() { row := r.Row() }; r.Err(). Bad rows are not
// returned by Row: they are appended to Problems, with the data row number.
type CSVTable struct {
	Table    string
	File     string
	Read     int64
	Problems []*Problem

	r    *csv.Reader
	cols []archive.Column
	idx  []int // schema column → CSV field, -1 when absent
	nf   int
	row  []cell
	err  error
}

// NewCSVTable reads the header of a CSV table. Extra columns are reported in notes.
func NewCSVTable(r io.Reader, file, table string) (*CSVTable, []string, error) {
	cols, ok := importColumns(table)
	if !ok {
		return nil, nil, fmt.Errorf("%s: unknown table %q: %w", file, table, ErrUsage)
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	hdr, err := cr.Read()
	if err == io.EOF {
		return nil, nil, &Problem{File: file, Err: fmt.Errorf("empty file, no header row: %w", ErrMalformed)}
	}
	if err != nil {
		return nil, nil, &Problem{File: file, Err: fmt.Errorf("header: %w: %w", err, ErrMalformed)}
	}
	t := &CSVTable{Table: table, File: file, r: cr, cols: cols, nf: len(hdr), row: make([]cell, len(cols))}
	known := map[string]bool{}
	for _, c := range cols {
		known[c.Name] = true
	}
	var extra []string
	for j, h := range hdr {
		h = strings.TrimSpace(h)
		if j == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		hdr[j] = h
		if !known[h] {
			extra = append(extra, h)
		}
	}
	for _, c := range cols {
		idx := -1
		for j, h := range hdr {
			if h == c.Name {
				idx = j
			}
		}
		if idx < 0 && c.Required {
			return nil, nil, &Problem{File: file, Err: fmt.Errorf("missing required column %q: %w", c.Name, ErrMalformed)}
		}
		t.idx = append(t.idx, idx)
	}
	return t, extra, nil
}

// Next reads the next good row; bad rows are recorded and passed over.
func (t *CSVTable) Next() bool {
	for t.err == nil {
		rec, err := t.r.Read()
		if err == io.EOF {
			return false
		}
		t.Read++
		var pe *csv.ParseError
		switch {
		case err != nil && errors.As(err, &pe) && !errors.Is(err, csv.ErrFieldCount):
			t.bad("malformed CSV: %v", pe.Err)
			continue
		case err != nil:
			t.err = &Problem{File: t.File, Line: t.Read, Err: err}
			t.Read--
			return false
		case len(rec) != t.nf:
			t.bad("%d fields, the header has %d", len(rec), t.nf)
			continue
		}
		if msg := t.decode(rec); msg != "" {
			t.bad("%s", msg)
			continue
		}
		return true
	}
	return false
}

func (t *CSVTable) bad(format string, args ...any) {
	t.Problems = append(t.Problems, &Problem{File: t.File, Line: t.Read, Err: fmt.Errorf(format+": %w", append(args, ErrMalformed)...)})
}

// Err is the error that stopped the table (an I/O error).
func (t *CSVTable) Err() error { return t.err }

// Row is the last good row, one cell per schema column; owned by the table.
func (t *CSVTable) Row() []cell { return t.row }

func (t *CSVTable) decode(rec []string) string {
	for c, col := range t.cols {
		v := ""
		if t.idx[c] >= 0 {
			v = strings.TrimSpace(rec[t.idx[c]])
		}
		x := &t.row[c]
		*x = cell{null: v == ""}
		switch {
		case x.null && col.Required:
			return col.Name + ": missing"
		case x.null:
		case col.Type == archive.String:
			if why := archive.CheckText(v); why != "" {
				return col.Name + ": " + why
			}
			x.s = v
		default:
			i, err := archive.ParseCell(col.Type, v)
			if err != nil {
				return col.Name + ": " + err.Error()
			}
			if col.Type == archive.Int32 && int64(int32(i)) != i {
				return fmt.Sprintf("%s: %d is out of the int32 range", col.Name, i)
			}
			x.i = i
		}
	}
	return ""
}

// code is a result code cell as text, upper-cased ('½' as '=').
func code(c cell) string { return string(rune(c.i)) }

func optCode(c cell) *string {
	if c.null {
		return nil
	}
	return ptr(code(c))
}

func optI32(c cell) *int32 {
	if c.null {
		return nil
	}
	return ptr(int32(c.i))
}

func optI64(c cell) *int64 {
	if c.null {
		return nil
	}
	return ptr(c.i)
}

func optStr(c cell) *string {
	if c.null {
		return nil
	}
	return ptr(c.s)
}

func optBool(c cell) *bool {
	if c.null {
		return nil
	}
	return ptr(c.i != 0)
}

// csvSource is one table to convert.
type csvSource struct{ table, path string }

// csvSources resolves the arguments of import csv: files named NAME.csv, or
// folders holding such files.
func csvSources(args []string) ([]csvSource, error) {
	var out []csvSource
	seen := map[string]string{}
	add := func(table, path string) error {
		if prev, dup := seen[table]; dup {
			return fmt.Errorf("two sources for table %s: %s and %s: %w", table, prev, path, ErrUsage)
		}
		seen[table] = path
		out = append(out, csvSource{table, path})
		return nil
	}
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			n := len(out)
			for _, t := range archive.Tables {
				p := filepath.Join(arg, t.Name+".csv")
				if _, err := os.Stat(p); err == nil {
					if err := add(t.Name, p); err != nil {
						return nil, err
					}
				}
			}
			if len(out) == n {
				return nil, fmt.Errorf("%s: no players.csv, tournaments.csv, games.csv, tables.csv, teams.csv, team_players.csv or team_byes.csv: %w", arg, ErrUsage)
			}
			continue
		}
		t := strings.TrimSuffix(filepath.Base(arg), ".csv")
		if _, ok := archive.Lookup(t); !ok || !strings.HasSuffix(arg, ".csv") {
			return nil, fmt.Errorf("%s: name a CSV table players.csv, tournaments.csv, games.csv, tables.csv, teams.csv, team_players.csv or team_byes.csv: %w", arg, ErrUsage)
		}
		if err := add(t, arg); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ImportCSV re-encodes CSV tables into dir as NAME.parquet (zstd). A table the
// archive already holds in another form is refused, except the archive's own
// NAME.csv, which is converted in place and kept as NAME.csv.bak. Rows whose
// cells do not fit the schema are skipped with a Problem (file:row); a file that
// cannot be read at all (no header, a required column missing) is skipped whole.
func ImportCSV(ctx context.Context, dir string, args []string) (*Stats, error) {
	srcs, err := csvSources(args)
	if err != nil {
		return nil, err
	}
	for _, s := range srcs {
		for _, other := range []string{s.table + ".parquet", s.table + ".csv", s.table} {
			p := filepath.Join(dir, other)
			if _, err := os.Stat(p); err != nil || sameFile(p, s.path) {
				continue
			}
			return nil, fmt.Errorf("%s: %w: it already has table %s (%s); import csv writes new tables only", dir, ErrArchive, s.table, other)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	st := &Stats{}
	type done struct{ tmp, table, src string }
	var ready []done
	defer func() {
		for _, d := range ready {
			os.Remove(d.tmp)
		}
	}()
	for _, s := range srcs {
		tmp, err := convertCSV(ctx, dir, s, st)
		if err != nil {
			return st, err
		}
		if tmp != "" {
			ready = append(ready, done{tmp, s.table, s.path})
		}
	}
	for len(ready) > 0 {
		d := ready[0]
		dst := filepath.Join(dir, d.table+".parquet")
		inPlace := sameFile(filepath.Join(dir, d.table+".csv"), d.src)
		if err := os.Rename(d.tmp, dst); err != nil {
			return st, err
		}
		ready = ready[1:]
		st.Tables = append(st.Tables, d.table+".parquet")
		if inPlace {
			if err := os.Rename(d.src, d.src+".bak"); err != nil {
				return st, err
			}
			st.note(d.src, 0, "converted in place; the CSV is kept as %s.bak", filepath.Base(d.src))
		}
	}
	return st, nil
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// convertCSV writes one table to a temporary Parquet file and returns its path
// ("" when the file was skipped whole).
func convertCSV(ctx context.Context, dir string, s csvSource, st *Stats) (string, error) {
	st.Files++
	f, err := os.Open(s.path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	t, extra, err := NewCSVTable(f, s.path, s.table)
	if err != nil {
		var p *Problem
		if errors.As(err, &p) {
			st.FilesSkipped++
			st.Problems = append(st.Problems, p)
			return "", nil
		}
		return "", err
	}
	for _, x := range extra {
		st.note(s.path, 0, "column %q is not in the archive schema of %s: left out", x, s.table)
	}
	out, err := os.CreateTemp(dir, "."+s.table+"-*.tmp")
	if err != nil {
		return "", err
	}
	out.Chmod(0o644)
	var n int64
	switch s.table {
	case "players":
		n, err = writeRows(ctx, out, t, func(c []cell) archive.PlayerRow {
			return archive.PlayerRow{PlayerID: c[0].i, Name: c[1].s, BirthYear: optI32(c[2]), Category: optI32(c[3]),
				FideRating: optI32(c[4]), Club: optStr(c[5]), FideID: optI64(c[6]),
				Federation: optStr(c[7]), Sex: optStr(c[8]), Title: optStr(c[9]), BirthDate: optI32(c[10])}
		})
	case "tournaments":
		n, err = writeRows(ctx, out, t, func(c []cell) archive.TournamentRow {
			return archive.TournamentRow{TournamentID: c[0].i, Name: c[1].s, StartDate: int32(c[2].i), EndDate: int32(c[3].i),
				System: optStr(c[4]), Rounds: optI32(c[5]), Discipline: optStr(c[6]), Rated: optBool(c[7]), Tiebreaks: optStr(c[8])}
		})
	case "games":
		n, err = writeRows(ctx, out, t, func(c []cell) archive.GameRow {
			return archive.GameRow{TournamentID: c[0].i, Round: int32(c[1].i), Date: optI32(c[2]), WhiteID: c[3].i, BlackID: optI64(c[4]),
				WhiteResult: code(c[5]), BlackResult: optCode(c[6]), WhitePoints: optI32(c[7]), BlackPoints: optI32(c[8])}
		})
	case "tables":
		n, err = writeRows(ctx, out, t, func(c []cell) archive.TableRow {
			return archive.TableRow{GameID: c[0].i, TournamentID: optI64(c[1]), PlayedAt: c[2].i, PlayerID: c[3].i,
				Place: int32(c[4].i), Score: int32(c[5].i), LeftTable: optBool(c[6]), StoppedPulka: optI32(c[7])}
		})
	case "teams":
		n, err = writeRows(ctx, out, t, func(c []cell) archive.TeamRow {
			return archive.TeamRow{TournamentID: c[0].i, Team: int32(c[1].i), Name: c[2].s, Club: optStr(c[3])}
		})
	case "team_players":
		n, err = writeRows(ctx, out, t, func(c []cell) archive.TeamPlayerRow {
			return archive.TeamPlayerRow{TournamentID: c[0].i, Team: int32(c[1].i), PlayerID: c[2].i, Board: int32(c[3].i), Round: optI32(c[4])}
		})
	case "team_byes":
		n, err = writeRows(ctx, out, t, func(c []cell) archive.TeamByeRow {
			return archive.TeamByeRow{TournamentID: c[0].i, Team: int32(c[1].i), Round: int32(c[2].i), MatchHalfPoints: int32(c[3].i), GameHalfPoints: int32(c[4].i)}
		})
	}
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	st.Read += t.Read
	st.Imported += n
	st.Skipped += int64(len(t.Problems))
	st.Problems = append(st.Problems, t.Problems...)
	if err != nil {
		os.Remove(out.Name())
		return "", fmt.Errorf("write %s: %w", s.table, err)
	}
	return out.Name(), nil
}

// writeRows streams the good rows of t as Parquet, 64k rows at a time.
func writeRows[T any](ctx context.Context, w io.Writer, t *CSVTable, conv func([]cell) T) (int64, error) {
	pw := parquet.NewGenericWriter[T](w, parquet.Compression(zstdcodec.Codec), parquet.MaxRowsPerRowGroup(1<<20))
	buf := make([]T, 0, 1<<16)
	var n int64
	flush := func() error {
		_, err := pw.Write(buf)
		n += int64(len(buf))
		buf = buf[:0]
		return err
	}
	for t.Next() {
		buf = append(buf, conv(t.Row()))
		if len(buf) == cap(buf) {
			if err := ctx.Err(); err != nil {
				return n, err
			}
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	if err := t.Err(); err != nil {
		return n, err
	}
	if err := flush(); err != nil {
		return n, err
	}
	return n, pw.Close()
}
