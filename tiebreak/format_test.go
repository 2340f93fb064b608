package tiebreak

import (
	"bytes"
	"math"
	"strconv"
	"testing"
)

func TestWriteCSV(t *testing.T) {
	rows := []Row{
		{Rank: 1, Player: Player{ID: 7, StartNo: 2, Name: "Alpha, Ann"}, Points: 2.5, Values: []Value{{V: 7, OK: true}, {}, {V: 4.25, OK: true}}},
		{Rank: 2, Player: Player{StartNo: 1, Name: "Beta"}, Points: 0, Values: []Value{{V: -1.5, OK: true}, {V: 1933, OK: true}, {V: 0, OK: true}}},
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, []string{"BH/C1", "ARO", "SB"}, rows); err != nil {
		t.Fatal(err)
	}
	want := "rank,start_no,player_id,name,points,BH/C1,ARO,SB\n" +
		"1,2,7,\"Alpha, Ann\",2.5,7,,4.25\n" +
		"2,1,,Beta,0,-1.5,1933,0\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteText(&b, []string{"BH/C1", "ARO", "SB"}, rows); err != nil || b.Len() == 0 {
		t.Errorf("WriteText: %v", err)
	}
}

// TestAppendFloat: the integer path for whole, half and quarter values prints what
// strconv's shortest form prints.
func TestAppendFloat(t *testing.T) {
	vals := []float64{0.1, 1.0 / 3, 9.3778, -2.05, 1e20, -1e20, 1 << 50, 1<<48 + 0.25, -(1<<48 + 0.75), 1<<49 - 0.25,
		math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 1 << 61, -(1 << 61), 1e19, 99.75, 100, -99.5}
	for q := -2000; q <= 2000; q++ {
		vals = append(vals, float64(q)/4, float64(q)/100, float64(q)/10)
	}
	for _, f := range vals {
		want := strconv.FormatFloat(f, 'f', -1, 64)
		if f == 0 {
			want = "0"
		}
		if got := string(appendFloat(nil, f)); got != want {
			t.Errorf("appendFloat(%v) = %q, want %q", f, got, want)
		}
	}
}
