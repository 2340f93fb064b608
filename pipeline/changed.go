package pipeline

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// ChangedList is a list that an earlier run published and this run wrote
// again with other rows (a correction taken in by --rerate, or a table rule
// set's list, which every run writes): the rows of players who entered, left, or whose
// row differs, rank aside.
type ChangedList struct {
	List        string `json:"list"`
	ChangedRows int    `json:"changed_rows"`
}

// changedLists collects the ChangedLists of a run's pool jobs.
type changedLists struct {
	before string // lists of periods before this label were published by an earlier run
	mu     sync.Mutex
	lists  []ChangedList
}

// compare counts how the list rel (CSV, slash-separated in --out) written in
// stage differs from the one in out, and notes it when it does; a list that
// was not there counts all its rows.
func (c *changedLists) compare(stage *staging, out, label, rel string) error {
	if c.before == "" || label >= c.before {
		return nil
	}
	newRows, err := listRowsByPlayer(filepath.Join(stage.tmp, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	var oldRows map[string]string
	// A symlink in --out is not ratelist's (the commit replaces it): not read.
	if p := filepath.Join(out, filepath.FromSlash(rel)); !isSymlink(p) {
		if oldRows, err = listRowsByPlayer(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	n := 0
	for id, row := range newRows {
		if old, ok := oldRows[id]; !ok || old != row {
			n++
		}
	}
	for id := range oldRows {
		if _, ok := newRows[id]; !ok {
			n++
		}
	}
	if n > 0 {
		c.mu.Lock()
		c.lists = append(c.lists, ChangedList{List: rel, ChangedRows: n})
		c.mu.Unlock()
	}
	return nil
}

func isSymlink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// sorted returns the changed lists by name.
func (c *changedLists) sorted() []ChangedList {
	sort.Slice(c.lists, func(i, j int) bool { return c.lists[i].List < c.lists[j].List })
	return c.lists
}

// listRowsByPlayer reads a list CSV (rank, player_id, then the rest) as
// player_id → the row without its rank.
func listRowsByPlayer(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows := map[string]string{}
	for first := true; ; first = false {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if first || len(rec) < 2 {
			continue
		}
		rows[rec[1]] = strings.Join(rec[2:], "\x00")
	}
}
