package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/pipeline"
	"github.com/ratelist/ratelist/rating"
)

// The toy rule set: every decisive game moves the winner up by one point and
// the loser down by one; everyone starts at Start. It proves that a rule set
// plugs in with a definition alone: this file touches no other.
type toySettings struct {
	Start int32 `toml:"start"`
}

func (s *toySettings) Check() error {
	if s.Start <= 0 {
		return errors.New("toy.start: want a positive rating")
	}
	return nil
}

type toyRater struct {
	start int32
	cards []rating.Card
}

func (r *toyRater) ListDay(end int32) int32 { return end }

func (r *toyRater) ClosePeriod(st *rating.State, first, last int32, emit func([]rating.Card) error) error {
	return nil
}

var toyGame = rating.NewReason("toy-game")

func (r *toyRater) Rates(discipline, timeClass string) bool {
	return discipline == "chess" && (timeClass == "" || timeClass == rating.TimeStandard)
}

func (r *toyRater) ListInfo(st *rating.State, p int32) (bool, int32, string, string) {
	return st.Rated[p], 1, "", ""
}

func (r *toyRater) Rate(st *rating.State, ev *rating.Event) []rating.Card {
	r.cards = r.cards[:0]
	for _, g := range ev.Games {
		if g.Black < 0 {
			continue
		}
		for _, side := range []struct {
			p   int32
			res byte
		}{{g.White, g.WhiteResult}, {g.Black, g.BlackResult}} {
			p := side.p
			c := rating.Card{Player: p, RatedBefore: st.Rated[p], Before: st.Rating[p], Games: 1, Reason: toyGame}
			if !st.Rated[p] {
				st.Rated[p], st.Rating[p] = true, r.start
			}
			switch side.res {
			case '1':
				c.Change, c.Score2 = 1, 2
			case '0':
				c.Change = -1
			case '=':
				c.Score2 = 1
			}
			st.Rating[p] += c.Change
			st.GamesTotal[p]++
			st.GamesPeriod[p]++
			c.After, c.RatedAfter = st.Rating[p], true
			r.cards = append(r.cards, c)
		}
	}
	return r.cards
}

func init() {
	rating.Register(&rating.Definition{
		Name:     "toy",
		Defaults: func() rating.Settings { return &toySettings{Start: 1000} },
		New: func(s rating.Settings, st *rating.State) rating.RuleSet {
			return &toyRater{start: s.(*toySettings).Start}
		},
		Summary: func(_ rating.RuleSet, st *rating.State) []rating.SummaryField {
			n := int64(0)
			for _, g := range st.GamesTotal {
				n += int64(g)
			}
			return []rating.SummaryField{{Key: "toy_player_games", Value: n}}
		},
	})
}

func TestToyRuleSet(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	testutil.WriteFiles(t, dir, map[string]string{
		"players.csv": "player_id,name\n1,Ann\n2,Bob\n3,Cid\n",
		"tournaments.csv": "tournament_id,name,start_date,end_date,system,rounds,discipline,rated,tiebreaks\n" +
			"10,Winter,2025-01-10,2025-01-12,swiss,2,chess,true,\n" +
			"11,Spring,2025-02-10,2025-02-12,swiss,1,chess,true,\n",
		"games.csv": "tournament_id,round,white_id,black_id,white_result,black_result\n" +
			"10,1,1,2,1,0\n10,2,3,1,=,=\n11,1,2,3,1,0\n",
	})
	rules, err := pipeline.ParseRules("toy.toml", []byte("base = \"toy\"\n[toy]\nstart = 1500\n"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := pipeline.Run(context.Background(), pipeline.Options{Archive: os.DirFS(dir), Out: out, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]string{
		"2025-01": "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n" +
			"1,1,Ann,1501,,2,2,1,,new\n2,3,Cid,1500,,1,1,1,,new\n3,2,Bob,1499,,1,1,1,,new\n",
		"2025-02": "rank,player_id,name,rating,change,games_period,games_total,k,category,flags\n" +
			"1,1,Ann,1501,0,0,2,1,,\n2,2,Bob,1500,1,1,2,1,,\n3,3,Cid,1499,-1,1,2,1,,\n",
	}
	for label, want := range lists {
		got, err := os.ReadFile(filepath.Join(out, "lists", label+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("list %s:\n%s\nwant\n%s", label, got, want)
		}
	}
	if sum.TournamentsRated != 2 || sum.RuleSetField("toy_player_games") != 6 {
		t.Errorf("summary: %d tournaments rated, %d toy player games; want 2 and 6", sum.TournamentsRated, sum.RuleSetField("toy_player_games"))
	}
	var js map[string]any
	data, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err == nil {
		err = json.Unmarshal(data, &js)
	}
	if err != nil || js["rules"] != "toy" || js["toy_player_games"] != 6.0 || js["stage"] != nil {
		t.Errorf("summary.json: rules %v, toy_player_games %v, stage %v (%v); want toy, 6, none", js["rules"], js["toy_player_games"], js["stage"], err)
	}
	if _, err := os.Stat(filepath.Join(out, "cards.parquet")); err != nil {
		t.Error(err)
	}
	// Resumed after its first list, the toy run ends with the same list: the
	// state file carries a rule set's State without any code of its own.
	inc := t.TempDir()
	for _, o := range []pipeline.Options{{Until: "2025-01"}, {Resume: true}} {
		o.Archive, o.Out, o.Rules = os.DirFS(dir), inc, rules
		sum, err := pipeline.Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		if o.Resume && sum.ResumedFrom != "2025-01" {
			t.Errorf("resumed from %q, want 2025-01", sum.ResumedFrom)
		}
	}
	if got, err := os.ReadFile(filepath.Join(inc, "lists", "2025-02.csv")); err != nil || string(got) != lists["2025-02"] {
		t.Errorf("resumed list 2025-02 (%v):\n%s\nwant\n%s", err, got, lists["2025-02"])
	}
	if _, err := pipeline.ParseRules("toy.toml", []byte("base = \"toy\"\n[toy]\nstart = 0\n")); !errors.Is(err, pipeline.ErrUsage) {
		t.Errorf("toy.start = 0: %v, want a usage error", err)
	}
}
