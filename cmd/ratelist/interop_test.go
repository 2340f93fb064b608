package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"

	"github.com/ratelist/ratelist/internal/golden"
)

// TestParquetInterop reads every Parquet file of the demo run with
// parquet-go and with Apache Arrow's own Parquet reader (pqarrow), and checks
// that both see the same columns in the same order (name and optionality),
// the same number of rows, and the same value and null-ness in every cell.
// DATE and TIMESTAMP cells are compared as calendar values, so a reader that
// ignored the logical type would fail. This guards the writer's encodings
// (Snappy, DELTA_BINARY_PACKED, dictionary pages, optional columns, DATE)
// against output that only parquet-go can read.
func TestParquetInterop(t *testing.T) {
	out := demoOut(t)
	var files []string
	for _, f := range golden.ListFiles(t, out) {
		if strings.HasSuffix(f, ".parquet") {
			files = append(files, filepath.Join(out, filepath.FromSlash(f)))
		}
	}
	if len(files) == 0 {
		t.Fatalf("no parquet files under %s", out)
	}
	// The FIDE rules' audit trail (card_games.parquet has no row under the
	// school rules) and Glicko-2's, whose added unrounded columns are plain.
	others := map[string]string{}
	for _, rules := range []string{"fide", "glicko2"} {
		dir := t.TempDir()
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"run", "--rules", rules, "--out", dir, "--quiet"}, &stdout, &stderr); code != exitOK {
			t.Fatalf("%s run: exit %d, stderr:\n%s", rules, code, stderr.String())
		}
		others[dir] = rules
		files = append(files, filepath.Join(dir, "cards.parquet"), filepath.Join(dir, "card_games.parquet"))
	}
	for _, path := range files {
		name, _ := filepath.Rel(out, path)
		if rules, ok := others[filepath.Dir(path)]; ok {
			name = rules + "/" + filepath.Base(path)
		}
		t.Run(filepath.ToSlash(name), func(t *testing.T) {
			pgCols, pgRows := readParquetGo(t, path)
			arCols, arRows := readArrow(t, path)
			if !slices.Equal(pgCols, arCols) {
				t.Fatalf("columns differ:\nparquet-go %v\narrow      %v", pgCols, arCols)
			}
			empty := len(pgRows) == 0 && path == filepath.Join(out, "card_games.parquet")
			if len(pgRows) != len(arRows) || len(pgRows) == 0 && !empty {
				t.Fatalf("parquet-go read %d rows, arrow %d", len(pgRows), len(arRows))
			}
			mismatches := 0
			for r := range pgRows {
				for c, col := range pgCols {
					if pgRows[r][c] == arRows[r][c] {
						continue
					}
					t.Errorf("row %d column %s: parquet-go %s, arrow %s", r, col, pgRows[r][c], arRows[r][c])
					if mismatches++; mismatches == 10 {
						t.Fatal("too many mismatches")
					}
				}
			}
		})
	}
}

// column names a top-level column as both helpers report it: "name" or "name?"
// when it is optional (nullable).
func column(name string, optional bool) string {
	if optional {
		return name + "?"
	}
	return name
}

// readParquetGo returns the columns and every row of a Parquet file as
// read by parquet-go, one string per cell (golden.DecodeParquet's text).
func readParquetGo(t *testing.T, path string) (cols []string, rows [][]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := golden.DecodeParquet(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tbl.Columns {
		cols = append(cols, column(c.Name, c.Optional))
	}
	return cols, tbl.Rows
}

// readArrow returns the columns and every row of a Parquet file as read by
// Arrow's pqarrow into an arrow.Table, one string per cell as
// golden.DecodeParquet writes it.
func readArrow(t *testing.T, path string) (cols []string, rows [][]string) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	for _, fld := range tbl.Schema().Fields() {
		cols = append(cols, column(fld.Name, fld.Nullable))
	}
	rows = make([][]string, tbl.NumRows())
	for r := range rows {
		rows[r] = make([]string, len(cols))
	}
	for c := range cols {
		r := 0
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			for i := range chunk.Len() {
				rows[r][c] = arrowCell(t, chunk, i)
				r++
			}
		}
	}
	return cols, rows
}

func arrowCell(t *testing.T, a arrow.Array, i int) string {
	if a.IsNull(i) {
		return golden.Null
	}
	switch a := a.(type) {
	case *array.Date32:
		return a.Value(i).ToTime().Format(time.DateOnly)
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return a.Value(i).ToTime(unit).UTC().Format(time.RFC3339Nano)
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i))
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Float64:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64)
	case *array.String:
		return strconv.Quote(a.Value(i))
	case *array.List:
		start, end := a.ValueOffsets(i)
		elems := make([]string, 0, end-start)
		for j := int(start); j < int(end); j++ {
			elems = append(elems, arrowCell(t, a.ListValues(), j))
		}
		return "[" + strings.Join(elems, " ") + "]"
	case *array.Struct:
		parts := make([]string, a.NumField())
		for k := range parts {
			parts[k] = arrowCell(t, a.Field(k), i)
		}
		return "{" + strings.Join(parts, " ") + "}"
	}
	t.Fatalf("unhandled arrow type %s", a.DataType())
	return ""
}
