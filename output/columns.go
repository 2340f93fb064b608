package output

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/rating"
)

// Shape is a file's row type with a rule set's columns (rating.Columns)
// added: its schema, and rows made of a record of the contract's columns
// and the added values. Without added columns it is the record type's own.
type Shape struct {
	Schema *parquet.Schema
	typ    reflect.Type // the row type: the record's fields with the added ones at at
	base   int          // the record's fields
	at     int          // where the added fields are
	added  []rating.Column
	nulled int // the record's field left null (a list's k without K), -1: none
}

// ListShape is the shape of a rating list, lists/LABEL.parquet, with cols
// after flags; with noK (rating.Columns.NoK) its k column is optional and
// null.
func ListShape(cols []rating.Column, noK bool) *Shape {
	t := reflect.TypeFor[ListRow]()
	if !noK {
		return newShape("listRow", t, "Flags", cols, ListSchema)
	}
	f, _ := t.FieldByName("K")
	return newShape("listRow", t, "Flags", cols, ListSchema, f.Index[0])
}

// ListNoK tells whether a list file of schema has an optional k column: its
// rule set has no K (ListShape), so a k read as 0 is empty.
func ListNoK(schema *parquet.Schema) bool {
	leaf, ok := schema.Lookup("k")
	return ok && leaf.Node.Optional()
}

// CardShape is the shape of cards.parquet with cols after the contract's
// columns.
func CardShape(cols []rating.Column) *Shape {
	return newShape("cardRow", reflect.TypeFor[cardFile](), "", cols, CardSchema)
}

// CardGameShape is the shape of card_games.parquet with cols after the
// contract's columns.
func CardGameShape(cols []rating.Column) *Shape {
	return newShape("cardGameRow", reflect.TypeFor[cardGameFile](), "", cols, CardGameSchema)
}

// newShape adds cols to record type t after its field named after (at the
// end when ""); the int32 field nulled, if given, becomes an optional one,
// always null.
func newShape(root string, t reflect.Type, after string, cols []rating.Column, own *parquet.Schema, nulled ...int) *Shape {
	at := t.NumField()
	if f, ok := t.FieldByName(after); ok {
		at = f.Index[0] + 1
	}
	sh := &Shape{Schema: own, base: t.NumField(), at: at, added: cols, nulled: -1}
	if len(cols) == 0 && len(nulled) == 0 {
		return sh
	}
	fields := make([]reflect.StructField, 0, t.NumField()+len(cols))
	for i := range t.NumField() {
		fields = append(fields, t.Field(i))
	}
	for _, i := range nulled {
		name, _, _ := strings.Cut(fields[i].Tag.Get("parquet"), ",")
		fields[i].Type, fields[i].Tag = reflect.TypeFor[*int32](), reflect.StructTag(`parquet:"`+name+`,optional"`)
		sh.nulled = i
	}
	fields = slices.Insert(fields, at, addedFields(cols)...)
	sh.typ = reflect.StructOf(fields)
	sh.Schema = parquet.NewSchema(root, parquet.SchemaOf(reflect.New(sh.typ).Elem().Interface()))
	return sh
}

// addedFields are the struct fields of added columns. A Float64 column with
// decimals (rounded: its values repeat) is dictionary-encoded, as the cards'
// other measured values are; an unrounded one is plain: its values hardly
// repeat, so a dictionary only adds bytes and CPU.
func addedFields(cols []rating.Column) []reflect.StructField {
	added := make([]reflect.StructField, len(cols))
	for i, c := range cols {
		f := reflect.StructField{Name: fmt.Sprintf("Added%d", i), Tag: reflect.StructTag(`parquet:"` + c.Name + `"`)}
		switch c.Type {
		case rating.Int64:
			f.Type, f.Tag = reflect.TypeFor[int64](), reflect.StructTag(`parquet:"`+c.Name+`,delta"`)
		case rating.Float64:
			f.Type, f.Tag = reflect.TypeFor[float64](), reflect.StructTag(`parquet:"`+c.Name+`,dict"`)
			if c.Decimals == 0 {
				f.Tag = reflect.StructTag(`parquet:"` + c.Name + `"`)
			}
		default:
			f.Type = reflect.TypeFor[string]()
		}
		added[i] = f
	}
	return added
}

// AddedColumns are the columns of a file's schema that own (the record
// type's schema) does not have: a rule set's own, typed as the file has them.
// Decimals and titles are not in a file: they stay zero.
func AddedColumns(file, own *parquet.Schema) []rating.Column {
	var cols []rating.Column
	for _, path := range file.Columns() {
		if _, ok := own.Lookup(path...); ok || len(path) != 1 {
			continue
		}
		leaf, _ := file.Lookup(path...)
		c := rating.Column{Name: path[0], Type: rating.String}
		switch leaf.Node.Type().Kind() {
		case parquet.Int64, parquet.Int32:
			c.Type = rating.Int64
		case parquet.Double, parquet.Float:
			c.Type = rating.Float64
		}
		cols = append(cols, c)
	}
	return cols
}

// Added is the shape's added columns (none: the record type's own shape).
func (sh *Shape) Added() []rating.Column { return sh.added }

// Row returns a row of the shape: the fields of record (a value of the
// record type) and vals, one per added column.
func (sh *Shape) Row(record any, vals []rating.Value) any {
	row := reflect.New(sh.typ).Elem()
	rec := reflect.ValueOf(record)
	for i := range sh.base {
		j := i
		if i >= sh.at {
			j += len(sh.added)
		}
		if i != sh.nulled {
			row.Field(j).Set(rec.Field(i))
		}
	}
	for i, c := range sh.added {
		f := row.Field(sh.at + i)
		switch c.Type {
		case rating.Int64:
			f.SetInt(vals[i].Int)
		case rating.Float64:
			f.SetFloat(vals[i].Float)
		default:
			f.SetString(vals[i].Str)
		}
	}
	return row.Interface()
}

// AddedReader reads the added columns of a file of a shape, a row at a
// time, in file order.
type AddedReader struct {
	r    *parquet.Reader
	row  reflect.Value // a pointer to a struct of the added fields
	cols []rating.Column
}

// AddedReader returns a reader of the added columns of f, a file of the
// shape.
func (sh *Shape) AddedReader(f io.ReaderAt) *AddedReader { return NewAddedReader(f, sh.added) }

// NewAddedReader returns a reader of the columns cols of f (AddedColumns).
func NewAddedReader(f io.ReaderAt, cols []rating.Column) *AddedReader {
	row := reflect.New(reflect.StructOf(addedFields(cols)))
	schema := parquet.SchemaOf(row.Elem().Interface())
	return &AddedReader{r: parquet.NewReader(f, schema), row: row, cols: cols}
}

// Read fills vals, one per added column, from the next row.
func (a *AddedReader) Read(vals []rating.Value) error {
	if err := a.r.Read(a.row.Interface()); err != nil {
		return err
	}
	row := a.row.Elem()
	for i, c := range a.cols {
		switch f := row.Field(i); c.Type {
		case rating.Int64:
			vals[i].Int = f.Int()
		case rating.Float64:
			vals[i].Float = f.Float()
		default:
			vals[i].Str = f.String()
		}
	}
	return nil
}

// Close closes the reader.
func (a *AddedReader) Close() error { return a.r.Close() }
