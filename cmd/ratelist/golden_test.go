package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "update golden files")

// listFiles returns every file under dir, slash-separated and sorted.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() != ".ratelist.lock" {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// TestGoldenDemo runs `ratelist run` on the embedded demo archive and compares
// every output file byte for byte with testdata/golden/demo (-update refreshes).
func TestGoldenDemo(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"run", "--out", out, "--quiet"}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	golden := filepath.Join("testdata", "golden", "demo")
	got := listFiles(t, out)
	if *update {
		os.RemoveAll(golden)
		for _, f := range got {
			data, err := os.ReadFile(filepath.Join(out, f))
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(golden, filepath.FromSlash(f))
			os.MkdirAll(filepath.Dir(dst), 0o755)
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want := listFiles(t, golden)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("output files differ from golden:\ngot  %v\nwant %v", got, want)
	}
	for _, f := range got {
		g, _ := os.ReadFile(filepath.Join(out, f))
		w, _ := os.ReadFile(filepath.Join(golden, filepath.FromSlash(f)))
		if !bytes.Equal(g, w) {
			t.Errorf("%s differs from golden (%d vs %d bytes)%s", f, len(g), len(w), firstDiff(g, w))
		}
	}
}

// firstDiff shows the first differing line of two text files.
func firstDiff(a, b []byte) string {
	if bytes.IndexByte(a, 0) >= 0 {
		return ""
	}
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("\nline %d:\n got  %s\n want %s", i+1, al[i], bl[i])
		}
	}
	return ""
}

// TestExitCodes checks the contract's exit codes on the verbs' usage errors.
func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no verb", nil, exitUsage},
		{"unknown verb", []string{"frobnicate"}, exitUsage},
		{"unknown flag", []string{"run", "--no-such-flag"}, exitUsage},
		{"run without --out", []string{"run"}, exitUsage},
		{"bad period", []string{"run", "--out", t.TempDir(), "--period", "week"}, exitUsage},
		{"bad rules", []string{"run", "--out", t.TempDir(), "--rules", "nosuchfile.toml"}, exitUsage},
		{"missing archive", []string{"run", "--out", t.TempDir(), "--archive", "/nonexistent/archive"}, exitFailed},
		{"validate missing archive", []string{"validate", "--archive", "/nonexistent/archive"}, exitFailed},
		{"validate demo-less", []string{"validate"}, exitUsage},
		{"generate without archive", []string{"generate"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if got := run(context.Background(), tt.args, &stdout, &stderr); got != tt.want {
				t.Errorf("exit %d, want %d; stderr: %s", got, tt.want, stderr.String())
			}
		})
	}
}
