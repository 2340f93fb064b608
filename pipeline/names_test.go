package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelist/ratelist/rating"
)

// TestNamesNoRuleSet: the pipeline's code drives the table rule sets and
// Glicko-2 through package rating's contract only, so it names none of them.
func TestNamesNoRuleSet(t *testing.T) {
	names := []string{"glicko"}
	for _, d := range rating.TableDefinitions() {
		names = append(names, strings.ToLower(d.Name), strings.ToLower(d.Title))
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := strings.ToLower(string(b))
		for _, n := range names {
			if strings.Contains(src, n) {
				t.Errorf("%s names the rule set %q", f, n)
			}
		}
	}
}
