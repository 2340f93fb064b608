// Package golden compares test output with golden files under a test's
// testdata/golden/ folder; `go test -update` rewrites them instead. A test
// that uses it is named TestGolden… (make golden runs those with -update).
// Golden files are text: a test turns a binary output into text first (a
// Parquet file with ParquetText), so that a golden holds whatever bytes an
// encoder chooses for the same data.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Dir is where golden files live, relative to the test's package.
const Dir = "testdata/golden"

// update is the -update flag of every test binary that uses golden files.
var update = flag.Bool("update", false, "rewrite the golden files under "+Dir+" instead of comparing with them")

// Check compares got with the golden file Dir/name; with -update it writes got
// there instead.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join(Dir, filepath.FromSlash(name))
	if *update {
		write(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if d := diff(got, want); d != "" {
		t.Errorf("%s differs from its golden file:\n%s", name, d)
	}
}

// CheckFiles compares files (slash-separated name → content) with the golden
// folder Dir/name: the same file names and each file's content. With -update
// it replaces the folder by files.
func CheckFiles(t testing.TB, name string, files map[string][]byte) {
	t.Helper()
	dir := filepath.Join(Dir, filepath.FromSlash(name))
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		for f, data := range files {
			write(t, filepath.Join(dir, filepath.FromSlash(f)), data)
		}
		return
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	want := ListFiles(t, dir)
	got := make([]string, 0, len(files))
	for f := range files {
		got = append(got, f)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("files differ from golden %s:\ngot  %v\nwant %v", dir, got, want)
	}
	for _, f := range got {
		w, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if d := diff(files[f], w); d != "" {
			t.Errorf("%s differs from golden %s:\n%s", f, dir, d)
		}
	}
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// ListFiles returns every file under dir, slash-separated and sorted.
func ListFiles(t testing.TB, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// ReadTree returns every file under dir by slash-separated name, as
// CheckFiles takes them.
func ReadTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, f := range ListFiles(t, dir) {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = data
	}
	return files
}

// diff describes the first line where got and want differ, or returns "" when
// they are equal.
func diff(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	line := func(s []string) string {
		if i < len(s) {
			return s[i]
		}
		return "(end of file)"
	}
	return fmt.Sprintf("line %d:\n  got  %s\n  want %s\n(%d lines, golden %d)", i+1, line(g), line(w), len(g), len(w))
}
