package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// The documents whose commands TestDocCommands runs, from the repository root.
var docFiles = []string{"README.md", "docs/*.md", "cmd/ratelist/main.go"}

// docPlaceholders are the paths and names the documents use for an officer's
// folders, and the folders of the test's working directory standing in for them.
var docPlaceholders = map[string]string{
	"/srv/ratings/archive": "archive",
	"/srv/ratings/out":     "out",
	"ARCHIVE":              "archive",
	"OUT":                  "out",
	"A":                    "archive",
	"O":                    "out",
}

// docSkips are the command lines of the documents that cannot run as
// written, by their text, each with the reason. The flags of the ratelist
// command in each are still checked.
var docSkips = map[string]string{
	// The monthly cron script: TestCronRecipe runs it as written, in a shell.
	`ratelist run --archive "$A" --out "$O" --resume --rerate --log-format json 2>>"$LOG"`: "cron script (TestCronRecipe)",
	`0|3|4) ratelist report --out "$O" --quiet >/dev/null || code=1 ;;`:                    "cron script (TestCronRecipe)",
	// An example over the small archive the text describes, not the demo's.
	"ratelist import fide-list players_list_foa.txt --archive archive": "example archive described in the text",
	// Shell: $?, jq and a command substitution.
	`if [ $? -eq 4 ]; then ratelist run --archive A --out O --from "$(jq -r .rerun_from O/summary.json)"; fi`: "shell script",
}

// docSections are the sections of the documents (file#heading) whose
// commands another test runs as written, in the setting they need, by the
// test's name.
var docSections = map[string]string{
	"docs/operations.md#Correcting the archive": "TestCorrectionsDoc",
}

// A docCommand is a command line of a document, and the output shown for it.
type docCommand struct {
	file  string
	line  int
	text  string   // as written, without "$ "
	shown []string // the lines the document shows it prints, if any
	// inline is a command quoted in a sentence: it runs when it names what it
	// reads (--out, --archive or --trf with a value), else it is a part of a
	// command and only its flags are checked.
	inline bool
}

// embedded is a command of ours inside a line of another program (cron, a
// shell script): such a line cannot run as written and must be in docSkips.
var embedded = regexp.MustCompile(`[\s;(]ratelist [a-z-]`)

// inlineCommand is a command quoted in a sentence.
var inlineCommand = regexp.MustCompile("`(ratelist [^`]+)`")

func (c docCommand) String() string { return fmt.Sprintf("%s:%d: %s", c.file, c.line, c.text) }

// TestDocCommands runs every command shown in README.md, docs/*.md and the
// command's package comment as written: the lines of code blocks and indented
// blocks that start with "ratelist " or "go run ./cmd/ratelist" (or "$ " and
// one of them).
//
// Commands quoted in sentences (`ratelist ...`) run too when they name what
// they read (--out, --archive or --trf with a value). A line naming
// placeholders (DIR, [--flag], FILE...) is a usage line, and so is any other
// quoted command (a part of one, `ratelist run --rules fide`): every flag it
// names must be a flag of its verb. A line of another program holding a ratelist command
// (crontab, shell) must be in docSkips. Any other line runs as ratelist (a
// child process, ratelistBin) in a working directory of its own per document
// holding out (a run of the demo), archive (the demo archive's files) and the
// repository's testdata; the documents run in parallel, a document's commands
// in order. A command must exit 0, 3 or 4 (a trailing
// "# exit N" asks for N), and print what the document shows below it: "…"
// alone stands for any lines, a line ending in "…" for a line starting with
// what comes before it.
func TestDocCommands(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	template := docTemplate(t, root)
	var files []string
	for _, pattern := range docFiles {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: no documents (%v)", pattern, err)
		}
		files = append(files, m...)
	}
	bin := ratelistBin(t)
	var ran atomic.Int64
	t.Run("docs", func(t *testing.T) {
		for _, path := range files {
			name, _ := filepath.Rel(root, path)
			cmds := docCommands(t, path, name)
			if len(cmds) == 0 {
				continue
			}
			t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				if err := os.CopyFS(dir, os.DirFS(template)); err != nil {
					t.Fatal(err)
				}
				linkRepoDirs(t, root, dir)
				for _, c := range cmds {
					if reason, ok := docSkips[c.text]; ok {
						t.Logf("%s: not run: %s", c, reason)
						checkUsageLine(t, c, embeddedArgs(c.text))
						continue
					}
					args, ok := usageLine(c.text)
					if words := strings.Fields(c.text)[1:]; c.inline && !ok && !namesInput(words) {
						args, ok = words, true // a fragment
					}
					if ok {
						checkUsageLine(t, c, args)
						continue
					}
					t.Logf("%s", c)
					runDocCommand(t, bin, dir, c)
					ran.Add(1)
				}
			})
		}
	})
	if ran := ran.Load(); ran < 5 {
		t.Errorf("ran %d commands of the documents; the extraction found too few", ran)
	}
}

// docTemplate is a folder holding what the documents' commands read: out, a
// run of the demo, and archive, the demo archive's files.
func docTemplate(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "out"), os.DirFS(demoOut(t))); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "archive"), os.DirFS(filepath.Join(root, "testdata/demo"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// linkRepoDirs makes the repository's test inputs that documents name
// (testdata/..., importer/testdata/...) reachable from dir, read through links.
func linkRepoDirs(t *testing.T, root, dir string) {
	t.Helper()
	for _, d := range []string{"testdata", "importer/testdata"} {
		link := filepath.Join(dir, d)
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(root, d), link); err != nil {
			t.Fatal(err)
		}
	}
}

// docCommands extracts the command lines of a document.
func docCommands(t *testing.T, path, name string) []docCommand {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	goSource := strings.HasSuffix(path, ".go")
	var cmds []docCommand
	cur := -1 // the "$ " command whose output lines follow
	fenced := false
	ownTest := false // in a section another test runs as written (docSections)
	for i, line := range lines {
		if strings.HasPrefix(line, "## ") {
			_, ownTest = docSections[name+"#"+strings.TrimPrefix(line, "## ")]
		}
		if ownTest {
			continue
		}
		if !fenced && !goSource {
			for _, m := range inlineCommand.FindAllStringSubmatch(line, -1) {
				cmds = append(cmds, docCommand{file: name, line: i + 1, text: m[1], inline: true})
			}
		}
		var code string
		inBlock := false
		switch {
		case goSource:
			// The package comment's code: "//" and a tab.
			code, inBlock = strings.CutPrefix(line, "//\t")
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			fenced = !fenced
			cur = -1
			continue
		case fenced:
			code, inBlock = line, true
		case strings.HasPrefix(line, "    "):
			code, inBlock = line[4:], true
		case strings.HasPrefix(line, "\t"):
			code, inBlock = line[1:], true
		case strings.HasPrefix(line, "$ "):
			code, inBlock = line, true
		}
		if !inBlock {
			cur = -1
			continue
		}
		trimmed := strings.TrimSpace(code)
		prompt := strings.HasPrefix(trimmed, "$ ")
		text := strings.TrimPrefix(trimmed, "$ ")
		isCmd := strings.HasPrefix(text, "ratelist ") || strings.HasPrefix(text, "go run ./cmd/ratelist ")
		if verb, _, _ := strings.Cut(strings.TrimPrefix(text, "ratelist "), " "); strings.HasSuffix(verb, ":") {
			isCmd = false // a message ratelist prints ("ratelist import: ..."), not a command
		}
		switch {
		case prompt && isCmd:
			cmds = append(cmds, docCommand{file: name, line: i + 1, text: text})
			cur = len(cmds) - 1
		case prompt:
			cur = -1 // another program's command: not ours to run
		case cur >= 0:
			cmds[cur].shown = append(cmds[cur].shown, strings.TrimRight(code, " "))
		case isCmd || embedded.MatchString(text):
			cmds = append(cmds, docCommand{file: name, line: i + 1, text: text})
		}
	}
	return cmds
}

// placeholder is a word a usage line stands for a value with: DIR, FILE...,
// YYYY-MM, P1.
var placeholder = regexp.MustCompile(`^[A-Z][A-Z0-9]*(-[A-Z]+)*(\.\.\.)?$`)

// embeddedArgs are the words after "ratelist" of the command in a line of
// another program, up to a shell operator, quote or substitution.
func embeddedArgs(text string) []string {
	_, cmd, _ := strings.Cut(text, "ratelist ")
	var args []string
	for _, w := range strings.Fields(cmd) {
		if strings.ContainsAny(w, ";|&<>$\"`") {
			break
		}
		args = append(args, w)
	}
	return args
}

// usageLine tells whether a command line is a usage line, and returns its
// words after "ratelist" when it is.
func usageLine(text string) ([]string, bool) {
	text, ok := strings.CutPrefix(text, "go run ./cmd/ratelist ")
	if ok {
		text = "ratelist " + text
	} else if !strings.HasPrefix(text, "ratelist ") {
		return nil, false
	}
	words := strings.Fields(text)
	usage := strings.ContainsAny(text, "[(") || strings.Contains(text, "...")
	for _, w := range words {
		if _, ok := docPlaceholders[w]; !ok && placeholder.MatchString(w) {
			usage = true
		}
	}
	if !usage {
		return nil, false
	}
	return words[1:], true
}

// namesInput tells whether a command's words name a folder or file for it to
// read.
func namesInput(args []string) bool {
	for i, a := range args[:max(len(args)-1, 0)] {
		if (a == "--out" || a == "--archive" || a == "--trf") && !strings.HasPrefix(args[i+1], "-") {
			return true
		}
	}
	return false
}

// checkUsageLine fails unless every flag a usage line names is a flag of its
// verb (and sub-verb).
func checkUsageLine(t *testing.T, c docCommand, words []string) {
	t.Helper()
	if len(words) == 0 || strings.HasPrefix(words[0], "-") || placeholder.MatchString(words[0]) {
		return // ratelist --version, ratelist VERB -h
	}
	help := []string{words[0]}
	code, _, sets := helpOf(words[0], "-h")
	if code != exitOK {
		t.Errorf("%s: ratelist %s -h: exit %d", c, words[0], code)
		return
	}
	if len(words) > 1 && subVerb.MatchString(words[1]) {
		// A sub-verb (export trf, import trf|pgn) has flags of its own.
		sub := strings.Split(words[1], "|")[0]
		if code, _, subSets := helpOf(words[0], sub, "-h"); code == exitOK && len(subSets) > 0 {
			help, sets = append(help, sub), subSets
		}
	}
	known := map[string]bool{}
	for _, fs := range sets {
		fs.VisitAll(func(f *flag.Flag) { known[f.Name] = true })
	}
	for _, w := range words[1:] {
		w = strings.TrimLeft(w, "[(|")
		if !strings.HasPrefix(w, "-") {
			continue
		}
		name := strings.TrimRight(strings.TrimLeft(w, "-"), "])|")
		if name != "" && !known[name] {
			t.Errorf("%s: ratelist %s has no flag -%s", c, strings.Join(help, " "), name)
		}
	}
}

// runDocCommand runs a command line with ratelist bin in dir as a shell
// would: placeholders replaced, "> FILE" and "2> FILE" redirected.
func runDocCommand(t *testing.T, bin, dir string, c docCommand) {
	t.Helper()
	args, want, err := shellWords(c.text)
	if err != nil {
		t.Errorf("%s: %v: make it runnable as written or list it in docSkips with the reason", c, err)
		return
	}
	var stdout, stderr bytes.Buffer
	outFile, errFile := "", ""
	var rest []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case (a == ">" || a == "2>") && i+1 < len(args):
			if a == ">" {
				outFile = args[i+1]
			} else {
				errFile = args[i+1]
			}
			i++
		default:
			rest = append(rest, a)
		}
	}
	cmd := exec.Command(bin, rest...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &stdout, &stderr
	code := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("%s: %v", c, err)
		}
		code = exit.ExitCode()
	}
	for file, b := range map[string][]byte{outFile: stdout.Bytes(), errFile: stderr.Bytes()} {
		if file != "" {
			if !filepath.IsAbs(file) {
				file = filepath.Join(dir, file)
			}
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	switch {
	case want >= 0 && code != want:
		t.Errorf("%s: exit %d, the document says %d; stderr:\n%s", c, code, want, stderr.String())
		return
	case want < 0 && code != exitOK && code != exitRejected && code != exitStale:
		t.Errorf("%s: exit %d; stderr:\n%s", c, code, stderr.String())
		return
	}
	if len(c.shown) == 0 {
		return
	}
	got := stdout.String()
	if code == exitFailed || code == exitUsage {
		got = stderr.String()
	}
	if err := matchShown(c.shown, strings.Split(strings.TrimRight(got, "\n"), "\n")); err != nil {
		t.Errorf("%s: %v\nthe document shows:\n%s\nit prints (up to 60 lines):\n%s", c, err, strings.Join(c.shown, "\n"), firstLines(got, 60))
	}
}

// shellWords splits a command line into the words ratelist gets, as sh would
// for the quoting the documents use, after placeholders are replaced; want is
// the exit code a trailing "# exit N" names, else -1.
func shellWords(text string) (words []string, want int, err error) {
	want = -1
	if i := strings.Index(text, " #"); i >= 0 {
		comment := strings.TrimSpace(text[i+2:])
		if n, ok := strings.CutPrefix(comment, "exit "); ok {
			if want, err = strconv.Atoi(n); err != nil {
				return nil, 0, fmt.Errorf("comment %q: %w", comment, err)
			}
		}
		text = text[:i]
	}
	if strings.ContainsAny(text, "|;&`$<*?") || strings.Contains(text, ">>") {
		return nil, 0, fmt.Errorf("needs a shell")
	}
	text, ok := strings.CutPrefix(text, "go run ./cmd/ratelist ")
	if !ok {
		if text, ok = strings.CutPrefix(text, "ratelist "); !ok {
			return nil, 0, fmt.Errorf("not a ratelist command")
		}
	}
	var b strings.Builder
	inWord := false
	quote := rune(0)
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Split(bufio.ScanRunes)
	for sc.Scan() {
		r := []rune(sc.Text())[0]
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			b.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		default:
			b.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, 0, fmt.Errorf("unclosed quote")
	}
	if inWord {
		words = append(words, b.String())
	}
	for i, w := range words {
		for from, to := range docPlaceholders {
			if w == from {
				words[i] = to
			} else if rest, ok := strings.CutPrefix(w, from+"/"); ok {
				words[i] = to + "/" + rest
			}
		}
	}
	return words, want, nil
}

// matchShown tells whether the lines got are what a document shows: "…"
// alone stands for any lines (none included), a line ending in "…" for a
// line starting with the rest; other lines are compared without trailing
// blanks. The error names the furthest shown line no printed line matched.
func matchShown(shown, got []string) error {
	for len(shown) > 0 && shown[len(shown)-1] == "" {
		shown = shown[:len(shown)-1]
	}
	for i := range got {
		got[i] = strings.TrimRight(got[i], " \r")
	}
	furthest := 0
	var match func(s, g int) bool
	match = func(s, g int) bool {
		furthest = max(furthest, s)
		if s == len(shown) {
			return g == len(got)
		}
		if shown[s] == "…" {
			for k := g; k <= len(got); k++ {
				if match(s+1, k) {
					return true
				}
			}
			return false
		}
		if g == len(got) {
			return false
		}
		want, prefix := strings.CutSuffix(shown[s], "…")
		if prefix {
			want = strings.TrimRight(want, " ")
		}
		if got[g] != want && !(prefix && strings.HasPrefix(got[g], want)) {
			return false
		}
		return match(s+1, g+1)
	}
	switch {
	case match(0, 0):
		return nil
	case furthest == len(shown):
		return fmt.Errorf("it prints more lines than shown (end the output with a line \"…\")")
	}
	return fmt.Errorf("shown line %d, %q, is not printed where shown", furthest+1, shown[furthest])
}

// firstLines is s cut after n lines.
func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

// TestMatchShown: the comparison of shown and printed output a document's
// example gets.
func TestMatchShown(t *testing.T) {
	got := []string{"head", "a  1", "b  2", "c  3", "tail"}
	for _, tc := range []struct {
		shown []string
		ok    bool
	}{
		{[]string{"head", "a  1", "b  2", "c  3", "tail"}, true},
		{[]string{"head", "…", "tail"}, true},
		{[]string{"head", "a …", "…"}, true},
		{[]string{"…", "c  3", "tail", ""}, true},
		{[]string{"head", "a  1"}, false},           // more printed than shown
		{[]string{"head", "b  2", "…"}, false},      // a line left out without "…"
		{[]string{"head", "…", "d  4", "…"}, false}, // a line not printed
		{[]string{"head", "a  2…", "…"}, false},
	} {
		if err := matchShown(tc.shown, slices.Clone(got)); (err == nil) != tc.ok {
			t.Errorf("shown %q: error %v, want ok %v", tc.shown, err, tc.ok)
		}
	}
}

// TestShellWords: a document's command line as the words ratelist gets.
func TestShellWords(t *testing.T) {
	for _, tc := range []struct {
		text  string
		words []string
		want  int
		err   bool
	}{
		{"ratelist run --out out", []string{"run", "--out", "out"}, -1, false},
		{"go run ./cmd/ratelist run --out out", []string{"run", "--out", "out"}, -1, false},
		{`ratelist report --out O --title "Club list"`, []string{"report", "--out", "out", "--title", "Club list"}, -1, false},
		{"ratelist export trf --tournament 1002 > 1002.trf", []string{"export", "trf", "--tournament", "1002", ">", "1002.trf"}, -1, false},
		{"ratelist validate --archive /srv/ratings/archive   # exit 3", []string{"validate", "--archive", "archive"}, 3, false},
		{"ratelist run --out O/x", []string{"run", "--out", "out/x"}, -1, false},
		{"ratelist diff --out out | head", nil, 0, true},
		{`ratelist run --from "$(jq -r .rerun_from O/summary.json)"`, nil, 0, true},
	} {
		words, want, err := shellWords(tc.text)
		if (err != nil) != tc.err || !slices.Equal(words, tc.words) || (err == nil && want != tc.want) {
			t.Errorf("%s: %q, exit %d, error %v; want %q, %d, error %v", tc.text, words, want, err, tc.words, tc.want, tc.err)
		}
	}
}
