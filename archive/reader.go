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
	done    int64  // rows of the files already read to the end
	err     error
}

type source interface {
	fill(b *Batch) (int, error) // io.EOF at the end
	close() error
	sizeHint() int64 // rows in the file: exact, or estimated from what was read so far
	batch() int      // the rows a Batch needs to read it: at most batchRows
}

// Files finds a table: NAME.parquet, NAME.csv or a folder NAME/ of Parquet
// parts (name order). It returns nil when the table is absent, which means no
// entry of any of these names at all: a name that is present but cannot be
// read (a folder where a file belongs, a dangling symlink, no permission) is an
// ErrUnreadable error naming it, never taken for an absent table.
func Files(fsys fs.FS, name string) ([]string, error) {
	present, err := entries(fsys, path.Dir(name))
	if err != nil {
		return nil, err
	}
	var found []string
	for _, f := range []string{name + ".parquet", name + ".csv"} {
		if !present[path.Base(f)] {
			continue
		}
		if err := checkFile(fsys, f); err != nil {
			return nil, err
		}
		found = append(found, f)
	}
	if present[path.Base(name)] {
		parts, err := folderParts(fsys, name)
		if err != nil {
			return nil, err
		}
		if parts != nil {
			found = append(found, name+"/")
			if len(found) > 1 {
				return nil, fmt.Errorf("table %s: found both %s: keep one", name, strings.Join(found, " and "))
			}
			return parts, nil
		}
	}
	if len(found) > 1 {
		return nil, fmt.Errorf("table %s: found both %s: keep one", name, strings.Join(found, " and "))
	}
	return found, nil
}

// entries is the set of names in folder dir of fsys.
func entries(fsys fs.FS, dir string) (map[string]bool, error) {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read archive folder %s: %w: %w", dir, ErrUnreadable, err)
	}
	names := make(map[string]bool, len(ents))
	for _, e := range ents {
		names[e.Name()] = true
	}
	return names, nil
}

// checkFile makes sure table file f, which is present, is a file that opens.
func checkFile(fsys fs.FS, f string) error {
	st, err := fs.Stat(fsys, f)
	if err != nil {
		return fmt.Errorf("%s: %w (a dangling link or a share not mounted?): %w", f, ErrUnreadable, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: %w: it is a %s, not a file", f, ErrUnreadable, kind(st.Mode()))
	}
	fh, err := fsys.Open(f)
	if err != nil {
		return fmt.Errorf("%s: %w: %w", f, ErrUnreadable, err)
	}
	return fh.Close()
}

// folderParts lists the Parquet parts of the folder form of a table, which is
// present. A plain file named like the table (no extension) is not a table
// form: it gives nil, nil.
func folderParts(fsys fs.FS, name string) ([]string, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (a dangling link or a share not mounted?): %w", name, ErrUnreadable, err)
	}
	if st.Mode().IsRegular() {
		return nil, nil
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: %w: it is a %s, not a folder", name, ErrUnreadable, kind(st.Mode()))
	}
	ents, err := fs.ReadDir(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("read %s/: %w: %w", name, ErrUnreadable, err)
	}
	var parts []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".parquet") {
			part := path.Join(name, e.Name())
			if err := checkFile(fsys, part); err != nil {
				return nil, err
			}
			parts = append(parts, part)
		}
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return nil, fmt.Errorf("%s/: %w: folder holds no .parquet parts", name, ErrUnreadable)
	}
	return parts, nil
}

// kind names what a non-regular file is, for messages.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "folder"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
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
		r.b.grow(r.cur.batch())
		n, err := r.cur.fill(r.b)
		r.b.File, r.b.First, r.b.N = r.file, r.nextRow, n
		r.nextRow += int64(n)
		switch {
		case err == io.EOF:
			r.done += r.nextRow - 1
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

// SizeHint is about how many rows the table has, for sizing what a caller
// keeps of it: the rows of the files already read, and of the open one as its
// source can tell (exact for Parquet, estimated for CSV from the bytes per row
// read so far). Later files are not counted.
func (r *Reader) SizeHint() int {
	n := r.done
	if r.cur != nil {
		n += max(r.cur.sizeHint(), r.nextRow-1)
	}
	return int(n)
}

// Batch is the batch Next read.
func (r *Reader) Batch() *Batch { return r.b }

// Prefetch is a Reader that decodes batches ahead of its caller, so that
// decoding overlaps the caller's work: Run, on a goroutine the caller starts,
// sends the filled batches on Full in order; the caller hands each Batch back
// on Free once used.
type Prefetch struct {
	// Full is closed when Run stops (the end, an error or its context's end);
	// then check the Reader's Err.
	Full <-chan *Batch
	Free chan<- *Batch
	r    *Reader
	full chan *Batch
	free chan *Batch
}

// Prefetch makes r a Prefetch of depth batches ahead. It starts nothing: r is
// Run's from then on.
func (r *Reader) Prefetch(depth int) *Prefetch {
	p := &Prefetch{r: r, full: make(chan *Batch, depth), free: make(chan *Batch, depth+1)}
	p.Full, p.Free = p.full, p.free
	p.free <- r.b
	for i := 0; i < depth; i++ {
		p.free <- newBatch(r.cols)
	}
	return p
}

// Run reads the table into the batches handed back until the end, an error
// (the Reader's Err) or ctx's end, then closes the Reader and Full.
func (p *Prefetch) Run(ctx context.Context) {
	r := p.r
	defer close(p.full)
	defer r.Close()
	for {
		var b *Batch
		select {
		case b = <-p.free:
		case <-ctx.Done():
			return
		}
		r.b = b
		if !r.Next() {
			return
		}
		select {
		case p.full <- b:
		case <-ctx.Done():
			return
		}
	}
}

// Err is the error that stopped Run, once Full is closed.
func (p *Prefetch) Err() error { return p.r.Err() }

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
