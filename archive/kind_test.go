package archive

import "testing"

// TestKindNames: every kind has a name, no two kinds share one, and a column
// kind's name carries its column.
func TestKindNames(t *testing.T) {
	seen := map[string]Kind{}
	for k := KindNone + 1; int(k) < len(kindNames); k++ {
		name := Problem{Kind: k, Column: "round"}.KindName()
		if k < KindMissing || k > KindDuplicate {
			name = Problem{Kind: k}.KindName()
		}
		if name == "" || name == "round: " {
			t.Errorf("kind %d has no name", k)
		}
		if other, ok := seen[name]; ok {
			t.Errorf("kinds %d and %d are both named %q", other, k, name)
		}
		seen[name] = k
	}
	for _, c := range []struct {
		p    Problem
		want string
	}{
		{MissingCell("round"), "round: missing"},
		{Problemf(KindDuplicate, "player_id", "duplicate player_id 2"), "duplicate player_id"},
		{Problemf(KindOutOfRange, "rounds", "rounds: -4 is out of range"), "rounds"},
		{Problemf(KindMalformedDate, "start_date", "start_date: malformed date"), "start_date: malformed date"},
		{Problemf(KindNotMirrored, "", "results 'W' and 'W' do not mirror"), "results '"},
		{Problemf(KindTableGame, "joker places tied: game", "joker places tied: game 3"), "joker places tied: game"},
	} {
		if got := c.p.KindName(); got != c.want {
			t.Errorf("%q: kind name %q, want %q", c.p.Reason, got, c.want)
		}
	}
}
