package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestStLayout: every layout a standings table of the demo site uses, and
// every one the sheet is made for, is in the site's style sheet, so that no
// page needs a style of its own.
func TestStLayout(t *testing.T) {
	site := demoSite(t)
	css, err := os.ReadFile(filepath.Join(site, "assets", "style.css"))
	if err != nil {
		t.Fatal(err)
	}
	has := func(class string) bool { return strings.Contains(string(css), "."+class+" ") }
	for _, x := range stTables() {
		classes, style := stLayouts(x.Cols)
		if style != "" {
			t.Errorf("layout %s has a style of its own: %s", classes, style)
		}
		for _, c := range strings.Fields(classes) {
			if !has(c) {
				t.Errorf("the sheet lacks layout %s", c)
			}
		}
	}
	tours, _ := filepath.Glob(filepath.Join(site, "tournaments", "*.html"))
	re := regexp.MustCompile(`<table class="list st ([^"]*)" id=st>`)
	used := 0
	for _, f := range tours {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "<style>") {
			t.Errorf("%s has a style of its own", f)
		}
		m := re.FindSubmatch(b)
		if m == nil {
			continue
		}
		used++
		for _, c := range strings.Fields(string(m[1])) {
			if !has(c) {
				t.Errorf("%s: the sheet lacks layout %s", f, c)
			}
		}
	}
	if used == 0 {
		t.Fatal("no standings table in the demo site")
	}
}
