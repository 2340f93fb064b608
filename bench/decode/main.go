// Command decode is the floor `make bench` compares ratelist with: it reads every
// games column of an archive with parquet-go, column by column and page by page,
// into typed values, and does nothing else.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/parquet-go/parquet-go"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: decode ARCHIVE")
		os.Exit(2)
	}
	files, _ := filepath.Glob(filepath.Join(os.Args[1], "games", "*.parquet"))
	if len(files) == 0 {
		files = []string{filepath.Join(os.Args[1], "games.parquet")}
	}
	sort.Strings(files)
	start := time.Now()
	var rows int64
	buf := make([]parquet.Value, 8192)
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		st, _ := f.Stat()
		pf, err := parquet.OpenFile(f, st.Size())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, rg := range pf.RowGroups() {
			rows += rg.NumRows()
			for _, cc := range rg.ColumnChunks() {
				pages := cc.Pages()
				for {
					p, err := pages.ReadPage()
					if err == io.EOF {
						break
					}
					if err != nil {
						fmt.Fprintln(os.Stderr, err)
						os.Exit(1)
					}
					vr := p.Values()
					for {
						n, err := vr.ReadValues(buf)
						_ = n
						if err != nil {
							break
						}
					}
					parquet.Release(p)
				}
				pages.Close()
			}
		}
		f.Close()
	}
	sec := time.Since(start).Seconds()
	fmt.Printf("decode: %d rows in %.3f s = %.0f rows/s\n", rows, sec, float64(rows)/sec)
}
