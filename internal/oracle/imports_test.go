package oracle

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoProductImportsOracle fails when a non-test package of the module imports
// an oracle, directly or through another package.
func TestNoProductImportsOracle(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}: {{join .Deps \" \"}}", "github.com/ratelist/ratelist/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const oracle = "github.com/ratelist/ratelist/internal/oracle"
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, ": ")
		if !strings.HasPrefix(pkg, "github.com/ratelist/ratelist") || strings.HasPrefix(pkg, oracle) {
			continue
		}
		checked++
		for _, d := range strings.Fields(deps) {
			if strings.HasPrefix(d, oracle) {
				t.Errorf("%s imports %s; oracles are for tests only", pkg, d)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("checked only %d product packages; go list output:\n%s", checked, out)
	}
}
