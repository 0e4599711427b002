package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRetiredBotOutput: a bot that crashes, never says ready, or stops
// answering is called retired, with when and why, in run's standings, in
// run --json and in a rule mod's --json (which has the battle's problems
// too); a crash shows the last lines the bot wrote to standard error; a
// missing ready says the bot may not have flushed its output.
func TestRetiredBotOutput(t *testing.T) {
	bin := refbotPath(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "squarebattle.yaml")
	// A short init clock for noready; faults in a row retire after 3.
	yaml := "rules:\n  replicate_rounds: 3\nbots:\n  init_ms: 1500\n  round_ms: 300\n  bank_ms: 0\n  max_faults: 3\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		game  string // "" for SquareBattle
		fault []string
		round int      // the round of the retirement; 0: any
		team  string   // the bot's team's name
		why   []string // in the retirement's reason
		// stderr is in the text output under the retirement (a crash's
		// last words), "" for none.
		stderr string
	}{
		{name: "crash", team: "Ref", fault: []string{"-fault", "crash", "-at", "3"},
			why: []string{"bot: retired, it crashed: bot closed its output"}, stderr: "panic: refbot: crashing as asked"},
		{name: "noready", team: "bot1", fault: []string{"-fault", "noready"}, round: 1,
			why: []string{"bot: retired, not ready: no ready within 1.5s", "may not have flushed its output"}},
		{name: "faults in a row", team: "Ref", fault: []string{"-fault", "noread", "-at", "2"},
			why: []string{"bot: retired after 3 faults in a row (the last: "}},
		{name: "snake crash", team: "Ref", game: "snake", fault: []string{"-fault", "crash", "-at", "2"}, round: 2,
			why: []string{"bot: retired, it crashed"}, stderr: "panic: refbot: crashing as asked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := []string{"run", "--config", cfg, "--seed", "4", "--size", "12", "--rounds", "8", "--isolation", "none"}
			vs := "explorer"
			if tc.game != "" {
				args, vs = append(args, "--game", tc.game, "--option", "games=1"), "hungry"
			}
			args = append(args, vs, "--bot", bin+" -name Ref "+strings.Join(tc.fault, " "))
			code, out, errOut := runMain(t, args...)
			if code != 0 {
				t.Fatalf("run: exit %d: %s", code, errOut)
			}
			line, want := "", "team 1 "+tc.team+" (bot), round "
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, want) {
					line = l
				}
			}
			if tc.round > 0 {
				want += itoa(tc.round) + ": "
			}
			if !strings.HasPrefix(line, want) || !containsAll(line, tc.why) {
				t.Errorf("the standings say %q; want %q and %q\n%s", line, want, tc.why, out)
			}
			if tc.stderr != "" && (!strings.Contains(out, "the last lines it wrote to standard error:\n") || !strings.Contains(out, "\n    "+tc.stderr+"\n")) {
				t.Errorf("the standings do not show the bot's last words %q:\n%s", tc.stderr, out)
			}
			code, out, errOut = runMain(t, append(args, "--json")...)
			if code != 0 {
				t.Fatalf("run --json: exit %d: %s", code, errOut)
			}
			var got struct {
				Teams []struct {
					Log     []string
					Retired *struct {
						Round  int
						Reason string
					}
				}
				Problems []struct {
					Team    int
					Message string
				}
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Teams) != 2 {
				t.Fatalf("run --json: %v: %s", err, out)
			}
			if got.Teams[0].Retired != nil {
				t.Errorf("the Lua team is retired: %+v", got.Teams[0].Retired)
			}
			r := got.Teams[1].Retired
			if r == nil || r.Round == 0 || tc.round > 0 && r.Round != tc.round || !containsAll(r.Reason, tc.why) {
				t.Errorf("run --json: the bot is retired %+v; want round %d saying %q\n%s", r, tc.round, tc.why, out)
			}
			if tc.stderr != "" && !strings.Contains(strings.Join(got.Teams[1].Log, "\n"), tc.stderr) {
				t.Errorf("run --json: the bot's log %q lacks %q", got.Teams[1].Log, tc.stderr)
			}
			if len(got.Problems) == 0 || got.Problems[0].Team != 1 {
				t.Errorf("run --json: problems %+v, want the bot's", got.Problems)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
