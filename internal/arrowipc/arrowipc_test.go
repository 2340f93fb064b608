package arrowipc

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

func TestRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.arrow")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	cols := []Column{
		{Name: "rank", Int32: []int32{1, 2}},
		{Name: "player_id", Int64: []int64{7, 9}},
		{Name: "name", String: []string{"Ann", "Bob"}},
		{Name: "change", Int32: []int32{5, 0}, Null: []bool{false, true}},
		{Name: "birth_date", Date: []int32{0, 11000}, Null: []bool{true, false}},
	}
	if err := Write(f, cols); err != nil {
		t.Fatal(err)
	}
	f.Close()
	g, _ := os.Open(p)
	defer g.Close()
	r, err := ipc.NewFileReader(g, ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec, err := r.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	if rec.NumRows() != 2 || rec.NumCols() != 5 {
		t.Fatalf("rows %d cols %d", rec.NumRows(), rec.NumCols())
	}
	if got := rec.Column(2).(*array.String).Value(1); got != "Bob" {
		t.Errorf("name[1] = %q", got)
	}
	ch := rec.Column(3).(*array.Int32)
	if ch.Value(0) != 5 || !ch.IsNull(1) {
		t.Errorf("change column: %v", ch)
	}
	if bd := rec.Column(4).(*array.Date32); !bd.IsNull(0) || bd.Value(1).ToTime().Format(time.DateOnly) != "2000-02-13" {
		t.Errorf("birth_date column: %v", bd)
	}
	if err := Write(f, []Column{{Name: "a", Int32: []int32{1}}, {Name: "b", Int32: []int32{1, 2}}}); err == nil {
		t.Error("ragged columns: no error")
	}
}
