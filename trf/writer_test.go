package trf

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ratelist/ratelist/tiebreak"
)

// smallTournament: three players, two rounds, a bye and a forfeit, one round
// without a game.
func smallTournament() *tiebreak.Tournament {
	return &tiebreak.Tournament{
		ID: 7, Name: "Spring Open", Start: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC),
		Rounds: 3, System: "swiss", Discipline: "chess",
		Players: []tiebreak.Player{{ID: 11, StartNo: 1, Name: "Alpha, Ann", Rating: 2100}, {ID: 12, StartNo: 2, Name: "Beta, Bob", Rating: 1900}, {ID: 13, StartNo: 3, Name: "Gamma, Gil"}},
		Games: []tiebreak.Game{
			{Round: 1, White: 0, Black: 1, WhiteResult: '=', BlackResult: '='},
			{Round: 1, White: 2, Black: -1, WhiteResult: 'U'},
			{Round: 2, White: 2, Black: 0, WhiteResult: '-', BlackResult: '+'},
			{Round: 2, White: 1, Black: -1, WhiteResult: 'H'},
			{Round: 3, White: 1, Black: 2, WhiteResult: '1', BlackResult: '0'},
		},
	}
}

func TestWriteRecords(t *testing.T) {
	info := []PlayerInfo{{Sex: "w", Title: "WGM", Federation: "ISL", FideID: 900001, Birth: "2000/01/31"}, {Sex: "m", Birth: "1990"}, {}}
	var b bytes.Buffer
	if err := Write(&b, smallTournament(), info, []string{"BH"}, TRF16); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"012 Spring Open",
		"042 2025/03/01",
		"052 2025/03/02",
		"062 3",
		"092 Swiss system",
		"XXR 3",
		"001    1 wWGM Alpha, Ann                        2100 ISL      900001 2000/01/31  1.5    2     2 w =     3 b +          ",
		"001    2 m    Beta, Bob                         1900                 1990        2.0    1     1 b =  0000 - H     3 w 1",
		"001    3      Gamma, Gil                                                         1.0    3  0000 - U     1 w -     2 b 0",
		"",
	}, "\n")
	want = strings.ReplaceAll(want, "+          \n", "+\n")
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	f, err := Read(&b, "w.trf")
	if err != nil {
		t.Fatal(err)
	}
	p := f.Players[0]
	if p.Sex != "w" || p.Title != "WGM" || p.Federation != "ISL" || p.FideID != 900001 || p.Birth != "2000/01/31" || p.Rating != 2100 || p.Rank != 2 {
		t.Errorf("player 1 read back as %+v", p)
	}
}

func TestWriteTRF26Header(t *testing.T) {
	tt := smallTournament()
	tt.System, tt.Tiebreaks = "round-robin", "SB, DE"
	var b bytes.Buffer
	if err := Write(&b, tt, nil, []string{"SB"}, TRF26); err != nil {
		t.Fatal(err)
	}
	for _, rec := range []string{"092 Round robin\n", "142 3\n", "192 FIDE_ROUNDROBIN\n", "202 SB,DE\n"} {
		if !strings.Contains(b.String(), rec) {
			t.Errorf("no %q in\n%s", rec, b.String())
		}
	}
	if strings.Contains(b.String(), "XXR") {
		t.Errorf("TRF-2026 with XXR:\n%s", b.String())
	}
}

func TestWriteRefuses(t *testing.T) {
	for name, change := range map[string]func(*tiebreak.Tournament){
		"scrabble":    func(t *tiebreak.Tournament) { t.Discipline = "scrabble" },
		"points":      func(t *tiebreak.Tournament) { p := tiebreak.StandardPoints(); p.Win = 6; t.Points = &p },
		"adjustment":  func(t *tiebreak.Tournament) { t.Adjustments = []tiebreak.Adjustment{{Player: 0, Points: 1}} },
		"start twice": func(t *tiebreak.Tournament) { t.Players[1].StartNo = 1 },
	} {
		tt := smallTournament()
		change(tt)
		if err := Write(&bytes.Buffer{}, tt, nil, nil, TRF16); !errors.Is(err, ErrNotWritable) {
			t.Errorf("%s: %v, want ErrNotWritable", name, err)
		}
	}
}

// smallTeams: three players as two teams, a UTF-8 name of 33 characters (cut to
// 32) with an empty place in its list, a board order in round 3 and a declared
// bye of team 2 in round 4 worth 2 match points and 1 game point. Team 1's
// first player beats team 2's in round 1; its second draws and wins in rounds 2
// and 3.
func smallTeams() *tiebreak.TeamTournament {
	t := smallTournament()
	t.Rounds = 4
	t.Games = []tiebreak.Game{
		{Round: 1, White: 0, Black: 2, WhiteResult: '1', BlackResult: '0'},
		{Round: 2, White: 2, Black: 1, WhiteResult: '=', BlackResult: '='},
		{Round: 3, White: 1, Black: 2, WhiteResult: '1', BlackResult: '0'},
		{Round: 4, White: 2, Black: -1, WhiteResult: 'U'},
	}
	pts := tiebreak.StandardTeamPoints()
	pts.PAB, pts.PABGame = 4, 2
	return &tiebreak.TeamTournament{
		Tournament: t,
		Teams:      []tiebreak.Team{{Number: 1, Name: "Ωμέγα Σκακιστικός Όμιλος Ηρακλείου", Players: []int{0, -1, 1}}, {Number: 2, Name: "Two", Players: []int{2}}},
		Orders:     []tiebreak.BoardOrder{{Team: 0, Round: 3, Players: []int{1}}},
		Byes:       []tiebreak.TeamBye{{Team: 1, Round: 4, Code: 'U'}},
		Points:     &pts,
	}
}

// TestWriteTeams: WriteTeams writes 013 records in TRF16 (the name in columns
// 5–36 counted in characters, the starting ranks from 37), 310, 300 and 320
// records in TRF-2026, a 092 naming the team system, and the reader reads the
// same teams back.
func TestWriteTeams(t *testing.T) {
	name := "Ωμέγα Σκακιστικός Όμιλος Ηρακλεί" // 32 characters
	for _, tc := range []struct {
		v    Version
		recs []string
	}{
		{TRF16, []string{"092 Team Swiss\n", "013 " + name + "   1    0    2\n", "013 Two                                3\n"}},
		{TRF26, []string{"092 Team Swiss\n", "310   1 " + name + strings.Repeat(" ", 33) + "   1    0    2\n", "310   2 Two" + strings.Repeat(" ", 29+33) + "   3\n",
			"300   3   1   2    2\n", "320  2.0  1.0   0   0   0   2\n"}},
	} {
		var b bytes.Buffer
		if err := WriteTeams(&b, smallTeams(), nil, []string{"BH"}, tc.v); err != nil {
			t.Fatal(err)
		}
		for _, rec := range tc.recs {
			if !strings.Contains(b.String(), rec) {
				t.Errorf("%s: no %q in\n%s", tc.v, rec, b.String())
			}
		}
		f, err := Read(bytes.NewReader(b.Bytes()), "w.trf")
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Warnings) > 0 || len(f.Teams) != 2 || f.Teams[0].Name != name || !slices.Equal(f.Teams[0].Players, []int{1, 0, 2}) || f.Teams[1].Number != 2 {
			t.Errorf("%s: read back as %+v (%v)", tc.v, f.Teams, f.Warnings)
		}
		got, err := f.TeamTournament()
		if err != nil {
			t.Fatal(err)
		}
		want := smallTeams()
		want.Teams[0].Name = name
		if tc.v == TRF16 {
			want.Orders, want.Byes, want.Points = nil, nil, nil
		}
		if !reflect.DeepEqual(got.Teams, want.Teams) || !reflect.DeepEqual(got.Orders, want.Orders) || !reflect.DeepEqual(got.Byes, want.Byes) || !reflect.DeepEqual(got.Points, want.Points) || got.System != "swiss" {
			t.Errorf("%s: team competition read back as %+v, want %+v", tc.v, got, want)
		}
	}
	// A competition whose system is not named: the file names none either.
	tt := smallTeams()
	tt.Tournament.System = ""
	var b bytes.Buffer
	if err := WriteTeams(&b, tt, nil, nil, TRF16); err != nil || !strings.Contains(b.String(), "092 Team competition\n") {
		t.Errorf("no system: %v\n%s", err, b.String())
	}
}
