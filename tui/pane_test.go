package tui

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gdamore/tcell/v2"
)

// noisySource has a player that prints every turn and fails with a long
// message on odd rounds, beside the shipped Explorer.
func noisySource(t *testing.T) *scriptSource {
	return newSourceFS(t, fstest.MapFS{
		"explorer.lua": {Data: mustRead(t, "explorer.lua")},
		"noisy.lua": {Data: []byte(`return { name = "Noisy", run = function(self)
  print("round " .. round() .. ": looking around before deciding where this square should go next")
  if round() % 2 == 1 then
    error("a long complaint that does not fit on one line of an eighty-column terminal, so the pane must wrap it " .. round())
  end
  return WAIT
end }`)},
	})
}

// TestErrorsPane: at 80×24 the pane wraps problems, scrolls, opens one
// whole, shows each team's log on its own tab, and no key reaches the
// battle under it.
func TestErrorsPane(t *testing.T) {
	s := open(t, 80, 24, "", Options{Source: noisySource(t), Paused: true,
		Start: &Setup{Players: []string{"noisy", "explorer"}, Size: 16, Rounds: 100, Seed: 1}})
	s.waitText("Round 0/100")
	s.keys(".......")
	s.waitText("Round 7/100")
	s.keys("e")
	text := s.waitText("First problem")
	golden(t, "errors-80x24", text)
	if !strings.Contains(text, "must wrap") {
		t.Errorf("the message is cut, not wrapped:\n%s", text)
	}
	// keys that move the battle do nothing under the pane
	s.keys(". ")
	s.key(tcell.KeyRight) // the next tab, not the next round
	text = s.waitText("[1 Noisy]")
	if !strings.Contains(text, "Round 7/100") {
		t.Errorf("a key reached the battle under the pane:\n%s", text)
	}
	golden(t, "log-80x24", text)
	if !strings.Contains(text, "round 7: looking around") {
		t.Errorf("the log tab lacks the newest printed line:\n%s", text)
	}
	s.key(tcell.KeyHome)
	s.waitText("round 1: looking around")
	s.key(tcell.KeyLeft) // back to the problems
	s.waitText("[Problems]")
	s.key(tcell.KeyEnd)
	s.key(tcell.KeyEnter)
	text = s.waitText("square ")
	if !strings.Contains(text, "class noisy") || !strings.Contains(text, "Enter or Esc back") {
		t.Errorf("Enter does not show the problem whole:\n%s", text)
	}
	s.resize(40, 12) // a small terminal still gets the whole pane
	s.waitFor("the pane at 40x12", func(text string) bool {
		return strings.Contains(text, "Problems and logs") && strings.Contains(text, "class noisy")
	})
	s.key(tcell.KeyEscape) // back to the list
	s.waitText("Enter open")
	s.key(tcell.KeyEscape) // closes the pane
	s.waitFor("the pane to close", func(text string) bool { return !strings.Contains(text, "Problems and logs") })
	s.keys(".")
	s.waitText("Round 8/100")
}
