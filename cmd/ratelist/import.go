package main

import (
	"context"
	"fmt"
	"io"
)

// cmdImport converts other formats into an archive. Placeholder until the
// importers land (issue 6).
func cmdImport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "ratelist import: not available yet")
	return exitUsage
}
