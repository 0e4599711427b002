package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// writeFileAtomic writes data to name through a temporary file in the same
// folder renamed into place, so name never holds half a replay. Replays are
// meant to be shared: the file is readable by everyone.
func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.partial")
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("replay %s: %w", name, err)
	}
	return nil
}

// numbered is the file the n-th battle of a session records to: the name
// itself for the first, then "-2", "-3", ... before its extension
// (fight.sbr, fight-2.sbr, fight-3.sbr).
func numbered(name string, n int) string {
	if n <= 1 {
		return name
	}
	ext := filepath.Ext(name)
	if ext == filepath.Base(name) { // ".sbr": a name, not an extension
		ext = ""
	}
	return strings.TrimSuffix(name, ext) + "-" + strconv.Itoa(n) + ext
}
