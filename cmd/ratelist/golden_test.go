package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"

	"github.com/ratelist/ratelist/internal/golden"
	"github.com/ratelist/ratelist/internal/testutil"
)

// readOut returns every file of a run's --out folder by slash path, without
// the lock file and a killed run's staging folders (the next run removes them).
func readOut(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := golden.ReadTree(t, dir)
	for f := range files {
		if f == ".ratelist.lock" || f == ".ratelist-out" || strings.HasPrefix(f, ".ratelist-tmp-") {
			delete(files, f)
		}
	}
	return files
}

var demoFixture testutil.Fixture

// demoOut is the --out of `ratelist run` on the embedded demo archive, run
// once per test binary: the tests given it only read it.
func demoOut(t *testing.T) string {
	t.Helper()
	return demoFixture.Dir(t, "ratelist-demo-out-", func(dir string) error {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"run", "--out", dir, "--quiet"}, &stdout, &stderr); code != exitOK {
			return fmt.Errorf("demo run: exit %d, stderr:\n%s", code, stderr.String())
		}
		return nil
	})
}

// TestGoldenDemo compares every output of the demo run with
// testdata/golden/demo (go test -update rewrites it), each as goldenText gives it.
func TestGoldenDemo(t *testing.T) {
	files := map[string][]byte{}
	for name, data := range readOut(t, demoOut(t)) {
		name, text, err := goldenText(name, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		files[name] = text
	}
	golden.CheckFiles(t, "demo", files)
}

// goldenText returns an output file's golden name and text: a text file as it
// is, a Parquet file as its schema and rows, a state file as its version line
// and a hex dump of its uncompressed data (both named NAME.txt). Compressed
// bytes are left out, as another encoder (or -tags noasm) writes other bytes
// for the same data.
func goldenText(name string, data []byte) (string, []byte, error) {
	switch filepath.Ext(name) {
	case ".parquet":
		text, err := golden.ParquetText(data)
		return name + ".txt", text, err
	case ".state":
		header, body, _ := bytes.Cut(data, []byte("\n"))
		f := strings.Fields(string(header)) // ratelist-state vN SHA256HEX
		if len(f) != 3 || f[0] != "ratelist-state" {
			return name, nil, fmt.Errorf("state header %q", header)
		}
		if sum := sha256.Sum256(body); hex.EncodeToString(sum[:]) != f[2] {
			return name, nil, fmt.Errorf("state checksum %s does not match its data", f[2])
		}
		raw, err := s2.Decode(nil, body)
		if err != nil {
			return name, nil, err
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "%s %s\n%d bytes\n", f[0], f[1], len(raw))
		for len(raw) > 0 {
			n := min(32, len(raw))
			fmt.Fprintf(&b, "%x\n", raw[:n])
			raw = raw[n:]
		}
		return name + ".txt", b.Bytes(), nil
	}
	return name, data, nil
}

// TestGoldenCommands compares what a few commands print (exit code, stdout,
// stderr) with testdata/golden/commands/NAME.txt.
func TestGoldenCommands(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"no-verb", nil},
		{"help", []string{"--help"}},
		{"unknown-verb", []string{"frobnicate"}},
		{"run-without-out", []string{"run"}},
		{"validate-help", []string{"validate", "-h"}},
		{"validate-bad-archive", []string{"validate", "--archive", "testdata/badarchive"}},
		// A row of every reject kind the run can meet: the kinds' names are pinned here.
		{"validate-reject-kinds", []string{"validate", "--archive", "testdata/rejectkinds"}},
		{"standings-text", []string{"standings", "--trf", "testdata/rr.trf", "--tiebreaks", "BH,BH/C1,SB,LJV", "--format", "text"}},
		{"standings-bad-code", []string{"standings", "--trf", "testdata/rr.trf", "--tiebreaks", "BH/Q"}},
		{"norms-text", []string{"norms", "--trf", "../../testdata/norms/rr10.trf", "--list", "../../importer/testdata/fidelist/players_list_foa.txt", "--format", "text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), tt.args, &stdout, &stderr)
			got := fmt.Sprintf("$ %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s",
				strings.Join(append([]string{"ratelist"}, tt.args...), " "), code, stdout.String(), stderr.String())
			golden.Check(t, "commands/"+tt.name+".txt", []byte(got))
		})
	}
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
		// An archive running into the future would be rejected by every run of it.
		{"generate into the future", []string{"generate", "--archive", t.TempDir(), "--months", "60", "--start", "2026-01"}, exitUsage},
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
