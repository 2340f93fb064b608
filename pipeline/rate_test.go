package pipeline

import "testing"

// TestRaterLabel: the remembered period label is periodLabel's for every key,
// also when a key comes back after another and for key 0.
func TestRaterLabel(t *testing.T) {
	for _, kind := range []string{PeriodMonth, PeriodQuarter, PeriodYear} {
		r := &rater{periods: periods{kind: kind}}
		for _, key := range []int{0, 0, 24301, 24301, 24302, 24301, -1, 0} {
			if got, want := r.label(key), periodLabel(kind, key); got != want {
				t.Errorf("%s key %d: label %q, want %q", kind, key, got, want)
			}
		}
	}
}
