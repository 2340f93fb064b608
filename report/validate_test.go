package report

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// htmlValidate returns the html-validate program (npm html-validate) named by
// RATELIST_HTML_VALIDATE or found on PATH; without it the test is skipped.
func htmlValidate(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("RATELIST_HTML_VALIDATE"); p != "" {
		return p
	}
	if p, err := exec.LookPath("html-validate"); err == nil {
		return p
	}
	t.Skip("html-validate not installed (npm install html-validate; RATELIST_HTML_VALIDATE names it): validation skipped")
	return ""
}

// TestValidHTML validates a page of each kind of the demo site with
// html-validate. The big tables leave out the end tags of their cells and
// rows, which HTML allows and html-validate does not follow, so each page is
// first parsed as a browser does (x/net/html) and written back with them;
// the rules on how void elements and boolean attributes are written are off,
// as they judge that writing, not the page.
func TestValidHTML(t *testing.T) {
	bin := htmlValidate(t)
	site := demoSite(t)
	player := filepath.Join("players", demoLatest(t).idString()+".html")
	tours, _ := filepath.Glob(filepath.Join(site, "tournaments", "*.html"))
	changes, _ := filepath.Glob(filepath.Join(site, "changes-*.html"))
	jokers, _ := filepath.Glob(filepath.Join(site, "joker-*.html"))
	if len(tours) == 0 || len(changes) == 0 || len(jokers) == 0 {
		t.Fatal("demo site lacks a kind of page")
	}
	files := []string{"index.html", "lists.html", "tournaments.html", "help.html", player}
	for _, f := range []string{tours[0], tours[len(tours)-1], changes[0], jokers[0]} {
		files = append(files, strings.TrimPrefix(f, site+string(filepath.Separator)))
	}
	validatePages(t, bin, site, files)
}

// validatePages validates the pages files of site with html-validate (bin).
func validatePages(t *testing.T, bin, site string, files []string) {
	t.Helper()
	dir := t.TempDir()
	var args []string
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(site, f))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var out bytes.Buffer
		out.WriteString("<!DOCTYPE html>\n")
		for c := doc.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.DoctypeNode {
				continue
			}
			if err := html.Render(&out, c); err != nil {
				t.Fatal(err)
			}
		}
		name := filepath.Join(dir, strings.ReplaceAll(f, string(filepath.Separator), "_"))
		if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, name)
	}
	config := filepath.Join(dir, "htmlvalidate.json")
	if err := os.WriteFile(config, []byte(`{"extends":["html-validate:recommended"],"rules":{"void-style":"off","attribute-boolean-style":"off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"--config", config}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("html-validate: %v\n%s", err, out)
	}
}
