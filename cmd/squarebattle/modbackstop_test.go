package main

import (
	"os"
	"path/filepath"
	"strings"
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

// orbsWallSetup is wallSetup with a copy of the orbs game in the scripts
// folder, whose hostile.lua is its explorer calling hook (when not empty)
// in rounds 3, 9 and 15, and whose turns are stopped at 200,000
// instructions.
func orbsWallSetup(t *testing.T, hook string, timeout int) []string {
	t.Helper()
	flags := wallSetup(t, idleLua, timeout)
	dir := filepath.Join(flags[3], "orbs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"rules.lua", "game.yaml", "explorer.lua", "spreader.lua"} {
		src, err := scripts.FS.ReadFile("orbs/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
		if name == "rules.lua" {
			// A turn is stopped at 200,000 instructions, not 2,000,000:
			// the wall clock around a call allows 1 µs an instruction
			// on top of isolation.call_timeout, so a spinning turn is
			// taken down after 1.2 s instead of 3 s. The shipped
			// players' turns run far below either.
			capped := strings.Replace(string(src), "local CLOCK_CAP = 2000000 ", "local CLOCK_CAP = 200000 ", 1)
			if capped == string(src) {
				t.Fatal("orbs/rules.lua changed: its turn cap cannot be lowered")
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(capped), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if name != "explorer.lua" || hook == "" {
			continue
		}
		hostile := strings.Replace(string(src), `name = "Explorer",`, `name = "Hostile",`, 1)
		hostile = strings.Replace(hostile, "turn = function(view, memory)\n",
			"turn = function(view, memory)\n    if view.round == 3 or view.round == 9 or view.round == 15 then "+hook+"() end\n", 1)
		if hostile == string(src) {
			t.Fatal("explorer.lua changed: the hostile player cannot be made from it")
		}
		if err := os.WriteFile(filepath.Join(dir, "hostile.lua"), []byte(hostile), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return flags
}

// TestModBackstopReplays: for every way a Go builtin can take a worker
// down, `run --game orbs --record` of a battle whose hostile player calls
// it records its team's faults as backstop events, each in the batch of
// the round's turn queue it fired in, and `replay --verify` says identical
// in this process and behind the wall.
func TestModBackstopReplays(t *testing.T) {
	for _, c := range testhooks.Cases {
		t.Run(c.Hook, func(t *testing.T) {
			if why := c.SkipReason(worker.AddressSpaceLimited()); why != "" {
				t.Skip(why)
			}
			flags := orbsWallSetup(t, c.Hook, c.CallTimeout())
			file := filepath.Join(t.TempDir(), c.Hook+".sbr")
			args := append(append([]string{"run", "--game", "orbs", "--json", "--seed", "3", "--rounds", "24", "--isolation", "process", "--workers", "2"},
				flags...), "hostile", "spreader", "--record", file)
			if code, _, errOut := runMain(t, args...); code != 0 {
				t.Fatalf("run: exit %d: %s", code, errOut)
			}
			events := replayBackstops(t, file)
			later := false
			for i, e := range events {
				later = later || e.Batch > 0
				if e.Team != 0 || !strings.Contains(e.Message, "/hostile.lua: ") {
					t.Errorf("event %+v, want one of team 0 naming hostile.lua", e)
				}
				want := c.Kind
				if i == 3 {
					want = engine.BackstopRetired
				}
				if e.Kind != want || i == 3 && (e.Round != events[2].Round || e.Batch != events[2].Batch) {
					t.Errorf("event %d is %+v, want a %s (the fourth retires the team with the third)", i, e, want)
				}
			}
			if len(events) != 4 || !later {
				t.Errorf("%d events, some in a later batch %v; want 4 (three faults, the retirement), in the batches of the turn queue", len(events), later)
			}
			verifyBothWays(t, flags, file)
		})
	}
}

// TestKilledModWorkerReplays: kill -9 of every team worker in the middle
// of a recorded orbs battle is survived, recorded, and verifies identical;
// without its events the same file differs.
func TestKilledModWorkerReplays(t *testing.T) {
	flags := orbsWallSetup(t, "", 60)
	cfg, err := loadConfigFrom(config.LoadOptions{File: flags[1], Dir: "."})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Scripts, cfg.Isolation.Mode = flags[3], config.IsolationProcess
	g := loadTestGame(t, cfg, "orbs")
	explorer, _ := g.Find("explorer")
	spreader, _ := g.Find("spreader")
	players := []*luabind.Class{explorer, spreader}
	seat, err := seaterOf(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closePools)
	// The rules play in this process, so every worker of the pool plays a
	// team.
	o := engine.ModOptions{Size: 30, Rounds: 30, Seed: 5, Workers: 2}
	b, err := luabind.NewWalledModBattle(g, players, o, cfg.Limits.RulesInstructions, seat, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	file := filepath.Join(t.TempDir(), "killed.sbr")
	f, err := replay.Create(file, battle.ModHeader(cfg, "orbs", g, players, o, nil, nil), b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewModRecorder(b.ModBattle)
	for round := 1; b.Step(); round++ {
		l := rec.Next()
		if err := f.Round(&l); err != nil {
			t.Fatal(err)
		}
		if round == 5 {
			if n := killWorkers(t, cfg); n != len(players) {
				t.Fatalf("%d workers killed, want one per team", n)
			}
		}
	}
	if b.Err() != nil {
		t.Fatalf("the battle stopped: %v", b.Err())
	}
	finish(t, f, b.Snapshot())
	events := replayBackstops(t, file)
	killed := map[int]bool{}
	for _, e := range events {
		if e.Round == 6 && e.Kind == engine.BackstopCrash && strings.Contains(e.Message, "signal: killed") && !killed[e.Team] {
			killed[e.Team] = true
		} else {
			t.Errorf("unexpected event %+v", e)
		}
	}
	if len(killed) != len(players) {
		t.Fatalf("the replay holds the kills of teams %v, want both in round 6: %+v", killed, events)
	}
	verifyBothWays(t, flags, file)
	stripped := withoutBackstops(t, file)
	code, out, errOut := runMain(t, append(append([]string{"replay", "--verify", "--isolation", "none"}, flags...), stripped)...)
	if code != 1 || !strings.Contains(errOut, "round 6 differs") {
		t.Errorf("verify of the replay without its events: exit %d, %s%s", code, out, errOut)
	}
	t.Logf("without its events: %s", strings.TrimSpace(errOut))
}
