package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplaysKey: tui.replays takes any folder's path, and refuses what
// cannot be one, naming the key; empty is the XDG data folder.
func TestReplaysKey(t *testing.T) {
	for _, tc := range []struct {
		value string
		bad   string // a word of the reason; "" valid
	}{
		{"", ""},
		{"replays", ""},
		{"/srv/squarebattle/replays", ""},
		{"a folder with spaces/and ünïcode", ""},
		{"~/replays", "not expanded"},
		{"~", "not expanded"},
		{"bad\nname", "control characters"},
		{"bad\x1b[2Jname", "control characters"},
		{strings.Repeat("x", 5000), "at most 4096"},
	} {
		c := Default()
		c.TUI.Replays = tc.value
		err := c.Validate()
		if tc.bad == "" {
			if err != nil {
				t.Errorf("tui.replays %q: %v", tc.value, err)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Key != "tui.replays" || !strings.Contains(err.Error(), tc.bad) || !errors.Is(err, ErrInvalid) {
			t.Errorf("tui.replays %.20q: %v, want a tui.replays error saying %q", tc.value, err, tc.bad)
		}
		if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "\x1b") {
			t.Errorf("the error is not one safe line: %q", err.Error())
		}
	}
}

// TestReplaysDir: the folder w saves to is tui.replays when set, else the
// XDG data folder, else ~/.local/share.
func TestReplaysDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tc := range []struct{ replays, xdg, want string }{
		{"", "", filepath.Join(home, ".local", "share", "squarebattle", "replays")},
		{"", "/data", "/data/squarebattle/replays"},
		{"", "relative/ignored", filepath.Join(home, ".local", "share", "squarebattle", "replays")},
		{"mine", "/data", "mine"},
	} {
		t.Setenv("XDG_DATA_HOME", tc.xdg)
		c := Default()
		c.TUI.Replays = tc.replays
		if got, err := c.ReplaysDir(); err != nil || got != tc.want {
			t.Errorf("replays %q, XDG_DATA_HOME %q: %q, %v; want %q", tc.replays, tc.xdg, got, err, tc.want)
		}
	}
}
