package output

import (
	"io"
	"reflect"
	"slices"
	"sync"

	"github.com/parquet-go/parquet-go"
)

// RowsWriter writes a table rule set's rows (a slice of its declared row
// type) to a Parquet file.
type RowsWriter interface {
	Write(rows any) error
	Flush() error
	Close() error
}

// rowWriters are the direct writers of the registered row types.
var rowWriters sync.Map // reflect.Type → func(io.Writer, []parquet.WriterOption) RowsWriter

// RegisterRows lets NewRowsWriter write rows of type T by parquet-go's typed
// writer, from Go values straight to columns: far cheaper than taking each
// row apart. Package rating/all registers every table rule set's row types.
func RegisterRows[T any]() {
	rowWriters.Store(reflect.TypeFor[T](), func(w io.Writer, opts []parquet.WriterOption) RowsWriter {
		return &typedRows[T]{parquet.NewGenericWriter[T](w, opts...)}
	})
}

// NewRowsWriter returns the writer of rows like row (a zero row of a table
// rule set's file) to w with schema and opts. The bytes are the same whether
// or not its type is registered.
func NewRowsWriter(row any, w io.Writer, schema *parquet.Schema, opts ...parquet.WriterOption) RowsWriter {
	opts = append([]parquet.WriterOption{schema}, opts...)
	if f, ok := rowWriters.Load(reflect.TypeOf(row)); ok {
		return f.(func(io.Writer, []parquet.WriterOption) RowsWriter)(w, opts)
	}
	return &reflectRows{w: parquet.NewWriter(w, opts...), schema: schema}
}

type typedRows[T any] struct{ w *parquet.GenericWriter[T] }

func (t *typedRows[T]) Write(rows any) error {
	_, err := t.w.Write(rows.([]T))
	return err
}
func (t *typedRows[T]) Flush() error { return t.w.Flush() }
func (t *typedRows[T]) Close() error { return t.w.Close() }

// reflectRows takes each row apart by the schema, a batch of a multiple of
// 64 rows at a time, so that the pages end where the typed writer's do.
type reflectRows struct {
	w      *parquet.Writer
	schema *parquet.Schema
	buf    []parquet.Row
}

// reflectBatch is how many rows reflectRows takes apart at a time.
const reflectBatch = 64 * 64

func (t *reflectRows) Write(rows any) error {
	v := reflect.ValueOf(rows)
	for lo := 0; lo < v.Len(); lo += reflectBatch {
		n := min(reflectBatch, v.Len()-lo)
		t.buf = slices.Grow(t.buf[:0], n)[:n]
		for i := range n {
			t.buf[i] = t.schema.Deconstruct(t.buf[i][:0], v.Index(lo+i).Addr().Interface())
		}
		if _, err := t.w.WriteRows(t.buf); err != nil {
			return err
		}
	}
	return nil
}
func (t *reflectRows) Flush() error { return t.w.Flush() }
func (t *reflectRows) Close() error { return t.w.Close() }
