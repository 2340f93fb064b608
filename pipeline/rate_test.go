package pipeline

import (
	"testing"

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/rating"
	"github.com/ratelist/ratelist/rating/fide"
)

// TestRaterLabel: the remembered period label is periodLabel's for every key,
// also when a key comes back after another and for key 0.
func TestRaterLabel(t *testing.T) {
	for _, kind := range []day.Kind{day.Month, day.Quarter, day.Year} {
		r := &rater{periods: periods{kind: kind}}
		for _, key := range []int{0, 0, 24301, 24301, 24302, 24301, -1, 0} {
			if got, want := r.label(key), (day.Period{Kind: kind, Key: key}).Label(); got != want {
				t.Errorf("%s key %d: label %q, want %q", kind, key, got, want)
			}
		}
	}
}

// TestRatesTimeClass: a rule set rates the time classes its settings name;
// standard alone by default, and a tournament without a class is standard.
func TestRatesTimeClass(t *testing.T) {
	rapid, err := ParseRules("r.toml", []byte("base = \"fide\"\n[fide]\ntime_classes = [\"rapid\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	def, err := ParseRules("r.toml", []byte("base = \"fide\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rules       Rules
		class       string
		rated, want bool
	}{
		{def, "standard", true, true},
		{def, "", true, true},
		{def, "rapid", true, false},
		{def, "blitz", true, false},
		{rapid, "rapid", true, true},
		{rapid, "standard", true, false},
		{rapid, "rapid", false, false},
	}
	for _, tt := range tests {
		r := &rater{rules: fide.NewRater(*tt.rules.Settings("fide").(*fide.Settings), rating.NewState(0))}
		tr := &archive.Tournament{Rated: tt.rated, Setup: &archive.Setup{Discipline: "chess", TimeClass: tt.class}}
		if got := r.rates(tr); got != tt.want {
			t.Errorf("time_classes %v, class %q, rated %v: rates %v", tt.rules.Settings("fide").(*fide.Settings).TimeClasses, tt.class, tt.rated, got)
		}
	}
}
