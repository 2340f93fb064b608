package main

import (
	"context"
	"fmt"
	"io"

	"github.com/ratelist/ratelist/importer"
)

// importFideList implements ratelist import fide-list FILE... --archive DIR
// [--add] (docs/import.md): FIDE's players list into the archive's players.
func importFideList(ctx context.Context, dir string, files []string, add, quiet bool, stdout, stderr io.Writer) int {
	a, err := importer.Open(dir, importer.Options{})
	if err != nil {
		fmt.Fprintln(stderr, "ratelist import:", message(err))
		return exitCode(err)
	}
	defer a.Abort()
	opt := importer.FideListOptions{Add: add, Report: func(p *importer.Problem) {
		if !quiet {
			fmt.Fprintln(stderr, p)
		}
	}}
	st, err := importer.ImportFideList(ctx, a, files, opt)
	var written []string
	if err == nil {
		written, err = a.Commit()
	}
	if st != nil {
		fmt.Fprintf(stdout, "import fide-list: %d files; %d players read = %d matched + %d not in the archive (%d added); %d lines skipped\n",
			st.Files, st.Read, st.Matched, st.Unmatched, st.Added, st.Skipped)
		fmt.Fprintf(stdout, "import fide-list: players updated: federation %d, sex %d, title %d, birth_year %d, fide_rating %d\n",
			st.Updated["federation"], st.Updated["sex"], st.Updated["title"], st.Updated["birth_year"], st.Updated["fide_rating"])
		for _, w := range written {
			fmt.Fprintf(stdout, "wrote %s\n", w)
		}
	}
	switch {
	case err != nil:
		fmt.Fprintln(stderr, "ratelist import:", message(err))
		return exitCode(err)
	case st.Skipped > 0:
		return exitCode(errRejected)
	}
	return exitOK
}
