package officer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/parquet-go/parquet-go"
	"github.com/ratelist/ratelist/output"
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
	rows, err := readParquet(path, func(*output.ListRow) bool { return true })
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list %s: %w (no %s)", period, ErrNoList, path)
	}
	return rows, err
}

// ReadCards reads the rows of out's cards.parquet that keep accepts, in file
// order (rating order).
func ReadCards(out string, keep func(*output.Card) bool) ([]output.Card, error) {
	return readParquet(output.Cards.Path(out, ""), keep)
}

// ReadCardGames reads the rows of out's card_games.parquet that keep accepts,
// in file order (rating order); none when the file is missing (the outputs
// of a run before it was written).
func ReadCardGames(out string, keep func(*output.CardGame) bool) ([]output.CardGame, error) {
	gs, err := readParquet(output.CardGames.Path(out, ""), keep)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return gs, err
}

// readParquet reads the rows of a Parquet file that keep accepts, a block at a
// time, so that a large file is never held whole.
func readParquet[T any](path string, keep func(*T) bool) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := parquet.NewGenericReader[T](f)
	defer r.Close()
	var out []T
	buf := make([]T, 4096)
	for {
		clear(buf) // fresh values for the optional columns of the rows kept
		n, err := r.Read(buf)
		for i := range buf[:n] {
			if keep(&buf[i]) {
				out = append(out, buf[i])
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
