package trf

import (
	"bytes"
	"errors"
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
