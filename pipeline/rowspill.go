package pipeline

import (
	"fmt"
	"os"
	"sync"
	"unsafe"
)

// spillRows is how many rows the producer holds in memory for tournaments
// still to hand on (about 20 MB); past it, a complete tournament waiting for
// an earlier one goes to the rowSpill until rating order reaches its end date.
const spillRows = 1 << 19

// chunkRows is the rows of one chunk of a rowSpill (40 KB): the unit written
// and read, so that a spilled row costs a copy, not a system call.
const chunkRows = 1024

// rowSpill is a temporary file holding the rows of complete tournaments that
// wait for an earlier one: in a games file written month by month, about a
// month of games waits, so memory would grow with the games per month. The
// rows are kept per end date, each date's in chunks; rating order takes a
// date's tournaments together, so a date is read back whole, once, and its
// chunks are reused: the file stays near the most rows spilled at once.
type rowSpill struct {
	inMemory int64               // the rows the producer's held tournaments have room for in memory
	limit    int64               // past it in memory, complete tournaments spill (spillRows; tests lower it)
	tours    map[int]spilledRows // per tournament position, its rows spilled
	f        *os.File
	size     int64                // bytes: the end of the last chunk
	free     []int64              // the offsets of free chunks
	dates    map[int32]*spillDate // per end date, what is spilled
	bufs     [][]gameRow          // spillDate.last buffers for reuse
	back     sync.Pool            // of *rowBlock: the blocks dates are read back into
	read     *rowBlock            // the last date read back, and its end date
	readEnd  int32
	off      bool // no file could be made: rows stay in memory
	gone     bool // the file's name is removed already
}

// spillDate is what a rowSpill holds of one end date.
type spillDate struct {
	chunks []int64   // the offsets of its full chunks, in order
	last   []gameRow // its last chunk, not written yet
	tours  int32     // how many tournaments
}

// rows is how many rows d holds.
func (d *spillDate) rows() int64 { return int64(len(d.chunks))*chunkRows + int64(len(d.last)) }

// spilledRows is where a tournament's rows are among its end date's.
type spilledRows struct {
	at int64
	n  int32
}

// rowBytes is rows' memory as bytes: a gameRow holds no pointer, and the file
// is read back by the same process.
func rowBytes(rows []gameRow) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(rows))), len(rows)*int(unsafe.Sizeof(gameRow{})))
}

// write adds the rows of a tournament ending on end; not ok when no file
// could be made (the rows stay where they are).
func (s *rowSpill) write(end int32, rows []gameRow) (spilledRows, bool, error) {
	if s.off {
		return spilledRows{}, false, nil
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "ratelist-rows-*.tmp")
		if err != nil {
			// Only memory is lost: a run does not need a temporary directory.
			s.off = true
			return spilledRows{}, false, nil
		}
		s.f, s.dates = f, map[int32]*spillDate{}
		// Gone at once where the system allows it: a killed run leaves nothing.
		s.gone = os.Remove(f.Name()) == nil
	}
	d := s.dates[end]
	if d == nil {
		d = &spillDate{last: s.buffer()}
		s.dates[end] = d
	}
	e := spilledRows{at: d.rows(), n: int32(len(rows))}
	d.tours++
	for len(rows) > 0 {
		k := copy(d.last[len(d.last):chunkRows], rows)
		d.last, rows = d.last[:len(d.last)+k], rows[k:]
		if len(d.last) == chunkRows {
			at := s.chunk()
			if _, err := s.f.WriteAt(rowBytes(d.last), at); err != nil {
				return spilledRows{}, false, fmt.Errorf("rows spill file: %w", err)
			}
			d.chunks, d.last = append(d.chunks, at), d.last[:0]
		}
	}
	return e, true, nil
}

// buffer returns an empty buffer of chunkRows rows.
func (s *rowSpill) buffer() []gameRow {
	if n := len(s.bufs); n > 0 {
		b := s.bufs[n-1]
		s.bufs = s.bufs[:n-1]
		return b
	}
	return make([]gameRow, 0, chunkRows)
}

// chunk returns the offset of a free chunk of the file.
func (s *rowSpill) chunk() int64 {
	if n := len(s.free); n > 0 {
		at := s.free[n-1]
		s.free = s.free[:n-1]
		return at
	}
	at := s.size
	s.size += chunkRows * int64(unsafe.Sizeof(gameRow{}))
	return at
}

// take returns the rows e of a tournament ending on end, reading the date's
// rows back on its first tournament.
func (s *rowSpill) take(end int32, e spilledRows) (tourRows, error) {
	if s.read == nil || s.readEnd != end {
		b, err := s.readDate(end)
		if err != nil {
			return tourRows{}, err
		}
		s.read, s.readEnd = b, end
	}
	k := e.at + int64(e.n)
	return tourRows{rows: s.read.rows[e.at:k:k], block: s.read}, nil
}

// readDate returns the rows spilled for end in a block held once for each of
// its tournaments, and forgets them: rating order has reached end, so no more
// come.
func (s *rowSpill) readDate(end int32) (*rowBlock, error) {
	d := s.dates[end]
	delete(s.dates, end)
	n := d.rows()
	b, _ := s.back.Get().(*rowBlock)
	if b == nil || int64(cap(b.rows)) < n {
		b = &rowBlock{rows: make([]gameRow, 0, max(n, slabRows)), free: &s.back}
	}
	b.rows = b.rows[:n]
	b.refs.Store(d.tours)
	for i, at := range d.chunks {
		if _, err := s.f.ReadAt(rowBytes(b.rows[i*chunkRows:(i+1)*chunkRows]), at); err != nil {
			return nil, fmt.Errorf("rows spill file: %w", err)
		}
	}
	copy(b.rows[len(d.chunks)*chunkRows:], d.last)
	s.free = append(s.free, d.chunks...)
	s.bufs = append(s.bufs, d.last[:0])
	return b, nil
}

// close removes the file, if one was made.
func (s *rowSpill) close() {
	if s.f != nil {
		s.f.Close()
		if !s.gone {
			os.Remove(s.f.Name())
		}
		s.f = nil
	}
}
