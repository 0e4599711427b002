package tui

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// faultySource has players that fail in each way a script fails, beside
// the shipped Explorer: Erring raises an error every turn, Stalling runs
// out of its instruction budget every turn, Flaky errs in round 1 and
// runs out of its budget from then on.
func faultySource(t *testing.T) *scriptSource {
	player := func(name, body string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte(`return { name = "` + name + `", run = function(self)
` + body + `
  return WAIT
end }`)}
	}
	return newSourceFS(t, fstest.MapFS{
		"explorer.lua": {Data: mustRead(t, "explorer.lua")},
		"erring.lua":   player("Erring", `  error("wrong every time")`),
		"stalling.lua": player("Stalling", `  while true do end`),
		"flaky.lua": player("Flaky", `  if round() == 1 then error("wrong once") end
  while true do end`),
	})
}

// TestProblemsByKind: a battle with a 20-digit seed, three rounds played,
// at 80×24. The status bar counts the turns lost to errors and to
// timeouts, naming each kind there is, whole (goldens status-*-80x24), and
// the problem list's first problems hold the first of each kind, the
// error before the timeout that followed it.
func TestProblemsByKind(t *testing.T) {
	for _, tc := range []struct {
		player string
		status string   // the problem count on the status bar
		firsts []string // the first problems listed, in order
	}{
		{"erring", "script problems (3 errors): e", []string{"round 1 Erring error: scripts/erring.lua:2: wrong every time"}},
		{"stalling", "script problems (3 timeouts): e", []string{"round 1 Stalling timeout: "}},
		{"flaky", "script problems (1 error, 2 timeouts): e", []string{"round 1 Flaky error: scripts/flaky.lua:2: wrong once", "round 2 Flaky timeout: "}},
	} {
		t.Run(tc.player, func(t *testing.T) {
			s := open(t, 80, 24, "", Options{Source: faultySource(t), Paused: true,
				Start: &Setup{Players: []string{tc.player, "explorer"}, Size: 16, Rounds: 1500, Seed: maxSeed}})
			s.waitText("Round 0/1500")
			s.keys("...")
			text := s.waitText("Round 3/1500")
			if !strings.Contains(text, tc.status) {
				t.Errorf("the status bar does not say %q:\n%s", tc.status, text)
			}
			golden(t, fmt.Sprintf("status-%s-80x24", tc.player), text)
			s.resize(160, 40) // the list's lines unwrapped
			s.keys("e")
			text = s.waitText("Latest, newest first")
			firsts := text[strings.Index(text, "First problem"):strings.Index(text, "Latest, newest first")]
			at := 0
			for _, want := range tc.firsts {
				i := strings.Index(firsts[at:], want)
				if i < 0 {
					t.Fatalf("the first problems lack %q (or list it out of order):\n%s", want, firsts)
				}
				at += i + len(want)
			}
			if n, want := strings.Count(firsts, "round "), len(tc.firsts); n != want {
				t.Errorf("%d first problems, want %d:\n%s", n, want, firsts)
			}
		})
	}
}
