package tui

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

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

// TestErrorsPanePrivacy: in the hall, a viewer reads the problems and the
// print log only of the players it may read (SessionOptions.MayRead: its
// own uploads and the shipped players over SSH); of the others it sees
// how many there are. Both watch the same battle.
func TestErrorsPanePrivacy(t *testing.T) {
	h := newHall(t, HallOptions{Source: noisySource(t), Featured: FeaturedOptions{Players: []string{"noisy", "explorer"}, Linger: time.Hour}})
	owner := join(t, h, 100, 30, SessionOptions{Start: StartWatch, MayRead: func(c string) bool { return c == "noisy" }}, nil)
	other := join(t, h, 100, 30, SessionOptions{Start: StartWatch, MayRead: func(c string) bool { return c != "noisy" }}, nil)
	for _, s := range []*session{owner, other} {
		s.waitText("(featured)")
		s.keys("e")
		s.waitText("Problems and logs")
	}
	owner.waitText("a long complaint")
	text := other.waitText("Only the player's owner can read them")
	if strings.Contains(text, "complaint") || !strings.Contains(text, "Noisy: ") || !strings.Contains(text, "error(s)") {
		t.Errorf("another viewer's problems tab:\n%s", text)
	}
	owner.key(tcell.KeyRight)
	owner.waitText("looking around")
	other.key(tcell.KeyRight)
	text = other.waitText("line(s) printed. Only the player's owner")
	if strings.Contains(text, "looking around") {
		t.Errorf("another viewer reads the log:\n%s", text)
	}
}
