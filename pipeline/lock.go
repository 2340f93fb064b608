package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrLocked is returned when another run holds the output folder's lock.
var ErrLocked = errors.New("output folder is locked by another run")

// The files of ratelist's own in --out besides the outputs: the marker that
// says the folder is ratelist's, and the lock.
const (
	outMarker = ".ratelist-out"
	lockName  = ".ratelist.lock"
)

const outMarkerText = "This folder is written by ratelist run. Every file in it is ratelist's: " +
	"a run removes what a fresh run with the same options would not write.\n"

// claimOut refuses an --out that is not ratelist's before anything is
// written there: a folder with files but neither the marker nor a lock file
// (which every run, even a failed one, leaves) is left untouched, since a run
// removes the files it did not write. A successful run's commit writes the
// marker (markOut).
func claimOut(out string) error {
	ents, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read output folder: %w", err)
	}
	for _, e := range ents {
		if e.Name() == outMarker || e.Name() == lockName {
			return nil
		}
	}
	if len(ents) > 0 {
		return &OptionError{"Out", fmt.Errorf("%w: %s is not empty and has no %s file, so ratelist did not write it "+
			"(a run removes every file it did not write): give a new or empty folder", ErrUsage, out, outMarker)}
	}
	return nil
}

// markOut writes the marker into --out unless it is there.
func markOut(out string) error {
	p := filepath.Join(out, outMarker)
	if _, err := os.Lstat(p); err == nil {
		return nil
	}
	if err := os.WriteFile(p, []byte(outMarkerText), 0o644); err != nil {
		return fmt.Errorf("mark output folder: %w", err)
	}
	return nil
}

// outLock is an flock(2) on --out/.ratelist.lock holding the owner's pid. The
// kernel drops the lock when its process dies, so a lock left by a killed run
// is simply taken over; the pid in the file is only for the message.
type outLock struct{ f *os.File }

func lockOut(out string) (*outLock, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	p := filepath.Join(out, lockName)
	f, err := openNoFollow(p)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", p, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder := "unknown pid"
		if b, rerr := os.ReadFile(p); rerr == nil && len(strings.TrimSpace(string(b))) > 0 {
			holder = "pid " + strings.TrimSpace(string(b))
		}
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s holds %s", ErrLocked, holder, p)
		}
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &outLock{f}, nil
}

// openNoFollow opens (or creates) the file p for writing; a symlink at p is
// replaced by a file, never written through.
func openNoFollow(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		if err = os.Remove(p); err == nil {
			f, err = os.OpenFile(p, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
		}
	}
	return f, err
}

func (l *outLock) unlock() {
	l.f.Truncate(0)
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}
