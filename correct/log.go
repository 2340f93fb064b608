package correct

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LogFile is the archive log, in the archive folder: one JSON object per line,
// one line per correction (Entry). The archive reader finds tables by name
// (NAME.parquet, NAME.csv, NAME/), so the log is never taken for one.
const LogFile = "corrections.log"

// Entry is one correction as the log keeps it.
type Entry struct {
	Time       time.Time `json:"time"` // UTC
	Verb       string    `json:"verb"` // replace, remove, set-player, merge-players, import-players
	Tournament int64     `json:"tournament,omitempty"`
	Player     int64     `json:"player,omitempty"`
	Source     string    `json:"source,omitempty"` // the file a replace or import players read
	Changes    []Change  `json:"changes"`
}

// Change is one value changed: a field, or a count such as games; Old or New
// is nil for none (null, a row added or removed).
type Change struct {
	Field string `json:"field"`
	Old   any    `json:"old"`
	New   any    `json:"new"`
}

// String is the entry as `archive log` prints it, on one line.
func (e Entry) String() string {
	var b strings.Builder
	b.WriteString(e.Time.UTC().Format(time.RFC3339))
	b.WriteString(" " + e.Verb)
	if e.Tournament != 0 {
		fmt.Fprintf(&b, " tournament %d", e.Tournament)
	}
	if e.Player != 0 {
		fmt.Fprintf(&b, " player %d", e.Player)
	}
	if e.Source != "" {
		fmt.Fprintf(&b, " from %s", e.Source)
	}
	for i, c := range e.Changes {
		sep := "; "
		if i == 0 {
			sep = ": "
		}
		fmt.Fprintf(&b, "%s%s: %s → %s", sep, c.Field, shown(c.Old), shown(c.New))
	}
	return b.String()
}

// shown is a logged value: text quoted, numbers as they are, null.
func shown(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(v)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// ReadLog returns the corrections of the archive in dir, oldest first; none
// when it has no log.
func ReadLog(dir string) ([]Entry, error) {
	b, err := os.ReadFile(filepath.Join(dir, LogFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("%s line %d: %w", filepath.Join(dir, LogFile), line, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// log queues the archive log with entries added, last of the change's files:
// a correction is logged once its tables are in place.
func (c *change) log(entries ...Entry) error {
	old, err := os.ReadFile(filepath.Join(c.dir, LogFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := c.create(LogFile)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.Write(old)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		w.WriteByte('\n')
	}
	for _, e := range entries {
		e.Time = e.Time.UTC().Truncate(time.Second)
		if e.Changes == nil {
			e.Changes = []Change{}
		}
		line, merr := json.Marshal(e)
		if merr != nil {
			err = merr
			break
		}
		w.Write(line)
		w.WriteByte('\n')
	}
	if err == nil {
		err = w.Flush()
	}
	return c.done(f, LogFile, err)
}
