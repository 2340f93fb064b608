package report

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/output"
)

// standings is one standings/ID.csv: the header and the records.
type standings struct {
	Header []string
	Rows   [][]string
	idCol  int
}

// rowID is the player id of row k, or a negative number of its own when the
// row has none.
func (s *standings) rowID(r []string, k int) int64 {
	if id, err := strconv.ParseInt(field(r, s.idCol), 10, 64); err == nil && id > 0 {
		return id
	}
	return -int64(k) - 1
}

// readStandings reads the standings files of the given periods in the
// output folder out into the standings of the tournaments want accepts, with
// the columns and cells of their CSV files.
func readStandings(out string, labels []string, want func(int64) bool) (map[int64]*standings, error) {
	st := map[int64]*standings{}
	for _, l := range labels {
		if err := readStandingsFile(output.StandingsPeriod.Path(out, l), want, st); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// readStandingsFile adds the standings of path's tournaments that want
// accepts to out. It reads the file column by column, a row group at a
// time: a generic reader would make each row's list and every value's
// pointer, most of the report's garbage.
func readStandingsFile(path string, want func(int64) bool, out map[int64]*standings) error {
	f, pf, err := openParquet(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	schema := pf.Schema()
	if err := sameKinds(path, schema, output.StandingsSchema); err != nil {
		return err
	}
	code, okCode := schema.Lookup("tiebreaks", "list", "element", "code")
	value, okValue := schema.Lookup("tiebreaks", "list", "element", "value")
	if !okCode || !okValue {
		return fmt.Errorf("read %s: no tiebreaks column: %w", path, ErrBadOutput)
	}
	// A cell (a list element) is there from this definition level on: the
	// code's, less one when the code itself is optional (a file rewritten by
	// another tool may make every column optional).
	cellDef := code.MaxDefinitionLevel
	if code.Node.Optional() {
		cellDef--
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	// A column the file lacks leaves its cells empty.
	has := func(name string) bool { _, ok := schema.Lookup(name); return ok }
	hasRank, hasStartNo, hasPoints := has("rank"), has("start_no"), has("points")
	var tour, ids []int64
	var rank, startNo []int32
	var points []float64
	var recs, codes [][]string
	var ncodes []int
	interned := map[string]string{}
	first := 0 // the row group's first row in the file
	for _, rg := range pf.RowGroups() {
		n := int(rg.NumRows())
		tour, recs, codes, ncodes = resize(tour, n, 0), resize(recs, n, nil), resize(codes, n, nil), resize(ncodes, n, 0)
		ids, rank, startNo, points = resize(ids, n, 0), resize(rank, n, 0), resize(startNo, n, 0), resize(points, n, 0)
		read := newTypedColumns(path, schema, rg)
		// The tournament first: the other columns fill only the rows wanted.
		if err := read.int64s("tournament_id", tour); err != nil {
			return err
		}
		for i, id := range tour {
			if want(id) {
				recs[i] = make([]string, 5, 5+8)
			}
		}
		err := errors.Join(
			read.int32s("rank", rank),
			read.int32s("start_no", startNo),
			read.int64s("player_id", ids),
			read.texts("name", func(i int, b []byte) {
				if recs[i] != nil {
					recs[i][3] = string(b)
				}
			}),
			read.float64s("points", points),
		)
		if err != nil {
			return err
		}
		for i, r := range recs {
			if r == nil {
				continue
			}
			if hasRank {
				r[0] = strconv.Itoa(int(rank[i]))
			}
			if hasStartNo {
				r[1] = strconv.Itoa(int(startNo[i]))
			}
			if ids[i] != 0 {
				r[2] = strconv.FormatInt(ids[i], 10)
			}
			if hasPoints {
				r[4] = num(points[i])
			}
		}
		// A row's tiebreaks: a value per code, "" where undefined. The codes
		// are kept for the first row of each tournament here (its header),
		// counted for the others.
		chunks := rg.ColumnChunks()
		err = eachCell(chunks[code.ColumnIndex], n, cellDef, recs, func(row int, v parquet.Value) {
			if ncodes[row]++; row == 0 || tour[row-1] != tour[row] {
				c := ""
				if v.DefinitionLevel() == code.MaxDefinitionLevel {
					var ok bool
					if c, ok = interned[string(v.ByteArray())]; !ok {
						c = string(v.ByteArray())
						interned[c] = c
					}
				}
				codes[row] = append(codes[row], c)
			}
		})
		if err != nil {
			return fmt.Errorf("read %s: column tiebreaks.code: %w", path, err)
		}
		err = eachCell(chunks[value.ColumnIndex], n, cellDef, recs, func(row int, v parquet.Value) {
			s := ""
			if v.DefinitionLevel() == value.MaxDefinitionLevel {
				s = num(v.Double())
			}
			recs[row] = append(recs[row], s)
		})
		if err != nil {
			return fmt.Errorf("read %s: column tiebreaks.value: %w", path, err)
		}
		for i, rec := range recs {
			if rec == nil {
				continue
			}
			if len(rec)-5 != ncodes[i] {
				return fmt.Errorf("read %s: row %d: %d tiebreak codes but %d values", path, first+i+1, ncodes[i], len(rec)-5)
			}
			s := out[tour[i]]
			if s == nil { // the first row of its run here, so codes[i] is kept
				s = &standings{Header: append([]string{"rank", "start_no", "player_id", "name", "points"}, codes[i]...), idCol: 2}
				out[tour[i]] = s
			}
			s.Rows = append(s.Rows, rec)
		}
		first += n
	}
	return nil
}

// eachCell calls fn with each tiebreak cell of the wanted rows (recs[row] not
// nil) in cc, a leaf of the tiebreaks list in a row group of n rows: a value
// at repetition level 0 starts a row, and a cell is there from definition
// level cellDef on.
func eachCell(cc parquet.ColumnChunk, n, cellDef int, recs [][]string, fn func(row int, v parquet.Value)) error {
	row := -1
	err := eachLeafValue(cc, func(v parquet.Value) error {
		if v.RepetitionLevel() == 0 {
			if row++; row >= n {
				return fmt.Errorf("more than %d rows", n)
			}
		}
		if row >= 0 && recs[row] != nil && v.DefinitionLevel() >= cellDef {
			fn(row, v)
		}
		return nil
	})
	if err == nil && row != n-1 {
		err = fmt.Errorf("%d rows in %d", row+1, n)
	}
	return err
}
