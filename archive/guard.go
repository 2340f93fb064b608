package archive

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// maxPageSize bounds a page's uncompressed size. parquet-go allocates what a page
// header or a zstd frame header claims before it can tell the claim is false, so a
// few hostile bytes could ask for gigabytes. Real pages are about 1 MB; 256 MB
// is generous.
const maxPageSize = 256 << 20

// checkPages reads the page headers of the column chunks that will be read (not
// the pages) and refuses sizes a page cannot have: a chunk outside the file, a
// page larger than maxPageSize, and zstd frames that claim more than their page.
// After it, what decompression can allocate is bounded by the file's size.
func checkPages(ra io.ReaderAt, size int64, pf *parquet.File, cols []int) error {
	var buf []byte
	for gi, rg := range pf.Metadata().RowGroups {
		for _, ci := range cols {
			if ci < 0 || ci >= len(rg.Columns) {
				continue
			}
			md := &rg.Columns[ci].MetaData
			start := md.DataPageOffset
			if md.DictionaryPageOffset > 0 && md.DictionaryPageOffset < start {
				start = md.DictionaryPageOffset
			}
			end := start + md.TotalCompressedSize
			if start < 4 || md.TotalCompressedSize < 0 || end > size || end < start {
				return fmt.Errorf("%w: row group %d column %d lies outside the file", ErrUnreadable, gi, ci)
			}
			for pos := start; pos < end; {
				var h format.PageHeader
				n, err := readPageHeader(ra, pos, end, &h, &buf)
				if err != nil {
					return fmt.Errorf("%w: row group %d column %d: page header at byte %d: %w", ErrUnreadable, gi, ci, pos, err)
				}
				body := pos + n
				if h.UncompressedPageSize < 0 || h.UncompressedPageSize > maxPageSize || h.CompressedPageSize < 0 ||
					body+int64(h.CompressedPageSize) > end {
					return fmt.Errorf("%w: row group %d column %d: page at byte %d claims %d bytes (%d compressed)",
						ErrUnreadable, gi, ci, pos, h.UncompressedPageSize, h.CompressedPageSize)
				}
				if md.Codec == format.Zstd {
					skip := int64(0)
					if v2, ok := h.DataPageHeaderV2.Get(); ok {
						skip = int64(v2.DefinitionLevelsByteLength) + int64(v2.RepetitionLevelsByteLength)
					}
					if err := checkZstdFrame(ra, body+skip, body+int64(h.CompressedPageSize), int64(h.UncompressedPageSize)); err != nil {
						return fmt.Errorf("%w: row group %d column %d: page at byte %d: %w", ErrUnreadable, gi, ci, pos, err)
					}
				}
				pos = body + int64(h.CompressedPageSize)
			}
		}
	}
	return nil
}

// checkZstdFrame reads the header of the zstd frame at [from, to) and refuses a
// frame whose content size or window is larger than the page it decodes to.
func checkZstdFrame(ra io.ReaderAt, from, to, pageSize int64) error {
	if to-from < 6 {
		return nil // too short to be a frame: the decoder will say so
	}
	var b [18]byte
	n, _ := ra.ReadAt(b[:min(int64(len(b)), to-from)], from)
	if n < 6 || binary.LittleEndian.Uint32(b[:4]) != 0xFD2FB528 {
		return nil
	}
	fhd := b[4]
	single := fhd>>5&1 == 1
	i := 5
	if !single {
		wd := b[i]
		i++
		log := 10 + uint(wd>>3)
		window := int64(1)<<log + (int64(1)<<log)/8*int64(wd&7)
		if window > max(pageSize, 1<<20) {
			return fmt.Errorf("zstd window of %d bytes for a page of %d", window, pageSize)
		}
	}
	i += [4]int{0, 1, 2, 4}[fhd&3] // dictionary id
	var fcs int64 = -1
	switch fhd >> 6 {
	case 0:
		if single && i < n {
			fcs = int64(b[i])
		}
	case 1:
		if i+2 <= n {
			fcs = int64(binary.LittleEndian.Uint16(b[i:])) + 256
		}
	case 2:
		if i+4 <= n {
			fcs = int64(binary.LittleEndian.Uint32(b[i:]))
		}
	case 3:
		if i+8 <= n {
			fcs = int64(binary.LittleEndian.Uint64(b[i:]) & (1<<62 - 1))
		}
	}
	if fcs > pageSize {
		return fmt.Errorf("zstd frame of %d bytes for a page of %d", fcs, pageSize)
	}
	return nil
}

// maxHeaderSize bounds a page header (its statistics may hold values).
const maxHeaderSize = 1 << 20

// readPageHeader decodes the page header at pos from a bounded buffer (4 KB,
// growing up to maxHeaderSize), so that a length inside a hostile header can
// never make the decoder allocate: it only slices the buffer. It returns the
// header's size.
func readPageHeader(ra io.ReaderAt, pos, end int64, h *format.PageHeader, buf *[]byte) (int64, error) {
	for size := int64(4 << 10); ; size *= 8 {
		size = min(size, end-pos, maxHeaderSize)
		if int64(cap(*buf)) < size {
			*buf = make([]byte, size)
		}
		b := (*buf)[:size]
		if _, err := ra.ReadAt(b, pos); err != nil && err != io.EOF {
			return 0, err
		}
		rd := new(thrift.CompactProtocol).NewReaderFromBytes(b)
		*h = format.PageHeader{}
		err := thrift.NewDecoder(rd).Decode(h)
		if err == nil {
			return int64(rd.BytesRead()), nil
		}
		if size == end-pos || size == maxHeaderSize {
			return 0, err
		}
	}
}
