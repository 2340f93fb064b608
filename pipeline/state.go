package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/BurntSushi/toml"
	"github.com/klauspost/compress/s2"

	"github.com/ratelist/ratelist/day"
	"github.com/ratelist/ratelist/internal/freelist"
	"github.com/ratelist/ratelist/internal/varbin"
	"github.com/ratelist/ratelist/output"
	"github.com/ratelist/ratelist/rating"
)

// The run state kept under --out/state/ lets a later run continue (--resume) or
// re-rate from a period on (--from) without reprocessing from the start. One file
// per list period, LABEL.state, holds everything the run knew right after writing
// that list. Format: a header line "ratelist-state v7 SHA256HEX\n", then the
// data of appendState as an S2 block; the checksum covers the compressed
// bytes. Other versions are refused: a full run rebuilds them.
const stateVersion = 7

// ErrBadState marks a state file that is damaged or of another version.
var ErrBadState = errors.New("bad state file")

type savedState struct {
	Fingerprint string // rules and period kind
	Key         int    // the list period this state follows
	First       int    // the first list period of the run that saved it
	PlayerIDs   []int64
	Rated       []bool
	Rating      []int32
	GamesTotal  []int32
	Tournaments []int32
	PrevOn      []bool
	EverOn      []bool
	PrevRating  []int32
	RuleSet     []byte // the rule set's own state (rating.Snapshotter)
	// Periods: a fingerprint of each listed period's inputs, and Start of
	// what the rule set rated before any game (stale.go).
	Periods []periodHash
	Start   uint64
}

// fingerprint identifies the rules and period kind a state was made with:
// the settings of the rule set def in use (not of every registered one, so
// that registering another leaves it as it was), the table rule sets' and
// the tiebreaks'.
func fingerprint(r Rules, def *rating.Definition, period string) string {
	var buf bytes.Buffer
	toml.NewEncoder(&buf).Encode(r.documentOf([]*rating.Definition{def}).Interface())
	sum := sha256.Sum256(append(buf.Bytes(), period...))
	return hex.EncodeToString(sum[:8])
}

// snapshot captures the run's state after the list of period key, in the
// buffers of a released snapshot when there is one.
func (r *rater) snapshot(key int) (*savedState, error) {
	st, l := r.st, &r.lists
	old := savedFree.Get()
	s := &savedState{
		Fingerprint: r.fingerprint, Key: key, First: r.periods.first,
		PlayerIDs: r.players.ID, Rated: cloneInto(old.Rated, st.Rated), Rating: cloneInto(old.Rating, st.Rating),
		GamesTotal: cloneInto(old.GamesTotal, st.GamesTotal), Tournaments: cloneInto(old.Tournaments, st.Tournaments),
		PrevOn: cloneInto(old.PrevOn, l.prevOn), EverOn: cloneInto(old.EverOn, l.everOn), PrevRating: cloneInto(old.PrevRating, l.prevRating),
		Periods: r.hashes.saved(key, &r.win), Start: r.hashes.savedStart(),
	}
	var err error
	switch sn := r.rules.(type) {
	case rating.StateAppender:
		s.RuleSet, err = sn.AppendState(old.RuleSet[:0])
	case rating.Snapshotter:
		s.RuleSet, err = sn.MarshalState()
	}
	if err != nil {
		return nil, fmt.Errorf("state of the rule set: %w", err)
	}
	return s, nil
}

// savedFree keeps snapshots whose file is written (release), for the next
// snapshot to copy into: a snapshot is megabytes, taken every period.
var savedFree = freelist.New[savedState](2)

// release hands s's buffers to the next snapshot; s is not used after.
func (s *savedState) release() { savedFree.Put(s) }

// cloneInto returns a copy of s, in dst's room when it has enough.
func cloneInto[T any](dst, s []T) []T { return append(dst[:0], s...) }

// stateBufs keeps encodeState's buffers for the next state: a state is
// megabytes, written every period, and fresh buffers cost zeroing and page
// faults each time.
var stateBufs = freelist.New[stateBuffers](2)

type stateBuffers struct{ raw, body []byte }

func encodeState(w io.Writer, s *savedState) error {
	bufs := stateBufs.Get()
	defer stateBufs.Put(bufs)
	size := 64 + len(s.Fingerprint) + 12*len(s.PlayerIDs) + 18*len(s.Periods) + len(s.RuleSet) // usually enough
	bufs.raw = appendState(roomFor(bufs.raw, size), s)
	body, err := compressState(roomFor(bufs.body, s2.MaxEncodedLen(len(bufs.raw))), bufs.raw)
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	bufs.body = body
	sum := sha256.Sum256(body)
	if _, err := fmt.Fprintf(w, "ratelist-state v%d %s\n", stateVersion, hex.EncodeToString(sum[:])); err != nil {
		return err
	}
	_, err = w.Write(body)
	return err
}

func decodeState(data []byte) (*savedState, error) {
	line, body, ok := bytes.Cut(data, []byte("\n"))
	var version int
	var sum string
	if !ok {
		return nil, fmt.Errorf("%w: no header", ErrBadState)
	}
	if _, err := fmt.Sscanf(string(line), "ratelist-state v%d %s", &version, &sum); err != nil {
		return nil, fmt.Errorf("%w: header %q", ErrBadState, line)
	}
	if version != stateVersion {
		return nil, fmt.Errorf("%w: version %d, this ratelist reads version %d (a full run rebuilds it)", ErrBadState, version, stateVersion)
	}
	got := sha256.Sum256(body)
	if hex.EncodeToString(got[:]) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrBadState)
	}
	raw, err := s2.Decode(nil, body)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadState, err)
	}
	d := varbin.NewDecoder(raw)
	s := readState(d)
	if d.Err() != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadState, d.Err())
	}
	return s, nil
}

// roomFor returns buf emptied, with room for n bytes: half as much again
// when it must grow, as a rule set's state grows from period to period with
// the players listed.
func roomFor(buf []byte, n int) []byte {
	if cap(buf) >= n {
		return buf[:0]
	}
	return make([]byte, 0, n+n/2)
}

// compressState packs the data of a state file as one S2 block, in dst's
// room when it has enough: cheap to make, and the varints leave little for a
// stronger codec to find.
func compressState(dst, raw []byte) ([]byte, error) {
	if s2.MaxEncodedLen(len(raw)) < 0 {
		return nil, fmt.Errorf("%d bytes of state: too large for one block", len(raw))
	}
	return s2.Encode(dst, raw), nil
}

// The data of a state file, before compression: the scalars as varints and
// strings as a length and bytes, then the player count n and the player
// columns: ints as n varints (player ids as the difference from the id
// before), bools as n bits.

func appendState(b []byte, s *savedState) []byte {
	b = varbin.AppendString(b, s.Fingerprint)
	b = binary.AppendVarint(b, int64(s.Key))
	b = binary.AppendVarint(b, int64(s.First))
	b = binary.AppendUvarint(b, uint64(len(s.PlayerIDs)))
	b = varbin.AppendVarints(b, s.PlayerIDs, true)
	for _, col := range [][]bool{s.Rated, s.PrevOn, s.EverOn} {
		b = varbin.AppendBools(b, col)
	}
	for _, col := range [][]int32{s.Rating, s.GamesTotal, s.Tournaments, s.PrevRating} {
		b = varbin.AppendVarints(b, col, false)
	}
	b = binary.AppendUvarint(b, uint64(len(s.Periods)))
	for _, ph := range s.Periods {
		b = binary.AppendVarint(b, int64(ph.Key))
		b = binary.LittleEndian.AppendUint64(b, ph.Hash)
	}
	b = binary.LittleEndian.AppendUint64(b, s.Start)
	return varbin.AppendString(b, s.RuleSet)
}

// readState reads what appendState wrote.
func readState(d *varbin.Decoder) *savedState {
	s := &savedState{Fingerprint: d.String()}
	s.Key = int(d.Varint())
	s.First = int(d.Varint())
	n := d.Count() // each player takes at least a byte: a damaged count allocates nothing
	s.PlayerIDs, s.Rated, s.Rating = make([]int64, n), make([]bool, n), make([]int32, n)
	s.GamesTotal, s.Tournaments, s.PrevOn = make([]int32, n), make([]int32, n), make([]bool, n)
	s.EverOn, s.PrevRating = make([]bool, n), make([]int32, n)
	varbin.Varints(d, s.PlayerIDs, true)
	for _, col := range [][]bool{s.Rated, s.PrevOn, s.EverOn} {
		d.Bools(col)
	}
	for _, col := range [][]int32{s.Rating, s.GamesTotal, s.Tournaments, s.PrevRating} {
		varbin.Varints(d, col, false)
	}
	for range d.Count() {
		s.Periods = append(s.Periods, periodHash{Key: int(d.Varint()), Hash: d.Uint64()})
	}
	s.Start = d.Uint64()
	if rs := d.String(); rs != "" {
		s.RuleSet = []byte(rs)
	}
	d.End()
	return s
}

// loadStateFor reads out/state/LABEL.state for period key (of the kind), the
// latest state at or before it (upTo), or the latest state when key < 0. It
// returns nil when there is none.
func loadStateFor(out string, kind day.Kind, key int, upTo bool) (*savedState, string, error) {
	labels, err := output.State.Keys(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	want := ""
	if key >= 0 {
		want = day.Period{Kind: kind, Key: key}.Label()
		if upTo {
			i, _ := slices.BinarySearch(labels, want+"\xff")
			want = ""
			if i > 0 {
				want = labels[i-1]
			}
		}
	} else if len(labels) > 0 {
		want = labels[len(labels)-1]
	}
	if want == "" || !slices.Contains(labels, want) {
		return nil, "", nil
	}
	p := output.State.Path(out, want)
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

// restore puts a saved state into the run, matching players by id: players
// added to the registry since start as they would in a full run; a player no
// longer in it is dropped (the games he played changed too, so their periods
// are named stale).
func (r *rater) restore(s *savedState) error {
	if s.Fingerprint != r.fingerprint {
		return fmt.Errorf("%w: it was made with other rules or another period kind", ErrBadState)
	}
	st, l := r.st, &r.lists
	var remap []int32
	if !equalIDs(s.PlayerIDs, r.players.ID) {
		remap = make([]int32, len(s.PlayerIDs))
	}
	for i, id := range s.PlayerIDs {
		p := r.players.Index(id)
		if remap != nil {
			remap[i] = p
		}
		if p < 0 {
			continue
		}
		st.Rated[p], st.Rating[p], st.GamesTotal[p], st.Tournaments[p] = s.Rated[i], s.Rating[i], s.GamesTotal[i], s.Tournaments[i]
		l.prevOn[p], l.everOn[p], l.prevRating[p] = s.PrevOn[i], s.EverOn[i], s.PrevRating[i]
	}
	r.hashes.old, r.hashes.oldFirst = s.Periods, s.First
	r.hashes.resumeStart(s.Start)
	if sn, ok := r.rules.(rating.Snapshotter); ok {
		if err := sn.UnmarshalState(s.RuleSet, remap); err != nil {
			return fmt.Errorf("%w: rule set: %w", ErrBadState, err)
		}
	} else if len(s.RuleSet) > 0 {
		return fmt.Errorf("%w: the rule set cannot take its saved state", ErrBadState)
	}
	if rs, ok := r.rules.(rating.Restorer); ok {
		rs.Restored(st)
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
