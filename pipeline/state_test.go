package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

func TestStateRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		s    *savedState
	}{
		{"empty", &savedState{Fingerprint: "f"}},
		{"full", &savedState{
			Fingerprint: "0123abcd", Key: 2025*12 + 1, PlayerIDs: []int64{5, 1 << 40, 7},
			Rated: []bool{true, false, true}, Rating: []int32{1500, 0, -3}, GamesTotal: []int32{9, 0, 1},
			Tournaments: []int32{1, 0, 2}, PrevOn: []bool{true, false, false}, EverOn: []bool{true, false, true},
			PrevRating: []int32{1490, 0, 1000}, RuleSet: []byte{0, 1, 2},
			Periods: []periodHash{{Key: -1, Hash: 1<<64 - 1}, {Key: 24301, Hash: 7}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := encodeState(&b, tt.s); err != nil {
				t.Fatal(err)
			}
			got, err := decodeState(b.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			want := *tt.s
			for _, s := range []*savedState{got, &want} { // nil and empty columns are the same
				for _, col := range []any{&s.PlayerIDs, &s.Rated, &s.Rating, &s.GamesTotal, &s.Tournaments, &s.PrevOn, &s.EverOn, &s.PrevRating} {
					if v := reflect.ValueOf(col).Elem(); v.Len() == 0 {
						v.SetZero()
					}
				}
			}
			if !reflect.DeepEqual(got, &want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, &want)
			}
		})
	}
}

func TestStateRefused(t *testing.T) {
	var good bytes.Buffer
	s := &savedState{Fingerprint: "f", PlayerIDs: []int64{1}, Rated: []bool{true}, Rating: []int32{1},
		GamesTotal: []int32{1}, Tournaments: []int32{1}, PrevOn: []bool{true}, EverOn: []bool{true}, PrevRating: []int32{1}}
	if err := encodeState(&good, s); err != nil {
		t.Fatal(err)
	}
	raw := appendState(nil, s)
	// A state without players or periods: the fingerprint "f" as a length and a
	// byte, the key, the first list, the player count (byte 4), the period
	// count (byte 5), the start's 8 bytes and an empty rule set. A count far beyond the data must be refused before
	// anything is allocated for it.
	empty := appendState(nil, &savedState{Fingerprint: "f"})
	if len(empty) != 15 || empty[4] != 0 || empty[5] != 0 {
		t.Fatalf("empty state encodes as % x; the cases below assume another layout", empty)
	}
	huge := binary.AppendUvarint(nil, 1<<40)
	tests := []struct {
		name    string
		data    []byte
		wantMsg string
	}{
		{"version 1", []byte("ratelist-state v1 00\nxx"), "version 1, this ratelist reads version 7 (a full run rebuilds it)"},
		{"version 3", []byte("ratelist-state v3 00\nxx"), "version 3, this ratelist reads version 7"},
		// Version 4 held the same data zstd-compressed.
		{"version 4", zstdStateV4(raw), "version 4, this ratelist reads version 7"},
		{"version 5", []byte("ratelist-state v5 00\nxx"), "version 5, this ratelist reads version 7"},
		{"version 6", []byte("ratelist-state v6 00\nxx"), "version 6, this ratelist reads version 7"},
		{"no header", []byte("ratelist"), "no header"},
		{"checksum", append(bytes.Clone(good.Bytes()), 0), "checksum"},
		// A block of 7 bytes whose first tag needs 4 bytes after it: a small
		// declared length, so the decoder fails on the data, not after a huge buffer.
		{"not an S2 block", stateFileBody([]byte{7, 0xff, 1, 2}), "s2"},
		{"truncated data", stateFile(raw[:len(raw)-3]), "data ends early"},
		{"trailing data", stateFile(append(raw, 9)), "data after the end"},
		{"huge player count", stateFile(slices.Concat(empty[:4], huge, empty[5:])), "data ends early"},
		{"huge period count", stateFile(slices.Concat(empty[:5], huge, empty[6:])), "data ends early"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeState(tt.data)
			if !errors.Is(err, ErrBadState) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("decodeState: %v, want ErrBadState with %q", err, tt.wantMsg)
			}
		})
	}
}

// stateFile makes a state file around raw (uncompressed) data.
func stateFile(raw []byte) []byte {
	body, _ := compressState(nil, raw)
	return stateFileBody(body)
}

// stateFileBody makes a state file of this version around a compressed body.
func stateFileBody(body []byte) []byte {
	sum := sha256.Sum256(body)
	return append(fmt.Appendf(nil, "ratelist-state v%d %x\n", stateVersion, sum), body...)
}

// zstdStateV4 makes a state file as version 4 wrote it: the same data,
// zstd-compressed.
func zstdStateV4(raw []byte) []byte {
	body, _ := (&zstd.Codec{Level: zstd.SpeedFastest}).Encode(nil, raw)
	sum := sha256.Sum256(body)
	return append(fmt.Appendf(nil, "ratelist-state v4 %x\n", sum), body...)
}

// TestStateCompressed checks that the body is an S2 block of appendState's
// data, smaller than the data when it repeats.
func TestStateCompressed(t *testing.T) {
	n := 10000
	s := &savedState{Fingerprint: "f", PlayerIDs: make([]int64, n), Rated: make([]bool, n), Rating: make([]int32, n),
		GamesTotal: make([]int32, n), Tournaments: make([]int32, n), PrevOn: make([]bool, n), EverOn: make([]bool, n), PrevRating: make([]int32, n)}
	for i := range n {
		s.PlayerIDs[i], s.Rating[i], s.Rated[i] = int64(1000+2*i), 1500, true
	}
	var b bytes.Buffer
	if err := encodeState(&b, s); err != nil {
		t.Fatal(err)
	}
	_, body, _ := bytes.Cut(b.Bytes(), []byte("\n"))
	raw := appendState(nil, s)
	got, err := s2.Decode(nil, body)
	if err != nil {
		t.Fatalf("body is not an S2 block: %v", err)
	}
	if !bytes.Equal(got, raw) {
		t.Error("body does not hold appendState's data")
	}
	if len(body) >= len(raw)/2 {
		t.Errorf("body %d bytes for %d bytes of repetitive data", len(body), len(raw))
	}
}
