package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/internal/csvfield"
)

// listColsOf turns rows into columns, escaping names as it goes (once for a
// run of rows with the same name).
func listColsOf(rows []listRow) *listCols {
	c := newListCols(len(rows))
	var name, csvName string
	for i, row := range rows {
		if i == 0 || row.Name != name {
			name, csvName = row.Name, string(csvfield.Append(nil, row.Name))
		}
		c.rank[i], c.playerID[i], c.name[i], c.csvName[i], c.rating[i] = row.Rank, row.PlayerID, row.Name, csvName, row.Rating
		if row.Change != nil {
			c.change[i], c.hasChange[i] = *row.Change, true
		}
		c.gamesPeriod[i], c.gamesTotal[i], c.k[i] = row.GamesPeriod, row.GamesTotal, row.K
		c.category[i], c.flags[i] = row.Category, row.Flags
	}
	return c
}

// writeList writes rows as lists/LABEL.* (BenchmarkWriteList).
func (r *runner) writeList(label string, rows []listRow) error {
	return r.writeListCols(label, listColsOf(rows))
}

// TestListParquet: the column-wise list file is the one GenericWriter[listRow]
// writes from the same rows, over many pages.
func TestListParquet(t *testing.T) {
	for _, n := range []int{0, 1, 64, 65, 200000} {
		rows := make([]listRow, n)
		for i := range rows {
			rows[i] = listRow{Rank: int32(i + 1), PlayerID: int64(10001 + i*3), Name: "Ivanov, Ivan " + string(rune('a'+i%26)),
				Rating: int32(2400 - i/100), GamesPeriod: int32(i % 9), GamesTotal: int32(30 + i%200), K: int32(10 + i%3*10),
				Category: []string{"", "1", "CM"}[i%3], Flags: []string{"", "new", "new i", "i"}[i%4]}
			if i%3 != 0 {
				ch := int32(i%31 - 15)
				rows[i].Change = &ch
			}
		}
		var want bytes.Buffer
		w := parquet.NewGenericWriter[listRow](&want, parquet.Compression(outputCodec))
		if _, err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		s, err := newStaging(dir)
		if err != nil {
			t.Fatal(err)
		}
		r := &runner{stage: s}
		if err := r.writeListParquet("2025-01", listColsOf(rows)); err != nil {
			t.Fatal(err)
		}
		p, _ := s.path("lists/2025-01.parquet")
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%d rows: %s differs from GenericWriter's file (%d vs %d bytes)", n, filepath.Base(p), len(got), want.Len())
		}
	}
}
