package replay

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// PartialGlob matches (filepath.Match) the names of the temporary files
// replays are written through: ".NAME.*.partial" beside the final NAME
// (TempPattern). A program killed mid-write leaves one behind.
const PartialGlob = ".*.partial"

// TempPattern is the os.CreateTemp pattern of the temporary file a
// replay, or a file beside it, named name is written to before it is
// renamed into place.
func TempPattern(name string) string { return "." + filepath.Base(name) + ".*.partial" }

// Partials counts the files RemovePartials removed.
type Partials struct {
	Files int
	Bytes int64
}

// RemovePartials removes from the folder dir of root the temporary files
// of interrupted replay writes: regular files named like PartialGlob,
// and nothing else (a symbolic link, a folder, any other name stays).
// dir is a path inside root, and root keeps every step inside it,
// whatever symbolic links say. A folder that is not there holds none.
//
// A partial replay plays up to its last flush: only a caller that knows
// no live process is writing in dir, and that the battles are played
// again, may throw them away (serve, holding its data dir's lock).
func RemovePartials(root *os.Root, dir string) (Partials, error) {
	return RemoveTemporary(root, dir, PartialGlob)
}

// RemoveTemporary is RemovePartials for the temporary files of any
// writer that renames into place, named like glob (filepath.Match): a
// serve's bot records are written that way too.
func RemoveTemporary(root *os.Root, dir, glob string) (Partials, error) {
	var out Partials
	d, err := root.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	for _, e := range entries {
		if ok, _ := filepath.Match(glob, e.Name()); !ok || !e.Type().IsRegular() {
			continue
		}
		name := filepath.Join(dir, e.Name())
		info, err := root.Lstat(name)
		if err != nil || !info.Mode().IsRegular() {
			continue // gone, or no longer a file
		}
		if err := root.Remove(name); err != nil {
			errs = append(errs, err)
			continue
		}
		out.Files++
		out.Bytes += info.Size()
	}
	if err := errors.Join(errs...); err != nil {
		return out, fmt.Errorf("%s: %w", dir, err)
	}
	return out, nil
}
