package importer

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
)

// noDate is a spilled game without a day.
const noDate = math.MinInt32

// spilled is one placed game of a PGN import, waiting for its event's
// tournament_id.
type spilled struct {
	event, round, date int32
	white, black       int64
	wres, bres         byte
}

const spilledSize = 4*3 + 8*2 + 2

// spill is a temporary file of placed games: a PGN import holds no game in
// memory, however many an event has.
type spill struct {
	f *os.File
	w *bufio.Writer
	n int64
}

func newSpill() (*spill, error) {
	f, err := os.CreateTemp("", "ratelist-pgn-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("spill file: %w", err)
	}
	return &spill{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

func (s *spill) write(g spilled) error {
	var b [spilledSize]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(g.event))
	binary.LittleEndian.PutUint32(b[4:], uint32(g.round))
	binary.LittleEndian.PutUint32(b[8:], uint32(g.date))
	binary.LittleEndian.PutUint64(b[12:], uint64(g.white))
	binary.LittleEndian.PutUint64(b[20:], uint64(g.black))
	b[28], b[29] = g.wres, g.bres
	s.n++
	if _, err := s.w.Write(b[:]); err != nil {
		return fmt.Errorf("spill file: %w", err)
	}
	return nil
}

// each reads the games back in the order written.
func (s *spill) each(fn func(spilled) error) error {
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("spill file: %w", err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("spill file: %w", err)
	}
	r := bufio.NewReaderSize(s.f, 64<<10)
	var b [spilledSize]byte
	for i := int64(0); i < s.n; i++ {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return fmt.Errorf("spill file: %w", err)
		}
		g := spilled{event: int32(binary.LittleEndian.Uint32(b[0:])), round: int32(binary.LittleEndian.Uint32(b[4:])),
			date: int32(binary.LittleEndian.Uint32(b[8:])), white: int64(binary.LittleEndian.Uint64(b[12:])),
			black: int64(binary.LittleEndian.Uint64(b[20:])), wres: b[28], bres: b[29]}
		if err := fn(g); err != nil {
			return err
		}
	}
	return nil
}

// close removes the file.
func (s *spill) close() {
	s.f.Close()
	os.Remove(s.f.Name())
}
