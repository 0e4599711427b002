//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// programTimeout bounds a run of program.
const programTimeout = 2 * time.Minute

// program runs the program in a process of its own: this test binary,
// which init (serve_test.go) turns into the program when serveTestMain is
// set, so no separate build is needed. It runs in an empty folder (no
// ./scripts, no squarebattle.yaml) with a private HOME and none of the
// caller's SQUAREBATTLE_* variables, stdin empty and no terminal; env adds
// variables. Every run is expected to end by itself: one still running
// after programTimeout is killed (exit status -1).
func program(t *testing.T, work string, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), programTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.WaitDelay = 10 * time.Second // for what it started to let go of its output
	cmd.Dir = work
	cmd.Env = append([]string{serveTestMain + "=1", "HOME=" + work, "XDG_CONFIG_HOME=" + filepath.Join(work, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(work, ".data"), "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=xterm"}, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// TestErrorPaths: every command's bad input (unknown flags, flags without
// their value, values that are no number or out of range, missing files
// and folders, unknown games and players, stray or missing arguments, bad
// environment) run by the program in a process of its own: each exits 2
// with nothing on stdout and exactly one line on stderr, which names the
// flag, file, key or name that was wrong.
func TestErrorPaths(t *testing.T) {
	work := t.TempDir()
	notLua := filepath.Join(work, "notes.txt")
	if err := os.WriteFile(notLua, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ragged, err := filepath.Abs("testdata/ragged.map")
	if err != nil {
		t.Fatal(err)
	}
	rules := writeShipped(t, "paint/rules.lua", t.TempDir())
	twoTeams, err := filepath.Abs("testdata/two-teams.map")
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(work, "none")
	folderLua := filepath.Join(work, "folder.lua")
	if err := os.Mkdir(folderLua, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		env  string
		want string
	}{
		// Every command: an unknown flag, a flag without its value, a
		// value of the wrong kind, out of range, a missing file.
		{[]string{"play", "--bogus"}, "", "unknown flag: --bogus"},
		{[]string{"play", "--seed", "abc"}, "", `invalid argument "abc" for "--seed": not a number`},
		{[]string{"play", "--size", "-1"}, "", "flag --size: arena.size: must be between"},
		{[]string{"play", "--game", "nope"}, "", `no game "nope"`},
		{[]string{"play", "nobody"}, "", `unknown player "nobody"; known players: borg,`},
		{[]string{"play", "--game", "paint", "nobody"}, "", `unknown player "nobody"; known players: greedy, random`},
		{[]string{"play", "--record", filepath.Join(missing, "x.sbr"), "explorer"}, "", "--record " + filepath.Join(missing, "x.sbr") + ": no folder " + missing},
		{[]string{"play", "--game", "squarebattle-lua", "nobody"}, "", `unknown player "nobody"; known players: borg, expand, explorer,`},
		{[]string{"play", "--map", notLua, "explorer"}, "", notLua + ":1:"},
		{[]string{"play", "--map", missing, "explorer"}, "", "map: open " + missing},
		{[]string{"play", "--map", twoTeams, "explorer"}, "", twoTeams + ":5: column 4: team 1, but only 1 players"},
		{[]string{"play", "--map", twoTeams}, "", "--map " + twoTeams + " needs the PLAYERs"},
		{[]string{"play", "--map", twoTeams, "--size", "9", "explorer", "explorer"}, "", "--size 9 disagrees with the 5×5 map " + twoTeams},
		{[]string{"play", "--game", "paint", "--map", twoTeams, "random"}, "", "--map does not work with rule mods yet"},
		{[]string{"play", "--human"}, "", "--human needs the PLAYERs to play against"},
		{[]string{"play", "--human", "--game", "orbs", "explorer"}, "", "--human: orbs cannot be played at the keys"},
		{[]string{"play", "--human", "explorer"}, "SQUAREBATTLE_HUMAN_AUTOPILOT=nope", `human.autopilot: no usable class "nope" in the scripts folder`},
		{[]string{"play", "--human", "--game", "snake", "hungry"}, "SQUAREBATTLE_HUMAN_AUTOPILOT=explorer", `human.autopilot: no usable class "explorer"`},
		{[]string{"play", "--human", "explorer"}, "SQUAREBATTLE_HUMAN_PACE=0", "human.pace: must be between 1 and 60"},
		{[]string{"play", "--human", "explorer"}, "", "no terminal to draw on"},
		{[]string{"play", "explorer"}, "", "no terminal to draw on"},
		{[]string{"play", "explorer"}, "TERM=nosuchterm", `TERM="nosuchterm"`},
		{[]string{"run", "--bogus"}, "", "unknown flag: --bogus"},
		{[]string{"run", "--config"}, "", "flag needs an argument: --config"},
		{[]string{"run", "--seed", "abc"}, "", `invalid argument "abc" for "--seed": not a number`},
		{[]string{"run", "--seed", "99999999999999999999"}, "", `"--seed": out of range`},
		{[]string{"run", "--size", "-1"}, "", "flag --size: arena.size: must be between"},
		{[]string{"run", "--rounds", "abc"}, "", `invalid argument "abc" for "--rounds": not a number`},
		{[]string{"run", "--workers", "-1"}, "", "flag --workers: workers:"},
		{[]string{"run", "--isolation", "bogus"}, "", "flag --isolation: isolation.mode:"},
		{[]string{"run", "--option", "x"}, "", `flag --option "x"`},
		{[]string{"run", "--config", missing}, "", "config file " + missing},
		{[]string{"run", "--scripts", missing}, "", missing},
		{[]string{"run", "--scripts", notLua}, "", "scripts folder " + notLua + " is not a folder"},
		{[]string{"run", "--config", work}, "", "config file " + work + ": is a directory"},
		{[]string{"run", "--config", "/dev/zero"}, "", "config file /dev/zero: larger than"},
		{[]string{"run", "--map", "/dev/zero", "explorer"}, "", "map: /dev/zero: larger than"},
		{[]string{"run", "--map", work, "explorer"}, "", "map: " + work + " is a folder"},
		{[]string{"run", "--map", missing, "explorer"}, "", "map: open " + missing},
		{[]string{"run", "--map", ragged, "explorer", "explorer"}, "", ragged + ":2:"},
		{[]string{"run", "--record", filepath.Join(missing, "x.sbr"), "explorer"}, "", "--record " + filepath.Join(missing, "x.sbr")},
		{[]string{"run", "--record", os.DevNull, "explorer"}, "", "--record " + os.DevNull + ": not a regular file"},
		{[]string{"run", "--log=" + filepath.Join(missing, "x.log"), "explorer"}, "", "--log " + filepath.Join(missing, "x.log") + ": no folder " + missing},
		{[]string{"run", "--log=" + os.DevNull, "explorer"}, "", "--log " + os.DevNull + ": not a regular file"},
		{[]string{"run", "--game", "nope"}, "", `no game "nope" in scripts (games there: orbs, paint, snake`},
		{[]string{"run", "--game", "../paint"}, "", `--game "../paint": a game is a folder name`},
		{[]string{"run", "--game", "paint", "--option", "nope=1"}, "", "options.nope"},
		{[]string{"run", "nobody"}, "", `unknown player "nobody"`},
		{[]string{"run", "--game", "paint", "rules"}, "", "rules.lua is the game's rules, not a player"},
		{[]string{"run", "explorer"}, "SQUAREBATTLE_ARENA_SIZE=abc", "env SQUAREBATTLE_ARENA_SIZE: arena.size"},
		{[]string{"run", "explorer"}, "SQUAREBATTLE_ARENA_SISE=4", "SQUAREBATTLE_ARENA_SISE"},
		{[]string{"replay"}, "", "replay needs one FILE"},
		{[]string{"replay", "a.sbr", "b.sbr"}, "", "replay needs one FILE"},
		{[]string{"replay", "--bogus", "x.sbr"}, "", "unknown flag: --bogus"},
		{[]string{"replay", "--workers", "abc", "x.sbr"}, "", `"--workers": not a number`},
		{[]string{"replay", missing}, "", missing},
		{[]string{"replay", notLua}, "", notLua + ": line 1: not a SquareBattle replay header"},
		{[]string{"replay", "--verify", missing}, "", missing},
		{[]string{"players", "--bogus"}, "", "unknown flag: --bogus"},
		{[]string{"players", "--size", "abc"}, "", `"--size": not a number`},
		{[]string{"players", "x"}, "", `players takes no arguments, only flags (got "x")`},
		{[]string{"players", "--game", "nope"}, "", `no game "nope"`},
		{[]string{"players", "--scripts", missing}, "", missing},
		{[]string{"new"}, "", "new takes exactly one NAME"},
		{[]string{"new", "a", "b"}, "", "new takes exactly one NAME"},
		{[]string{"new", "--bogus", "x"}, "", "unknown flag: --bogus"},
		{[]string{"new", "--seed", "abc", "x"}, "", `"--seed": not a number`},
		{[]string{"new", "Bad Name"}, "", `"Bad Name": a player's name is`},
		{[]string{"new", "rules"}, "", `"rules": a player's name is`},
		{[]string{"new", "--game", "nope", "x"}, "", `no game "nope"`},
		{[]string{"new", "--scripts", notLua, "x"}, "", "scripts folder " + notLua + " is not a folder"},
		{[]string{"check"}, "", "check takes exactly one FILE.lua"},
		{[]string{"check", "a.lua", "b.lua"}, "", "check takes exactly one FILE.lua"},
		{[]string{"check", "--bogus", "x.lua"}, "", "unknown flag: --bogus"},
		{[]string{"check", "--seed", "abc", "x.lua"}, "", `"--seed": not a number`},
		{[]string{"check", "--size", "-1", "x.lua"}, "", "flag --size: arena.size"},
		{[]string{"check", missing + ".lua"}, "", missing + ".lua"},
		{[]string{"check", folderLua}, "", folderLua + " is a folder, not a file"},
		{[]string{"check", notLua}, "", notLua + ": a player script must end in .lua"},
		{[]string{"check", work + "/"}, "", "must end in .lua"},
		{[]string{"check", "--game", "nope", "x.lua"}, "", `no game "nope"`},
		{[]string{"check", "--scripts", missing, "x.lua"}, "", missing},
		{[]string{"check", rules}, "", rules + " is a game's rules, not a player"},
		{[]string{"tournament", "--bogus"}, "", "unknown flag: --bogus"},
		{[]string{"tournament", "--seed", "abc"}, "", `"--seed": not a number`},
		{[]string{"tournament", "--size", "-1"}, "", "flag --size: arena.size"},
		{[]string{"tournament", "--games", "abc"}, "", `"--games": not a number`},
		{[]string{"tournament", "--games", "-1"}, "", "games: must be at least 1"},
		{[]string{"tournament", "--format", "nope"}, "", `unknown format "nope"`},
		{[]string{"tournament", "--game", "nope"}, "", `no game "nope"`},
		{[]string{"tournament", "nobody"}, "", `unknown player "nobody"`},
		{[]string{"tournament", "--out", work, "explorer", "wanderer"}, "", "--out " + work + ": is a folder"},
		{[]string{"tournament", "--record-dir", notLua, "explorer", "wanderer"}, "", "--record-dir: mkdir " + notLua},
		{[]string{"tournament", "--shard", "3/2", "--seed", "1", "--out", "x"}, "", `shard: "3/2"`},
		{[]string{"tournament", "merge"}, "", "needs the results files"},
		{[]string{"tournament", "merge", "--bogus"}, "", "unknown flag: --bogus"},
		{[]string{"tournament", "merge", missing}, "", missing},
		{[]string{"tournament", "merge", notLua}, "", notLua + ": not a results file"},
		{[]string{"tournament", "challenge"}, "", "needs --game"},
		{[]string{"tournament", "challenge", "--bogus"}, "", "unknown flag: --bogus"},
		{[]string{"tournament", "challenge", "--game", "nope"}, "", `no game "nope"`},
		{[]string{"config", "--bogus"}, "", "unknown flag: --bogus"},
		{[]string{"config", "--seed", "abc"}, "", `"--seed": not a number`},
		{[]string{"config", "--size", "-1"}, "", "flag --size: arena.size"},
		{[]string{"config", "x"}, "", `config takes no arguments, only flags (got "x")`},
		{[]string{"config", "--config", missing}, "", "config file " + missing},
		{[]string{"config", "--game", "nope"}, "", `no game "nope"`},
		{[]string{"serve", "--bogus"}, "", "unknown flag: --bogus"},
		{[]string{"serve", "--seed", "abc"}, "", `"--seed": not a number`},
		{[]string{"serve", "x"}, "", `serve takes no arguments, only flags (got "x")`},
		{[]string{"serve", "--listen", "127.0.0.1:99999"}, "", "flag --listen: serve.listen"},
		{[]string{"serve", "--isolation", "none"}, "", "isolation.mode: serve runs players from strangers"},
		{[]string{"serve", "--scripts", missing}, "", missing},
		{[]string{"serve", "--config", missing}, "", "config file " + missing},
		{[]string{"serve", "--listen", "127.0.0.1:0"}, "SQUAREBATTLE_SERVE_DATA_DIR=" + notLua, "serve.data_dir: mkdir " + notLua},
		{[]string{"help", "fly"}, "", `unknown command "fly" (commands: play, run,`},
		{[]string{"help", "run", "play"}, "", "help takes one COMMAND"},
		{[]string{"help", "tournament", "nope"}, "", "help takes one COMMAND"},
		{[]string{"version", "x"}, "", "version takes no arguments"},
		{[]string{"fly"}, "", `unknown command "fly"`},
	}
	// Each case is a process of its own; a few at a time keep the whole
	// table to a few seconds without crowding a small machine.
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for _, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			name := strings.Join(c.args, " ")
			if c.env != "" {
				name = c.env + " " + name
			}
			var env []string
			if c.env != "" {
				env = []string{c.env}
			}
			code, out, errOut := program(t, work, env, c.args...)
			if code != exitBadInput || out != "" || strings.Count(errOut, "\n") != 1 || !strings.HasSuffix(errOut, "\n") ||
				!strings.HasPrefix(errOut, "squarebattle: ") || !strings.Contains(errOut, c.want) {
				t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2, nothing, and one line with %q", name, code, out, errOut, c.want)
			}
		}()
	}
	wg.Wait()
	if st, err := os.Stat(os.DevNull); err != nil || st.Mode().IsRegular() {
		t.Fatalf("%s is no longer a device: %v %v", os.DevNull, st, err)
	}
	if entries, _ := os.ReadDir(work); len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("bad input left files behind in the working folder: %v", names)
	}
}

// TestHelp: --help on every command, and help COMMAND, print the command's
// usage, what it does and its flags in one format on stdout, exit 0 and
// print nothing on stderr; the texts are goldens in testdata/help.
func TestHelp(t *testing.T) {
	names := [][]string{{"tournament", "merge"}, {"tournament", "challenge"}}
	for _, c := range commands() {
		names = append(names, []string{c.name})
	}
	for _, name := range names {
		t.Run(strings.Join(name, " "), func(t *testing.T) {
			code, out, errOut := runMain(t, append(name, "--help")...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, errOut)
			}
			if !strings.HasPrefix(out, "usage: squarebattle "+strings.Join(name, " ")) || !strings.Contains(out, "\n\nflags:\n      --") {
				t.Errorf("not the one help format (usage: line, text, flags:):\n%s", out)
			}
			golden(t, filepath.Join("help", strings.Join(name, "-")+".txt"), out)
			code, again, errOut := runMain(t, append([]string{"help"}, name...)...)
			if code != 0 || errOut != "" || again != out {
				t.Errorf("help %s: exit %d, stderr %q, and another text than --help", strings.Join(name, " "), code, errOut)
			}
		})
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		code, out, errOut := runMain(t, args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: squarebattle [command] [flags]") {
			t.Errorf("%v: exit %d, stderr %q, stdout %.80q", args, code, errOut, out)
		}
	}
}
