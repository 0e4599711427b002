package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/scripts"
	"github.com/squarebattle/squarebattle/tui"
)

// TestHotReload: with the lobby open on a scripts folder, a .lua file added,
// changed, broken and removed shows up that way within 2 s, and the next
// battle uses the edited script.
func TestHotReload(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"explorer.lua", "pinwheel.lua"} {
		data, err := scripts.FS.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, src := dirSource(t, dir)
	sim := tcell.NewSimulationScreen("")
	screen := &screenLog{sim: sim}
	app := tui.New(tui.Options{Screen: sim, Source: src, Settings: settingsOf(cfg), Shown: screen.shown})
	stop, err := watchScripts(dir, func() {
		if src.reload() == nil {
			app.Reload()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	defer runApp(t, app, sim)()
	// within waits at most 2 s, the promise made to people editing scripts.
	within := func(what string, cond func(string) bool) {
		t.Helper()
		screen.within(t, 2*time.Second, what, cond)
	}
	has := func(s string) func(string) bool { return func(text string) bool { return strings.Contains(text, s) } }
	hasNot := func(s string) func(string) bool { return func(text string) bool { return !strings.Contains(text, s) } }
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	within("the lobby", has("Pinwheel"))

	write("zapper.lua", `return { name = "Zapper", run = function() return WAIT end }`)
	within("a new script appears", has("Zapper"))

	write("zapper.lua", `return { name = "Zapper Mk II", run = function() return ATTACK, N end }`)
	within("an edited script updates", has("Zapper Mk II"))

	write("zapper.lua", "return { name = \"Zapper\",\n run = function( }")
	within("a broken script shows its error with file:line", has("zapper.lua:2:"))

	if err := os.Remove(filepath.Join(dir, "zapper.lua")); err != nil {
		t.Fatal(err)
	}
	within("a removed script disappears", hasNot("zapper"))

	// The next battle uses the edited script: Explorer, rewritten to stay put,
	// is still on its starting cell after a few rounds. Its new name shows
	// when the reload has landed.
	write("explorer.lua", `return { name = "Explorer II", run = function() return WAIT end }`)
	within("the edited explorer listed", has("Explorer II"))
	b, err := src.NewBattle(tui.Setup{Players: []string{"explorer"}, Size: 8, Rounds: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	start := b.Snapshot().Cells
	for b.Step() {
	}
	if end := b.Snapshot().Cells; !equalCells(start, end) {
		t.Error("the battle did not use the edited explorer.lua (its square moved)")
	}
}

func equalCells(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestWatchGameFolders: changes inside a game folder, and in a game folder
// created while watching, are noticed like changes to the players at the
// top; a stray file type is not.
func TestWatchGameFolders(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "paint"), 0o755); err != nil {
		t.Fatal(err)
	}
	fired := make(chan struct{}, 16)
	stop, err := watchScripts(dir, func() { fired <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	wait := func(what string, want bool) {
		t.Helper()
		limit := 2 * time.Second
		if !want {
			limit = 4 * settle // long enough for a settled reload to fire
		}
		select {
		case <-fired:
			if !want {
				t.Errorf("%s: reloaded", what)
			}
		case <-time.After(limit):
			if want {
				t.Errorf("%s: not noticed within %v", what, limit)
			}
		}
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("paint/rules.lua", "return {}")
	wait("rules.lua in a game folder", true)
	write("paint/game.yaml", "rules:\n  rounds: 5\n")
	wait("game.yaml in a game folder", true)
	if err := os.Mkdir(filepath.Join(dir, "snake2"), 0o755); err != nil {
		t.Fatal(err)
	}
	wait("a new game folder", true)
	write("snake2/rules.lua", "return {}")
	wait("rules.lua in the new game folder", true)
	write("paint/notes.txt", "hello")
	wait("a text file", false)
}

// dirSource is the terminal UI's source over a scripts folder on disk, with
// the configuration that names it.
func dirSource(t *testing.T, dir string) (config.Config, *playSource) {
	t.Helper()
	cfg := config.Default()
	cfg.Scripts = dir
	cat, err := loadCatalog(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, newPlaySource(cfg, cat, nil, nil)
}
