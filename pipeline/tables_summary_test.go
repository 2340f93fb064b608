package pipeline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/toplist"
)

// TestTablesSummaryJSON: each table rule set's part is under its name, in
// registration order, after the resume fields and before toplists and norms,
// with its own fields after games_rejected.
func TestTablesSummaryJSON(t *testing.T) {
	sum := &Summary{Version: "v", RuleSet: []rating.SummaryField{{Key: "own", Value: 3}}, Resume: Resume{RerunFrom: "2025-02"}}
	sum.TableRuleSets = []*TableSummary{
		{Name: "a", GamesRead: 2, RuleSet: []rating.SummaryField{{Key: "games_stopped", Value: 1}, {Key: "zero", OmitZero: true}}, Lists: 1, FirstList: "2025-01", LastList: "2025-01"},
		{Name: "b"},
	}
	tl := toplist.Defaults()
	sum.TopLists, sum.Norms = &tl, []Norm{{Period: "2025-01", Name: "Ann"}}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	var order []int
	for _, key := range []string{`"players_listed"`, `"own":3`, `"reject_kinds"`, `"rerun_from"`, `"a":{"games_read":2,"games_rated":0,"games_rejected":0,"games_stopped":1,"lists":1,"first_list":"2025-01"`, `"b":{"games_read":0`, `"toplists"`, `"norms"`} {
		i := strings.Index(s, key)
		if i < 0 {
			t.Fatalf("summary lacks %s:\n%s", key, s)
		}
		order = append(order, i)
	}
	for i := 1; i < len(order); i++ {
		if order[i] < order[i-1] {
			t.Errorf("summary keys out of order:\n%s", s)
		}
	}
	if strings.Contains(s, `"zero"`) || strings.Contains(s, `"Name"`) {
		t.Errorf("summary:\n%s", s)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Errorf("not JSON: %v\n%s", err, s)
	}
	sum.TopLists, sum.Norms = nil, nil
	if b, err = json.Marshal(sum); err != nil || !strings.HasSuffix(string(b), `"b":{"games_read":0,"games_rated":0,"games_rejected":0,"lists":0,"first_list":"","last_list":"","players_listed":0}}`) {
		t.Errorf("summary without top lists and norms: %v\n%s", err, b)
	}
}
