package golden

import (
	"bytes"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// TestParquetText: a file with a DATE, an optional column, a string that needs
// quoting and a double decodes to the schema and one tab-separated line a row.
func TestParquetText(t *testing.T) {
	type row struct {
		ID    int64   `parquet:"id"`
		Name  string  `parquet:"name"`
		Day   int32   `parquet:"day,date"` // days since 1970-01-01
		Score *int32  `parquet:"score,optional"`
		W     float64 `parquet:"w"`
	}
	days := func(y int, m time.Month, d int) int32 {
		return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	}
	seven := int32(7)
	rows := []row{
		{1, "Ann", days(2024, 9, 1), &seven, 0.5},
		{2, "tab\there \"q\"", days(2025, 1, 31), nil, -1.25},
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ParquetText(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := `message row {
	required int64 id (INT(64,true));
	required binary name (STRING);
	required int32 day (DATE);
	optional int32 score (INT(32,true));
	required double w;
}
2 rows
id	name	day	score	w
1	"Ann"	2024-09-01	7	0.5
2	"tab\there \"q\""	2025-01-31	null	-1.25
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
