package pqwrite

import (
	"sync"

	"github.com/parquet-go/parquet-go"
)

// spare keeps the buffers of closed writers' columns for the next files'
// columns of the same kind: a run writes dozens of files, and fresh buffers
// cost zeroing, page faults and hash tables regrown value by value.
var spare struct {
	sync.Mutex
	cols map[spareKey][]*columnBuffers
	bufs []*pageBuffers
}

// spareKey is the kind of column a column's buffers fit.
type spareKey struct {
	kind parquet.Kind
	dict bool
}

// columnBuffers are a column's page, slabs, dictionary and dictionary page
// (and StringIndexes' scratch), emptied.
type columnBuffers struct {
	page     *page
	slabs    [][]byte
	dict     *dictionary
	dictPage []byte
	dictIdx  []int32
	dictVals []dictIndex
}

// maxSpare bounds the buffers kept of each kind: about the columns of the
// files a run has open at once.
const maxSpare = 32

// takeColumnBuffers returns spare buffers of a column of kind (with a
// dictionary or not), or new ones.
func takeColumnBuffers(kind parquet.Kind, dict bool) *columnBuffers {
	k := spareKey{kind, dict}
	spare.Lock()
	defer spare.Unlock()
	if s := spare.cols[k]; len(s) > 0 {
		b := s[len(s)-1]
		spare.cols[k] = s[:len(s)-1]
		return b
	}
	b := &columnBuffers{page: new(page)}
	if dict {
		b.dict = newDictionary(kind)
	}
	return b
}

// takePageBuffers returns spare page buffers, or new ones.
func takePageBuffers() *pageBuffers {
	spare.Lock()
	defer spare.Unlock()
	if n := len(spare.bufs); n > 0 {
		b := spare.bufs[n-1]
		spare.bufs = spare.bufs[:n-1]
		return b
	}
	return new(pageBuffers)
}

// release hands the row group's buffers to spare; rg is not used after.
func (rg *RowGroup) release() {
	spare.Lock()
	defer spare.Unlock()
	if spare.cols == nil {
		spare.cols = map[spareKey][]*columnBuffers{}
	}
	for _, c := range rg.cols {
		k := spareKey{c.kind, c.dict != nil}
		if len(spare.cols[k]) >= maxSpare {
			continue
		}
		c.page.reset()
		for i := range c.slabs {
			c.slabs[i] = c.slabs[i][:0]
		}
		if c.dict != nil {
			c.dict.reset()
		}
		spare.cols[k] = append(spare.cols[k], &columnBuffers{c.page, c.slabs, c.dict, c.dictPage[:0], c.dictIdx, c.dictVals})
		c.page, c.slabs, c.dict, c.dictPage, c.dictIdx, c.dictVals = nil, nil, nil, nil, nil, nil
	}
	if len(spare.bufs) < maxSpare {
		spare.bufs = append(spare.bufs, rg.buf)
	}
	rg.buf = nil
}
