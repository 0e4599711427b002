package ssh

import (
	"os"
	"path/filepath"
	"strings"
)

// tmpPrefix starts the names of files being written; a server killed
// mid-write leaves one behind, and OpenStore removes them.
const tmpPrefix = ".tmp-"

// writeAtomic writes data to path so that a reader, or the server after a
// kill -9 at any instant, sees either the old file or the whole new one:
// a temporary file in the same folder, synced, then renamed over path,
// then the folder synced so the rename itself survives a crash.
func writeAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// removeTemps deletes what interrupted writeAtomic calls left in dir.
func removeTemps(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// inside reports whether path is root or below it, lexically. Every path
// the store builds from a client's name passes through it as a second
// check after the name rules.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
