package tiebreak

import (
	"bytes"
	"encoding/csv"
	"testing"
)

// TestWriteCSVQuoting: the append-based writer quotes exactly as encoding/csv does.
func TestWriteCSVQuoting(t *testing.T) {
	names := []string{"Plain", "Last, First", `Say "hi"`, " leading", "\ttab", "multi\nline", "", "Ünïcode, ß"}
	codes := []string{"BH/C1", "SB"}
	var rows []Row
	for i, n := range names {
		rows = append(rows, Row{Rank: i + 1, Player: Player{ID: int64(i * 7), StartNo: i + 1, Name: n}, Points: float64(i) / 2,
			Values: []Value{{V: 12.25, OK: true}, {OK: false}}})
	}
	var got bytes.Buffer
	if err := WriteCSV(&got, codes, rows); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	cw := csv.NewWriter(&want)
	cw.Write(header(codes))
	for _, r := range rows {
		cw.Write(record(r))
	}
	cw.Flush()
	if got.String() != want.String() {
		t.Errorf("WriteCSV:\n%s\nencoding/csv:\n%s", got.String(), want.String())
	}
}
