package tables

import (
	"strings"
	"testing"
)

// TestTables checks entries of both tables against FIDE B.02 8.1.1 and 8.1.2
// as printed, and their shape: dp is antisymmetric and rising, the PD ranges
// cover every D once and the expected scores of the two players add up to 1.
func TestTables(t *testing.T) {
	for _, c := range []struct{ p, dp int }{{1, -677}, {14, -309}, {33, -125}, {50, 0}, {69, 141}, {99, 677}} {
		if got, ok := DP(c.p); !ok || got != c.dp {
			t.Errorf("DP(%d) = %d, %v; want %d", c.p, got, ok, c.dp)
		}
	}
	for _, p := range []int{-1, 0, 100, 101} {
		if _, ok := DP(p); ok {
			t.Errorf("DP(%d) is defined; the table prints none", p)
		}
	}
	for p := 1; p < 100; p++ {
		a, _ := DP(p)
		b, _ := DP(100 - p)
		c, _ := DP(p + 1)
		if a != -b || (p < 99 && c <= a) {
			t.Errorf("dp at %d: %d, at %d: %d, at %d: %d", p, a, 100-p, b, p+1, c)
		}
	}
	for _, c := range []struct{ d, pd int }{{0, 50}, {3, 50}, {4, 51}, {-4, 49}, {350, 89}, {735, 99}, {736, 100}, {5000, 100}, {-5000, 0}} {
		if got := PD(c.d); got != c.pd {
			t.Errorf("PD(%d) = %d, want %d", c.d, got, c.pd)
		}
	}
	rows := PDRows()
	for i, r := range rows {
		if r.High+r.Low != 100 || (i > 0 && (r.Min != rows[i-1].Max+1 || r.High <= rows[i-1].High)) {
			t.Errorf("row %d %+v after %+v", i, r, rows[max(0, i-1)])
		}
		if PD(r.Min) != r.High || PD(-r.Min) != r.Low {
			t.Errorf("PD(±%d) = %d, %d; row %+v", r.Min, PD(r.Min), PD(-r.Min), r)
		}
	}
	if len(rows) != 51 || rows[0].Min != 0 || rows[len(rows)-1].Max != -1 {
		t.Errorf("%d rows from %+v to %+v", len(rows), rows[0], rows[len(rows)-1])
	}
}

// TestParseRejects: a damaged table file is refused with the line it is on.
func TestParseRejects(t *testing.T) {
	const dpHead, pdHead = "p\tdp\n", "d_min\td_max\tpd_high\tpd_low\n"
	goodDP, goodPD := dpHead+"0.00\t?\n0.01\t-677\n", pdHead+"0\t3\t0.50\t0.50\n4\t\t0.51\t0.49\n"
	for _, c := range []struct{ name, dp, pd, want string }{
		{"dp fields", dpHead + "0.00\n", goodPD, "dp.tsv line 2"},
		{"dp out of order", dpHead + "0.01\t-677\n", goodPD, "dp.tsv line 2: bad p"},
		{"dp value", dpHead + "0.00\tx\n", goodPD, "dp.tsv line 2: bad dp"},
		{"pd gap", goodDP, pdHead + "0\t3\t0.50\t0.50\n5\t\t0.51\t0.49\n", "pd.tsv line 3: ranges not contiguous"},
		{"pd sum", goodDP, pdHead + "0\t3\t0.50\t0.51\n4\t\t0.51\t0.49\n", "pd.tsv line 2: pd_high + pd_low"},
		{"pd open middle", goodDP, pdHead + "0\t\t0.50\t0.50\n1\t\t0.51\t0.49\n", "pd.tsv line 2: bad d_max"},
		{"pd closed end", goodDP, pdHead + "0\t3\t0.50\t0.50\n", "the last row must have no d_max"},
	} {
		if _, err := parse(c.dp, c.pd); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := parse(goodDP, goodPD); err != nil {
		t.Errorf("good tables: %v", err)
	}
}

// TestPDSigns: PD is the table's High by |D| (capped at the last row), and
// 100 minus it below the opponent, for every D around the table.
func TestPDSigns(tt *testing.T) {
	for d := -2000; d <= 2000; d++ {
		a := min(max(d, -d), len(t.pdHigh)-1)
		want := t.pdHigh[a]
		if d < 0 {
			want = 100 - want
		}
		if got := PD(d); got != want {
			tt.Fatalf("PD(%d) = %d, want %d", d, got, want)
		}
	}
}
