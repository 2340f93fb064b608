package pqwrite

import (
	"github.com/parquet-go/parquet-go"

	"github.com/ratelist/ratelist/internal/freelist"
)

// spareCols and sparePages keep the buffers of closed writers' columns for
// the next files' columns of the same kind: a run writes dozens of files,
// and fresh buffers cost zeroing, page faults and hash tables regrown value
// by value. spareCols[2*kind+1] are dictionary columns'.
var (
	spareCols  [2 * (parquet.FixedLenByteArray + 1)]freelist.List[columnBuffers]
	sparePages = freelist.New[pageBuffers](maxSpare)
)

func init() {
	for i := range spareCols {
		spareCols[i] = freelist.New[columnBuffers](maxSpare)
	}
}

// spareOf is the list of spare buffers of columns of kind, with a dictionary or not.
func spareOf(kind parquet.Kind, dict bool) freelist.List[columnBuffers] {
	if dict {
		return spareCols[2*kind+1]
	}
	return spareCols[2*kind]
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
	b := spareOf(kind, dict).Get()
	if b.page == nil {
		b.page = new(page)
	}
	if dict && b.dict == nil {
		b.dict = newDictionary(kind)
	}
	return b
}

// release hands the row group's buffers to the spare lists; rg is not used after.
func (rg *RowGroup) release() {
	for _, c := range rg.cols {
		c.page.reset()
		for i := range c.slabs {
			c.slabs[i] = c.slabs[i][:0]
		}
		if c.dict != nil {
			c.dict.reset()
		}
		spareOf(c.kind, c.dict != nil).Put(&columnBuffers{c.page, c.slabs, c.dict, c.dictPage[:0], c.dictIdx, c.dictVals})
		c.page, c.slabs, c.dict, c.dictPage, c.dictIdx, c.dictVals = nil, nil, nil, nil, nil, nil
	}
	sparePages.Put(rg.buf)
	rg.buf = nil
}
