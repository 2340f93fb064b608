package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Null is a null cell's text.
const Null = "null"

// Table is a flat Parquet file decoded: its schema and every cell as text.
type Table struct {
	Schema  string // as parquet-go prints it: each column's name, physical and logical type, optionality
	Columns []Column
	Rows    [][]string
}

// Column is one leaf column of a flat file.
type Column struct {
	Name     string
	Optional bool
}

// DecodeParquet reads a flat Parquet file. A cell's text is Null, a quoted
// string (Go syntax), a DATE as 2006-01-02, a TIMESTAMP in RFC 3339 (UTC), or
// a number or boolean as Go prints it.
func DecodeParquet(data []byte) (*Table, error) {
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	fields := pf.Schema().Fields()
	t := &Table{Schema: pf.Schema().String()}
	for _, f := range fields {
		if !f.Leaf() {
			return nil, fmt.Errorf("nested column %s", f.Name())
		}
		t.Columns = append(t.Columns, Column{f.Name(), f.Optional()})
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	buf := make([]parquet.Row, 256)
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			cells := make([]string, len(fields))
			for _, v := range row {
				c := v.Column()
				if cells[c], err = cell(fields[c].Type(), v); err != nil {
					return nil, fmt.Errorf("column %s: %w", fields[c].Name(), err)
				}
			}
			t.Rows = append(t.Rows, cells)
		}
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func cell(typ parquet.Type, v parquet.Value) (string, error) {
	if v.IsNull() {
		return Null, nil
	}
	if lt := typ.LogicalType(); lt != nil {
		switch lt := lt.Value.(type) {
		case *format.DateType:
			return time.Unix(int64(v.Int32())*86400, 0).UTC().Format(time.DateOnly), nil
		case *format.TimestampType:
			d := time.Duration(v.Int64()) * lt.Unit.Value.Duration()
			return time.Unix(0, 0).Add(d).UTC().Format(time.RFC3339Nano), nil
		}
	}
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.FormatBool(v.Boolean()), nil
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10), nil
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10), nil
	case parquet.Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64), nil
	case parquet.ByteArray:
		return strconv.Quote(string(v.ByteArray())), nil
	}
	return "", fmt.Errorf("unhandled type %s", typ)
}

// Text is the table as a golden file: the schema, the row count, a header of
// column names and a line of tab-separated cells per row.
func (t *Table) Text() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n%d rows\n", t.Schema, len(t.Rows))
	names := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i] = c.Name
	}
	b.WriteString(strings.Join(names, "\t") + "\n")
	for _, r := range t.Rows {
		b.WriteString(strings.Join(r, "\t") + "\n")
	}
	return b.Bytes()
}

// ParquetText decodes a flat Parquet file into its golden text (Table.Text).
func ParquetText(data []byte) ([]byte, error) {
	t, err := DecodeParquet(data)
	if err != nil {
		return nil, err
	}
	return t.Text(), nil
}
