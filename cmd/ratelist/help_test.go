package main

import (
	"bytes"
	"context"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// verbs are the verbs the top-level usage lists.
func verbs(t *testing.T) []string {
	t.Helper()
	_, list, ok := strings.Cut(usageText, "verbs:\n")
	if !ok {
		t.Fatal("usageText lists no verbs")
	}
	var vs []string
	for _, line := range strings.Split(list, "\n") {
		if !strings.HasPrefix(line, "  ") {
			break
		}
		vs = append(vs, strings.Fields(line)[0])
	}
	if len(vs) < 5 {
		t.Fatalf("usageText lists %d verbs: %q", len(vs), vs)
	}
	return vs
}

var helpMu sync.Mutex

// helpOf runs "ratelist ARGS..." and returns its exit code, its output and
// the flag sets it made.
func helpOf(args ...string) (int, string, []*flag.FlagSet) {
	helpMu.Lock() // flagSetMade is one for all, and TestDocCommands' documents run in parallel
	defer helpMu.Unlock()
	var sets []*flag.FlagSet
	flagSetMade = func(fs *flag.FlagSet) { sets = append(sets, fs) }
	defer func() { flagSetMade = nil }()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String() + stderr.String(), sets
}

// subVerb is a usage line's sub-verb part: "turcas", "trf|list", "trf|pgn|csv".
var subVerb = regexp.MustCompile(`^[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)*$`)

// TestHelp: every verb's and sub-verb's -h and --help exit 0 and print a
// usage naming the verb, its positional arguments and every flag it defines.
func TestHelp(t *testing.T) {
	// Positional arguments a usage line must show.
	positional := map[string]string{"diff": "[P1] [P2]", "player": " ID", "import": " SRC...", "calibrate": " turcas"}
	for _, verb := range verbs(t) {
		var subs []string
		for _, h := range []string{"-h", "--help"} {
			code, usage, sets := helpOf(verb, h)
			if code != exitOK {
				t.Errorf("%s %s: exit %d, want 0:\n%s", verb, h, code, usage)
				continue
			}
			if !strings.HasPrefix(usage, "usage: ratelist "+verb) {
				t.Errorf("%s %s: the output does not start with its usage line:\n%s", verb, h, usage)
			}
			checkFlagsShown(t, verb+" "+h, usage, sets)
			if p, ok := positional[verb]; ok && !strings.Contains(strings.SplitN(usage, "\n", 2)[0], p) {
				t.Errorf("%s %s: the usage line does not show %q:\n%s", verb, h, p, usage)
			}
			subs = subVerbs(usage, verb)
		}
		for _, sub := range subs {
			code, usage, sets := helpOf(verb, sub, "-h")
			if code != exitOK || !strings.HasPrefix(usage, "usage: ratelist "+verb) {
				t.Errorf("%s %s -h: exit %d, want 0 and a usage:\n%s", verb, sub, code, usage)
				continue
			}
			checkFlagsShown(t, verb+" "+sub+" -h", usage, sets)
		}
	}
}

// subVerbs are the sub-verbs the usage lines of verb name, as in
// "usage: ratelist export trf ..." and "usage: ratelist import trf|pgn|csv ...".
func subVerbs(usage, verb string) []string {
	var subs []string
	for _, line := range strings.Split(usage, "\n") {
		rest, ok := strings.CutPrefix(line, "usage: ratelist "+verb+" ")
		if !ok {
			continue
		}
		if w := strings.Fields(rest); len(w) > 0 && subVerb.MatchString(w[0]) {
			subs = append(subs, strings.Split(w[0], "|")...)
		}
	}
	return subs
}

// checkFlagsShown fails unless a verb made a flag set and its usage shows
// every flag of each.
func checkFlagsShown(t *testing.T, what, usage string, sets []*flag.FlagSet) {
	t.Helper()
	if len(sets) == 0 {
		t.Errorf("%s: made no flag set through newFlags", what)
	}
	for _, fs := range sets {
		fs.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(usage, "  -"+f.Name+" ") && !strings.Contains(usage, "  -"+f.Name+"\n") && !strings.Contains(usage, "  -"+f.Name+"\t") {
				t.Errorf("%s: the usage does not show -%s:\n%s", what, f.Name, usage)
			}
		})
	}
}

// TestExportListBadArchive: export list names the --archive it cannot read
// as given.
func TestExportListBadArchive(t *testing.T) {
	out := demoOut(t)
	for _, dir := range []string{"/nonexistent/archive", "testdata/rr.trf"} {
		code, _, stderr := officerRun("export", "list", "--out", out, "--archive", dir)
		if code != exitFailed || !strings.Contains(stderr, dir) || strings.Contains(stderr, "folder .") {
			t.Errorf("--archive %s: exit %d, stderr %q; want 1 naming %s", dir, code, stderr, dir)
		}
	}
}

// TestUsageListsEveryVerb: the top-level usage lists exactly the verbs run
// dispatches (the cases of its switch in main.go), so TestHelp sees them all.
func TestUsageListsEveryVerb(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var dispatched []string
	ast.Inspect(f, func(n ast.Node) bool {
		if fn, ok := n.(*ast.FuncDecl); ok && fn.Name.Name != "run" {
			return false
		}
		cc, ok := n.(*ast.CaseClause)
		if !ok {
			return true
		}
		for _, e := range cc.List {
			if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				v, _ := strconv.Unquote(lit.Value)
				if !strings.HasPrefix(v, "-") && v != "help" {
					dispatched = append(dispatched, v)
				}
			}
		}
		return true
	})
	listed := verbs(t)
	slices.Sort(dispatched)
	slices.Sort(listed)
	if !slices.Equal(dispatched, listed) {
		t.Errorf("run dispatches %q, the usage lists %q", dispatched, listed)
	}
}
