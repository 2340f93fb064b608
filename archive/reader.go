package archive

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Reader streams one table in batches, like bufio.Scanner:
//
//	for r.Next() { b := r.Batch() … }
//	if err := r.Err(); …
type Reader struct {
	fsys  fs.FS
	files []string
	cols  []Column
	b     *Batch

	valueByValue bool // Parquet: never read values straight from page data

	fi      int // next file
	cur     source
	file    string // the open file
	nextRow int64  // data-row number of the next row in file
	err     error
}

type source interface {
	fill(b *Batch) (int, error) // io.EOF at the end
	close() error
}

// Files finds a table: NAME.parquet, NAME.csv or a folder NAME/ of Parquet
// parts (name order). It returns nil when the table is absent.
func Files(fsys fs.FS, name string) ([]string, error) {
	var found []string
	for _, f := range []string{name + ".parquet", name + ".csv"} {
		if st, err := fs.Stat(fsys, f); err == nil && !st.IsDir() {
			found = append(found, f)
		}
	}
	if st, err := fs.Stat(fsys, name); err == nil && st.IsDir() {
		ents, err := fs.ReadDir(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read %s/: %w", name, err)
		}
		var parts []string
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".parquet") {
				parts = append(parts, path.Join(name, e.Name()))
			}
		}
		sort.Strings(parts)
		if len(parts) == 0 {
			return nil, fmt.Errorf("%s/: %w: folder holds no .parquet parts", name, ErrUnreadable)
		}
		found = append(found, path.Join(name)+"/")
		if len(found) > 1 {
			return nil, fmt.Errorf("table %s: found both %s: keep one", name, strings.Join(found, " and "))
		}
		return parts, nil
	}
	if len(found) > 1 {
		return nil, fmt.Errorf("table %s: found both %s: keep one", name, strings.Join(found, " and "))
	}
	return found, nil
}

// NewReader reads the given files of one table (as Files finds them), in
// order, decoding the columns cols. A required column missing from a file is
// an error (ErrMissingColumn); an optional one reads as null.
func NewReader(fsys fs.FS, files []string, cols []Column) *Reader {
	return &Reader{fsys: fsys, files: files, cols: cols, b: newBatch(cols)}
}

// Next reads the next Batch; false at the end or on error.
func (r *Reader) Next() bool {
	for r.err == nil {
		if r.cur == nil {
			if r.fi == len(r.files) {
				return false
			}
			name := r.files[r.fi]
			r.fi++
			if r.cur, r.err = openSource(r.fsys, name, r.cols, r.valueByValue); r.err != nil {
				return false
			}
			r.file, r.nextRow = name, 1
		}
		n, err := r.cur.fill(r.b)
		r.b.File, r.b.First, r.b.N = r.file, r.nextRow, n
		r.nextRow += int64(n)
		switch {
		case err == io.EOF:
			if cerr := r.cur.close(); cerr != nil {
				r.err = fmt.Errorf("close %s: %w", r.b.File, cerr)
			}
			r.cur = nil
			if n > 0 {
				return r.err == nil
			}
		case err != nil:
			r.err = fmt.Errorf("read %s: %w: %w", r.b.File, ErrUnreadable, err)
			return false
		default:
			return true
		}
	}
	return false
}

// Batch is the batch Next read.
func (r *Reader) Batch() *Batch { return r.b }

// Prefetch reads batches ahead in a goroutine, so that decoding overlaps the
// caller's work. It returns the channel of filled batches (closed at the end;
// then check r.Err()) and the channel to hand each Batch back on once used.
// Batches come in order.
func (r *Reader) Prefetch(ctx context.Context, depth int) (full <-chan *Batch, free chan<- *Batch) {
	fullc := make(chan *Batch, depth)
	freec := make(chan *Batch, depth+1)
	freec <- r.b
	for i := 0; i < depth; i++ {
		freec <- newBatch(r.cols)
	}
	go func() {
		defer close(fullc)
		for {
			var b *Batch
			select {
			case b = <-freec:
			case <-ctx.Done():
				return
			}
			r.b = b
			if !r.Next() {
				return
			}
			select {
			case fullc <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return fullc, freec
}

// Err is the error that stopped Next, if any.
func (r *Reader) Err() error { return r.err }

// Close releases the open file, if any.
func (r *Reader) Close() {
	if r.cur != nil {
		r.cur.close()
		r.cur = nil
	}
}

func openSource(fsys fs.FS, name string, cols []Column, valueByValue bool) (source, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", name, err)
	}
	if strings.HasSuffix(name, ".csv") {
		s, err := newCSVSource(f, cols)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return s, nil
	}
	s, err := newParquetSource(f, cols, valueByValue)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}
