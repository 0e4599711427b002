//go:build unix

package kits

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// TestKitsCheck: check --bot passes every kit's bots, SquareBattle's and
// snake's: the conformance run says each step is ok (ready under the
// kit's name, rounds at every edge without and with wrap, end), the trial
// battle has no problem, and the exit status is 0.
func TestKitsCheck(t *testing.T) {
	cfg := kitConfig(t)
	for _, g := range []struct {
		game kitGame
		args []string
		ok   []string // conformance steps that must say ok
	}{
		{kitSquares, []string{"--seed", "5", "--size", "16", "--rounds", "300"},
			[]string{"edges that do not wrap: ok", "edges that wrap: ok"}},
		{kitSnake, []string{"--game", "snake", "--seed", "3", "--size", "12", "--rounds", "3000"},
			[]string{"the game's rounds (at most 30): ok"}},
	} {
		for _, k := range kits {
			t.Run(string(g.game)+"/"+k.lang, func(t *testing.T) {
				needKit(t, k)
				args := append([]string{"check", "--config", cfg}, g.args...)
				code, out, errOut := harness.Exec(t, append(args, "--bot", botCommand(k.argv(t, g.game)))...)
				if code != 0 {
					t.Fatalf("check --bot: exit %d\n%s\n%s", code, out, errOut)
				}
				want := append([]string{`hello, ready: ok, the bot is "` + kitNames[k.lang][g.game] + `"`, "end: ok, the bot exited", "\nTrial battle against "}, g.ok...)
				for _, w := range want {
					if !strings.Contains(out, w) {
						t.Errorf("check --bot does not say %q:\n%s", w, out)
					}
				}
				if strings.Contains(out, "Problems while playing") {
					t.Errorf("the trial battle found problems:\n%s", out)
				}
			})
		}
	}
}

// TestCheckBotFaults: check --bot fails (exit status 1) a bot for each
// kind of fault, naming the fault, its first round and the line the bot
// wrote, or what it wrote to standard error when it crashed.
func TestCheckBotFaults(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		harness.SkipOrRequire(t, "the fault bot needs python3 on PATH (apt-get install python3)")
	}
	bot, err := filepath.Abs(filepath.Join("testdata", "faultbot.py"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "squarebattle.yaml")
	// Generous enough for a loaded machine; the slow mode is late by half a
	// round every round.
	yaml := "bots:\n  init_ms: 5000\n  round_ms: 600\n  bank_ms: 0\n  max_faults: 3\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode string
		game string   // "" SquareBattle
		want []string // in the report
	}{
		{mode: "noflush", want: []string{"hello, ready: FAILED", "bot: not ready: no ready within 5s", "the bot may not have flushed its output",
			"retired in 1 round, first in round 1: bot: retired, not ready", "Trial battle: not played"}},
		{mode: "badready", want: []string{"hello, ready: FAILED", `a "actions" message, not "ready"`, `the bot wrote: {"type": "actions", "round": 0, "actions": []}`}},
		{mode: "garbage", want: []string{"error in ", ": bot: round 2: not a JSON object: hello world", "the bot wrote: hello world"}},
		{mode: "badorder", want: []string{`: actions[0]: unknown direction "north"`, `the bot wrote: {"type": "actions", "round": `, `"dir": "north"`}},
		{mode: "badid", want: []string{"is not one of this round's squares", `"id": 999999`}},
		{mode: "slow", want: []string{"timeout in ", "no answer within 600ms", "retired in 1 round", "bot: retired after 3 faults in a row (the last: no answer within 600ms)"}},
		{mode: "crash", want: []string{"crash in 1 round, first in round 2: bot: round 2: bot closed its output (exit status 1)",
			"bot: retired, it crashed", "Last lines it wrote to standard error:", "faultbot: about to divide by zero", "ZeroDivisionError"}},
		{mode: "chatty", want: []string{"end: 1 line written after end"}},
		{mode: "linger", want: []string{"end: still running 1s after end"}},
		{mode: "garbage", game: "snake", want: []string{"error in ", "not a JSON object: hello world", "the bot wrote: hello world"}},
	} {
		t.Run(tc.game+"/"+tc.mode, func(t *testing.T) {
			t.Parallel()
			args := []string{"check", "--config", cfg, "--seed", "5", "--size", "12", "--rounds", "40"}
			if tc.game != "" {
				args = append(args, "--game", tc.game, "--rounds", "400")
			}
			code, out, errOut := harness.Exec(t, append(args, "--bot", botCommand([]string{"python3", bot, tc.mode}))...)
			if code != 1 || !strings.Contains(errOut, "kind of problem") && !strings.Contains(errOut, "kinds of problem") {
				t.Errorf("exit %d, want 1 with the kinds of problem on stderr: %s", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("check --bot does not say %q:\n%s", w, out)
				}
			}
		})
	}
}
