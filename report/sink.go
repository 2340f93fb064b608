package report

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc64"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// marker is the file that marks a folder as a site written by Build. It also
// holds the manifest: one line per file of the site, its content hash and path.
const marker = ".ratelist-site"

const markerHead = "written by ratelist report\n"

// siteDirs are the folders of a site; Build removes files in them (and in the
// site's root) that the new site does not have.
var siteDirs = []string{"", "assets", "data", "players", "tournaments"}

var crcTable = crc64.MakeTable(crc64.ECMA)

// sink writes the files of a site. Into a fresh folder it writes everything;
// over an earlier site it writes only files whose content hash differs from
// the earlier manifest (or that are missing), each through a temporary file
// and a rename, so a reader never sees half a page.
type sink struct {
	dir    string
	update bool
	old    map[string]uint64 // earlier manifest, files that exist only

	mu      sync.Mutex
	now     map[string]uint64
	written int
}

func newSink(dir string, update bool) (*sink, error) {
	k := &sink{dir: dir, update: update, old: map[string]uint64{}, now: map[string]uint64{}}
	for _, d := range siteDirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("site: %w", err)
		}
	}
	if update {
		old, err := readManifest(dir)
		if err != nil {
			return nil, err
		}
		k.old = old
	}
	return k, nil
}

// readManifest returns the hashes of the files of the site in dir that still
// exist.
func readManifest(dir string) (map[string]uint64, error) {
	have := map[string]bool{}
	if err := eachFile(dir, func(rel string) { have[rel] = true }); err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, marker))
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	defer f.Close()
	m := make(map[string]uint64, len(have))
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		h, rel, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue // the marker's first line
		}
		v, err := strconv.ParseUint(h, 16, 64)
		if err == nil && have[rel] {
			m[rel] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("site %s: %w", marker, err)
	}
	return m, nil
}

// eachFile calls fn with the slash path of every regular file in the site's
// folders, the marker and temporary files left out.
func eachFile(dir string, fn func(rel string)) error {
	for _, d := range siteDirs {
		ents, err := os.ReadDir(filepath.Join(dir, d))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("site: %w", err)
		}
		for _, e := range ents {
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

// put writes b as the file rel of the site unless the site already holds it.
func (k *sink) put(rel string, b []byte) error {
	h := crc64.Checksum(b, crcTable)
	k.mu.Lock()
	_, twice := k.now[rel]
	k.now[rel] = h
	old, ok := k.old[rel]
	k.mu.Unlock()
	if twice {
		return fmt.Errorf("site: %s written twice", rel)
	}
	if ok && old == h {
		return nil
	}
	p := filepath.Join(k.dir, filepath.FromSlash(rel))
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

// finish removes the files the new site does not have and writes the
// manifest; it returns the number of files removed.
func (k *sink) finish() (int, error) {
	var stale []string
	if err := eachFile(k.dir, func(rel string) {
		if _, ok := k.now[rel]; !ok {
			stale = append(stale, rel)
		}
	}); err != nil {
		return 0, err
	}
	for _, rel := range stale {
		if err := os.Remove(filepath.Join(k.dir, filepath.FromSlash(rel))); err != nil {
			return 0, fmt.Errorf("site: %w", err)
		}
	}
	paths := make([]string, 0, len(k.now))
	for rel := range k.now {
		paths = append(paths, rel)
	}
	sort.Strings(paths)
	b := make([]byte, 0, len(markerHead)+len(paths)*40)
	b = append(b, markerHead...)
	for _, rel := range paths {
		b = fmt.Appendf(b, "%016x %s\n", k.now[rel], rel)
	}
	if err := replaceFile(filepath.Join(k.dir, marker), b); err != nil {
		return 0, err
	}
	return len(stale), nil
}
