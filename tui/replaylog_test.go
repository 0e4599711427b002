package tui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestReplayLogPane: a replay keeps what the teams printed, and the
// viewer's log tab shows it up to the round on view, as the live battle's
// did.
func TestReplayLogPane(t *testing.T) {
	name := recordBattle(t, noisySource(t), Setup{Players: []string{"noisy", "explorer"}, Size: 16, Rounds: 30, Seed: 1})
	s := open(t, 80, 24, "", Options{Replay: openReplay(t, name), ReplayFile: name, Paused: true})
	s.waitText("Round 0/30")
	s.keys(".....")
	s.waitText("Round 5/30")
	s.keys("e")
	s.waitText("Problems and logs")
	s.key(tcell.KeyRight)
	text := s.waitText("[1 Noisy]")
	if !strings.Contains(text, "round 5: looking around") || strings.Contains(text, "round 6: looking") {
		t.Errorf("the log tab at round 5 does not end with round 5's line:\n%s", text)
	}
	s.key(tcell.KeyHome)
	s.waitText("round 1: looking around")
	s.key(tcell.KeyEscape)
	s.waitFor("the pane to close", func(text string) bool { return !strings.Contains(text, "Problems and logs") })
	s.keys("..")
	s.waitText("Round 7/30")
	s.keys("e")
	s.key(tcell.KeyRight)
	s.waitText("round 7: looking around")
}
