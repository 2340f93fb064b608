package pipeline

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// fileRecords are the types that are one row of an output file (or its
// columns, one field each): their fields are the file's columns.
var fileRecords = map[string]bool{"cardRow": true, "cardCols": true, "listCols": true, "jokerCardRow": true}

// flagSets mirror a verb's flags, one field each: they grow with the CLI, not
// with responsibilities.
var flagSets = map[string]bool{"Options": true}

// TestTypeSizes: no struct of the package but a file record or a flag set has more than
// about 15 fields; a bigger one holds more than one responsibility.
func TestTypeSizes(t *testing.T) {
	const maxFields = 15
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok || fileRecords[ts.Name.Name] || flagSets[ts.Name.Name] {
				return true
			}
			fields := 0
			for _, fl := range st.Fields.List {
				fields += max(1, len(fl.Names))
			}
			if fields > maxFields {
				t.Errorf("%s: %s has %d fields, more than %d", fset.Position(ts.Pos()), ts.Name.Name, fields, maxFields)
			}
			return true
		})
	}
}
