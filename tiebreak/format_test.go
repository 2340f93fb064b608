package tiebreak

import (
	"bytes"
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
