package crosstable

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/tiebreak"
)

// four players, three rounds: a round robin with a bye in round 3 for the
// fourth (the first and the third unpaired there instead would be the same).
func small() *tiebreak.Tournament {
	return &tiebreak.Tournament{
		Name: "Small", Rounds: 3, System: "round-robin",
		Players: []tiebreak.Player{{ID: 11, StartNo: 1, Name: "A"}, {ID: 12, StartNo: 2, Name: "B"}, {ID: 13, StartNo: 3, Name: "C"}, {ID: 14, StartNo: 4, Name: "D"}},
		Games: []tiebreak.Game{
			{Round: 1, White: 0, Black: 1, WhiteResult: '1', BlackResult: '0'},
			{Round: 1, White: 2, Black: 3, WhiteResult: '=', BlackResult: '='},
			{Round: 2, White: 3, Black: 0, WhiteResult: '0', BlackResult: '1'},
			{Round: 2, White: 1, Black: 2, WhiteResult: '-', BlackResult: '+'},
			{Round: 3, White: 0, Black: 2, WhiteResult: '=', BlackResult: '='},
			{Round: 3, White: 1, Black: -1, WhiteResult: 'H'},
		},
	}
}

func TestBuildRoundsAndSharedRanks(t *testing.T) {
	tt := small()
	in := Input{Tournament: tt, Codes: []string{"BH"}, RoundRobin: false, Rated: true,
		Entries: []Entry{
			{ID: 11, Rank: 1, StartNo: 1, Name: "A", Points: "2.5", Tiebreaks: []string{"4"}, Player: 0},
			{ID: 13, Rank: 2, StartNo: 3, Name: "C", Points: "2", Tiebreaks: []string{"3"}, Player: 2},
			{ID: 14, Rank: 3, StartNo: 4, Name: "D", Points: "0.5", Tiebreaks: []string{""}, Player: 3},
			{ID: 12, Rank: 3, StartNo: 2, Name: "B", Points: "0.5", Tiebreaks: []string{""}, Player: 1},
		},
		Info: func(e *Entry) Info {
			if e.ID == 11 {
				return Info{Title: "FM", Federation: "ISL", Rating: 2100, Perf: 2250, HasPerf: true, Change: -3.25, Decimals: 1, HasChange: true}
			}
			return Info{}
		},
	}
	x := Build(in)
	if x.Grid || !x.Paired || x.Rounds != 3 || !x.Ranked {
		t.Fatalf("grid %v paired %v rounds %d ranked %v", x.Grid, x.Paired, x.Rounds, x.Ranked)
	}
	var heads []string
	for _, c := range x.Cols {
		heads = append(heads, c.Head)
	}
	if got, want := strings.Join(heads, ","), "Rank,Start no.,Title,Name,Fed,Rating,R1,R2,R3,Pts,BH,Perf,Change"; got != want {
		t.Errorf("columns %s, want %s", got, want)
	}
	cells := func(r int) string {
		var s []string
		for _, c := range x.Cols {
			s = append(s, x.Cell(&x.Rows[r], c))
		}
		return strings.Join(s, "|")
	}
	for r, want := range []string{
		"1|1|FM|A|ISL|2100|2w1|4b1|3w½|2.5|4|2250|−3.2",
		"2|3||C|||4w½|2b+|1b½|2|3||",
		"3–4|4||D|||3b½|1w0||0.5|||",
		"3–4|2||B|||1b0|3w−|bye ½|0.5|||",
	} {
		if got := cells(r); got != want {
			t.Errorf("row %d: %s, want %s", r, got, want)
		}
	}
}

func TestBuildGridWithoutStandings(t *testing.T) {
	x := Build(Input{Tournament: small(), RoundRobin: true})
	if !x.Grid || x.Ranked || x.Players != 4 {
		t.Fatalf("grid %v ranked %v players %d", x.Grid, x.Ranked, x.Players)
	}
	var b bytes.Buffer
	if err := WriteText(&b, x); err != nil {
		t.Fatal(err)
	}
	want := `Start no.  Name  Rating  1  2  3  4  Pts
        1  A             ■  1  ½  1  2.5
        2  B             0  ■  −     0.5
        3  C             ½  +  ■  ½    2
        4  D             0     ½  ■  0.5

Each column of results is the player of that start number.
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestWriteCSV: a row whose opponents have no row of their own shows them as
// start number 0, as the site does.
func TestWriteCSV(t *testing.T) {
	x := Build(Input{Tournament: small(), Codes: []string{"BH"}, RoundRobin: true, Rated: true,
		Entries: []Entry{{ID: 11, Rank: 1, StartNo: 1, Name: "A, B", Points: "2.5", Tiebreaks: []string{"4"}, Player: 0}},
		Info: func(*Entry) Info {
			return Info{Title: "=x", Rating: 2100, Perf: 2250, HasPerf: true, Change: -3, HasChange: true}
		},
	})
	var b bytes.Buffer
	if err := WriteCSV(&b, x); err != nil {
		t.Fatal(err)
	}
	want := "rank,start_no,player_id,title,name,federation,club,rating,r1,r2,r3,points,BH,performance,change\n" +
		"1,1,11,'=x,\"A, B\",,,2100,0w1,0b1,0w½,2.5,4,2250,-3\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestPerformance(t *testing.T) {
	for _, c := range []struct {
		avg         int
		score       float64
		games, want int
	}{
		{2000, 3, 3, 2800}, {2000, 0, 3, 1200}, {2000, 1.5, 3, 2000}, {2000, 2, 3, 2125},
	} {
		if got, ok := Performance(c.avg, c.score, c.games); !ok || got != c.want {
			t.Errorf("Performance(%d, %v, %d) = %d %v, want %d", c.avg, c.score, c.games, got, ok, c.want)
		}
	}
	if _, ok := Performance(2000, 0, 0); ok {
		t.Error("no games: a performance")
	}
}
