package pipeline

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/ratelist/ratelist/rating"
)

// The run state kept under --out/state/ lets a later run continue (--resume) or
// re-rate from a period on (--from) without reprocessing from the start. One file
// per list period, LABEL.state, holds everything the run knew right after writing
// that list. Format: a header line "ratelist-state v1 SHA256HEX\n", then the
// flate-compressed gob of savedState; the checksum covers the compressed bytes.
const stateVersion = 1

// ErrBadState marks a state file that is damaged or of another version.
var ErrBadState = errors.New("bad state file")

// Snapshotter is implemented by rule sets with internal state beyond
// rating.State (the school system has none). Without it, a rule set cannot resume.
type Snapshotter interface {
	MarshalState() ([]byte, error)
	UnmarshalState([]byte) error
}

type savedState struct {
	Version     int
	Fingerprint string // rules and period kind
	Key         int    // the list period this state follows
	PlayerIDs   []int64
	Rated       []bool
	Rating      []int32
	GamesTotal  []int32
	Tournaments []int32
	Stage       int
	PrevOn      []bool
	EverOn      []bool
	PrevRating  []int32
	Stage2From  int64
	RuleSet     []byte
	// Periods: a fingerprint of each listed period's rated games (stale.go).
	Periods []periodHash
}

// fingerprint identifies the rules and period kind a state was made with.
func fingerprint(r Rules, period string) string {
	var buf bytes.Buffer
	toml.NewEncoder(&buf).Encode(r)
	sum := sha256.Sum256(append(buf.Bytes(), period...))
	return hex.EncodeToString(sum[:8])
}

// snapshot captures the run's state after the list of period key.
func (r *runner) snapshot(key int) (*savedState, error) {
	st := r.st
	s := &savedState{
		Version: stateVersion, Fingerprint: r.fingerprint, Key: key,
		PlayerIDs: r.arch.Players.ID, Rated: clone(st.Rated), Rating: clone(st.Rating),
		GamesTotal: clone(st.GamesTotal), Tournaments: clone(st.Tournaments), Stage: st.Stage,
		PrevOn: clone(r.prevOn), EverOn: clone(r.everOn), PrevRating: clone(r.prevRating), Stage2From: r.sum.Stage2From,
		Periods: r.savedHashes(key),
	}
	if sn, ok := r.rules.(Snapshotter); ok {
		b, err := sn.MarshalState()
		if err != nil {
			return nil, fmt.Errorf("state of the rule set: %w", err)
		}
		s.RuleSet = b
	}
	return s, nil
}

func clone[T any](s []T) []T { return append([]T(nil), s...) }

func encodeState(w io.Writer, s *savedState) error {
	var body bytes.Buffer
	fw, _ := flate.NewWriter(&body, flate.BestSpeed)
	if err := gob.NewEncoder(fw).Encode(s); err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	sum := sha256.Sum256(body.Bytes())
	if _, err := fmt.Fprintf(w, "ratelist-state v%d %s\n", stateVersion, hex.EncodeToString(sum[:])); err != nil {
		return err
	}
	_, err := w.Write(body.Bytes())
	return err
}

func decodeState(data []byte) (*savedState, error) {
	line, body, ok := bytes.Cut(data, []byte("\n"))
	var version int
	var sum string
	if !ok {
		return nil, fmt.Errorf("%w: no header", ErrBadState)
	}
	if _, err := fmt.Sscanf(string(line), "ratelist-state v%d %s", &version, &sum); err != nil || version != stateVersion {
		return nil, fmt.Errorf("%w: header %q (want version %d)", ErrBadState, line, stateVersion)
	}
	got := sha256.Sum256(body)
	if hex.EncodeToString(got[:]) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrBadState)
	}
	var s savedState
	if err := gob.NewDecoder(flate.NewReader(bytes.NewReader(body))).Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	n := len(s.PlayerIDs)
	for _, l := range []int{len(s.Rated), len(s.Rating), len(s.GamesTotal), len(s.Tournaments), len(s.PrevOn), len(s.EverOn), len(s.PrevRating)} {
		if l != n {
			return nil, fmt.Errorf("%w: arrays of different lengths", ErrBadState)
		}
	}
	return &s, nil
}

// loadStateFor reads state/LABEL.state for period key, or the latest state when
// key < 0. It returns nil when there is none.
func (r *runner) loadStateFor(key int) (*savedState, string, error) {
	dir := filepath.Join(r.opt.Out, "state")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", dir, err)
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".state") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	want := ""
	if key >= 0 {
		want = periodLabel(r.opt.Period, key) + ".state"
	} else if len(names) > 0 {
		want = names[len(names)-1]
	}
	for _, n := range names {
		if n != want {
			continue
		}
		p := filepath.Join(dir, n)
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, "", fmt.Errorf("read %s: %w", p, err)
		}
		s, err := decodeState(data)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", p, err)
		}
		return s, p, nil
	}
	return nil, "", nil
}

// restore puts a saved state into the run, matching players by id (players
// added to the registry since start unrated).
func (r *runner) restore(s *savedState) error {
	if s.Fingerprint != r.fingerprint {
		return fmt.Errorf("%w: it was made with other rules or another --period", ErrBadState)
	}
	st := r.st
	if _, ok := r.rules.(Snapshotter); ok && !equalIDs(s.PlayerIDs, r.arch.Players.ID) {
		// The rule set's own state uses dense player indexes.
		return fmt.Errorf("%w: the player registry changed since it was saved", ErrBadState)
	}
	for i, id := range s.PlayerIDs {
		p := r.arch.Players.Index(id)
		if p < 0 {
			if s.Rated[i] || s.EverOn[i] {
				return fmt.Errorf("%w: player %d of the state is no longer in the registry", ErrBadState, id)
			}
			continue
		}
		st.Rated[p], st.Rating[p], st.GamesTotal[p], st.Tournaments[p] = s.Rated[i], s.Rating[i], s.GamesTotal[i], s.Tournaments[i]
		r.prevOn[p], r.everOn[p], r.prevRating[p] = s.PrevOn[i], s.EverOn[i], s.PrevRating[i]
	}
	st.Stage = s.Stage
	r.sum.Stage2From = s.Stage2From
	r.oldHashes = s.Periods
	var rs rating.RuleSet = r.rules
	if sn, ok := rs.(Snapshotter); ok {
		if err := sn.UnmarshalState(s.RuleSet); err != nil {
			return fmt.Errorf("%w: rule set: %w", ErrBadState, err)
		}
	} else if len(s.RuleSet) > 0 {
		return fmt.Errorf("%w: the rule set cannot take its saved state", ErrBadState)
	}
	if sr, ok := rs.(*rating.SchoolRater); ok {
		sr.Recount(st)
	}
	return nil
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
