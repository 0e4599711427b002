package ssh

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNames: what may name a user, a player or a replay, and what the
// refusal says.
func TestNames(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"hunter", true}, {"a", true}, {"x_1-y", true}, {"0day", true}, {strings.Repeat("a", 24), true},
		{"", false}, {strings.Repeat("a", 25), false}, {"..", false}, {"../x", false}, {"a/b", false},
		{`a\b`, false}, {"-x", false}, {"_x", false}, {"Hunter", false}, {"a b", false}, {"a\x00", false},
		{"a\x1b[31m", false}, {"é", false}, {"a.b", false}, {".hidden", false},
	} {
		err := checkName("player name", tt.name)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrBadName)) {
			t.Errorf("checkName(%q) = %v, want ok %v", tt.name, err, tt.ok)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x00\x1b\n") {
			t.Errorf("checkName(%q): message %q holds control characters", tt.name, err)
		}
	}
	for in, want := range map[string]string{"Alice": "alice", "Bob Smith": "bobsmith", "--x": "x", "é$/..": "", "root": "root",
		strings.Repeat("z", 40): strings.Repeat("z", 24)} {
		if got := sanitizeName(in); got != want {
			t.Errorf("sanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
	for id, ok := range map[string]bool{"20261125-120000-3": true, "b_1": true, "../x": false, "a.sbr": false, "": false, "a/b": false} {
		if err := checkReplayID(id); (err == nil) != ok {
			t.Errorf("checkReplayID(%q) = %v, want ok %v", id, err, ok)
		}
	}
}

// TestStoreKeepsWhatItAccepted: players, history and user names survive
// a reopen (a restart); leftovers of interrupted writes and entries that
// break the name rules are ignored and cleaned; nothing is written
// outside the data dir.
func TestStoreKeepsWhatItAccepted(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Claim("SHA256:key1", "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Claim("SHA256:key2", "alice"); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("second claim of alice: %v", err)
	}
	if _, err := s.Put("alice", "hunter", []byte("v1")); err != nil {
		t.Fatal(err)
	}
	if replaced, err := s.Put("alice", "hunter", []byte("v2")); err != nil || !replaced {
		t.Fatalf("second Put: replaced %v, %v", replaced, err)
	}
	for _, bad := range [][2]string{{"alice", "../../x"}, {"../alice", "x"}, {"alice", "a/b"}, {"", "x"}} {
		if _, err := s.Put(bad[0], bad[1], []byte("x")); !errors.Is(err, ErrBadName) {
			t.Errorf("Put(%q, %q) = %v, want ErrBadName", bad[0], bad[1], err)
		}
	}
	// What a kill -9 mid-write leaves, and what a hand-edited folder might
	// hold.
	os.WriteFile(filepath.Join(dir, "players", "alice", tmpPrefix+"123"), []byte("half"), 0o600)
	os.MkdirAll(filepath.Join(dir, "players", "Bad Name"), 0o700)
	os.WriteFile(filepath.Join(dir, "players", "Bad Name", "x.lua"), []byte("x"), 0o600)
	os.Symlink("/etc/passwd", filepath.Join(dir, "players", "alice", "link.lua"))

	s2, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := s2.User("SHA256:key1"); !ok || u != "alice" {
		t.Errorf("user of key1 after reopen = %q %v", u, ok)
	}
	src, err := s2.Sources()
	if err != nil {
		t.Fatal(err)
	}
	if len(src) != 1 || string(src["alice.hunter.lua"]) != "v2" {
		t.Errorf("sources after reopen: %q", src)
	}
	hist, _ := os.ReadDir(filepath.Join(dir, "history", "alice"))
	if len(hist) != 2 {
		t.Errorf("history holds %d versions, want 2", len(hist))
	}
	if _, err := os.Stat(filepath.Join(dir, "players", "alice", tmpPrefix+"123")); !os.IsNotExist(err) {
		t.Error("a leftover temporary file survived the reopen")
	}
	if err := s2.Remove("alice", "hunter"); err != nil {
		t.Fatal(err)
	}
	if s2.Count("alice") != 0 {
		t.Error("removed player still listed")
	}
	if _, err := s2.ReplayPath("../users"); !errors.Is(err, ErrBadName) {
		t.Errorf("ReplayPath(../users) = %v", err)
	}
}
