package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/testutil"
)

// readList reads a list file with ReadFideList into "ID name fed sex title
// wtitle std/rapid/blitz born flag" lines and its problems.
func readList(t *testing.T, name, text string) (players, problems []string, err error) {
	t.Helper()
	err = ReadFideList(strings.NewReader(text), name, func(p *FideListPlayer) error {
		players = append(players, fmt.Sprintf("%d:%d %s|%s|%s|%s|%s %d/%d/%d %d %s", p.Line, p.ID, p.Name, p.Federation, p.Sex, p.Title, p.WTitle, p.Rating, p.Rapid, p.Blitz, p.BirthYear, p.Flag))
		return nil
	}, func(p *Problem) { problems = append(problems, p.Error()) })
	return players, problems, err
}

// TestReadFideListSamples: FIDE's combined text list, a single (blitz) list
// and the XML list, real lines, read into their fields: columns from the
// header line, the single list's rating taken as the blitz rating its file
// name says, Latin-1 XML decoded.
func TestReadFideListSamples(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"players_list_foa.txt", []string{"2:703303 Leko, Peter|HUN|M|GM| 2676/2700/2738 1979 "}},
		{"blitz_rating_list.txt", []string{
			"2:703303 Leko, Peter|HUN|M|GM| 0/0/2738 1979 i",
			"3:700070 Polgar, Judit|HUN|F|GM| 0/0/2736 1976 wi",
			"4:537001345 A Arbhin Vanniarajan|IND|M|| 0/0/1431 2018 ",
			"5:48701955 Aadya Gowda|IND|F|WCM|WCM 0/0/1807 2013 w",
		}},
		{"players_list_xml.xml", []string{
			"3:703303 Leko, Peter|HUN|M|GM| 2676/2700/2738 1979 ",
			"24:48701955 Aadya Gowda|IND|F|WCM|WCM 0/0/1807 2013 w",
		}},
	} {
		text, err := os.ReadFile(filepath.Join("testdata", "fidelist", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		got, problems, err := readList(t, tc.file, string(text))
		if err != nil || len(problems) > 0 || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, problems %v:\n%s\nwant\n%s", tc.file, err, problems, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestReadFideListShapes: the text list's other shapes: its columns wherever
// the header puts them, a Windows-1252 name, short lines, and lines that
// cannot be read (an ID that is not a number, a control character, a rating
// that is not a number) left out naming the line; a file without the header
// is refused.
func TestReadFideListShapes(t *testing.T) {
	text := "ID Number Name                 Fed Sex Tit  WTit SRtng B-day Flag\n" +
		"4100018   M\xfcller, J\xf6rg         GER M   FM        2301  1990\n" +
		"x12       Bad, Id              GER M             2000  1990\n" +
		"4100026   Tab\tName             GER M             2000  1990\n" +
		"4100034   Rating, Bad          GER M             20O0  1990\n" +
		"\n" +
		"4100042   Short, Line          ISL\n"
	got, problems, err := readList(t, "players_list.txt", text)
	want := []string{"2:4100018 Müller, Jörg|GER|M|FM| 2301/0/0 1990 ", "7:4100042 Short, Line|ISL||| 0/0/0 0 "}
	wantProblems := []string{
		`players_list.txt:3: ID Number "x12" is not a FIDE id: malformed`,
		"players_list.txt:4: name: control character U+0009 (a tab) at byte 4: malformed",
		`players_list.txt:5: standard rating "20O0" is not a number: malformed`,
	}
	if err != nil || !slices.Equal(got, want) || !slices.Equal(problems, wantProblems) {
		t.Errorf("%v\n%s\nwant\n%s\nproblems\n%s\nwant\n%s", err, strings.Join(got, "\n"), strings.Join(want, "\n"), strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
	if _, _, err := readList(t, "x.txt", "4100018   Anna\n"); err == nil {
		t.Error("a list without its header line: no error")
	}
}

// TestImportFideList: the list updates the archive's players matched on
// fide_id (federation, sex, title, birth year, standard rating; a women's
// title when no other), keeps their names and what the list leaves blank,
// leaves the other players alone, counts the list's players not in the
// archive, and adds them with Add; a blitz list gives no standard rating.
func TestImportFideList(t *testing.T) {
	dir := t.TempDir()
	id := func(v int64) *int64 { return &v }
	i32 := func(v int32) *int32 { return &v }
	str := func(v string) *string { return &v }
	players := []archive.PlayerRow{
		{PlayerID: 1, Name: "Peter Leko", FideID: id(703303), FideRating: i32(2650), Federation: str("HUN"), Title: str("GM")},
		{PlayerID: 2, Name: "Judit Polgar", FideID: id(700070), Title: str("WGM"), BirthYear: i32(1976)},
		{PlayerID: 3, Name: "Aadya Gowda", FideID: id(48701955)},
		{PlayerID: 4, Name: "Nobody", FideID: id(999)},
		{PlayerID: 5, Name: "No Id"},
	}
	if err := os.WriteFile(filepath.Join(dir, "players.parquet"), testutil.ParquetBytes(t, players), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(opt FideListOptions, files ...string) *FideListStats {
		t.Helper()
		a, err := Open(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range files {
			files[i] = filepath.Join("testdata", "fidelist", files[i])
		}
		st, err := ImportFideList(t.Context(), a, files, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Commit(); err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := run(FideListOptions{}, "players_list_foa.txt", "blitz_rating_list.txt")
	if st.Read != 5 || st.Matched != 4 || st.Unmatched != 1 || st.Added != 0 || st.Skipped != 0 {
		t.Errorf("counts %+v", st)
	}
	wantUpdated := map[string]int64{"fide_rating": 1, "sex": 3, "title": 2, "birth_year": 2, "federation": 2}
	for col, n := range wantUpdated {
		if st.Updated[col] != n {
			t.Errorf("%s updated %d times, want %d (%v)", col, st.Updated[col], n, st.Updated)
		}
	}
	got, err := readParquet[archive.PlayerRow](filepath.Join(dir, "players.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	show := func(p archive.PlayerRow) string {
		s := func(v *string) string {
			if v == nil {
				return "-"
			}
			return *v
		}
		n := func(v *int32) string {
			if v == nil {
				return "-"
			}
			return fmt.Sprint(*v)
		}
		return fmt.Sprintf("%d %s %s %s %s %s %s", p.PlayerID, p.Name, s(p.Federation), s(p.Sex), s(p.Title), n(p.BirthYear), n(p.FideRating))
	}
	var rows []string
	for _, p := range got {
		rows = append(rows, show(p))
	}
	want := []string{
		"1 Peter Leko HUN m GM 1979 2676",
		"2 Judit Polgar HUN w GM 1976 -",
		"3 Aadya Gowda IND w WCM 2013 -",
		"4 Nobody - - - - -",
		"5 No Id - - - - -",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("players\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}

	st = run(FideListOptions{Add: true}, "blitz_rating_list.txt")
	if st.Matched != 3 || st.Unmatched != 1 || st.Added != 1 {
		t.Errorf("with Add: %+v", st)
	}
	got, _ = readParquet[archive.PlayerRow](filepath.Join(dir, "players.parquet"))
	if n := len(got); n != 6 || show(got[5]) != "6 A Arbhin Vanniarajan IND m - 2018 -" || got[5].FideID == nil || *got[5].FideID != 537001345 {
		t.Errorf("added %d players, last %s", n-5, show(got[n-1]))
	}
}

// FuzzFideList: whatever bytes a list holds, ReadFideList returns (no panic),
// and every player it hands over has a FIDE id and text the archive takes;
// every line it leaves out is named.
func FuzzFideList(f *testing.F) {
	for _, name := range []string{"players_list_foa.txt", "blitz_rating_list.txt", "players_list_xml.xml"} {
		b, err := os.ReadFile(filepath.Join("testdata", "fidelist", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("ID Number Name Fed\n1 \x00 X\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = ReadFideList(strings.NewReader(string(b)), "rapid_list.txt", func(p *FideListPlayer) error {
			if p.ID <= 0 || p.Line <= 0 {
				t.Fatalf("player %+v: no id or line", p)
			}
			for _, s := range []string{p.Name, p.Federation, p.Sex, p.Title, p.WTitle, p.Flag} {
				if why := archive.CheckText(s); why != "" {
					t.Fatalf("player %+v: %q: %s", p, s, why)
				}
			}
			return nil
		}, func(p *Problem) {
			if p.Line <= 0 || p.Err == nil {
				t.Fatalf("problem %+v names no line", p)
			}
		})
	})
}
