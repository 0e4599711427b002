package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestLobbyScreens: the lobby lists the shipped players, picks teams (the
// same player twice too), and shows the settings, at 80×24 and at 160×48.
func TestLobbyScreens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := open(t, size[0], size[1], "", Options{})
			s.waitText("Start Battle")
			s.key(tcell.KeyEnter) // first player
			s.key(tcell.KeyDown)
			s.key(tcell.KeyEnter)
			s.key(tcell.KeyEnter) // the same player again
			text := s.waitFor("three teams", func(text string) bool { return strings.Contains(text, " 3 ") })
			golden(t, fmt.Sprintf("lobby-%dx%d", size[0], size[1]), text)
		})
	}
}

// TestBattleScreens: a paused battle stepped five rounds, at three sizes.
func TestBattleScreens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {250, 70}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			s := open(t, size[0], size[1], "", Options{Paused: true, Start: &Setup{
				Players: []string{"explorer", "linedancer", "pinwheel", "wanderer"}, Size: 40, Rounds: 300, Seed: 7}})
			s.waitText("Round 0/300")
			s.keys(".....")
			text := s.waitText("Round 5/300")
			golden(t, fmt.Sprintf("battle-%dx%d", size[0], size[1]), text)
		})
	}
}

// TestHelpOverlay: ? lists the battle keys from the key table; any key closes it.
func TestHelpOverlay(t *testing.T) {
	s := open(t, 80, 24, "", Options{Paused: true, Start: &Setup{Players: []string{"explorer", "pinwheel"}, Size: 24, Rounds: 100, Seed: 3}})
	s.waitText("Round 0/100")
	s.keys("?")
	text := s.waitText("this help")
	for _, b := range battleKeys {
		if b.label != "" && !strings.Contains(text, b.what) {
			t.Errorf("help does not list %q", b.what)
		}
	}
	golden(t, "help-80x24", text)
	s.keys("x")
	s.waitFor("help to close", func(text string) bool { return !strings.Contains(text, "this help") })
}

// TestVictoryOverlay: a battle played to its end shows the result; r plays
// the same seed again and ends the same way.
func TestVictoryOverlay(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	s := open(t, 100, 30, "", Options{Settings: Settings{Size: 12, Rounds: 60, Speed: 200, FPS: 60},
		Start: &Setup{Players: []string{"linedancer", "explorer"}, Size: 12, Rounds: 60, Seed: 11}})
	text := s.waitText("r replay (same seed)")
	golden(t, "victory-100x30", text)
	s.keys("r")
	s.waitFor("the replay to start", func(s string) bool { return !strings.Contains(s, "r replay (same seed)") })
	if again := s.waitText("r replay (same seed)"); again != text {
		t.Errorf("the replay ended differently:\n%s\nfirst:\n%s", again, text)
	}
}

// TestTooSmall: a terminal below the minimum gets a message, not garbage,
// and the UI comes back when it grows.
func TestTooSmall(t *testing.T) {
	s := open(t, 30, 8, "", Options{Paused: true, Start: &Setup{Players: []string{"explorer"}, Size: 16, Rounds: 10, Seed: 1}})
	s.waitText("Terminal too small")
	s.resize(80, 24)
	s.waitText("Round 0/10")
}

// TestASCII: without UTF-8 the UI draws with ASCII only, one cell per
// character, teams as digits.
func TestASCII(t *testing.T) {
	s := open(t, 80, 24, "US-ASCII", Options{Paused: true, Start: &Setup{Players: []string{"explorer", "pinwheel"}, Size: 16, Rounds: 100, Seed: 5}})
	text := s.waitText("Round 0/100")
	for _, r := range text {
		if r > 127 {
			t.Fatalf("non-ASCII %q on an ASCII screen:\n%s", r, text)
		}
	}
	golden(t, "ascii-80x24", text)
}

// TestHelpScrolls: at 40×12 the help overlay shows what fits and scrolls
// with Down and PgDn to its last row, which says where it is; any other
// key closes it. Every line fits the screen, its words whole.
func TestHelpScrolls(t *testing.T) {
	s := open(t, 40, 12, "", Options{Paused: true, Start: &Setup{Players: []string{"explorer", "pinwheel"}, Size: 24, Rounds: 100, Seed: 3}})
	s.waitText("0/100")
	s.keys("?")
	text := s.waitText("Space")
	if !strings.Contains(text, "1-9 of") || strings.Contains(text, "Ctrl-C") {
		t.Errorf("the help does not start at its top, saying where it is:\n%s", text)
	}
	golden(t, "help-40x12", text)
	s.key(tcell.KeyDown)
	s.waitText("2-10 of")
	s.key(tcell.KeyPgDn)
	s.key(tcell.KeyPgDn)
	s.key(tcell.KeyPgDn)
	s.key(tcell.KeyPgDn)
	text = s.waitText("Ctrl-C")
	if strings.Contains(text, "…") {
		t.Errorf("a help line is cut:\n%s", text)
	}
	s.key(tcell.KeyHome)
	s.waitText("1-9 of")
	s.keys("x")
	s.waitFor("help to close", func(text string) bool { return !strings.Contains(text, "Keys") })
}

// TestASCIIStandIns: without UTF-8 (US-ASCII, as under LANG=C) the lobby
// and a battle's end show ASCII only and no "?" that the same screens in
// UTF-8 do not show: "×", the curly quotes of a speech, "·" and the box
// have their stand-ins.
func TestASCIIStandIns(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	screens := func(charset string) []string {
		var out []string
		s := open(t, 100, 30, charset, Options{Settings: Settings{Size: 12, Rounds: 60, Speed: 200, FPS: 60, Seed: 11}})
		s.waitText("Start Battle")
		s.key(tcell.KeyEnter)
		out = append(out, s.waitText(" 1 "))
		s.keys("s")
		out = append(out, s.waitText("r replay (same seed)"))
		s.quit()
		return out
	}
	utf, ascii := screens("UTF-8"), screens("US-ASCII")
	for i := range ascii {
		for _, r := range ascii[i] {
			if r > 127 {
				t.Fatalf("non-ASCII %q on an ASCII screen:\n%s", r, ascii[i])
			}
		}
		if a, u := strings.Count(ascii[i], "?"), strings.Count(utf[i], "?"); a != u {
			t.Errorf("%d \"?\" in ASCII, %d in UTF-8:\n%s", a, u, ascii[i])
		}
	}
	if !strings.Contains(ascii[1], "\"") || !strings.Contains(utf[1], "“") {
		t.Errorf("no speech in quotes at the end:\n%s", ascii[1])
	}
	if !strings.Contains(ascii[0], "12 x 12") {
		t.Errorf("no \"12 x 12\" for the board size:\n%s", ascii[0])
	}
}

// TestVictorySmall: at 40×12 the end of a battle wraps its key hints
// between words instead of cutting them.
func TestVictorySmall(t *testing.T) {
	s := open(t, 40, 12, "", Options{Settings: Settings{Size: 12, Rounds: 60, Speed: 200, FPS: 60},
		Start: &Setup{Players: []string{"linedancer", "explorer"}, Size: 12, Rounds: 60, Seed: 11}})
	text := s.waitText("n new seed")
	if !strings.Contains(text, "q quit") || strings.Contains(text, "…") {
		t.Errorf("the hints are cut:\n%s", text)
	}
}
