package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

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
