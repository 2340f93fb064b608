package glicko2

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"testing"

	"github.com/ratelist/ratelist/internal/testutil"
)

// TestSideBySide rates a deterministic archive (players arriving late, idle
// ones, a period without games) with this package and with two published
// implementations from npm, glicko2 1.2.2 (mmai/glicko2js) and glicko2-lite
// 5.0.0, through testdata/sidebyside.js, and wants every listed player's r,
// RD and σ after every period to agree within 1e-6 (testdata/PROVENANCE has
// the versions and where the libraries differ). It runs when
// RATELIST_GLICKO2_JS names a node_modules folder holding both packages
// (npm install glicko2@1.2.2 glicko2-lite@5.0.0) and node is on PATH.
func TestSideBySide(t *testing.T) {
	node, modules := testutil.NodeModules(t, "RATELIST_GLICKO2_JS", "glicko2@1.2.2 and glicko2-lite@5.0.0")
	const players, tol = 80, 1e-6
	periods := randomPeriods(players, 10)
	for _, set := range []Settings{
		Defaults(),
		{Tau: 1.2, InitialRating: 1200, InitialRD: 250, InitialVolatility: 0.09, ProvisionalRD: 110},
	} {
		js := runNode(t, node, modules, set, periods)
		// Each library stops the volatility iteration at its own epsilon.
		for _, lib := range []struct {
			name    string
			epsilon float64
			got     [][][4]float64
		}{{"glicko2", 1e-7, js.Glicko2}, {"glicko2-lite", 1e-6, js.Lite}} {
			set.Epsilon = lib.epsilon
			s, pd := NewState(players), &Period{}
			var worst [3]float64
			for k, games := range periods {
				closeAll(t, pd, s, &set, int32(k), games)
				var listed []int32
				for p, on := range s.Listed {
					if on {
						listed = append(listed, int32(p))
					}
				}
				want := lib.got[k]
				if len(want) != len(listed) {
					t.Fatalf("τ %v, %s, period %d: %d players listed, %s has %d", set.Tau, lib.name, k, len(listed), lib.name, len(want))
				}
				for i, p := range listed {
					w := want[i]
					if int32(w[0]) != p {
						t.Fatalf("τ %v, %s, period %d: player %d, %s has %v", set.Tau, lib.name, k, p, lib.name, w[0])
					}
					for j, got := range []float64{s.R[p], s.RD[p], s.Sigma[p]} {
						d := math.Abs(got - w[j+1])
						worst[j] = max(worst[j], d)
						if !(d <= tol) {
							t.Errorf("τ %v, %s, period %d, player %d: %s = %.9f, %s has %.9f",
								set.Tau, lib.name, k, p, []string{"r", "RD", "σ"}[j], got, lib.name, w[j+1])
						}
					}
				}
			}
			t.Logf("τ %v against %s: largest |Δ| r %.3g, RD %.3g, σ %.3g", set.Tau, lib.name, worst[0], worst[1], worst[2])
		}
	}
}

// jsRatings is what testdata/sidebyside.js prints: per library, per period,
// the listed players' [player, r, rd, volatility].
type jsRatings struct {
	Glicko2 [][][4]float64 `json:"glicko2"`
	Lite    [][][4]float64 `json:"lite"`
}

func runNode(t *testing.T, node, modules string, set Settings, periods [][]play) jsRatings {
	t.Helper()
	type input struct {
		Settings struct {
			Tau               float64 `json:"tau"`
			InitialRating     float64 `json:"initial_rating"`
			InitialRD         float64 `json:"initial_rd"`
			InitialVolatility float64 `json:"initial_volatility"`
		} `json:"settings"`
		Periods [][][3]float64 `json:"periods"`
	}
	var in input
	in.Settings.Tau, in.Settings.InitialRating, in.Settings.InitialRD, in.Settings.InitialVolatility =
		set.Tau, set.InitialRating, set.InitialRD, set.InitialVolatility
	in.Periods = make([][][3]float64, len(periods))
	for k, games := range periods {
		in.Periods[k] = [][3]float64{}
		for _, g := range games {
			in.Periods[k] = append(in.Periods[k], [3]float64{float64(g.w), float64(g.b), g.s})
		}
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "testdata/sidebyside.js", modules)
	var stderr bytes.Buffer
	cmd.Stdin, cmd.Stderr = bytes.NewReader(data), &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/sidebyside.js: %v\n%s", err, stderr.Bytes())
	}
	var got jsRatings
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node's output: %v", err)
	}
	if len(got.Glicko2) != len(periods) || len(got.Lite) != len(periods) {
		t.Fatalf("node rated %d and %d periods, want %d", len(got.Glicko2), len(got.Lite), len(periods))
	}
	return got
}
