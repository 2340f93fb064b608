package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// referenceCodes are the ratelist codes the reference values cover.
const referenceCodes = "WIN,WON,BWG,BPG,PS,PS/C1,BH,BH/C1,BH/C2,BH/M1,BH/M2,AOB,FB,SB,SB/C1,SB/C2,SB/M1,SB/M2,ARO,ARO/C1,TPR,PTP,APRO,APPO"

const referenceDir = "../../testdata/tiebreak-reference"

// deviation is one known-deviations.txt entry: the cell's reference value and
// ratelist's value.
type deviation struct{ ref, got string }

// cellKey names one cell: file, rule (2024/2026), start number, code.
type cellKey struct{ file, rule, start, code string }

func readDeviations(t *testing.T) map[cellKey]deviation {
	t.Helper()
	f, err := os.Open(filepath.Join(referenceDir, "known-deviations.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[cellKey]deviation{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 6 {
			t.Fatalf("known-deviations.txt:%d: want file rule start code reference ratelist, got %q", n, line)
		}
		out[cellKey{fs[0], fs[1], fs[2], fs[3]}] = deviation{fs[4], fs[5]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameCell compares two printed values: both empty, or numbers within 0.005.
func sameCell(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && math.Abs(x-y) <= 0.005
}

// readCSV reads a CSV with a header into one map per row, keyed by column name.
func readCSV(t *testing.T, name string, data []byte) []map[string]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("%s: %d records: %v", name, len(recs), err)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for k, h := range recs[0] {
			row[h] = strings.TrimSpace(rec[k])
		}
		rows = append(rows, row)
	}
	return rows
}

// standingsCSV runs `ratelist standings --trf FILE --unplayed POLICY --tiebreaks ... --format csv`.
func standingsCSV(t *testing.T, trfFile, policy string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	args := []string{"--trf", trfFile, "--unplayed", policy, "--tiebreaks", referenceCodes, "--format", "csv"}
	if rc := cmdStandings(context.Background(), args, &out, &errb); rc != 0 {
		t.Fatalf("standings %s: exit %d: %s", strings.Join(args, " "), rc, errb.String())
	}
	return out.Bytes()
}

// TestReferenceValues compares every value of every tournament computed by FIDE's
// reference program (testdata/tiebreak-reference at the repository root) with `ratelist standings`, under
// the 2024 and the 2026 rules: equal within 0.005, or a known deviation where ratelist
// must give the value recorded there.
func TestReferenceValues(t *testing.T) {
	devs := readDeviations(t)
	used := map[cellKey]bool{}
	files, err := filepath.Glob(filepath.Join(referenceDir, "*.trf"))
	if err != nil || len(files) != 20 {
		t.Fatalf("want 20 reference tournaments, found %d: %v", len(files), err)
	}
	codes := append([]string{"PTS"}, strings.Split(referenceCodes, ",")...)
	total, agree := 0, 0
	for _, trfFile := range files {
		name := strings.TrimSuffix(filepath.Base(trfFile), ".trf")
		expFile := filepath.Join(referenceDir, name+".expected.csv")
		data, err := os.ReadFile(expFile)
		if err != nil {
			t.Fatal(err)
		}
		expected := readCSV(t, expFile, data)
		for _, rp := range [][2]string{{"2024", "fide2023"}, {"2026", "fide2026"}} {
			rule, policy := rp[0], rp[1]
			got := map[string]map[string]string{}
			for _, row := range readCSV(t, name+" "+policy, standingsCSV(t, trfFile, policy)) {
				got[row["start_no"]] = row
			}
			n := 0
			for _, want := range expected {
				if want["rule"] != rule {
					continue
				}
				n++
				row, ok := got[want["start_no"]]
				if !ok {
					t.Errorf("%s rule %s: no row for start %s", name, rule, want["start_no"])
					continue
				}
				for _, code := range codes {
					col := code
					if code == "PTS" {
						col = "points"
					}
					k := cellKey{name, rule, want["start_no"], code}
					g, w := row[col], want[code]
					total++
					if d, known := devs[k]; known {
						used[k] = true
						if !sameCell(d.ref, w) || !sameCell(d.got, g) || sameCell(g, w) {
							t.Errorf("%s rule %s start %s %s: reference %q, ratelist %q; known-deviations.txt says %q, %q",
								name, rule, k.start, code, w, g, d.ref, d.got)
						}
						continue
					}
					if sameCell(g, w) {
						agree++
					} else {
						t.Errorf("%s rule %s start %s %s: ratelist %q, reference %q", name, rule, k.start, code, g, w)
					}
				}
			}
			if n != len(got) {
				t.Errorf("%s rule %s: %d reference rows, %d standings rows", name, rule, n, len(got))
			}
		}
	}
	for k := range devs {
		if !used[k] {
			t.Errorf("known-deviations.txt: %v matches no cell", k)
		}
	}
	if total != 19500 {
		t.Errorf("%d values compared, want 19,500", total)
	}
	t.Logf("%d of %d values agree, %d known deviations", agree, total, len(used))
	if agree+len(used) != total {
		t.Errorf("%d values neither agree nor are known deviations", total-agree-len(used))
	}
}
