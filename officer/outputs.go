package officer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// ErrNoList is a period the run wrote no list for.
var ErrNoList = errors.New("no such list")

// Periods is the labels of the lists in out (lists/LABEL.parquet), oldest first.
func Periods(out string) ([]string, error) {
	labels, err := output.ListParquet.Keys(out)
	if err != nil {
		return nil, fmt.Errorf("%s: not a run's output folder: %w", out, err)
	}
	return labels, nil
}

// ReadList reads the list of period from out.
func ReadList(out, period string) ([]output.ListRow, error) {
	path := listPath(out, period)
	rows, err := readParquet(path, func(*output.ListRow) bool { return true }, nil)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list %s: %w (no %s)", period, ErrNoList, path)
	}
	return rows, err
}

// ListWithoutK tells whether the list of period in out is of a rule set
// without K (output.ListNoK): the 0 its rows read for k is empty.
func ListWithoutK(out, period string) (bool, error) {
	path := listPath(out, period)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("list %s: %w (no %s)", period, ErrNoList, path)
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	return output.ListNoK(pf.Schema()), nil
}

// ReadCards reads the rows of out's cards.parquet that keep accepts, in file
// order (rating order).
func ReadCards(out string, keep func(*output.Card) bool) ([]output.Card, error) {
	return readParquet(output.Cards.Path(out, ""), keep, nil)
}

// ReadCardGames reads the rows of out's card_games.parquet that keep accepts,
// in file order (rating order); none when the file is missing (the outputs
// of a run before it was written).
func ReadCardGames(out string, keep func(*output.CardGame) bool) ([]output.CardGame, error) {
	gs, err := readParquet(output.CardGames.Path(out, ""), keep, nil)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return gs, err
}

// added is what a file has beyond its record type: the rule set's own
// columns (output.AddedColumns, printed as their rule set declares them) and
// their cells in the rows read.
type added struct {
	own  *parquet.Schema // the record type's
	cols []rating.Column
	rows [][]string
	noK  bool // of a list: its k is null (output.ListNoK), not 0
}

// readParquet reads the rows of a Parquet file that keep accepts, a block at a
// time, so that a large file is never held whole; with add, the cells of the
// rule set's own columns of those rows too.
func readParquet[T any](path string, keep func(*T) bool, add *added) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := output.NewReader[T](f)
	defer r.Close()
	var ar *output.AddedReader
	var vals []rating.Value
	if add != nil {
		if ar, err = add.open(f); err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if ar != nil {
			defer ar.Close()
			vals = make([]rating.Value, len(add.cols))
		}
	}
	var out []T
	buf := r.Block(4096)
	for {
		clear(buf) // fresh values for the optional columns of the rows kept
		n, err := r.Read(buf)
		for i := range buf[:n] {
			if ar != nil {
				if err := ar.Read(vals); err != nil {
					return nil, fmt.Errorf("read %s: %w", path, err)
				}
			}
			if keep(&buf[i]) {
				out = append(out, buf[i])
				if ar != nil {
					add.rows = append(add.rows, add.cells(vals))
				}
			}
		}
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
}

func listPath(out, period string) string { return output.ListParquet.Path(out, period) }

// open finds the rule set's own columns of f and returns their reader, nil
// when it has none.
func (a *added) open(f *os.File) (*output.AddedReader, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, err
	}
	a.cols = output.AddedColumns(pf.Schema(), a.own)
	a.noK = output.ListNoK(pf.Schema())
	if len(a.cols) == 0 {
		return nil, nil
	}
	for i := range a.cols {
		a.cols[i] = declared(a.cols[i])
	}
	return output.NewAddedReader(f, a.cols), nil
}

// cells prints a row's values.
func (a *added) cells(vals []rating.Value) []string {
	out := make([]string, len(vals))
	for i := range vals {
		out[i] = a.cols[i].Format(vals[i])
	}
	return out
}

// declared is c as a registered rule set declares a column of its name and
// type (its decimals and title), c itself when none does.
func declared(c rating.Column) rating.Column {
	for _, d := range rating.Definitions() {
		for _, cols := range [][]rating.Column{d.Columns.List, d.Columns.Cards, d.Columns.Games} {
			for _, dc := range cols {
				if dc.Name == c.Name && dc.Type == c.Type {
					return dc
				}
			}
		}
	}
	return c
}
