package archive

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// denyFS refuses to open one name, as a file without read permission does.
type denyFS struct {
	fs.FS
	deny string
}

func (d denyFS) Open(name string) (fs.File, error) {
	if name == d.deny {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.FS.Open(name)
}

// TestFilesUnreadableIsError: a table name that is present but cannot be read
// is an error naming it; only a name that is not there at all is an absent table.
func TestFilesUnreadableIsError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		deny  string
		want  string
	}{
		{"folder named games.csv", func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, "games.csv")) }, "", "games.csv"},
		{"dangling games.csv", func(t *testing.T, dir string) {
			symlink(t, filepath.Join(dir, "unmounted", "games.csv"), filepath.Join(dir, "games.csv"))
		}, "", "games.csv"},
		{"dangling games/", func(t *testing.T, dir string) {
			symlink(t, filepath.Join(dir, "unmounted", "share"), filepath.Join(dir, "games"))
		}, "", "games"},
		{"part that is a folder", func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, "games", "part-0.parquet")) }, "", "games/part-0.parquet"},
		{"no permission", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "games.csv"), "tournament_id\n") }, "games.csv", "games.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			var fsys fs.FS = os.DirFS(dir)
			if tc.deny != "" {
				fsys = denyFS{fsys, tc.deny}
			}
			files, err := Files(fsys, "games")
			if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Files = %v, %v; want an unreadable-file error naming %s", files, err, tc.want)
			}
		})
	}
	files, err := Files(os.DirFS(t.TempDir()), "games")
	if files != nil || err != nil {
		t.Errorf("absent table: Files = %v, %v; want nil, nil", files, err)
	}
}

// TestLoadUnreadableTable: Load stops on an optional table that is present but
// unreadable instead of running as if the archive had no games.
func TestLoadUnreadableTable(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "players.csv"), "player_id,name\n1,A\n")
	symlink(t, filepath.Join(dir, "gone", "games.csv"), filepath.Join(dir, "games.csv"))
	_, err := Load(context.Background(), os.DirFS(dir), func(RowError) {})
	if !errors.Is(err, ErrUnreadable) || !strings.Contains(err.Error(), "games.csv") {
		t.Errorf("Load = %v; want an error naming games.csv", err)
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, name, body string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
