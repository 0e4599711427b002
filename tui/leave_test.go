package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// TestLeaveBattle: q asks while a battle runs, Esc asks before leaving an
// unsaved battle, the lobby gets the battle's teams back with nothing of
// the battle screen left on it, Esc never quits the lobby and q does.
func TestLeaveBattle(t *testing.T) {
	s := open(t, 80, 24, "", Options{Paused: true, Start: &Setup{Players: []string{"explorer", "pinwheel"}, Size: 24, Rounds: 100, Seed: 3}})
	s.waitText("Round 0/100")
	s.keys("q")
	s.waitText("q again (or y) quits")
	s.keys(".") // any other key stays, and does what it does
	s.waitText("Round 1/100")
	s.key(tcell.KeyEscape)
	s.waitText("leave without saving?")
	s.key(tcell.KeyEscape)
	text := s.waitText("Start Battle")
	golden(t, "lobby-after-battle-80x24", text)
	if strings.Contains(text, "Round 1/") {
		t.Errorf("the battle's status bar stayed on the lobby:\n%s", text)
	}
	if !strings.Contains(text, "Explorer") || !strings.Contains(text, "Pinwheel") {
		t.Errorf("the battle's teams did not come back to the lobby:\n%s", text)
	}
	s.key(tcell.KeyEscape)
	s.keys("?")
	s.waitText("Esc never does")
	s.keys("x")
	s.keys("q")
	select {
	case err := <-s.done:
		s.done <- err
	case <-time.After(10 * time.Second):
		t.Fatal("q did not quit the lobby")
	}
}
