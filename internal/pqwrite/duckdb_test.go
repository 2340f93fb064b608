package pqwrite

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/internal/testutil"
)

// TestDuckDBSameCells reads a file of this package and parquet-go's file of
// the same rows with DuckDB, through node and @duckdb/node-api found in the
// node_modules folder $RATELIST_DUCKDB_JS: every row, at its position, is in
// both. Skipped without it or without node.
func TestDuckDBSameCells(t *testing.T) {
	node, modules := testutil.NodeModules(t, "RATELIST_DUCKDB_JS", "@duckdb/node-api")
	rows := testRows(20000)
	var old, cur bytes.Buffer
	gw := parquet.NewGenericWriter[testRow](&old, append([]parquet.WriterOption{testSchema}, testOptions()...)...)
	// Ours samples two columns (CompressIfWorth): DuckDB reads chunks of
	// both codecs in one file.
	w, err := New(&cur, testSchema, append(testOptions(), CompressIfWorth("p"), CompressIfWorth("score"))...)
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < len(rows); lo += 7000 {
		part := rows[lo:min(len(rows), lo+7000)]
		if _, err := gw.Write(part); err != nil {
			t.Fatal(err)
		}
		writeColumns(t, w, part)
	}
	if err := gw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "old.parquet"), filepath.Join(dir, "new.parquet")
	if err := os.WriteFile(a, old.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, cur.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rd := func(p string) string { return "read_parquet('" + p + "', file_row_number=true)" }
	query := "select (select count(*) from " + rd(a) + ") || ' ' || (select count(*) from " + rd(b) + ") || ' ' || " +
		"(select count(*) from (select * from " + rd(a) + " except all select * from " + rd(b) + ")) || ' ' || " +
		"(select count(*) from (select * from " + rd(b) + " except all select * from " + rd(a) + ")) as r"
	script := `import { DuckDBInstance } from '@duckdb/node-api';
const c = await (await DuckDBInstance.create(':memory:')).connect();
const r = await c.runAndReadAll(process.argv[1]);
console.log(r.getRows()[0][0]);`
	cmd := exec.Command(node, "--input-type=module", "-e", script, query)
	cmd.Dir = filepath.Dir(modules) // bare imports resolve from here
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), "20000 20000 0 0"; got != want {
		t.Errorf("rows of parquet-go's, ours, only in parquet-go's, only in ours: %s, want %s", got, want)
	}
}
