package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNew: new writes a starter player under the scripts folder (making
// it, with the shipped players, when there is none), which check accepts;
// an existing file or a bad name is bad input.
func TestNew(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	var out, errs strings.Builder
	if code := Main([]string{"new", "--scripts", dir, "mine"}, &out, &errs); code != 0 {
		t.Fatalf("new: status %d, stderr %q", code, errs.String())
	}
	src, err := os.ReadFile(filepath.Join(dir, "mine.lua"))
	if err != nil || !strings.Contains(string(src), `name = "Mine"`) {
		t.Fatalf("mine.lua: %v\n%.200s", err, src)
	}
	if _, err := os.Stat(filepath.Join(dir, "explorer.lua")); err != nil {
		t.Errorf("the new scripts folder lacks the shipped players: %v", err)
	}
	if !strings.Contains(out.String(), "squarebattle check "+filepath.Join(dir, "mine.lua")) || !strings.Contains(out.String(), "squarebattle play mine") {
		t.Errorf("new does not say how to check and watch it:\n%s", out.String())
	}
	out.Reset()
	if code := Main([]string{"check", "--isolation", "none", "--scripts", dir, filepath.Join(dir, "mine.lua")}, &out, &errs); code != 0 {
		t.Errorf("check of the new player: status %d\n%s", code, out.String())
	}
	for _, c := range []struct{ name, want string }{{"mine", "already exists"}, {"Bad Name", "lower-case letters"}} {
		errs.Reset()
		if code := Main([]string{"new", "--scripts", dir, c.name}, &out, &errs); code != exitBadInput || !strings.Contains(errs.String(), c.want) || strings.Count(errs.String(), "\n") != 1 {
			t.Errorf("new %q: status %d, stderr %q; want 2 and one line with %q", c.name, code, errs.String(), c.want)
		}
	}
}
