package report

import (
	"bytes"
	"context"
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
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// TestBrowser opens index.html, a player page and a list changes page from file:// in headless
// Chromium: the screenshots must not be blank, and the list script must have
// run (the controls shown, the rows counted).
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	site := buildDemo(t, 0)
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
	for _, tc := range []struct {
		name, file string
		args       []string
	}{
		{"index", filepath.Join(site, "index.html"), nil},
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
			runChromium(t, bin, append([]string{"--screenshot=" + shot}, append(args, "file://"+tc.file)...)...)
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
		dom := string(runChromium(t, bin, "--dump-dom", "--window-size=1280,900", "file://"+filepath.Join(site, "index.html")))
		if !regexp.MustCompile(`id="count"[^>]*>\d+ players<`).MatchString(dom) {
			t.Errorf("list script did not run: no player count in the DOM")
		}
		if strings.Contains(dom, `id="controls" hidden`) {
			t.Errorf("list script did not run: controls still hidden")
		}
		if n := strings.Count(dom, `href="players/`); n < 100 {
			t.Errorf("list has %d player links, want at least a page of 100", n)
		}
	})
	// site.js draws the player's chart from the card, one dot per rated
	// tournament, and a games table per tournament from its data file.
	t.Run("player script", func(t *testing.T) {
		page, _ := os.ReadFile(player)
		rows := cardRows(string(page))
		points, tours := 0, 0
		for _, r := range rows {
			if r[0] != "" && r[11] != "" {
				points++
			}
			if !strings.HasPrefix(r[1], "Period ") {
				tours++
			}
		}
		dom := string(runChromium(t, bin, "--dump-dom", "--window-size=1280,900", "file://"+player))
		svgs := svgBlocks(dom)
		if len(svgs) == 0 || !strings.Contains(svgs[0], `role="img"`) || !strings.Contains(svgs[0], "<title>") {
			t.Fatalf("player page: no rating chart with a role and a title drawn")
		}
		if got := strings.Count(svgs[0], "<circle"); got != points || points == 0 {
			t.Errorf("chart has %d points, want %d", got, points)
		}
		if got := strings.Count(dom, `<details open="" class="games"><summary>`); got != tours || tours == 0 {
			t.Errorf("%d games blocks, want one per tournament with pairings: %d", got, tours)
		}
		if got := strings.Count(dom, `<th scope="col">Opponent</th>`); got != tours {
			t.Errorf("%d games tables filled, want %d", got, tours)
		}
		if got := strings.Count(dom, `<a href="../tournaments/`); got != tours {
			t.Errorf("card drawn with %d tournament links, want %d", got, tours)
		}
	})
	t.Run("crosstable", func(t *testing.T) {
		id := regexp.MustCompile(`\[\d+,(\d+),"`).FindStringSubmatch(readString(t, player))
		if id == nil {
			t.Fatal("player page names no tournament")
		}
		dom := string(runChromium(t, bin, "--dump-dom", "--window-size=1280,900", "file://"+filepath.Join(site, "tournaments", id[1]+".html")))
		if !strings.Contains(dom, `<table class="list cross auto">`) {
			t.Errorf("tournament %s: crosstable not drawn", id[1])
		}
		if !strings.Contains(dom, `<table class="list auto st">`) {
			t.Errorf("tournament %s: standings not drawn", id[1])
		}
		if n := strings.Count(dom, `<th scope="row">`); n < 8 {
			t.Errorf("tournament %s: %d player rows in standings and crosstable", id[1], n)
		}
	})
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
