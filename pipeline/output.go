package pipeline

import (
	"bufio"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
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

	"github.com/ratelist/ratelist/archive"
	"github.com/ratelist/ratelist/internal/csvfield"
	"github.com/ratelist/ratelist/internal/pqwrite"
	"github.com/ratelist/ratelist/output"
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

// add records one rejected row under its kind's name. The reason and the
// values are cut to an excerpt (archive.Cut: a cell of any size makes a reject
// of bounded size), and rejects.csv holds them as text cells (csvfield.Text).
func (s *rejectSink) add(r archive.RowError) { s.addRows(r, 1) }

// addRows records one rejects line that stands for rows rows of its kind.
func (s *rejectSink) addRows(r archive.RowError, rows int64) {
	reason, values := archive.Cut(r.Reason, excerptBytes), archive.Cut(r.Values, valuesBytes)
	s.n++
	kind := r.KindName()
	s.byKind[kind] += rows
	if len(s.samples[kind]) < 3 {
		s.samples[kind] = append(s.samples[kind], fmt.Sprintf("%s:%d: %s", r.File, r.Row, reason))
	}
	if s.w != nil {
		s.w.Write([]string{csvfield.Text(r.File), strconv.FormatInt(r.Row, 10), csvfield.Text(reason), csvfield.Text(values)})
	}
}

// At most this much of a reason (a cell in it included) and of a row's
// values do rejects.csv, validate and the logs show.
const (
	excerptBytes = archive.ExcerptBytes
	valuesBytes  = 20 * excerptBytes
)

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

// commit makes --out hold this run's outputs, the files of an earlier run
// that keep says stay (a resumed run's earlier periods), and nothing else:
// what a fresh run with the same options would write. Each rename is atomic,
// and the order makes a crash between two of them harmless:
//   - every state that does not stay (rewritten or dropped) goes first: fewer
//     states only make the next --resume redo more;
//   - then the outputs, and the files no longer wanted go;
//   - then summary.json, and the new states last, so that a state on disk
//     means everything it follows is in place.
//
// Nothing is written through a symlink in --out: a symlink is replaced or
// removed like a file.
func (s *staging) commit(keep func(rel string) bool) error {
	if err := markOut(s.out); err != nil {
		return err
	}
	old, err := listOut(s.out)
	if err != nil {
		return err
	}
	stays := func(e outEntry) bool { return !e.link && keep(e.rel) }
	for _, e := range old {
		if !e.dir && (e.rel == output.State.Top() || strings.HasPrefix(e.rel, output.State.Top()+"/")) && !stays(e) {
			if err := removeOut(s.out, e.rel); err != nil {
				return err
			}
		}
	}
	var staged map[string]bool
	if len(old) > 0 {
		if staged, err = listStaged(s.tmp); err != nil {
			return err
		}
	}
	tops, err := os.ReadDir(s.tmp)
	if err != nil {
		return fmt.Errorf("list staged outputs: %w", err)
	}
	rank := func(name string) int {
		switch name {
		case output.State.Top():
			return 2
		case output.Summary.Top():
			return 1
		}
		return 0
	}
	slices.SortFunc(tops, func(a, b os.DirEntry) int {
		return cmp.Or(cmp.Compare(rank(a.Name()), rank(b.Name())), strings.Compare(a.Name(), b.Name()))
	})
	removed := false
	for _, top := range tops {
		if rank(top.Name()) > 0 && !removed {
			if err := removeStale(s.out, old, staged, stays); err != nil {
				return err
			}
			removed = true
		}
		if err := place(filepath.Join(s.tmp, top.Name()), filepath.Join(s.out, top.Name()), top.IsDir()); err != nil {
			return err
		}
	}
	if !removed {
		if err := removeStale(s.out, old, staged, stays); err != nil {
			return err
		}
	}
	return os.RemoveAll(s.tmp)
}

// outEntry is a file (or symlink, or anything but a folder) in --out.
type outEntry struct {
	rel  string // slash-separated
	link bool
	dir  bool // a folder (listed after what it holds)
}

// listOut lists --out without following symlinks, leaving out ratelist's own
// files (marker, lock, staging folders). Folders come after their contents.
func listOut(out string) ([]outEntry, error) {
	var es []outEntry
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
			return nil
		case rel == outMarker || rel == lockName:
			return nil
		case strings.HasPrefix(rel, ".ratelist-tmp-"):
			return filepath.SkipDir
		}
		es = append(es, outEntry{rel: rel, link: d.Type()&fs.ModeSymlink != 0, dir: d.IsDir()})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list output folder: %w", err)
	}
	// WalkDir gives a folder before its contents; removing wants them after.
	slices.SortStableFunc(es, func(a, b outEntry) int {
		return cmp.Compare(strings.Count(b.rel, "/"), strings.Count(a.rel, "/"))
	})
	return es, nil
}

// listStaged is the set of staged files (slash paths relative to the staging folder).
func listStaged(tmp string) (map[string]bool, error) {
	staged := map[string]bool{}
	err := filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(tmp, p)
			staged[filepath.ToSlash(rel)] = true
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list staged outputs: %w", err)
	}
	return staged, nil
}

// removeStale removes from --out what the run neither wrote nor keeps, and the
// folders that leaves empty.
func removeStale(out string, old []outEntry, staged map[string]bool, stays func(outEntry) bool) error {
	for _, e := range old {
		if e.dir {
			// A folder left empty goes; one with files stays (Remove fails).
			p := filepath.Join(out, filepath.FromSlash(e.rel))
			if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
				os.Remove(p)
			}
			continue
		}
		if staged[e.rel] || stays(e) {
			continue
		}
		if err := removeOut(out, e.rel); err != nil {
			return err
		}
	}
	return nil
}

// removeOut removes a file or symlink of --out; one that is gone, or that a
// folder of the run's outputs has replaced, is fine.
func removeOut(out, rel string) error {
	p := filepath.Join(out, filepath.FromSlash(rel))
	if fi, err := os.Lstat(p); err != nil || fi.IsDir() {
		return nil
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s from the output folder: %w", rel, err)
	}
	return nil
}

// place moves the staged src to dst. A file, or a folder whose place is free,
// moves in one rename; a folder merges into the folder already there.
// Anything else in the way (a symlink, a file where a folder goes, a folder
// where a file goes) is removed first, so nothing is written through a symlink.
func place(src, dst string, dir bool) error {
	fi, err := os.Lstat(dst)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("move %s into place: %w", dst, err)
	case dir && fi.IsDir():
		ents, err := os.ReadDir(src)
		if err != nil {
			return fmt.Errorf("list staged %s: %w", src, err)
		}
		for _, e := range ents {
			if err := place(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()), e.IsDir()); err != nil {
				return err
			}
		}
		return nil
	case dir || fi.IsDir():
		if err := os.RemoveAll(dst); err != nil {
			return fmt.Errorf("replace %s: %w", dst, err)
		}
	}
	// A file over a file or a symlink: the rename replaces it in one step.
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("move %s into place: %w", dst, err)
	}
	return nil
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
// below, which nobody filters by range and which are costly to compare.
var outputOptions = []parquet.WriterOption{
	parquet.Compression(outputCodec), parquet.DataPageStatistics(false),
	parquet.SkipPageBounds("name"), parquet.SkipPageBounds("category"), parquet.SkipPageBounds("flags"),
	parquet.SkipPageBounds("reason"), parquet.SkipPageBounds("level_name"),
	parquet.SkipPageBounds("federation"), parquet.SkipPageBounds("sex"), parquet.SkipPageBounds("title"),
	parquet.SkipPageBounds("tiebreaks", "list", "element", "code"),
}

// newColumnWriter returns the column-wise writer of a Parquet output: its
// schema, with outputOptions and the file's own.
func newColumnWriter(w io.Writer, schema *parquet.Schema, own ...parquet.WriterOption) (*pqwrite.Writer, error) {
	return pqwrite.New(w, schema, append(slices.Clip(outputOptions), own...)...)
}

// writeValues writes vals, one per row, to column c of a Parquet output:
// required when set is nil, else optional, null where set is false. It
// moves the set values to the front of vals (scratch) and makes the
// definition levels in *def.
func writeValues[T cardValue](c *pqwrite.Column, vals []T, set []bool, def *[]byte) error {
	var d []byte
	if set != nil {
		d = resize(*def, len(set))
		n := 0
		for i, ok := range set {
			d[i] = 0
			if ok {
				d[i], vals[n] = 1, vals[i]
				n++
			}
		}
		vals, *def = vals[:n], d
	}
	switch vals := any(vals).(type) {
	case []int32:
		return c.Int32(vals, d, nil)
	case []int64:
		return c.Int64(vals, d, nil)
	case []float64:
		return c.Double(vals, d, nil)
	case []string:
		return c.String(vals, d, nil)
	}
	panic("writeValues: a type cardValue does not have")
}

// outputCodec compresses the Parquet outputs: Snappy, the codec most Parquet
// tools write by default, and cheaper in CPU than zstd for files not much
// larger.
var outputCodec = &snappyCodec{}

// snappyCodec is parquet-go's Snappy codec with s2's fast Snappy encoder
// instead of its "better" one (which parquet-go's codec calls): less CPU for
// slightly larger files. Any Snappy reader reads both. The
// compressed bytes depend on the build: s2's assembly (amd64) and its pure Go
// code (other architectures) pick different hash tables, so byte-identical
// outputs hold on one architecture (the rows are the same everywhere).
type snappyCodec struct{ snappy.Codec }

func (*snappyCodec) Encode(dst, src []byte) ([]byte, error) {
	return s2.EncodeSnappy(dst, src), nil
}
