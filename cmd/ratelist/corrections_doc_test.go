package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCorrectionsDoc runs the commands of "Correcting the archive" in
// docs/operations.md as written, in order, in a fresh folder holding
// spring.trf: each must exit 0 and print the output shown after it (times
// aside). A block after a line naming a file in back quotes and a colon is
// that file's content.
func TestCorrectionsDoc(t *testing.T) {
	b, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "## Correcting the archive")
	end := strings.Index(doc[start+1:], "\n## ")
	if start < 0 || end < 0 {
		t.Fatal("no section Correcting the archive")
	}
	lines := strings.Split(doc[start:start+1+end], "\n")
	trf, err := os.ReadFile(importData + "spring.trf")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	os.WriteFile("spring.trf", trf, 0o644)
	stamp := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	fileName := regexp.MustCompile("\\(`([^`]+)`\\):$")
	var last string // the last command's stdout, until a block is compared with it
	commands := 0
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "    ratelist "):
			args := splitArgs(t, strings.TrimPrefix(line, "    ratelist "))
			var stdout, stderr bytes.Buffer
			if got := run(context.Background(), args, &stdout, &stderr); got != exitOK {
				t.Fatalf("%s: exit %d\n%s", line, got, stderr.String())
			}
			last = stdout.String()
			commands++
		case line == "```":
			j := i + 1
			for j < len(lines) && lines[j] != "```" {
				j++
			}
			block := strings.Join(lines[i+1:j], "\n") + "\n"
			prev := ""
			for k := i - 1; k >= 0 && prev == ""; k-- {
				prev = strings.TrimSpace(lines[k])
			}
			switch m := fileName.FindStringSubmatch(prev); {
			case m != nil:
				os.WriteFile(filepath.Join(".", m[1]), []byte(block), 0o644)
			case strings.HasPrefix(prev, "ratelist ") || strings.HasPrefix(lines[i-2], "    ratelist "):
				got, want := stamp.ReplaceAllString(last, "T"), stamp.ReplaceAllString(block, "T")
				if got != want {
					t.Errorf("after %s:\ngot:\n%s\nthe doc shows:\n%s", prev, got, want)
				}
			}
			i = j
		}
	}
	if commands < 8 {
		t.Errorf("%d commands run", commands)
	}
	log, _ := os.ReadFile("archive/corrections.log")
	if ls := strings.Split(string(log), "\n"); len(ls) < 2 || !strings.Contains(doc, stamp.ReplaceAllString(ls[1], "2026-12-02T09:14:09Z")) {
		t.Errorf("the log's second line is not the one the doc shows:\n%s", log)
	}
}

// splitArgs splits a command line as a shell would for the doc's commands:
// spaces, and double quotes around an argument or a part of one.
func splitArgs(t *testing.T, s string) []string {
	var args []string
	var cur strings.Builder
	quoted, have := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, have = !quoted, true
		case r == ' ' && !quoted:
			if have {
				args = append(args, cur.String())
			}
			cur.Reset()
			have = false
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if quoted {
		t.Fatalf("unclosed quote in %s", s)
	}
	if have {
		args = append(args, cur.String())
	}
	return args
}
