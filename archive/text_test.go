package archive

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// loadRejects loads the archive in dir and returns its rejected rows.
func loadRejects(t *testing.T, dir string) []RowError {
	t.Helper()
	var rejects []RowError
	if _, err := Load(context.Background(), os.DirFS(dir), func(r RowError) { rejects = append(rejects, r) }); err != nil {
		t.Fatal(err)
	}
	return rejects
}

// TestInvalidUTF8Rejected: a text cell that is not UTF-8 (here Latin-1 "Müller")
// is rejected naming the column, in CSV and in Parquet, and the reject's
// values are valid UTF-8.
func TestInvalidUTF8Rejected(t *testing.T) {
	latin1 := "M\xfcller"
	csvDir := t.TempDir()
	write(t, filepath.Join(csvDir, "players.csv"), "player_id,name,club\n1,Anna,\n2,"+latin1+",\n3,Bea,Z\xe4hringen\n")
	pqDir := t.TempDir()
	club := "Z\xe4hringen"
	writeParquetFile(t, pqDir, "players.parquet", []PlayerRow{{PlayerID: 1, Name: "Anna"}, {PlayerID: 2, Name: latin1}, {PlayerID: 3, Name: "Bea", Club: &club}})
	for _, dir := range []string{csvDir, pqDir} {
		rejects := loadRejects(t, dir)
		if len(rejects) != 2 {
			t.Fatalf("%d rejects, want 2: %v", len(rejects), rejects)
		}
		for i, want := range []struct {
			row    int64
			reason string
		}{{2, "name: not valid UTF-8 text (byte 2)"}, {3, "club: not valid UTF-8 text (byte 2)"}} {
			r := rejects[i]
			if r.Row != want.row || !strings.HasPrefix(r.Reason, want.reason) {
				t.Errorf("%s: reject %d = row %d %q; want row %d %q", r.File, i, r.Row, r.Reason, want.row, want.reason)
			}
			if !utf8.ValidString(r.Values) {
				t.Errorf("%s row %d: values %q are not valid UTF-8", r.File, r.Row, r.Values)
			}
		}
	}
}

// TestExcerpt: a cell shown in a message is at most ExcerptBytes of valid UTF-8
// plus "…" when cut.
func TestExcerpt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"Müller", "Müller"},
		{"M\xfcller", "M\uFFFDller"},
		{strings.Repeat("7", 200), strings.Repeat("7", 200)},
		{strings.Repeat("7", 201), strings.Repeat("7", 200) + "…"},
		{"x" + strings.Repeat("ü", 150), "x" + strings.Repeat("ü", 99) + "…"}, // never half a character
	} {
		if got := Excerpt(tc.in); got != tc.want {
			t.Errorf("Excerpt(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestHugeCellSmallMessage: a cell of a million digits gives a reject of a few
// hundred bytes, not a million.
func TestHugeCellSmallMessage(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("9", 1_000_000)
	write(t, filepath.Join(dir, "players.csv"), "player_id,name\n1,Anna\n"+huge+",Bea\n2,"+huge+"\n3,Cy"+strings.Repeat(",x", 100_000)+"\n")
	write(t, filepath.Join(dir, "tournaments.csv"), "tournament_id,name,start_date,end_date,discipline\n1,Open,2025-01-01,"+huge+",chess\n2,Open,2025-01-01,2025-01-02,"+huge+"\n")
	rejects := loadRejects(t, dir)
	if len(rejects) != 4 {
		t.Fatalf("%d rejects, want 4", len(rejects))
	}
	for _, r := range rejects {
		if len(r.Reason) > 2*ExcerptBytes || len(r.Values) > 23*ExcerptBytes {
			t.Errorf("%s row %d: reason of %d bytes, values of %d bytes", r.File, r.Row, len(r.Reason), len(r.Values))
		}
	}
}

// TestFutureTournamentRejected: a tournament starting more than a year after the
// run's date is rejected as in the future, naming its row; one starting exactly
// a year later is kept.
func TestFutureTournamentRejected(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "players.csv"), "player_id,name\n1,Anna\n")
	write(t, filepath.Join(dir, "tournaments.csv"), "tournament_id,name,start_date,end_date\n"+
		"1,Spring,2025-03-01,2025-03-02\n2,Typo,2205-03-01,2205-03-02\n3,Next year,2026-06-15,2026-06-16\n4,Too far,2026-06-16,2026-06-16\n")
	var rejects []RowError
	run := time.Date(2025, 6, 15, 22, 0, 0, 0, time.UTC)
	a, err := Load(context.Background(), os.DirFS(dir), func(r RowError) { rejects = append(rejects, r) }, Now(run))
	if err != nil {
		t.Fatal(err)
	}
	var kept []int64
	for _, tr := range a.Tournaments {
		kept = append(kept, tr.ID)
	}
	if fmt.Sprint(kept) != "[1 3]" {
		t.Errorf("kept tournaments %v, want [1 3]", kept)
	}
	if len(rejects) != 2 || rejects[0].Row != 2 || rejects[1].Row != 4 ||
		!strings.Contains(rejects[0].Reason, "start_date 2205-03-01 is in the future") ||
		!strings.Contains(rejects[1].Reason, "in the future") {
		t.Errorf("rejects %v, want rows 2 and 4 in the future", rejects)
	}
}

// TestControlCharactersRejected: a text cell holding a control character (a
// line break, a tab, NUL, DEL, a C1 control) is rejected naming the column and
// the character, in CSV and in Parquet, players and tournaments alike; other
// characters (é, ’, a space) are text.
func TestControlCharactersRejected(t *testing.T) {
	players := []PlayerRow{
		{PlayerID: 1, Name: "Anna Édith O’Neil"},
		{PlayerID: 2, Name: "Bea\n001    9      Forged"},
		{PlayerID: 3, Name: "Cy\tTab"},
		{PlayerID: 4, Name: "Dan\x00"},
		{PlayerID: 5, Name: "Eve\x7f"},
		{PlayerID: 6, Name: "Fa\u0085y"},
		{PlayerID: 7, Name: "Gus", Club: new("Club\rX")},
	}
	want := []string{
		"players row 2: name: control character U+000A (a line break) at byte 4 [name: control character in text]",
		"players row 3: name: control character U+0009 (a tab) at byte 3 [name: control character in text]",
		"players row 4: name: control character U+0000 (NUL) at byte 4 [name: control character in text]",
		"players row 5: name: control character U+007F at byte 4 [name: control character in text]",
		"players row 6: name: control character U+0085 (a line break) at byte 3 [name: control character in text]",
		"players row 7: club: control character U+000D (a line break) at byte 5 [club: control character in text]",
		"tournaments row 1: name: control character U+000A (a line break) at byte 5 [name: control character in text]",
	}
	csvDir, pqDir := t.TempDir(), t.TempDir()
	var sb strings.Builder
	sb.WriteString("player_id,name,club\n")
	for _, p := range players {
		club := ""
		if p.Club != nil {
			club = *p.Club
		}
		fmt.Fprintf(&sb, "%d,\"%s\",\"%s\"\n", p.PlayerID, p.Name, club)
	}
	write(t, filepath.Join(csvDir, "players.csv"), sb.String())
	write(t, filepath.Join(csvDir, "tournaments.csv"), "tournament_id,name,start_date,end_date\n1,\"Open\n012 X\",2025-01-01,2025-01-02\n")
	writeParquetFile(t, pqDir, "players.parquet", players)
	writeParquetFile(t, pqDir, "tournaments.parquet", []TournamentRow{{TournamentID: 1, Name: "Open\n012 X", StartDate: 20089, EndDate: 20090}})
	for _, dir := range []string{csvDir, pqDir} {
		var got []string
		for _, r := range loadRejects(t, dir) {
			table := strings.TrimSuffix(strings.TrimSuffix(r.File, ".csv"), ".parquet")
			got = append(got, fmt.Sprintf("%s row %d: %s [%s]", table, r.Row, r.Reason, r.KindName()))
			if r.Kind != KindControlChar {
				t.Errorf("%s row %d: kind %d, want KindControlChar", r.File, r.Row, r.Kind)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n%s\nwant\n%s", dir, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestSafeText: every control character becomes a space and every byte that
// is not UTF-8 becomes U+FFFD; clean text is returned as it is.
func TestSafeText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"Müller, Jörg", "Müller, Jörg"},
		{"a\nb\r\nc\td\x00e\x7ff\u0085g\u009fh", "a b  c d e f g h"},
		{"M\xfcller", "M\uFFFDller"},
		{"\u00a0nbsp", "\u00a0nbsp"}, // not a control character
	} {
		if got := SafeText(tc.in); got != tc.want {
			t.Errorf("SafeText(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if CheckText(SafeText(tc.in)) != "" {
			t.Errorf("CheckText(SafeText(%q)) = %q, want \"\"", tc.in, CheckText(SafeText(tc.in)))
		}
	}
}

// TestTimeClassColumn: time_class is read in lower case, standard when empty or
// missing; any other value rejects the tournament's row.
func TestTimeClassColumn(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "players.csv"), "player_id,name\n1,Anna\n")
	write(t, filepath.Join(dir, "tournaments.csv"), "tournament_id,name,start_date,end_date,time_class\n"+
		"1,Classic,2025-03-01,2025-03-02,\n2,Quick,2025-03-01,2025-03-01, Rapid\n3,Fast,2025-03-01,2025-03-01,blitz\n4,Bullet,2025-03-01,2025-03-01,bullet\n")
	var rejects []RowError
	a, err := Load(context.Background(), os.DirFS(dir), func(r RowError) { rejects = append(rejects, r) }, Now(time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range a.Tournaments {
		got = append(got, tr.TimeClass)
	}
	if fmt.Sprint(got) != "[standard rapid blitz]" {
		t.Errorf("time classes %v", got)
	}
	if len(rejects) != 1 || rejects[0].Row != 4 || !strings.Contains(rejects[0].Reason, `time_class: "bullet" is not standard, rapid or blitz`) {
		t.Errorf("rejects %+v", rejects)
	}
}
