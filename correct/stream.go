package correct

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/archive"
)

// rowEdit is what a correction does to each row of a large table (games,
// tables), which is streamed, never held whole: fn gets the row's cells of
// cols as integers (ok false for null, or a cell that is not one), may change
// them, and says whether the row is kept.
type rowEdit struct {
	cols []string
	fn   func(ids []int64, ok []bool) (keep bool)
}

// edited counts what a rewrite did to one file.
type edited struct {
	kept, dropped, changed, inserted int64
}

func (e edited) any() bool { return e.dropped+e.changed+e.inserted > 0 }

// rewrite streams one file of a large table through e into a temporary file
// queued in c, inserting ins (rows as text by column, a column left out being
// null) where the first dropped row was, or at the end when none is and
// atEnd says so. The
// file keeps its form (CSV or Parquet, its columns and their types). A file
// the edit leaves as it was is not queued.
func rewrite(ctx context.Context, c *change, file string, e rowEdit, ins []map[string]string, atEnd bool) (edited, error) {
	src, err := os.Open(filepath.Join(c.dir, file))
	if err != nil {
		return edited{}, err
	}
	defer src.Close()
	f, err := c.create(file)
	if err != nil {
		return edited{}, err
	}
	var n edited
	if isCSV(file) {
		n, err = rewriteCSV(ctx, src, f, e, ins, atEnd)
	} else {
		n, err = rewriteParquet(ctx, src, f, file, e, ins, atEnd)
	}
	if err == nil && !n.any() {
		f.Close()
		os.Remove(f.Name())
		return n, nil
	}
	if err != nil {
		err = fmt.Errorf("%s: %w", file, err)
	}
	return n, c.done(f, file, err)
}

func rewriteCSV(ctx context.Context, src io.Reader, dst io.Writer, e rowEdit, ins []map[string]string, atEnd bool) (edited, error) {
	var n edited
	br := bufio.NewReaderSize(src, 1<<16)
	bw := bufio.NewWriterSize(dst, 1<<16)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
		br.Discard(3)
		bw.WriteString("\ufeff")
	}
	head, _ := br.Peek(64 << 10)
	r := csv.NewReader(br)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	w := csv.NewWriter(bw)
	w.UseCRLF = crlf(head)
	hdr, err := r.Read()
	if err != nil {
		return n, fmt.Errorf("header: %w", err)
	}
	hdr = append([]string(nil), hdr...)
	for i := range hdr {
		hdr[i] = strings.TrimSpace(hdr[i])
	}
	w.Write(hdr)
	at := columnsAt(hdr, e.cols)
	insert := func() {
		for _, cells := range ins {
			rec := make([]string, len(hdr))
			for i, h := range hdr {
				rec[i] = cells[h]
			}
			w.Write(rec)
			n.inserted++
		}
		ins = nil
	}
	ids, ok, was := make([]int64, len(at)), make([]bool, len(at)), make([]int64, len(at))
	for row := 0; ; row++ {
		if row%(1<<16) == 0 && ctx.Err() != nil {
			return n, ctx.Err()
		}
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err
		}
		for k, i := range at {
			ids[k], ok[k] = 0, false
			if i >= 0 && i < len(rec) {
				v, err := strconv.ParseInt(strings.TrimSpace(rec[i]), 10, 64)
				ids[k], ok[k] = v, err == nil
			}
		}
		copy(was, ids)
		if !e.fn(ids, ok) {
			n.dropped++
			insert()
			continue
		}
		for k, i := range at {
			if ok[k] && ids[k] != was[k] {
				rec[i] = strconv.FormatInt(ids[k], 10)
				n.changed++
			}
		}
		w.Write(rec)
		n.kept++
	}
	if atEnd {
		insert()
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return n, err
	}
	return n, bw.Flush()
}

func rewriteParquet(ctx context.Context, src *os.File, dst io.Writer, file string, e rowEdit, ins []map[string]string, atEnd bool) (edited, error) {
	var n edited
	pf, err := openParquet(src, file)
	if err != nil {
		return n, err
	}
	schema := pf.Schema()
	var names []string
	var leaves []parquet.Node
	for _, fl := range schema.Fields() {
		names = append(names, fl.Name())
		leaves = append(leaves, fl)
	}
	at := columnsAt(names, e.cols)
	w := newWriter(dst, schema, rowGroupSize(pf))
	var insRows []parquet.Row
	for _, cells := range ins {
		row := make(parquet.Row, len(names))
		for c, name := range names {
			text, ok := cells[name]
			v, err := textValue(text, !ok, leaves[c], c)
			if err != nil {
				return n, fmt.Errorf("column %s: %w", name, err)
			}
			row[c] = v
		}
		insRows = append(insRows, row)
	}
	insert := func() error {
		if insRows == nil {
			return nil
		}
		_, err := w.WriteRows(insRows)
		n.inserted += int64(len(insRows))
		insRows = nil
		return err
	}
	ids, ok, was := make([]int64, len(at)), make([]bool, len(at)), make([]int64, len(at))
	// kept is apart from buf, whose rows the reader reuses.
	buf, kept := make([]parquet.Row, 256), make([]parquet.Row, 0, 256)
	for _, rg := range pf.RowGroups() {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		rows := rg.Rows()
		for {
			m, rerr := rows.ReadRows(buf)
			kept = kept[:0]
			for _, row := range buf[:m] {
				for k, i := range at {
					ids[k], ok[k] = 0, false
					if i >= 0 {
						ids[k], ok[k] = intOf(row[i], leaves[i])
					}
				}
				copy(was, ids)
				if !e.fn(ids, ok) {
					n.dropped++
					if len(insRows) > 0 { // the rows before go first
						if _, err := w.WriteRows(kept); err != nil {
							rows.Close()
							return n, err
						}
						kept = kept[:0]
						if err := insert(); err != nil {
							rows.Close()
							return n, err
						}
					}
					continue
				}
				for k, i := range at {
					if ok[k] && ids[k] != was[k] {
						v, err := textValue(strconv.FormatInt(ids[k], 10), false, leaves[i], i)
						if err != nil {
							rows.Close()
							return n, fmt.Errorf("column %s: %w", names[i], err)
						}
						row[i] = v
						n.changed++
					}
				}
				kept = append(kept, row)
				n.kept++
			}
			if _, err := w.WriteRows(kept); err != nil {
				rows.Close()
				return n, err
			}
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				rows.Close()
				return n, rerr
			}
		}
		if err := rows.Close(); err != nil {
			return n, err
		}
	}
	if atEnd {
		if err := insert(); err != nil {
			return n, err
		}
	}
	return n, w.Close()
}

// crlf tells whether the text's first line ends in CR LF: a file written
// so is rewritten so.
func crlf(text []byte) bool {
	i := bytes.IndexByte(text, '\n')
	return i > 0 && text[i-1] == '\r'
}

// columnsAt is the position of each of cols in names, -1 when absent.
func columnsAt(names, cols []string) []int {
	at := make([]int, len(cols))
	for k, c := range cols {
		at[k] = -1
		for i, h := range names {
			if h == c {
				at[k] = i
			}
		}
	}
	return at
}

// editTable streams the files of a large table that e changes through it
// (rewrite), in order; ins go into the first file with a dropped row, or at
// the end of a table that is one file (none when the table is absent, or a
// folder none of whose rows is dropped: the caller sees nothing inserted). A
// part of a folder that ends up with no rows is removed, unless it is the last
// one left.
func editTable(ctx context.Context, c *change, name string, e rowEdit, ins []map[string]string) (edited, error) {
	t, err := locate(c.dir, name)
	if err != nil {
		return edited{}, err
	}
	hit, err := touched(ctx, c.dir, t.files, e)
	if err != nil {
		return edited{}, err
	}
	var total edited
	parts := len(t.files)
	for _, f := range t.files {
		if !hit[f] && (t.folder() || len(ins) == 0) {
			continue
		}
		n, err := rewrite(ctx, c, f, e, ins, !t.folder())
		if err != nil {
			return total, err
		}
		if n.inserted > 0 {
			ins = nil
		}
		if t.folder() && n.any() && n.kept+n.inserted == 0 && parts > 1 {
			last := c.todo[len(c.todo)-1]
			os.Remove(last.tmp)
			c.todo = c.todo[:len(c.todo)-1]
			c.remove(f)
			parts--
		}
		total.dropped += n.dropped
		total.changed += n.changed
		total.inserted += n.inserted
		total.kept += n.kept
	}
	return total, nil
}

// touched reads the columns of e from files (the archive's column reader,
// which is fast) and returns the files with a row e drops or changes: only
// those are rewritten.
func touched(ctx context.Context, dir string, files []string, e rowEdit) (map[string]bool, error) {
	hit := map[string]bool{}
	if len(files) == 0 {
		return hit, nil
	}
	cols := make([]archive.Column, len(e.cols))
	for i, name := range e.cols {
		cols[i] = archive.Column{Name: name, Type: archive.Int}
	}
	r := archive.NewReader(os.DirFS(dir), files, cols)
	defer r.Close()
	ids, ok, was := make([]int64, len(cols)), make([]bool, len(cols)), make([]int64, len(cols))
	for r.Next() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b := r.Batch()
		if hit[b.File] {
			continue
		}
		for i := 0; i < b.N; i++ {
			for k := range cols {
				ids[k], ok[k] = b.Ints[k][i], !b.Nulls[k][i] && b.Bad[i].Kind == archive.KindNone
			}
			copy(was, ids)
			if !e.fn(ids, ok) || !slices.Equal(ids, was) {
				hit[b.File] = true
				break
			}
		}
	}
	return hit, r.Err()
}
