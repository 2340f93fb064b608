package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListWithoutK: a list row whose k cell is empty (a rule set without K)
// reads as such and its page row shows an empty K, where a row with K shows
// it.
func TestListWithoutK(t *testing.T) {
	p := filepath.Join(t.TempDir(), "2025-01.csv")
	csv := "rank,player_id,name,rating,change,games_period,games_total,k,category,flags,glicko_rating\n" +
		"1,7,Ann,1835,,3,3,,,new,1835.20\n2,9,Bob,1700,,3,3,20,,new,1700.00\n"
	if err := os.WriteFile(p, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	rows, err := readList(p)
	if err != nil {
		t.Fatal(err)
	}
	if !rows[0].NoK || rows[1].NoK || rows[1].K != 20 {
		t.Fatalf("rows %+v", rows)
	}
	ann, bob := string(appendRatingRow(nil, &rows[0], "")), string(appendRatingRow(nil, &rows[1], ""))
	if !strings.Contains(ann, "<td>3<td>3<td><td>") || !strings.Contains(bob, "<td>3<td>3<td>20<td>") {
		t.Errorf("rows:\n%s%s", ann, bob)
	}
}
