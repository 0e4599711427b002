package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/squarebattle/squarebattle/scripts"
)

// The tests read the shipped players from the copy embedded into the
// program (scripts.FS), never from the working tree's folder of that name:
// that is where a coder saves their own players, and a test must not change
// its verdict because of what the user keeps there.

// shippedFile is the text of a shipped file ("explorer.lua",
// "paint/rules.lua").
func shippedFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := fs.ReadFile(scripts.FS, name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// writeShipped copies a shipped file into dir under its base name and
// returns the new file's path.
func writeShipped(t testing.TB, name, dir string) string {
	t.Helper()
	to := filepath.Join(dir, filepath.Base(name))
	if err := os.WriteFile(to, shippedFile(t, name), 0o644); err != nil {
		t.Fatal(err)
	}
	return to
}

// copyShippedFS copies every shipped player and game into dir.
func copyShippedFS(t testing.TB, dir string) {
	t.Helper()
	if err := os.CopyFS(dir, scripts.FS); err != nil {
		t.Fatal(err)
	}
}
