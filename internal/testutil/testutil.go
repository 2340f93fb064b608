// Package testutil holds the helpers that tests of several packages use to
// build their inputs. It is for tests only.
package testutil

import (
	"bytes"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// ParquetBytes is rows written as a Parquet file of T's schema.
func ParquetBytes[T any](tb testing.TB, rows []T, opts ...parquet.WriterOption) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf, opts...)
	if _, err := w.Write(rows); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// AppendFile appends s to the file at path, which must exist.
func AppendFile(tb testing.TB, path, s string) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// WriteFiles writes each file of files (a slash path relative to dir, its
// content) into dir, creating the folders it needs.
func WriteFiles(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// ReadCSV is every record of the CSV file at path, its header first.
func ReadCSV(tb testing.TB, path string) [][]string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return recs
}

// Snapshot is every file under dir, by path, with its bytes: taken before
// and after an operation, it shows whether the operation changed anything.
func Snapshot(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// Fixture is a temporary folder made once per test binary and only read after,
// for the tests that share an expensive input; TestMain calls Remove.
type Fixture struct {
	once sync.Once
	dir  string
	err  error
}

// Dir returns the folder, made on the first call by build in a new temporary
// folder named after prefix; a failure fails every test that asks for it.
func (f *Fixture) Dir(tb testing.TB, prefix string, build func(dir string) error) string {
	tb.Helper()
	f.once.Do(func() {
		if f.dir, f.err = os.MkdirTemp("", prefix); f.err == nil {
			f.err = build(f.dir)
		}
	})
	if f.err != nil {
		tb.Fatalf("%s: %v", prefix, f.err)
	}
	return f.dir
}

// Remove deletes the folder, if it was made.
func (f *Fixture) Remove() {
	if f.dir != "" {
		os.RemoveAll(f.dir)
	}
}

// NodeModules returns node's path and the node_modules folder the
// environment variable env names, for a test that runs npm packages through
// node; without either the test is skipped, with what to install in hint.
func NodeModules(tb testing.TB, env, hint string) (node, modules string) {
	tb.Helper()
	modules = os.Getenv(env)
	if modules == "" {
		tb.Skipf("%s not set: it names a node_modules folder with %s", env, hint)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Skip("node not found")
	}
	return node, modules
}

// CPUTime is the user and system time the process has used so far: on a busy
// machine a benchmark's CPU per operation holds better than its wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
