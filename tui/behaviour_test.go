package tui

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/scripts"
)

func (s *session) lastSnap() *engine.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap
}

// TestMatchesHeadless: a battle watched in the UI, at full speed with
// frames skipping rounds, ends exactly as the same battle played headless.
func TestMatchesHeadless(t *testing.T) {
	for _, su := range []Setup{
		{Players: []string{"wanderer", "hesitantwolf", "expand"}, Size: 24, Rounds: 400, Seed: 3},
		{Players: []string{"linedancer", "explorer", "explorer"}, Size: 16, Rounds: 300, Seed: 99},
	} {
		src := newScriptSource(t)
		s := open(t, 120, 40, "", Options{Source: src, Settings: Settings{Size: su.Size, Rounds: su.Rounds, Speed: 0, FPS: 60}, Start: &su})
		s.waitText("r replay (same seed)")
		got := s.lastSnap()
		b, err := src.NewBattle(su)
		if err != nil {
			t.Fatal(err)
		}
		want := b.(interface{ Run() *engine.Snapshot }).Run()
		b.Close()
		if got.Round != want.Round || got.Winner != want.Winner || !reflect.DeepEqual(got.Cells, want.Cells) || !reflect.DeepEqual(got.Teams, want.Teams) {
			t.Errorf("seed %d: UI battle ended round %d winner %d %+v; headless round %d winner %d %+v",
				su.Seed, got.Round, got.Winner, got.Teams, want.Round, want.Winner, want.Teams)
		}
		s.quit()
	}
}

// TestBattleKeys: speed, colour depth, fit, problems and Esc work from the
// battle screen's key table.
func TestBattleKeys(t *testing.T) {
	s := open(t, 100, 30, "", Options{Paused: true, Start: &Setup{Players: []string{"explorer", "pinwheel"}, Size: 120, Rounds: 100, Seed: 3}})
	s.waitText("Round 0/100")
	for i := 0; i < len(speeds); i++ {
		s.keys("+")
	}
	s.waitText("speed unthrottled")
	s.keys("-")
	s.waitText("speed 1000 rounds/s")
	s.keys("c") // a simulated screen reports 256 colours: c never offers 24-bit
	s.waitText("16 colours")
	s.keys("c")
	s.waitText("256 colours, the most")
	s.keys("f")
	s.waitText("full size")
	if v := s.waitFor("full-size view", func(string) bool { return !s.lastView().fit }); v == "" {
		t.Fatal("no frame")
	}
	s.keys("llll")
	s.waitFor("a pan to the right, stopped at the edge", func(string) bool { return s.lastView().left == 120-100 })
	s.keys("jj")
	s.waitFor("a pan down", func(string) bool { return s.lastView().top == 16 })
	s.keys("e")
	s.waitText("No script problems so far")
	s.key(tcell.KeyEscape)
	s.waitFor("the problem list to close", func(text string) bool { return !strings.Contains(text, "No script problems") })
	s.key(tcell.KeyEscape) // an unsaved battle: asks first
	s.waitText("leave without saving?")
	s.key(tcell.KeyEscape)
	s.waitText("Start Battle")
}

func (s *session) lastView() arenaView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.view
}

// TestProblemsShown: a script that fails shows up in the status bar and in
// the problem list with its file and line.
func TestProblemsShown(t *testing.T) {
	fsys := fstest.MapFS{
		"explorer.lua": {Data: mustRead(t, "explorer.lua")},
		"faulty.lua": {Data: []byte(`return { name = "Faulty", run = function(self)
  if round() > 1 then
    error("boom")
  end
  return WAIT
end }`)},
	}
	s := open(t, 120, 30, "", Options{Source: newSourceFS(t, fsys), Paused: true, Start: &Setup{Players: []string{"faulty", "explorer"}, Size: 16, Rounds: 50, Seed: 1}})
	s.waitText("Round 0/50")
	s.keys("...")
	s.waitText("script problems (2 errors): e")
	s.keys("e")
	text := s.waitText("First problem")
	if !strings.Contains(text, "faulty.lua:3: boom") || !strings.Contains(text, "Faulty error") {
		t.Errorf("problem list lacks the file:line or team:\n%s", text)
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	f, err := scripts.FS.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestTimeLimit: the interactive time limit ends a running battle and the
// result says so.
func TestTimeLimit(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	s := open(t, 100, 30, "", Options{Settings: Settings{Size: 24, Rounds: 100000, Speed: 50, FPS: 60, TimeLimit: time.Second},
		Start: &Setup{Players: []string{"explorer", "pinwheel"}, Size: 24, Rounds: 100000, Seed: 2}})
	s.waitText("time left 0:01")
	s.waitText("when time ran out")
}

// TestLobbyFlow: keys pick, recolour and remove teams, change settings by
// steps and by typing, and refuse to start without teams.
func TestLobbyFlow(t *testing.T) {
	s := open(t, 100, 30, "", Options{})
	s.waitText("Start Battle")
	s.keys("s")
	s.waitText("pick at least one team first")
	s.key(tcell.KeyEnter)
	s.key(tcell.KeyEnter)
	s.waitText("(green)")
	s.key(tcell.KeyTab) // teams
	s.keys("c")
	s.waitText("(blue)")
	s.keys("x")
	s.waitFor("one team", func(text string) bool { return !strings.Contains(text, "(red)") || !strings.Contains(text, "(blue)") })
	s.key(tcell.KeyTab) // settings
	s.keys("++")
	s.waitText("40 × 40")
	s.key(tcell.KeyDown)
	s.keys("250")
	s.waitText("Round limit  250")
	s.key(tcell.KeyDown)
	s.key(tcell.KeyDown)
	s.keys("77")
	s.waitText("Seed         77")
	s.keys("s")
	s.waitText("Round 0/250")
	if s.waitText("seed 77"); s.lastSnap().Size != 40 {
		t.Errorf("battle size %d, want 40", s.lastSnap().Size)
	}
}

// monoScreen is a terminal without colours.
type monoScreen struct{ sizedScreen }

func (monoScreen) Colors() int { return 0 }

// TestNoColour: without colours, teams are told apart by their digits.
func TestNoColour(t *testing.T) {
	sim := tcell.NewSimulationScreen("")
	var mu sync.Mutex
	var text string
	a := New(Options{Screen: monoScreen{sizedScreen{sim, 80, 24}}, Source: newScriptSource(t), Paused: true,
		Settings: Settings{Size: 16, Rounds: 10, FPS: 60},
		Start:    &Setup{Players: []string{"explorer", "pinwheel"}, Size: 16, Rounds: 10, Seed: 5},
		Shown: func() {
			shown := screenText(sim)
			mu.Lock()
			text = shown
			mu.Unlock()
		}})
	done := make(chan error, 1)
	go func() { done <- a.Run() }()
	defer func() { sim.InjectKey(tcell.KeyCtrlC, 0, tcell.ModNone); <-done }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		got := text
		mu.Unlock()
		if strings.Contains(got, "Round 0/10") {
			if !strings.Contains(got, "00 Explorer") || !strings.Contains(got, "11 Pinwheel") || strings.Contains(got, "▀") {
				t.Errorf("a colourless screen does not tell teams apart by glyph:\n%s", got)
			}
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no battle screen")
}

// TestLobbyClick: a click on a player adds one team, however the mouse
// moves while the button is down.
func TestLobbyClick(t *testing.T) {
	s := open(t, 100, 30, "", Options{})
	s.waitText("Start Battle")
	s.sim.InjectMouse(5, 4, tcell.Button1, tcell.ModNone) // second player row
	s.sim.InjectMouse(6, 4, tcell.Button1, tcell.ModNone) // drag
	s.sim.InjectMouse(6, 4, tcell.ButtonNone, tcell.ModNone)
	text := s.waitText("(red)")
	if strings.Contains(text, "(green)") {
		t.Errorf("one click added two teams:\n%s", text)
	}
}

// TestStats: Stats counts every frame shown, the rounds played and the
// time, once Run is over.
func TestStats(t *testing.T) {
	s := open(t, 100, 30, "", Options{Paused: true, Start: &Setup{Players: []string{"explorer", "explorer"}, Size: 16, Rounds: 100, Seed: 3}})
	s.waitText("Round 0/100")
	s.keys("...")
	s.waitText("Round 3/100")
	s.quit()
	st := s.app.Stats()
	s.mu.Lock()
	shown := s.frames
	s.mu.Unlock()
	if st.Frames != shown || st.Frames < 2 || st.Rounds != 3 || st.FPS != 60 || st.Drawing <= 0 || st.Elapsed < st.Drawing || st.Rate() <= 0 {
		t.Errorf("stats %+v (rate %.1f), want %d frames shown, 3 rounds, cap 60", st, st.Rate(), shown)
	}
}
