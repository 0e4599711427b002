package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
	"github.com/squarebattle/squarebattle/luabind/worker"
	"github.com/squarebattle/squarebattle/luabind/worker/testhooks"
	"github.com/squarebattle/squarebattle/scripts"
)

const (
	idleLua = `return { name = "Hostile", run = function() end }`
	// wallConfig keeps a worker's memory small enough that the 10 GiB
	// hook fails at once; the wall clock fires after the seconds given.
	wallConfig = "isolation:\n  call_timeout: %d\n  memory_mib: 256\n"
)

// wallSetup writes a scripts folder with hostile.lua (src), explorer.lua
// and victim.lua, and a configuration file whose wall clock fires after
// timeout seconds, and returns the flags that use them.
func wallSetup(t *testing.T, hostile string, timeout int) []string {
	t.Helper()
	dir := t.TempDir()
	explorer, err := scripts.FS.ReadFile("explorer.lua")
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"hostile.lua": hostile, "explorer.lua": string(explorer), "victim.lua": testhooks.Victim} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "squarebattle.yaml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(wallConfig, timeout)), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"--config", cfg, "--scripts", dir}
}

// verifyBothWays runs replay --verify of file in this process and behind
// the wall; both must say identical.
func verifyBothWays(t *testing.T, flags []string, file string) {
	t.Helper()
	for _, iso := range []string{"none", "process"} {
		args := append(append([]string{"replay", "--verify", "--isolation", iso}, flags...), file)
		code, out, errOut := runMain(t, args...)
		if code != 0 || !strings.HasPrefix(out, "identical: ") || !strings.Contains(out, "backstop event") {
			t.Errorf("verify --isolation %s: exit %d\n%s%s", iso, code, out, errOut)
		}
		t.Logf("verify --isolation %s: %s", iso, strings.TrimSpace(out))
	}
}

// replayBackstops reads the backstop events of a replay file.
func replayBackstops(t *testing.T, file string) []engine.Backstop {
	t.Helper()
	rep, err := replay.Open(file)
	if err != nil || rep.Damage != nil {
		t.Fatalf("read %s: %v %v", file, err, rep.Damage)
	}
	return recordedBackstops(rep)
}

// TestBackstopReplays: for every way a Go builtin can take a worker down,
// `run --record` of a battle whose hostile player calls it records the
// faults as backstop events, `replay --verify` says identical in this
// process and behind the wall, and the other teams' battle is the one they
// play against a square that only waits.
func TestBackstopReplays(t *testing.T) {
	run := func(t *testing.T, flags []string, file string) battleJSON {
		t.Helper()
		args := append(append([]string{"run", "--json", "--seed", "3", "--size", "8", "--rounds", "40", "--isolation", "process", "--workers", "2"},
			flags...), "hostile", "explorer", "victim")
		if file != "" {
			args = append(args, "--record", file)
		}
		code, out, errOut := runMain(t, args...)
		if code != 0 {
			t.Fatalf("run: exit %d: %s", code, errOut)
		}
		var b battleJSON
		if err := json.Unmarshal([]byte(out), &b); err != nil {
			t.Fatal(err)
		}
		return b
	}
	waiting := run(t, wallSetup(t, idleLua, 60), "")
	for _, c := range testhooks.Cases {
		t.Run(c.Hook, func(t *testing.T) {
			if why := c.SkipReason(worker.AddressSpaceLimited()); why != "" {
				t.Skip(why)
			}
			flags := wallSetup(t, c.Player(), c.CallTimeout())
			file := filepath.Join(t.TempDir(), c.Hook+".sbr")
			got := run(t, flags, file)
			var kinds []engine.BackstopKind
			for _, e := range replayBackstops(t, file) {
				kinds = append(kinds, e.Kind)
				if e.Team != 0 || !strings.HasPrefix(e.Message, "hostile.lua: ") && !strings.Contains(e.Message, "/hostile.lua: ") {
					t.Errorf("event %+v, want one of team 0 naming hostile.lua", e)
				}
				if e.Kind != engine.BackstopRetired && !strings.Contains(e.Message, c.Shown) {
					t.Errorf("event %q does not say %q", e.Message, c.Shown)
				}
			}
			if want := []engine.BackstopKind{c.Kind, c.Kind, c.Kind, engine.BackstopRetired}; !reflect.DeepEqual(kinds, want) {
				t.Errorf("the replay's events are %v, want %v", kinds, want)
			}
			if !reflect.DeepEqual(got.Teams[1:], waiting.Teams[1:]) || !reflect.DeepEqual(got.Board, waiting.Board) || got.Rounds != waiting.Rounds {
				t.Errorf("the other teams' battle differs from theirs against a waiting square:\n got %+v\nwant %+v", got.Teams[1:], waiting.Teams[1:])
			}
			verifyBothWays(t, flags, file)
		})
	}
}

// TestKilledWorkerReplays: kill -9 of every worker in the middle of a
// recorded battle is survived, recorded, and verifies identical.
func TestKilledWorkerReplays(t *testing.T) {
	flags := wallSetup(t, idleLua, 60)
	cfg, err := loadConfigFrom(config.LoadOptions{File: flags[1], Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Scripts, cfg.Isolation.Mode = flags[3], config.IsolationProcess
	cat, err := loadCatalog(cfg)
	if err != nil {
		t.Fatal(err)
	}
	players, err := pickPlayers(cat, []string{"victim", "explorer", "victim"})
	if err != nil {
		t.Fatal(err)
	}
	seat, err := seaterOf(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closePools)
	o := engine.Options{Size: 16, Wrap: true, Rounds: 60, ReplicateRounds: 3, Seed: 5, Workers: 2}
	b, err := luabind.NewSeatedBattle(cat, players, o, seat)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	file := filepath.Join(t.TempDir(), "killed.sbr")
	f, err := replay.Create(file, battle.Header(cfg, cat, b), b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(b.Battle)
	alive := map[int]bool{} // the teams with squares when their workers die
	for round := 1; b.Step(); round++ {
		l := rec.Next()
		if err := f.Round(&l); err != nil {
			t.Fatal(err)
		}
		if round == 10 {
			killWorkers(t, cfg)
			for team := range players {
				alive[team] = b.Stats(team).Squares > 0
			}
		}
	}
	finish(t, f, b.Snapshot())
	events := replayBackstops(t, file)
	killed := map[int]bool{}
	for _, e := range events {
		// A team learns of its worker's death at its next call: the next
		// round, unless all its squares sit still after replicating.
		if e.Round > 10 && e.Kind == engine.BackstopCrash && strings.Contains(e.Message, "signal: killed") && !killed[e.Team] {
			killed[e.Team] = true
		} else {
			t.Errorf("unexpected event %+v", e)
		}
	}
	if len(killed) == 0 || !reflect.DeepEqual(killed, alive) {
		t.Fatalf("the replay holds the kills of teams %v, want those of the teams alive then, %v: %+v", killed, alive, events)
	}
	verifyBothWays(t, flags, file)
	// Without its events the same file is a battle the scripts do not
	// play: the check says where.
	stripped := withoutBackstops(t, file)
	code, out, errOut := runMain(t, append(append([]string{"replay", "--verify", "--isolation", "none"}, flags...), stripped)...)
	if code != 1 || !strings.Contains(errOut, "differs") {
		t.Errorf("verify of the replay without its events: exit %d, %s%s", code, out, errOut)
	}
	t.Logf("without its events: %s", strings.TrimSpace(errOut))
}

// killWorkers sends SIGKILL to every worker of cfg's pool and returns
// how many there were.
func killWorkers(t *testing.T, cfg config.Config) int {
	t.Helper()
	pools.mu.Lock()
	pids := pools.all[poolKey{cfg.Isolation, 0}].Pids()
	pools.mu.Unlock()
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	return len(pids)
}

// finish ends a recorded battle's replay with its final snapshot.
func finish(t *testing.T, f *replay.File, final *engine.Snapshot) {
	t.Helper()
	if err := f.End(final, replay.EndReason(final)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// withoutBackstops writes a copy of a replay whose round lines lost their
// backstop events, as a program that does not record them would have
// written it, and returns its name.
func withoutBackstops(t *testing.T, file string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "stripped.sbr")
	editReplay(t, file, name, func(lines [][]byte) [][]byte {
		for i, line := range lines {
			if !bytes.Contains(line, []byte(`"w":[`)) {
				continue
			}
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(line, &fields); err != nil {
				t.Fatal(err)
			}
			delete(fields, "w")
			out, err := json.Marshal(fields)
			if err != nil {
				t.Fatal(err)
			}
			lines[i] = append(out, '\n')
		}
		return lines
	})
	return name
}

// TestHooksStayOut: the hooks that take a worker down are fielded by test
// binaries only; the program itself never links them.
func TestHooksStayOut(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the program's packages")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "/luabind/worker\n") {
		t.Fatalf("go list does not show the program's packages:\n%s", out)
	}
	if strings.Contains(string(out), "/testhooks") {
		t.Errorf("the program links luabind/worker/testhooks")
	}
}
