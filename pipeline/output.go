package pipeline

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/snappy"
)

// rejectSink receives rejected rows. It writes them to rejects.csv as they come
// (in the deterministic order of the single reading goroutine) and keeps the
// first examples of each reason for people.
type rejectSink struct {
	w       *csv.Writer
	n       int64
	byKind  map[string]int64
	samples map[string][]string
}

func newRejectSink(w io.Writer) *rejectSink {
	s := &rejectSink{byKind: map[string]int64{}, samples: map[string][]string{}}
	if w != nil {
		s.w = csv.NewWriter(w)
		s.w.Write([]string{"file", "row", "reason", "values"})
	}
	return s
}

func (s *rejectSink) add(file string, row int64, reason, values string) {
	s.n++
	kind := reasonKind(reason)
	s.byKind[kind]++
	if len(s.samples[kind]) < 3 {
		s.samples[kind] = append(s.samples[kind], fmt.Sprintf("%s:%d: %s", file, row, reason))
	}
	if s.w != nil {
		s.w.Write([]string{file, strconv.FormatInt(row, 10), reason, values})
	}
}

// reasonKind groups reasons: the text before the first digit or quote.
func reasonKind(reason string) string {
	for i, c := range reason {
		if c == '"' || (c >= '0' && c <= '9') || c == '(' {
			return trimRight(reason[:i])
		}
	}
	return reason
}

func trimRight(s string) string {
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == ':') {
		s = s[:len(s)-1]
	}
	return s
}

// Kinds returns the reject kinds with counts and examples, most frequent first.
func (s *rejectSink) Kinds() []RejectKind {
	var ks []RejectKind
	for k, n := range s.byKind {
		ks = append(ks, RejectKind{Kind: k, Count: n, Examples: s.samples[k]})
	}
	sort.Slice(ks, func(i, j int) bool {
		if ks[i].Count != ks[j].Count {
			return ks[i].Count > ks[j].Count
		}
		return ks[i].Kind < ks[j].Kind
	})
	return ks
}

func (s *rejectSink) flush() error {
	if s.w == nil {
		return nil
	}
	s.w.Flush()
	return s.w.Error()
}

// RejectKind is one kind of problem found in an archive.
type RejectKind struct {
	Kind     string   `json:"kind"`
	Count    int64    `json:"count"`
	Examples []string `json:"examples"`
}

// staging collects a run's outputs in a temporary folder inside --out and moves
// them into place only when the whole run succeeded (commit); abort removes them.
type staging struct {
	out  string
	tmp  string
	dirs sync.Map // folders already created in tmp
}

func newStaging(out string) (*staging, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	// Staging folders left by a killed run are stale: the caller holds the lock.
	if stale, _ := filepath.Glob(filepath.Join(out, ".ratelist-tmp-*")); len(stale) > 0 {
		for _, d := range stale {
			os.RemoveAll(d)
		}
	}
	tmp, err := os.MkdirTemp(out, ".ratelist-tmp-")
	if err != nil {
		return nil, fmt.Errorf("create staging folder: %w", err)
	}
	return &staging{out: out, tmp: tmp}, nil
}

// path returns where to write rel (slash-separated) during the run, creating its folder.
func (s *staging) path(rel string) (string, error) {
	p := filepath.Join(s.tmp, filepath.FromSlash(rel))
	dir := filepath.Dir(p)
	if _, ok := s.dirs.Load(dir); !ok {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("create %s: %w", dir, err)
		}
		s.dirs.Store(dir, true)
	}
	return p, nil
}

// commit renames every staged file into --out (each rename is atomic), the
// summary and then the state last, then removes the staging folder.
func (s *staging) commit() error {
	tops, err := os.ReadDir(s.tmp)
	if err != nil {
		return fmt.Errorf("list staged outputs: %w", err)
	}
	// Outputs first, then summary.json, then the state: a state file on disk
	// means everything it follows is in place (a crash between renames leaves an
	// older state, and the next --resume redoes what follows it).
	rank := func(name string) int {
		switch name {
		case "state":
			return 2
		case "summary.json":
			return 1
		}
		return 0
	}
	slices.SortFunc(tops, func(a, b os.DirEntry) int {
		return cmp.Or(cmp.Compare(rank(a.Name()), rank(b.Name())), strings.Compare(a.Name(), b.Name()))
	})
	move := func(src, dst string) error {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Dir(dst), err)
		}
		if err := os.Rename(src, dst); err != nil {
			return fmt.Errorf("move %s into place: %w", dst, err)
		}
		return nil
	}
	for _, top := range tops {
		src, dst := filepath.Join(s.tmp, top.Name()), filepath.Join(s.out, top.Name())
		if _, err := os.Lstat(dst); !top.IsDir() || os.IsNotExist(err) {
			// A file, or a folder whose destination does not exist yet (a first
			// run, with one standings file per tournament): one rename, without
			// listing the folder.
			if err := move(src, dst); err != nil {
				return err
			}
			continue
		}
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(s.tmp, p)
			return move(p, filepath.Join(s.out, rel))
		})
		if err != nil {
			return err
		}
	}
	return os.RemoveAll(s.tmp)
}

func (s *staging) abort() { os.RemoveAll(s.tmp) }

// abort closes the file unless finish did.
func (o *outFile) abort() {
	if !o.closed {
		o.closed = true
		o.f.Close()
	}
}

// outFile is a staged file open for writing with a buffer: finish flushes and
// closes it; abort, deferred right after create, closes it when a failure came
// first (the staging folder then goes with everything in it).
type outFile struct {
	f *os.File
	*bufio.Writer
	closed bool
}

func (s *staging) create(rel string) (*outFile, error) {
	p, err := s.path(rel)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", rel, err)
	}
	return &outFile{f: f, Writer: bufio.NewWriterSize(f, 1<<16)}, nil
}

// writeFile writes a small staged file in one write, without a buffer.
func (s *staging) writeFile(rel string, data []byte) error {
	p, err := s.path(rel)
	if err != nil {
		return err
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

func (o *outFile) finish() error {
	if err := o.Flush(); err != nil {
		o.abort()
		return fmt.Errorf("write %s: %w", o.f.Name(), err)
	}
	o.closed = true
	if err := o.f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", o.f.Name(), err)
	}
	return nil
}

// outputOptions are the writer options of every Parquet output: Snappy; no
// statistics in data page headers (readers use the page index and the column
// chunk statistics, which stay); and no page bounds for the text columns
// below, which nobody filters by range and which cost 0.36 s of 11 s CPU at
// 10M games (0.12 s without).
var outputOptions = []parquet.WriterOption{
	parquet.Compression(outputCodec), parquet.DataPageStatistics(false),
	parquet.SkipPageBounds("name"), parquet.SkipPageBounds("category"), parquet.SkipPageBounds("flags"),
	parquet.SkipPageBounds("reason"), parquet.SkipPageBounds("level_name"),
}

// outputCodec compresses the Parquet outputs: Snappy, the codec most Parquet
// tools write by default. In the second session, at 10M games, zstd at its
// fastest level cost 2.0 s of 14 s CPU against 0.85 s for Snappy, for files
// about a third smaller.
var outputCodec = &snappyCodec{}

// snappyCodec is parquet-go's Snappy codec with s2's fast Snappy encoder
// instead of its "better" one (which parquet-go's codec calls): at 10M games
// about 0.3 s less CPU, for files 7% larger. Any Snappy reader reads both. The
// compressed bytes depend on the build: s2's assembly (amd64) and its pure Go
// code (other architectures) pick different hash tables, so byte-identical
// outputs hold on one architecture (the rows are the same everywhere).
type snappyCodec struct{ snappy.Codec }

func (*snappyCodec) Encode(dst, src []byte) ([]byte, error) {
	return s2.EncodeSnappy(dst, src), nil
}
