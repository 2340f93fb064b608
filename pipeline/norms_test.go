package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	ratelist "github.com/ratelist/ratelist"
	"github.com/ratelist/ratelist/importer"
	"github.com/ratelist/ratelist/output"
)

// importInto imports TRF files into the archive dir, then FIDE lists.
func importInto(t *testing.T, dir string, trfs, lists []string) {
	t.Helper()
	ctx := context.Background()
	a, err := importer.Open(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importer.ImportTRF(ctx, a, trfs, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	if len(lists) == 0 {
		return
	}
	if a, err = importer.Open(dir, importer.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := importer.ImportFideList(ctx, a, lists, importer.FideListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
}

const rr10 = "../testdata/norms/rr10.trf"

// The worked example of docs/arbiter.md, from an archive: the round robin
// gives Applicant an IM norm; with FIDE's list filling Leko's title and
// rating, a GM norm too (Ra 2416, Rp 2636), as `ratelist norms` says.
func TestRunNorms(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lists []string
		want  []Norm
	}{
		{"trf alone", nil, []Norm{
			{Period: "2025-03", TournamentID: 1, Tournament: "Norm Round Robin", PlayerID: 1, Name: "Applicant, Ann", Federation: "NED", Title: "IM", Games: 9, Score: 7, Ra: 2347, Rp: 2567},
		}},
		{"with FIDE's list", []string{"../importer/testdata/fidelist/players_list_foa.txt"}, []Norm{
			{Period: "2025-03", TournamentID: 1, Tournament: "Norm Round Robin", PlayerID: 1, Name: "Applicant, Ann", Federation: "NED", Title: "GM", Games: 9, Score: 7, Ra: 2416, Rp: 2636},
			{Period: "2025-03", TournamentID: 1, Tournament: "Norm Round Robin", PlayerID: 1, Name: "Applicant, Ann", Federation: "NED", Title: "IM", Games: 9, Score: 7, Ra: 2416, Rp: 2636},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			importInto(t, dir, []string{rr10}, tc.lists)
			out := t.TempDir()
			sum := runOpt(t, Options{Archive: os.DirFS(dir), Out: out})
			if !reflect.DeepEqual(sum.Norms, tc.want) {
				t.Errorf("summary norms:\n got %+v\nwant %+v", sum.Norms, tc.want)
			}
			csv, err := os.ReadFile(output.Norms.Path(out, ""))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
			if len(lines) != 1+len(tc.want) || !strings.HasPrefix(lines[1], `2025-03,1,Norm Round Robin,1,"Applicant, Ann",NED,`+tc.want[0].Title+",9,7,") {
				t.Errorf("norms.csv:\n%s", csv)
			}
			summary, err := os.ReadFile(output.Summary.Path(out, ""))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(summary), `"norm_title": "`+tc.want[0].Title+`"`) {
				t.Errorf("summary.json lists no %s norm:\n%s", tc.want[0].Title, summary)
			}
		})
	}
}

// A tournament the rule set does not rate gives no norm.
func TestRunNormsUnrated(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	a, err := importer.Open(dir, importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := importer.ImportTRF(ctx, a, []string{rr10}, importer.Options{Unrated: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	sum := runOpt(t, Options{Archive: os.DirFS(dir), Out: t.TempDir()})
	if len(sum.Norms) != 0 {
		t.Errorf("norms of an unrated tournament: %+v", sum.Norms)
	}
}

// A resumed run lists in summary.json the norms of the periods it lists, and
// in norms.csv those of every period, as a full run does.
func TestRunNormsResume(t *testing.T) {
	src, err := os.ReadFile(rr10)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	early := filepath.Join(tmp, "rr10-2011.trf")
	text := strings.NewReplacer("042 2025/03/01", "042 2011/01/01", "052 2025/03/09", "052 2011/01/09").Replace(string(src))
	if err := os.WriteFile(early, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	importInto(t, dir, []string{early, "../testdata/trf-real/bunratty_masters_2011.trf"}, nil)
	opt := Options{Archive: os.DirFS(dir), Out: t.TempDir()}
	first := opt
	first.Until = "2011-01"
	if sum := runOpt(t, first); len(sum.Norms) != 1 || sum.Norms[0].Period != "2011-01" || sum.Norms[0].Title != "IM" {
		t.Fatalf("run to 2011-01: norms %+v, want Applicant's IM norm", sum.Norms)
	}
	resumed := opt
	resumed.Resume = true
	if sum := runOpt(t, resumed); sum.FirstList != "2011-02" || len(sum.Norms) != 0 {
		t.Errorf("resumed run from %s lists norms %+v, want none of its own", sum.FirstList, sum.Norms)
	}
	full := opt
	full.Out = t.TempDir()
	runOpt(t, full)
	a, err := os.ReadFile(output.Norms.Path(opt.Out, ""))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(output.Norms.Path(full.Out, ""))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) || !strings.Contains(string(a), "2011-01,") {
		t.Errorf("norms.csv after --resume:\n%s\nafter a full run:\n%s", a, b)
	}
}

// The demo archive has no titles: no norms.
func TestRunNormsDemo(t *testing.T) {
	out := t.TempDir()
	sum := runOpt(t, Options{Archive: ratelist.Demo(), Out: out})
	if sum.Norms != nil {
		t.Errorf("demo norms: %+v", sum.Norms)
	}
	b, err := os.ReadFile(output.Norms.Path(out, ""))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), "\n") != 1 {
		t.Errorf("demo norms.csv:\n%s", b)
	}
}
