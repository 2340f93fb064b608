package report

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/zeebo/xxh3"
)

// marker is the file that marks a folder as a site written by Build. It also
// holds the manifest: one line per file of the site, its content hash, the
// key of what it was made from (0: unknown) and its path.
const marker = ".ratelist-site"

const markerHead = "written by ratelist report\n"

// IsSite says whether dir holds a site written by Build: its marker is there
// as a regular file (a link is not followed).
func IsSite(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, marker))
	return err == nil && fi.Mode().IsRegular()
}

// siteDirs are the folders of a site; Build removes files in them (and in the
// site's root) that the new site does not have.
var siteDirs = []string{"", "assets", "data", "players", "top", "tournaments"}

// sink writes the files of a site. Into a fresh folder it writes everything;
// over an earlier site it writes only files whose content hash differs from
// the earlier manifest (or that are missing), each through a temporary file
// and a rename, so a reader never sees half a page. A file whose key (a hash
// of everything it is made from) is the earlier one is kept without being
// made again.
type sink struct {
	dir    string
	update bool
	old    map[string]entry // earlier manifest, files that exist only
	had    map[string]bool  // the files of the earlier site

	mu      sync.Mutex
	io      sync.Mutex // held while a file is written
	now     map[string]entry
	written int
	keptN   int
}

// entry is a file of the manifest: its content hash and its key.
type entry struct{ hash, key uint64 }

// openSink opens the sink of the site in dir: a fresh one, or over the
// earlier site there when update, whose manifest readManifest sends on man.
func openSink(dir string, update bool, man <-chan manifest) (*sink, error) {
	k := &sink{dir: dir, update: update, old: map[string]entry{}, now: map[string]entry{}}
	var m manifest
	if update { // before anything is written: a link in the site refuses it
		if m = <-man; m.err != nil {
			return nil, m.err
		}
	}
	for _, d := range siteDirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("site: %w", err)
		}
	}
	if update {
		k.old, k.had = m.old, m.have
		// Until this update finishes the manifest lists nothing: an
		// interrupted update leaves files the manifest does not describe,
		// so the next one writes every file again.
		if err := writeManifest(dir, nil); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// manifest is an earlier site's manifest: the hashes of its files that still
// exist, and every file there is.
type manifest struct {
	old  map[string]entry
	have map[string]bool
	err  error
}

// readManifest reads the manifest of the site in dir.
func readManifest(dir string) manifest {
	m, have, err := readManifestFiles(dir)
	return manifest{m, have, err}
}

func readManifestFiles(dir string) (map[string]entry, map[string]bool, error) {
	have := map[string]bool{}
	if err := eachFile(dir, func(rel string) { have[rel] = true }); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(filepath.Join(dir, marker))
	if err != nil {
		return nil, nil, fmt.Errorf("site: %w", err)
	}
	defer f.Close()
	m := make(map[string]entry, len(have))
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		h, rel, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue // the marker's first line
		}
		var e entry
		if e.hash, err = strconv.ParseUint(h, 16, 64); err != nil {
			continue
		}
		if key, rest, ok := strings.Cut(rel, " "); ok {
			if e.key, err = strconv.ParseUint(key, 16, 64); err != nil {
				continue
			}
			rel = rest
		}
		if have[rel] {
			m[rel] = e
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("site %s: %w", marker, err)
	}
	return m, have, nil
}

// eachFile calls fn with the slash path of every regular file in the site's
// folders, the marker and temporary files left out. A symbolic link in the
// site's root or folders is an error (ErrSymlink): the site is ratelist's,
// and nothing is written or removed through a link.
func eachFile(dir string, fn func(rel string)) error {
	for _, d := range siteDirs { // the root first: it holds the folders
		ents, err := os.ReadDir(filepath.Join(dir, d))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("site: %w", err)
		}
		for _, e := range ents {
			if e.Type()&fs.ModeSymlink != 0 {
				return fmt.Errorf("site %s: %s is a symbolic link: %w", dir, pathJoin(d, e.Name()), ErrSymlink)
			}
			if !e.Type().IsRegular() || e.Name() == marker {
				continue
			}
			fn(pathJoin(d, e.Name()))
		}
	}
	return nil
}

func pathJoin(d, name string) string {
	if d == "" {
		return name
	}
	return d + "/" + name
}

// kept says whether the site holds the file rel made from key (not 0), and
// keeps it if so.
func (k *sink) kept(rel string, key uint64) bool {
	if !k.has(rel, key) {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.now[rel] = k.old[rel] // k.old is not written after the sink opens
	k.keptN++
	return true
}

// has says whether the site holds the file rel made from key (not 0), without
// keeping it.
func (k *sink) has(rel string, key uint64) bool {
	old, ok := k.old[rel]
	return key != 0 && ok && old.key == key
}

// put writes b, made from key (0: unknown), as the file rel of the site
// unless the site already holds it.
func (k *sink) put(rel string, b []byte, key uint64) error {
	h := xxh3.Hash(b)
	k.mu.Lock()
	_, twice := k.now[rel]
	k.now[rel] = entry{h, key}
	old, ok := k.old[rel]
	k.mu.Unlock()
	if twice {
		return fmt.Errorf("site: %s written twice", rel)
	}
	if ok && old.hash == h {
		return nil
	}
	p := filepath.Join(k.dir, filepath.FromSlash(rel))
	// One file is created at a time: goroutines creating files in one folder
	// at once spin on its lock in the kernel.
	k.io.Lock()
	defer k.io.Unlock()
	if !k.update {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("site: %w", err)
		}
	} else if err := replaceFile(p, b); err != nil {
		return err
	}
	k.mu.Lock()
	k.written++
	k.mu.Unlock()
	return nil
}

// replaceFile writes b to p through a temporary file beside it.
func replaceFile(p string, b []byte) error {
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("site: %w", err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("site: %w", err)
	}
	return nil
}

// finish removes the files the earlier site had and the new one does not,
// and writes the manifest; it returns the number of files removed.
func (k *sink) finish() (int, error) {
	// A new folder holds only the files written; an earlier site's were
	// listed when it was opened.
	var stale []string
	for rel := range k.had {
		if _, ok := k.now[rel]; !ok {
			stale = append(stale, rel)
		}
	}
	sort.Strings(stale)
	for _, rel := range stale {
		if err := os.Remove(filepath.Join(k.dir, filepath.FromSlash(rel))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, fmt.Errorf("site: %w", err)
		}
	}
	if err := writeManifest(k.dir, k.now); err != nil {
		return 0, err
	}
	return len(stale), nil
}

// writeManifest writes the marker of the site in dir with its files.
func writeManifest(dir string, files map[string]entry) error {
	paths := make([]string, 0, len(files))
	for rel := range files {
		paths = append(paths, rel)
	}
	sort.Strings(paths)
	b := make([]byte, 0, len(markerHead)+len(paths)*56)
	b = append(b, markerHead...)
	for _, rel := range paths {
		e := files[rel]
		b = strconv.AppendUint(appendHex(b, e.hash), e.key, 16)
		b = append(b, ' ')
		b = append(b, rel...)
		b = append(b, '\n')
	}
	return replaceFile(filepath.Join(dir, marker), b)
}

// appendHex appends v as 16 hex digits and a space.
func appendHex(b []byte, v uint64) []byte {
	const hex = "0123456789abcdef"
	for i := 60; i >= 0; i -= 4 {
		b = append(b, hex[v>>uint(i)&15])
	}
	return append(b, ' ')
}
