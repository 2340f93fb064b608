package officer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// ListEntry is one row of a rating list (lists/PERIOD.parquet). The player's
// columns after Flags are empty in the lists of runs that did not write them.
type ListEntry struct {
	Rank        int32  `parquet:"rank"`
	PlayerID    int64  `parquet:"player_id"`
	Name        string `parquet:"name"`
	Rating      int32  `parquet:"rating"`
	Change      *int32 `parquet:"change,optional"`
	GamesPeriod int32  `parquet:"games_period"`
	GamesTotal  int32  `parquet:"games_total"`
	K           int32  `parquet:"k"`
	Category    string `parquet:"category"`
	Flags       string `parquet:"flags"`
	Federation  string `parquet:"federation,optional"`
	Sex         string `parquet:"sex,optional"`
	Title       string `parquet:"title,optional"`
	FideID      int64  `parquet:"fide_id,optional"`
	BirthDate   *int32 `parquet:"birth_date,optional,date"`
}

// Card is one row of cards.parquet; optional numbers are nil when empty.
type Card struct {
	Period          string   `parquet:"period"`
	TournamentID    int64    `parquet:"tournament_id"`
	EndDate         int32    `parquet:"end_date,date"`
	PlayerID        int64    `parquet:"player_id"`
	Name            string   `parquet:"name"`
	Stage           int32    `parquet:"stage"`
	RatingBefore    *int32   `parquet:"rating_before,optional"`
	Games           int32    `parquet:"games"`
	Score           float64  `parquet:"score"`
	OppAverage      *int32   `parquet:"opponents_average,optional"`
	D               *int32   `parquet:"d,optional"`
	Expected        *float64 `parquet:"expected,optional"`
	K               *int32   `parquet:"k,optional"`
	ChangeUnrounded *float64 `parquet:"change_unrounded,optional"`
	Change          int32    `parquet:"change"`
	RatingAfter     *int32   `parquet:"rating_after,optional"`
	Reason          string   `parquet:"reason"`
	OpponentID      *int64   `parquet:"opponent_id,optional"`
	OpponentRating  *int32   `parquet:"opponent_rating,optional"`
	PD              *float64 `parquet:"pd,optional"`
	W               *float64 `parquet:"w,optional"`
	RatingUsed      *int32   `parquet:"rating_used,optional"`
}

// ErrNoList is a period the run wrote no list for.
var ErrNoList = errors.New("no such list")

// Periods is the labels of the lists in out (lists/LABEL.parquet), oldest first.
func Periods(out string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(out, "lists"))
	if err != nil {
		return nil, fmt.Errorf("%s: not a run's output folder: %w", out, err)
	}
	var labels []string
	for _, e := range ents {
		if l, ok := strings.CutSuffix(e.Name(), ".parquet"); ok && !e.IsDir() {
			labels = append(labels, l)
		}
	}
	sort.Strings(labels)
	return labels, nil
}

// ReadList reads the list of period from out.
func ReadList(out, period string) ([]ListEntry, error) {
	path := listPath(out, period)
	rows, err := readParquet(path, func(*ListEntry) bool { return true })
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list %s: %w (no %s)", period, ErrNoList, path)
	}
	return rows, err
}

// ReadCards reads the rows of out's cards.parquet that keep accepts, in file
// order (rating order).
func ReadCards(out string, keep func(*Card) bool) ([]Card, error) {
	return readParquet(filepath.Join(out, "cards.parquet"), keep)
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

func listPath(out, period string) string { return filepath.Join(out, "lists", period+".parquet") }
