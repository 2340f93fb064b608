package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// TestBuildVersion: a tagged or pseudo-version wins, then the commit (dirty
// when the tree had changes), then "devel".
func TestBuildVersion(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "726634d0123456789abcdef"}}
	dirty := append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	tests := []struct {
		name string
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{"no build info", nil, false, "devel"},
		{"tag", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: rev}, true, "v1.4.0"},
		{"commit", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, true, "726634d01234"},
		{"dirty commit", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: dirty}, true, "726634d01234-dirty"},
		{"nothing", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
	}
	for _, tt := range tests {
		if got := buildVersion(tt.info, tt.ok); got != tt.want {
			t.Errorf("%s: buildVersion = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestVersion: --version prints the version and exits 0, and summary.json
// records the same version.
func TestVersion(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v9.8.7"
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--version"}, &stdout, &stderr); code != exitOK || stdout.String() != "ratelist v9.8.7\n" {
		t.Errorf("--version: exit %d, stdout %q, want 0 and %q", code, stdout.String(), "ratelist v9.8.7\n")
	}
	out := t.TempDir()
	if code := run(context.Background(), []string{"run", "--out", out, "--quiet"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct{ Version string }
	if err := json.Unmarshal(data, &sum); err != nil || sum.Version != "v9.8.7" {
		t.Errorf("summary.json version %q (%v), want v9.8.7", sum.Version, err)
	}
}
