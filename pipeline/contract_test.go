package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/internal/testutil"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// TestRuleSetContract: every registered rule set's declaration is well
// formed, and a run's files have the columns it declares, derived from that
// one declaration: the list's CSV header, its Parquet schema and its Arrow
// file the contract's columns then the rule set's after flags, the card
// files the contract's then the rule set's; an added list column's CSV cell
// is its Parquet value printed with the declared decimals; k is empty (null)
// everywhere for a rule set without K.
func TestRuleSetContract(t *testing.T) {
	dir := genArchive(t, 21, false)
	for _, def := range rating.Definitions() {
		t.Run(def.Name, func(t *testing.T) {
			if err := def.Columns.Check(); err != nil {
				t.Fatal(err)
			}
			rules, err := DefaultRules(def.Name)
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			sum := runOpt(t, Options{Archive: os.DirFS(dir), Out: out, Rules: rules, Arrow: true})
			if sum.LastList == "" {
				t.Fatal("no list written")
			}
			list := filepath.Join(out, "lists", sum.LastList)
			added := names(def.Columns.List)
			csv := testutil.ReadCSV(t, list+".csv")
			own := names(leaves(t, output.ListSchema))
			want := slices.Concat(own[:10], added)
			if !slices.Equal(csv[0], want) {
				t.Errorf("list CSV header %v, want %v", csv[0], want)
			}
			pq := leaves(t, parquetSchema(t, list+".parquet"))
			if want := slices.Concat(own[:10], added, own[10:]); !slices.Equal(names(pq), want) {
				t.Errorf("list Parquet columns %v, want %v", names(pq), want)
			}
			for _, f := range []struct {
				file string
				own  *parquet.Schema
				add  []rating.Column
			}{{"cards.parquet", output.CardSchema, def.Columns.Cards}, {"card_games.parquet", output.CardGameSchema, def.Columns.Games}} {
				got := names(leaves(t, parquetSchema(t, filepath.Join(out, f.file))))
				if want := slices.Concat(names(leaves(t, f.own)), names(f.add)); !slices.Equal(got, want) {
					t.Errorf("%s columns %v, want %v", f.file, got, want)
				}
			}
			// An added column's cells, CSV against Parquet, row by row.
			rows := readRows(t, list+".parquet")
			// k: empty (null) in every row of a rule set without K, else a number.
			arrow := readArrowCells(t, list+".arrow")
			for i, row := range rows {
				if k := csv[1+i][7]; (k == "") != def.Columns.NoK || row[7].IsNull() != def.Columns.NoK || (arrow[1+i][7] == "") != def.Columns.NoK {
					t.Fatalf("row %d: k CSV %q, Parquet %v, Arrow %q; the rule set has no K: %v", i+1, k, row[7], arrow[1+i][7], def.Columns.NoK)
				}
			}
			for j, c := range def.Columns.List {
				for i, row := range rows {
					v := row[10+j]
					s := c.Format(rating.Value{Int: v.Int64(), Float: v.Double(), Str: v.String()})
					if csv[1+i][10+j] != s {
						t.Fatalf("row %d, %s: CSV %q, Parquet %v", i+1, c.Name, csv[1+i][10+j], v)
					}
				}
			}
		})
	}
}

// names are the columns' names.
func names(cols []rating.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// leaves are a schema's leaf columns, by name only.
func leaves(t *testing.T, s *parquet.Schema) []rating.Column {
	t.Helper()
	var out []rating.Column
	for _, path := range s.Columns() {
		out = append(out, rating.Column{Name: path[0]})
	}
	return out
}

func parquetSchema(t *testing.T, path string) *parquet.Schema {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return pf.Schema()
}

// readRows reads every row of a Parquet file, its values in leaf order.
func readRows(t *testing.T, path string) []parquet.Row {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := parquet.NewReader(f)
	defer r.Close()
	rows := make([]parquet.Row, r.NumRows())
	n, err := r.ReadRows(rows)
	if n != len(rows) {
		t.Fatalf("%s: read %d of %d rows: %v", path, n, len(rows), err)
	}
	return rows
}
