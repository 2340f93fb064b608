package colbuf

import "testing"

func TestExtend(t *testing.T) {
	s := []int{1, 2}
	e := Extend(&s, 3)
	if len(e) != 3 || len(s) != 5 || s[0] != 1 || s[1] != 2 {
		t.Fatalf("Extend: got %v of %v", e, s)
	}
	Fill(e, 7)
	if s[2] != 7 || s[4] != 7 {
		t.Fatalf("Fill through Extend's elements: %v", s)
	}
	big := make([]int, 100)
	if c := cap(RoomFor(big, 1)); c < 200 {
		t.Errorf("RoomFor grew 100 by 1 to cap %d, want it at least doubled", c)
	}
	if r := RoomFor(make([]int, 0, 10), 4); cap(r) != 10 {
		t.Errorf("RoomFor with room made a new array (cap %d)", cap(r))
	}
}
