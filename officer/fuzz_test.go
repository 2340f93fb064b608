package officer

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ratelist/ratelist/tiebreak"
	"github.com/ratelist/ratelist/trf"
)

// fuzzTexts seed the export fuzz targets: the bytes that once broke a file's
// structure (a line break starting a forged record, a tab, NUL, a quote, a
// comma, markup, text that is not UTF-8) and plain names.
var fuzzTexts = []string{"Doe, Jane", "Bea\n001    9      Forged", "a\tb", "x\x00y\r\n", "\"quoted\", and", "<name>&amp;</name>", "M\xfcller", "\u0085\u2028é", "=cmd()", strings.Repeat("Ω", 80)}

// FuzzTRFExport: whatever bytes the tournament's name and a player's name,
// sex, title and federation hold, the TRF file has its header records and one
// 001 record per player, each where TRF puts its fields (start rank, rating,
// points), and every line is valid UTF-8.
func FuzzTRFExport(f *testing.F) {
	for _, s := range fuzzTexts {
		f.Add(s, s, "w", "WGM", "ISL")
	}
	f.Fuzz(func(t *testing.T, event, name, sex, title, fed string) {
		tt := &tiebreak.Tournament{ID: 1, Name: event, Start: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), Rounds: 1, System: "swiss",
			Players: []tiebreak.Player{{ID: 1, StartNo: 1, Name: name, Rating: 2100}, {ID: 2, StartNo: 2, Name: "Beta, Bob", Rating: 1900}},
			Games:   []tiebreak.Game{{Round: 1, White: 0, Black: 1, WhiteResult: '1', BlackResult: '0'}}}
		players := map[int64]Player{1: {ID: 1, Name: name, Sex: sex, Title: title, Federation: fed, FideID: 4100018}}
		var b bytes.Buffer
		if err := WriteTRF(&b, tt, players, trf.TRF16); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		wantCodes := []string{"012", "042", "062", "092", "XXR", "001", "001"}
		if len(lines) != len(wantCodes) {
			t.Fatalf("event %q, name %q: %d lines, want %d:\n%s", event, name, len(lines), len(wantCodes), b.String())
		}
		for i, l := range lines {
			if !strings.HasPrefix(l, wantCodes[i]+" ") || !utf8.ValidString(l) || strings.ContainsAny(l, "\r\t\x00") {
				t.Fatalf("line %d is not a %s record of valid text: %q", i+1, wantCodes[i], l)
			}
		}
		for i, want := range []struct{ sno, rating, points string }{{"1", "2100", "1.0"}, {"2", "1900", "0.0"}} {
			r := []rune(lines[5+i])
			field := func(col, width int) string { return strings.TrimSpace(string(r[col-1 : col-1+width])) }
			if len(r) < 89 || field(5, 4) != want.sno || field(49, 4) != want.rating || field(81, 4) != want.points {
				t.Fatalf("001 record %d out of shape: %q", i+1, lines[5+i])
			}
		}
	})
}

// listRows are two players of a list, the first with the fuzzed text in each
// text field.
func listRows(name, fed, title, flag string) []ListRow {
	return []ListRow{
		{ID: 4100018, Name: name, Federation: fed, Sex: "F", Title: title, WTitle: title, Rating: 2100, Games: 9, K: 20, BirthYear: 1990, Flag: flag},
		{ID: 4100026, Name: "Beta, Bob", Federation: "ISL", Sex: "M", Rating: 1900, Games: 3, K: 40},
	}
}

// FuzzListTXT: whatever bytes a player's fields hold, FIDE's fixed-width list
// is a header and one line per player, each exactly as wide as the columns
// (in characters), valid UTF-8, with the rating where its column starts.
func FuzzListTXT(f *testing.F) {
	for _, s := range fuzzTexts {
		f.Add(s, "ISL", "WGM", "wi")
	}
	width, ratingAt := 0, 0
	for i, c := range fideColumns {
		if i == 8 {
			ratingAt = width
		}
		width += c.width
	}
	f.Fuzz(func(t *testing.T, name, fed, title, flag string) {
		var b bytes.Buffer
		if err := WriteList(&b, listRows(name, fed, title, flag), "2025-06", FideTXT); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\r\n"), "\r\n")
		if len(lines) != 3 {
			t.Fatalf("name %q: %d lines, want 3:\n%q", name, len(lines), b.String())
		}
		for i, l := range lines {
			if n := utf8.RuneCountInString(l); n != width || !utf8.ValidString(l) || strings.ContainsAny(l, "\r\n\t\x00") {
				t.Fatalf("line %d: %d characters, want %d, of valid text: %q", i+1, n, width, l)
			}
		}
		if got := strings.TrimSpace(string([]rune(lines[1])[ratingAt : ratingAt+6])); got != "2100" {
			t.Fatalf("rating column holds %q: %q", got, lines[1])
		}
	})
}

// FuzzListXML: whatever bytes a player's fields hold, FIDE's XML list parses
// with encoding/xml into as many players as written, with their ids and
// ratings.
func FuzzListXML(f *testing.F) {
	for _, s := range fuzzTexts {
		f.Add(s, "ISL", "WGM", "wi")
	}
	f.Fuzz(func(t *testing.T, name, fed, title, flag string) {
		var b bytes.Buffer
		if err := WriteList(&b, listRows(name, fed, title, flag), "2025-06", FideXML); err != nil {
			t.Fatal(err)
		}
		var list struct {
			Players []fidePlayer `xml:"player"`
		}
		if err := xml.Unmarshal(b.Bytes(), &list); err != nil {
			t.Fatalf("name %q: %v:\n%s", name, err, b.String())
		}
		if len(list.Players) != 2 || list.Players[0].FideID != "4100018" || list.Players[0].Rating != 2100 || list.Players[1].Name != "Beta, Bob" {
			t.Fatalf("name %q: read back %+v", name, list.Players)
		}
	})
}

// FuzzListCSV: whatever bytes a player's fields hold, the CSV list re-reads
// with encoding/csv as a header and one record per player, each of the
// header's cell count, with its id and rating.
func FuzzListCSV(f *testing.F) {
	for _, s := range fuzzTexts {
		f.Add(s, "ISL", "WGM", "wi")
	}
	f.Fuzz(func(t *testing.T, name, fed, title, flag string) {
		var b bytes.Buffer
		if err := WriteList(&b, listRows(name, fed, title, flag), "2025-06", ListCSV); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatalf("name %q: %v", name, err)
		}
		if len(recs) != 3 || len(recs[1]) != len(recs[0]) || len(recs[2]) != len(recs[0]) || recs[1][0] != "4100018" || recs[1][6] != "2100" {
			t.Fatalf("name %q: read back %q", name, recs)
		}
	})
}

// FuzzTables: whatever bytes a cell holds, a table prints as a title, a header
// and one line per row as text, and re-reads with encoding/csv as a header and
// one record per row of the header's cell count.
func FuzzTables(f *testing.F) {
	for _, s := range fuzzTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		tb := Table{Title: v, Header: []string{"player_id", "name", "rating"}, Rows: [][]string{{"1", v, "2100"}, {"2", "Beta", "1900"}}}
		var text, csvOut bytes.Buffer
		if err := WriteTables(&text, Text, tb); err != nil {
			t.Fatal(err)
		}
		want := 3 // the header and two rows, below the title's lines when there is one
		if v != "" {
			want += 1 + strings.Count(v, "\n")
		}
		if n := strings.Count(text.String(), "\n"); n != want || !utf8.Valid(text.Bytes()) {
			t.Fatalf("cell %q: %d lines, want %d of valid text:\n%s", v, n, want, text.String())
		}
		if err := WriteTables(&csvOut, CSV, tb); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&csvOut).ReadAll()
		if err != nil || len(recs) != 3 || len(recs[1]) != 3 || recs[1][2] != "2100" {
			t.Fatalf("cell %q: read back %q, %v", v, recs, err)
		}
		if _, err := strconv.Atoi(recs[2][0]); err != nil {
			t.Fatalf("cell %q: row 2 reads %q", v, recs[2])
		}
	})
}
