package report

import (
	"testing"

	"github.com/zeebo/xxh3"
)

// TestKeyerLong: a long input hashed in parts gives the key of the whole.
func TestKeyerLong(t *testing.T) {
	var k, whole keyer
	for i := range int64(50_000) {
		k.ints(i, i*7)
		k.str("name")
	}
	for i := range int64(50_000) {
		whole.b = append(whole.b, k2bytes(i)...)
		whole.b = append(whole.b, k2bytes(i*7)...)
		whole.b = append(whole.b, k2bytes(4)...)
		whole.b = append(whole.b, "name"...)
	}
	if got, want := k.sum(), xxh3.Hash(whole.b)|1; got != want {
		t.Fatalf("key %x, want %x", got, want)
	}
	k.ints(1)
	if got, want := k.sum(), xxh3.Hash(k2bytes(1))|1; got != want {
		t.Fatalf("after a long key: %x, want %x", got, want)
	}
}

func k2bytes(v int64) []byte {
	var k keyer
	k.ints(v)
	return k.b
}
