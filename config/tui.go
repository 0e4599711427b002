package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// maxPath bounds a configured path: no file system takes more.
const maxPath = 4096

// check reports the tui section's values that are wrong whatever the
// machine: the numbers are checked with every key's bounds.
func (t TUI) check() []*FieldError {
	var errs []*FieldError
	r := t.Replays
	switch {
	case len(r) > maxPath:
		errs = append(errs, &FieldError{Key: "tui.replays", Value: r[:64] + "...", Reason: "must be a folder's path of at most 4096 bytes"})
	case strings.IndexFunc(r, unicode.IsControl) >= 0:
		errs = append(errs, &FieldError{Key: "tui.replays", Value: r, Reason: "must not hold control characters"})
	case r == "~" || strings.HasPrefix(r, "~/"):
		errs = append(errs, &FieldError{Key: "tui.replays", Value: r, Reason: "~ is not expanded: write the home folder out, or leave it empty for the data folder"})
	}
	return errs
}

// ErrNoDataDir is ReplaysDir's error when tui.replays is empty and the
// user has neither $XDG_DATA_HOME nor a home folder.
var ErrNoDataDir = errors.New("tui.replays is empty and there is no data folder ($XDG_DATA_HOME or a home folder)")

// ReplaysDir is the folder w saves replays to: tui.replays, or the user's
// data folder for squarebattle's replays (the XDG base directory rule:
// $XDG_DATA_HOME when it is an absolute path, else ~/.local/share).
func (c Config) ReplaysDir() (string, error) {
	if c.TUI.Replays != "" {
		return c.TUI.Replays, nil
	}
	return DataDir("replays")
}

// DataDir is sub in squarebattle's folder of the user's data folder:
// $XDG_DATA_HOME/squarebattle/sub when XDG_DATA_HOME is an absolute path,
// else ~/.local/share/squarebattle/sub.
func DataDir(sub string) (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "squarebattle", sub), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", ErrNoDataDir
	}
	return filepath.Join(home, ".local", "share", "squarebattle", sub), nil
}

// check reports a human.autopilot that cannot be a class id: a script's
// base name, letters, digits, '_' and '-', at most 64 bytes.
func (h Human) check() []*FieldError {
	a := h.Autopilot
	if len(a) > 64 {
		return []*FieldError{{Key: "human.autopilot", Value: a[:64] + "...", Reason: "must be a class id of at most 64 bytes"}}
	}
	for _, c := range a {
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return []*FieldError{{Key: "human.autopilot", Value: a, Reason: "must be a class id: letters, digits, _ and -"}}
		}
	}
	return nil
}
