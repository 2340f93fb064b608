package rating

import "testing"

func TestCheckIncompressible(t *testing.T) {
	for _, c := range []struct {
		col Column
		ok  bool
	}{
		{Column{Name: "x", Type: Float64, Incompressible: true}, true},
		{Column{Name: "x", Type: Float64, Decimals: 2, Incompressible: true}, false},
		{Column{Name: "x", Type: Int64, Incompressible: true}, false},
	} {
		cols := Columns{Games: []Column{c.col}}
		if err := cols.Check(); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.col, err)
		}
	}
}
