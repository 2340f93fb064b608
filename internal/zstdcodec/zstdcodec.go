// Package zstdcodec is the zstd Parquet codec of the archive's writers:
// parquet-go's, with its encoders kept for the process. parquet-go keeps them
// in a sync.Pool, which drops them at every GC (and at random under the race
// detector), and each new one allocates about a megabyte of tables, so small
// files paid for an encoder each. The compressed bytes are the same.
package zstdcodec

import (
	"sync"

	"github.com/klauspost/compress/zstd"
	pqzstd "github.com/parquet-go/parquet-go/compress/zstd"
)

// Codec is the codec to pass to parquet.Compression.
var Codec = &codec{}

type codec struct {
	pqzstd.Codec // name and decoding
	mu           sync.Mutex
	free         []*zstd.Encoder // never more than were in use at once
}

// Encode compresses src as parquet-go's codec does, with its default level.
func (c *codec) Encode(dst, src []byte) ([]byte, error) {
	e, err := c.get()
	if err != nil {
		return nil, err
	}
	defer c.put(e)
	return e.EncodeAll(src, dst[:0]), nil
}

func (c *codec) get() (*zstd.Encoder, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.free); n > 0 {
		e := c.free[n-1]
		c.free = c.free[:n-1]
		return e, nil
	}
	return zstd.NewWriter(nil, zstd.WithEncoderConcurrency(pqzstd.DefaultConcurrency),
		zstd.WithEncoderLevel(pqzstd.DefaultLevel), zstd.WithZeroFrames(true), zstd.WithEncoderCRC(false))
}

func (c *codec) put(e *zstd.Encoder) {
	c.mu.Lock()
	c.free = append(c.free, e)
	c.mu.Unlock()
}
