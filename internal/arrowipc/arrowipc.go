// Package arrowipc is the one small adapter to Apache Arrow (v17): it writes a
// table of plain Go columns as an Arrow IPC file, for analysts' tools (pandas,
// polars, DuckDB, R arrow) that read .arrow files directly. Arrow stays here,
// off the hot path; the rest of the program never sees an Arrow type.
package arrowipc

import (
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// Column is one column: exactly one of Int32, Int64, String, Date is set.
// Null, when not nil, marks null cells.
type Column struct {
	Name    string
	Int32   []int32
	Int64   []int64
	String  []string
	Float64 []float64
	Date    []int32 // days since 1970-01-01
	Null    []bool
}

func (c *Column) typ() arrow.DataType {
	switch {
	case c.Int32 != nil:
		return arrow.PrimitiveTypes.Int32
	case c.Int64 != nil:
		return arrow.PrimitiveTypes.Int64
	case c.Date != nil:
		return arrow.FixedWidthTypes.Date32
	case c.Float64 != nil:
		return arrow.PrimitiveTypes.Float64
	}
	return arrow.BinaryTypes.String
}

func (c *Column) len() int {
	return max(len(c.Int32), len(c.Int64), len(c.String), len(c.Date), len(c.Float64))
}

// Write writes the columns as one record batch of an Arrow IPC file.
func Write(w io.WriteSeeker, cols []Column) error {
	fields := make([]arrow.Field, len(cols))
	n := -1
	for i := range cols {
		fields[i] = arrow.Field{Name: cols[i].Name, Type: cols[i].typ(), Nullable: cols[i].Null != nil}
		if l := cols[i].len(); n >= 0 && l != n {
			return fmt.Errorf("arrow: column %s has %d rows, others %d", cols[i].Name, l, n)
		} else {
			n = l
		}
	}
	schema := arrow.NewSchema(fields, nil)
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := range cols {
		c := &cols[i]
		var valid []bool
		if c.Null != nil {
			valid = make([]bool, len(c.Null))
			for j, null := range c.Null {
				valid[j] = !null
			}
		}
		switch fb := b.Field(i).(type) {
		case *array.Int32Builder:
			fb.AppendValues(c.Int32, valid)
		case *array.Int64Builder:
			fb.AppendValues(c.Int64, valid)
		case *array.StringBuilder:
			fb.AppendValues(c.String, valid)
		case *array.Float64Builder:
			fb.AppendValues(c.Float64, valid)
		case *array.Date32Builder:
			days := make([]arrow.Date32, len(c.Date))
			for j, d := range c.Date {
				days[j] = arrow.Date32(d)
			}
			fb.AppendValues(days, valid)
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(schema), ipc.WithAllocator(mem))
	if err != nil {
		return fmt.Errorf("arrow: %w", err)
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return fmt.Errorf("arrow: %w", err)
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("arrow: %w", err)
	}
	return nil
}
