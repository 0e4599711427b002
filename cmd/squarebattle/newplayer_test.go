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
	for _, want := range []string{
		"\n  squarebattle check --scripts " + dir + " " + filepath.Join(dir, "mine.lua") + "  ",
		"\n  squarebattle play --scripts " + dir + " mine explorer  ",
		"\n  squarebattle run --scripts " + dir + " mine explorer  ",
		"go install ./cmd/squarebattle",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("new does not say %q:\n%s", want, out.String())
		}
	}
	// new has copied the Starter and renamed it: its comments no longer
	// ask for either, and say how to check and watch this player.
	for _, unwanted := range []string{"Copy this file", "copy this file", "change the name", `name = "Starter"`} {
		if strings.Contains(string(src), unwanted) {
			t.Errorf("mine.lua still says %q:\n%.900s", unwanted, src)
		}
	}
	if !strings.Contains(string(src), "--   squarebattle play --scripts "+dir+" mine explorer") {
		t.Errorf("mine.lua does not say how to watch it:\n%.900s", src)
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

// TestNewGame: new --game writes a player of that rule mod into the game's
// folder, from the game's shortest player under comments naming the
// function the rules call, which check accepts as the game's player; the
// game must exist.
func TestNewGame(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	code, out, errOut := runMain(t, "new", "--scripts", dir, "--game", "paint", "brush")
	if code != 0 {
		t.Fatalf("new --game paint: status %d, stderr %q", code, errOut)
	}
	file := filepath.Join(dir, "paint", "brush.lua")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"-- Brush: a player of Paint (--game paint), started from a copy of Random Painter.",
		"call this table's strategy function",
		`name = "Brush"`,
		"\n--   squarebattle check --scripts " + dir + " " + file + "  ",
		"\n--   squarebattle play --scripts " + dir + " --game paint brush random  ",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("brush.lua lacks %q:\n%.600s", want, src)
		}
	}
	if !strings.Contains(out, "squarebattle check --scripts "+dir+" "+file) || !strings.Contains(out, "squarebattle play --scripts "+dir+" --game paint brush random") {
		t.Errorf("new --game does not say how to check and watch it:\n%s", out)
	}
	code, out, errOut = runMain(t, "check", "--isolation", "none", "--rounds", "20", "--seed", "1", file)
	if code != 0 || !strings.Contains(out, `loads: starting player "Brush"`) {
		t.Errorf("check of the new paint player: status %d, stderr %q\n%s", code, errOut, out)
	}
	code, _, errOut = runMain(t, "new", "--scripts", dir, "--game", "nope", "x")
	if code != exitBadInput || !strings.Contains(errOut, `no game "nope"`) {
		t.Errorf("new --game nope: status %d, stderr %q", code, errOut)
	}
}
