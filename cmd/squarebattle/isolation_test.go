package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/squarebattle/squarebattle/engine/bot/process"
	"github.com/squarebattle/squarebattle/luabind/worker"
	"github.com/squarebattle/squarebattle/luabind/worker/testhooks"
)

// TestMain lets a worker pool re-execute this test binary as a worker:
// the commands the tests run in-process field their teams in workers
// (isolation.mode process is the default) started from os.Executable.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == workerCommand {
		// The test binary's workers also field the hooks no sandbox
		// offers (TestBackstopReplays calls them).
		os.Exit(worker.Main(os.Args[2:], os.Stderr, worker.ServeOptions{Extra: testhooks.Globals}))
	}
	if len(os.Args) > 1 && os.Args[1] == process.LauncherCommand {
		os.Exit(process.LauncherMain(os.Args[2:], os.Stderr)) // an external bot starting
	}
	// Every arena a test starts checks uploads with this test binary
	// (serveTestMain): set once, before any test, since tests that start
	// arenas run in parallel.
	checkEnv = []string{serveTestMain + "=1"}
	os.Exit(m.Run())
}

// TestIsolationSameBattle: with the shipped players, --isolation none and
// process and --workers 1 and 2 print the same JSON and write the same
// replay, byte for byte, when the backstop never fires.
func TestIsolationSameBattle(t *testing.T) {
	sameUnderIsolation(t, "--seed", "11", "--size", "24", "--rounds", "200")
}

// TestIsolationSameModBattle: so do the shipped rule mods, whose rules.lua
// runs in a worker process of its own under --isolation process.
func TestIsolationSameModBattle(t *testing.T) {
	for _, args := range [][]string{
		{"--game", "paint", "--seed", "5", "--rounds", "120"},
		{"--game", "snake", "--seed", "3", "--rounds", "300", "hungry", "cautious"},
		{"--game", "orbs", "--seed", "2", "--rounds", "60"},
		{"--game", "squarebattle-lua", "--seed", "9", "--size", "20", "--rounds", "150"},
	} {
		t.Run(args[1], func(t *testing.T) { sameUnderIsolation(t, args...) })
	}
}

// sameUnderIsolation runs `run --json --record` with args under every
// isolation mode and worker count and compares output and replay bytes.
func sameUnderIsolation(t *testing.T, args ...string) {
	t.Helper()
	dir := t.TempDir()
	var outs, replays []string
	var names []string
	for _, iso := range []string{"none", "process"} {
		for _, w := range []string{"1", "2"} {
			name := iso + "-" + w
			file := filepath.Join(dir, name+".sbr")
			code, out, errOut := runMain(t, append([]string{"run", "--json", "--isolation", iso, "--workers", w, "--record", file}, args...)...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", name, code, errOut)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if events := replayBackstops(t, file); len(events) > 0 {
				t.Fatalf("%s: the backstop fired in a battle of the shipped players: %+v", name, events)
			}
			names, outs, replays = append(names, name), append(outs, out), append(replays, string(data))
		}
	}
	for i := 1; i < len(outs); i++ {
		if outs[i] != outs[0] {
			t.Errorf("%s prints\n%s\nbut %s\n%s", names[i], outs[i], names[0], outs[0])
		}
		if !bytes.Equal([]byte(replays[i]), []byte(replays[0])) {
			t.Errorf("%s's replay differs from %s's", names[i], names[0])
		}
	}
}

// TestIsolationFlag: a mode other than none or process is bad input.
func TestIsolationFlag(t *testing.T) {
	for _, tt := range []struct {
		mode string
		code int
	}{{"none", 0}, {"process", 0}, {"docker", 2}} {
		code, _, errOut := runMain(t, "run", "--json", "--seed", "3", "--size", "8", "--rounds", "5", "--isolation", tt.mode)
		if code != tt.code {
			t.Errorf("--isolation %s: exit %d, want %d (%s)", tt.mode, code, tt.code, errOut)
		}
	}
	code, out, _ := runMain(t, "config", "--isolation", "none")
	if code != 0 || !bytes.Contains([]byte(out), []byte("mode: none")) {
		t.Errorf("config --isolation none: exit %d\n%s", code, out)
	}
}

// TestIsolationSameTournament: a tournament prints the same standings and
// records the same replays, byte for byte, in this process, behind the
// wall with a worker per team, and behind the wall with one worker playing
// a player's teams of several battles at once (isolation.team_slots),
// in one lane or several (isolation.lanes), whatever the number of
// battles at once.
func TestIsolationSameTournament(t *testing.T) {
	dir := t.TempDir()
	args := []string{"tournament", "--json", "--quiet", "--format", "koth", "--games", "10", "--seed", "4",
		"--size", "24", "--rounds", "150", "explorer", "wanderer", "linedancer", "hesitantwolf"}
	type mode struct {
		name  string
		flags []string
		slots string // isolation.team_slots, if set
		lanes string // isolation.lanes, if set
	}
	modes := []mode{
		{"none", []string{"--isolation", "none"}, "", ""},
		{"process-slots1", []string{"--isolation", "process"}, "1", ""},
		{"process-slots3-lanes1", []string{"--isolation", "process", "--workers", "2"}, "3", "1"},
		{"process-slots2-lanes3", []string{"--isolation", "process"}, "2", "3"},
		{"process-default", []string{"--isolation", "process"}, "", ""},
	}
	var first string
	var firstReplays map[string][]byte
	for _, m := range modes {
		rec := filepath.Join(dir, m.name)
		flags := append(append([]string{}, m.flags...), "--record-dir", rec)
		if m.slots != "" {
			cfg := filepath.Join(dir, m.name+".yaml")
			yaml := "isolation:\n  team_slots: " + m.slots + "\n"
			if m.lanes != "" {
				yaml += "  lanes: " + m.lanes + "\n"
			}
			if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			flags = append(flags, "--config", cfg)
		}
		code, out, errOut := runMain(t, append(append([]string{}, args[:1]...), append(flags, args[1:]...)...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", m.name, code, errOut)
		}
		replays := map[string][]byte{}
		entries, err := os.ReadDir(rec)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(rec, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if events := replayBackstops(t, filepath.Join(rec, e.Name())); len(events) > 0 {
				t.Fatalf("%s: the backstop fired: %+v", m.name, events)
			}
			replays[e.Name()] = data
		}
		if len(replays) != 10 {
			t.Fatalf("%s: %d replays, want 10", m.name, len(replays))
		}
		if first == "" {
			first, firstReplays = out, replays
			continue
		}
		if out != first {
			t.Errorf("%s prints\n%s\nbut none\n%s", m.name, out, first)
		}
		for name, data := range firstReplays {
			if !bytes.Equal(replays[name], data) {
				t.Errorf("%s: replay %s differs from none's", m.name, name)
			}
		}
	}
}
