package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/ratelist/ratelist/day"
)

// Null is a null cell's text.
const Null = "null"

// Table is a Parquet file decoded: its schema and every cell as text.
type Table struct {
	Schema  string // as parquet-go prints it: each column's name, physical and logical type, optionality
	Columns []Column
	Rows    [][]string
}

// Column is one top-level column of a file.
type Column struct {
	Name     string
	Optional bool
}

// DecodeParquet reads a Parquet file. A cell's text is Null, a quoted
// string (Go syntax), a DATE as 2006-01-02, a TIMESTAMP in RFC 3339 (UTC), or
// a number or boolean as Go prints it. A list column (one level of
// repetition) is [a b ...], each element of a list of groups {x y ...}.
func DecodeParquet(data []byte) (*Table, error) {
	pf, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	schema := pf.Schema()
	fields := schema.Fields()
	t := &Table{Schema: schema.String()}
	for _, f := range fields {
		t.Columns = append(t.Columns, Column{f.Name(), f.Optional()})
	}
	// The leaf columns, each with the top-level field it belongs to.
	var leaves []leaf
	for _, path := range schema.Columns() {
		lc, _ := schema.Lookup(path...)
		if lc.MaxRepetitionLevel > 1 {
			return nil, fmt.Errorf("column %s: nested lists", strings.Join(path, "."))
		}
		top := slices.IndexFunc(fields, func(f parquet.Field) bool { return f.Name() == path[0] })
		leaves = append(leaves, leaf{lc, top})
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	buf := make([]parquet.Row, 256)
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			cells, err := rowCells(fields, leaves, row)
			if err != nil {
				return nil, err
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

// leaf is a leaf column and the index of its top-level field.
type leaf struct {
	parquet.LeafColumn
	top int
}

// rowCells renders one row: a flat field's one value, a list field's elements.
func rowCells(fields []parquet.Field, leaves []leaf, row parquet.Row) ([]string, error) {
	cells := make([]string, len(fields))
	// Each leaf's cells in the row: one per value, or one per list element.
	items := make([][]string, len(leaves))
	defs := make([]int, len(fields)) // the lowest definition level of the field's values
	for _, v := range row {
		l := &leaves[v.Column()]
		if len(items[v.Column()]) == 0 || v.DefinitionLevel() < defs[l.top] {
			defs[l.top] = v.DefinitionLevel()
		}
		elemDef := l.MaxDefinitionLevel
		if l.Node.Optional() {
			elemDef--
		}
		if l.MaxRepetitionLevel > 0 && v.DefinitionLevel() < elemDef {
			continue // an empty or null list
		}
		c, err := cell(l.Node.Type(), v)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", strings.Join(l.Path, "."), err)
		}
		items[v.Column()] = append(items[v.Column()], c)
	}
	for fi, f := range fields {
		var own []int // the field's leaves
		for i := range leaves {
			if leaves[i].top == fi {
				own = append(own, i)
			}
		}
		if f.Leaf() && leaves[own[0]].MaxRepetitionLevel == 0 {
			cells[fi] = items[own[0]][0]
			continue
		}
		if len(items[own[0]]) == 0 && f.Optional() && defs[fi] == 0 {
			cells[fi] = Null
			continue
		}
		elems := make([]string, len(items[own[0]]))
		for j := range elems {
			if len(own) == 1 {
				elems[j] = items[own[0]][j]
				continue
			}
			parts := make([]string, len(own))
			for k, i := range own {
				parts[k] = items[i][j]
			}
			elems[j] = "{" + strings.Join(parts, " ") + "}"
		}
		cells[fi] = "[" + strings.Join(elems, " ") + "]"
	}
	return cells, nil
}

func cell(typ parquet.Type, v parquet.Value) (string, error) {
	if v.IsNull() {
		return Null, nil
	}
	if lt := typ.LogicalType(); lt != nil {
		switch lt := lt.Value.(type) {
		case *format.DateType:
			return day.Day(v.Int32()).String(), nil
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

// ParquetText decodes a Parquet file into its golden text (Table.Text).
func ParquetText(data []byte) ([]byte, error) {
	t, err := DecodeParquet(data)
	if err != nil {
		return nil, err
	}
	return t.Text(), nil
}
