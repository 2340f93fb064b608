package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	stdhtml "html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromium returns the path of headless Chromium (Debian package chromium).
// Without it the test is skipped, or fails when RATELIST_BROWSER=1 (CI
// installs Chromium and sets it, so that the test cannot silently not run).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("RATELIST_BROWSER") == "1" {
		t.Fatal("RATELIST_BROWSER=1 but headless Chromium is not installed (apt-get install -y chromium)")
	}
	t.Skip("headless Chromium not installed: browser test skipped (RATELIST_BROWSER=1 makes it required)")
	return ""
}

// runChromium runs headless Chromium with the flags this machine needs (no
// network at all) and returns its stdout.
func runChromium(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}
	// A browser killed by a signal (a crash on a loaded machine) is run once
	// more; an exit with a status, or a second crash, fails the test.
	for try := 1; ; try++ {
		cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if err == nil {
			return stdout.Bytes()
		}
		if try == 1 && ctx.Err() == nil && cmd.ProcessState != nil && !cmd.ProcessState.Exited() {
			t.Logf("chromium %s: %v: run again", strings.Join(args, " "), err)
			continue
		}
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
}

// TestBrowser opens index.html, a player page and a list changes page from file:// in headless
// Chromium: the screenshots must not be blank, and the list script must have
// run (the controls shown, the rows counted).
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	site := demoSite(t)
	latest := demoLatest(t)
	player := filepath.Join(site, "players", latest.idString()+".html")
	changes, _ := filepath.Glob(filepath.Join(site, "changes-*.html"))
	if len(changes) == 0 {
		t.Fatal("no list changes page")
	}
	// The top lists and the rating report are read on phones; they hold no
	// script (TestTopLists, TestRatingReport), so JavaScript off reads them
	// the same.
	phone := []string{"--window-size=375,812"}
	// The index's screenshot run dumps its DOM too, for the script check below.
	var indexDOM string
	for _, tc := range []struct {
		name, file string
		args       []string
	}{
		{"index", filepath.Join(site, "index.html"), []string{"--dump-dom", "--window-size=1280,900"}},
		{"player", player, nil},
		{"changes", changes[len(changes)-1], nil},
		{"top list on a phone", filepath.Join(site, topFile("u12")), phone},
		{"club on a phone", filepath.Join(site, groupFile("club", "Belovo")), phone},
		{"rating report on a phone", filepath.Join(site, ratingPage(1043)), phone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shot := filepath.Join(t.TempDir(), "out.png")
			args := tc.args
			if args == nil {
				args = []string{"--window-size=1280,900"}
			}
			out := runChromium(t, bin, append([]string{"--screenshot=" + shot}, append(args, "file://"+tc.file)...)...)
			if tc.name == "index" {
				indexDOM = string(out)
			}
			f, err := os.Open(shot)
			if err != nil {
				t.Fatalf("no screenshot: %v", err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatalf("screenshot: %v", err)
			}
			b := img.Bounds()
			colours := map[uint32]bool{}
			nonWhite := 0
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					r, g, bl, _ := img.At(x, y).RGBA()
					colours[(r>>8)<<16|(g>>8)<<8|bl>>8] = true
					if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
						nonWhite++
					}
				}
			}
			share := float64(nonWhite) / float64(b.Dx()*b.Dy())
			t.Logf("%s: %dx%d, %d colours, %.1f%% not white", tc.name, b.Dx(), b.Dy(), len(colours), 100*share)
			if len(colours) < 50 || share < 0.05 {
				t.Errorf("%s screenshot looks blank: %d colours, %.1f%% not white", tc.name, len(colours), 100*share)
			}
		})
	}
	t.Run("script", func(t *testing.T) {
		dom := indexDOM
		if dom == "" {
			t.Fatal("no DOM of index.html: its screenshot run failed")
		}
		if !regexp.MustCompile(`id="count"[^>]*>\d+ players<`).MatchString(dom) {
			t.Errorf("list script did not run: no player count in the DOM")
		}
		if strings.Contains(dom, `id="controls" hidden`) {
			t.Errorf("list script did not run: controls still hidden")
		}
		// The page holds every row; the script shows a page of them.
		if n := strings.Count(dom, `<th scope="row"><a href="players/`); n != PageSize {
			t.Errorf("list shows %d rows with the script, want a page of %d", n, PageSize)
		}
	})
}

// TestLayout opens a list, a player's page and the biggest tournament's
// page at phone width (375 px) and desktop width (1280 px), with the site's
// scripts and without them: the page must not scroll sideways, and the
// columns a reader needs must be on screen. Headless Chromium's window is at
// least 500 px wide, so a page is measured in a frame of the width, and a
// script added to it reports to the frame's page; one Chromium measures all
// twelve frames side by side.
func TestLayout(t *testing.T) {
	bin := chromium(t)
	site := demoSite(t)
	player := filepath.Join(site, "players", demoLatest(t).idString()+".html")
	tours, _ := filepath.Glob(filepath.Join(site, "tournaments", "*.html"))
	biggest, size := "", 0
	for _, f := range tours {
		if strings.HasSuffix(f, "-rating.html") { // a rating report has no standings
			continue
		}
		if st, err := os.Stat(f); err == nil && int(st.Size()) > size {
			biggest, size = f, int(st.Size())
		}
	}
	needed := map[string][]string{
		"list": {"Rank", "Name", "Rating", "Change"},
		"st":   {"Rank", "Name", "Rating", "Pts", "Change"},
		"card": {"Tournament", "Score", "Change", "After"},
	}
	type view struct {
		name, table string
		frame
	}
	var views []view
	for _, page := range []struct{ name, file, table string }{
		{"list", filepath.Join(site, "index.html"), "list"},
		{"player", player, "card"},
		{"tournament", biggest, "st"},
	} {
		for _, width := range []int{375, 1280} {
			for _, js := range []bool{true, false} {
				views = append(views, view{fmt.Sprintf("%s/%d/js=%v", page.name, width, js), page.table, frame{page.file, width, js}})
			}
		}
	}
	frames := make([]frame, len(views))
	for i, v := range views {
		frames[i] = v.frame
	}
	layouts := measureAll(t, bin, site, frames)
	for i, v := range views {
		t.Run(v.name, func(t *testing.T) {
			m, ok := layouts[i]
			if !ok {
				t.Fatalf("%s: the measuring script reported nothing", filepath.Base(v.file))
			}
			if m.ScrollWidth > m.Width {
				t.Errorf("page is %d px wide in a %d px window: it scrolls sideways (%s)", m.ScrollWidth, m.Width, strings.Join(m.Wide, ", "))
			}
			shown := map[string]bool{}
			for _, c := range m.Cols {
				if c.Table == v.table && c.Shown {
					shown[c.Head] = true
				}
			}
			for _, h := range needed[v.table] {
				if !shown[h] {
					t.Errorf("column %q of table %s is not on screen (shown: %v)", h, v.table, shown)
				}
			}
		})
	}
}

// layout is what the measuring script reports of a page.
type layout struct {
	Frame              int // the frame's index, as measureAll got it
	Width, ScrollWidth int
	Wide               []string // elements past the window's right edge
	Cols               []struct {
		Table, Head string
		Shown       bool
	}
}

// measureJS reports the page's width, its scrolled width and whether each
// table heading is on screen: not hidden, inside its table's frame and the
// window, into the frames' page (read from file://, the same origin with
// --allow-file-access-from-files), as it is parsed: before the page's load
// event, which waits for every frame's. %d is the frame's index.
const measureJS = `<script>(function () {
  var r = { Frame: %d, Width: innerWidth, ScrollWidth: document.documentElement.scrollWidth, Cols: [], Wide: [] };
  document.querySelectorAll("body *").forEach(function (e) {
    var b = e.getBoundingClientRect();
    if (b.right > innerWidth + 1 && !e.closest(".scroll") && r.Wide.length < 5) r.Wide.push(e.tagName + "." + e.className + " " + Math.round(b.right) + " px");
  });
  document.querySelectorAll("table thead th").forEach(function (th) {
    var b = th.getBoundingClientRect(), frame = (th.closest(".scroll") || document.body).getBoundingClientRect();
    r.Cols.push({ Table: th.closest("table").id, Head: th.textContent,
      Shown: b.width > 0 && b.left >= Math.max(frame.left, 0) - 1 && b.right <= Math.min(frame.right, innerWidth) + 1 });
  });
  var p = parent.document.createElement("pre");
  p.className = "measure";
  p.textContent = JSON.stringify(r);
  parent.document.body.appendChild(p);
})();</script>`

var scriptRE = regexp.MustCompile(`<script[^>]*></script>\n?`)

// A frame is a page of the site to measure at a width, with the site's
// scripts or without them.
type frame struct {
	file  string
	width int
	js    bool
}

// measure returns the layout of one page file in a frame width px wide.
func measure(t *testing.T, bin, file string, width int, js bool) layout {
	t.Helper()
	l, ok := measureAll(t, bin, filepath.Dir(file), []frame{{file, width, js}})[0]
	if !ok {
		t.Fatalf("%s: the measuring script reported nothing", filepath.Base(file))
	}
	return l
}

// measureAll opens a copy of each frame's page, beside it, in a frame of its
// width, all side by side in one window of one Chromium, and returns their
// layouts by index (a frame that reported nothing is missing). The frames'
// page is written into dir, which holds the pages' files.
func measureAll(t *testing.T, bin, dir string, frames []frame) map[int]layout {
	t.Helper()
	var wrapper strings.Builder
	wrapper.WriteString(`<!DOCTYPE html><html><body style="margin:0;white-space:nowrap">`)
	total := 0
	for i, f := range frames {
		page := readString(t, f.file)
		if !f.js {
			page = scriptRE.ReplaceAllString(page, "")
		}
		page += fmt.Sprintf(measureJS, i) + "\n" // the pages leave out the optional end tags of body and html
		copyFile := filepath.Join(filepath.Dir(f.file), fmt.Sprintf(".layout-%d-%d-%v-%s", i, f.width, f.js, filepath.Base(f.file)))
		if err := os.WriteFile(copyFile, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(copyFile)
		src, err := filepath.Rel(dir, copyFile)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&wrapper, `<iframe src="%s" width="%d" height="800" style="border:0;vertical-align:top"></iframe>`, filepath.ToSlash(src), f.width)
		total += f.width
	}
	wrapper.WriteString(`</body></html>`)
	page := filepath.Join(dir, ".layout-frames.html")
	if err := os.WriteFile(page, []byte(wrapper.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(page)
	// Every frame in the window: none is an offscreen one the browser may put off.
	// The DOM is dumped at the load event, when every frame has reported.
	dom := string(runChromium(t, bin, "--dump-dom", "--allow-file-access-from-files", fmt.Sprintf("--window-size=%d,900", max(total+20, 500)), "file://"+page))
	layouts := map[int]layout{}
	for _, m := range regexp.MustCompile(`(?s)<pre class="measure">(.*?)</pre>`).FindAllStringSubmatch(dom, -1) {
		var l layout
		if err := json.Unmarshal([]byte(stdhtml.UnescapeString(m[1])), &l); err != nil {
			t.Fatal(err)
		}
		if l.Frame < 0 || l.Frame >= len(frames) {
			t.Fatalf("a report from frame %d of %d", l.Frame, len(frames))
		}
		if f := frames[l.Frame]; l.Width != f.width {
			t.Fatalf("%s: measured in a %d px frame, want %d", filepath.Base(f.file), l.Width, f.width)
		}
		layouts[l.Frame] = l
	}
	return layouts
}

func readString(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// demoLatest returns the top player of the demo's latest list.
func demoLatest(t *testing.T) listRow {
	t.Helper()
	lists, _ := filepath.Glob(filepath.Join(demoRun(t), "lists", "*.csv"))
	rows, err := readList(lists[len(lists)-1])
	if err != nil || len(rows) == 0 {
		t.Fatalf("latest list: %v", err)
	}
	return rows[0]
}

func (r listRow) idString() string { return strconv.FormatInt(r.ID, 10) }
