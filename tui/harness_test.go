package tui

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

var update = flag.Bool("update", false, "rewrite the golden screens in testdata/")

// scriptSource serves the shipped players through the real Lua bindings.
type scriptSource struct {
	cat *luabind.Catalog
}

func newScriptSource(t testing.TB) *scriptSource { return newSourceFS(t, scripts.FS) }

func newSourceFS(t testing.TB, fsys fs.FS) *scriptSource {
	t.Helper()
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: fsys, Dir: "scripts", Limits: luabind.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	return &scriptSource{cat: cat}
}

func (s *scriptSource) Dir() string { return "shipped players" }

func (s *scriptSource) Entries() []Entry {
	var out []Entry
	for _, c := range s.cat.All {
		e := Entry{ID: c.ID, Name: c.Name, File: c.File}
		if c.Err != nil {
			e.Problem = c.Err.Error()
		}
		out = append(out, e)
	}
	return out
}

func (s *scriptSource) players(ids []string) ([]*luabind.Class, error) {
	var ps []*luabind.Class
	for _, id := range ids {
		c, err := s.cat.Find(id)
		if err != nil {
			return nil, err
		}
		ps = append(ps, c)
	}
	return ps, nil
}

func (s *scriptSource) options(su Setup) engine.Options {
	return engine.Options{Size: su.Size, Wrap: true, Rounds: su.Rounds, ReplicateRounds: 100, Seed: su.Seed, Workers: 2}
}

func (s *scriptSource) NewBattle(su Setup) (Battle, error) {
	ps, err := s.players(su.Players)
	if err != nil {
		return nil, err
	}
	b, err := luabind.NewBattle(s.cat, ps, s.options(su))
	if err != nil {
		return nil, err
	}
	return testBattle{b}, nil
}

// testBattle is a Lua battle as the TUI drives it, with a replay header
// that names the players (the command line adds the rules and hashes).
type testBattle struct{ *luabind.Battle }

func (b testBattle) Recorder() *engine.Recorder { return engine.NewRecorder(b.Battle.Battle) }

func (b testBattle) Header() replay.Header {
	h := replay.Header{Program: "tui test"}
	for i, id := range b.Options().Classes {
		h.Classes = append(h.Classes, replay.Class{ID: id, File: fmt.Sprintf("class%d.lua", i)})
	}
	for i, t := range b.Options().Teams {
		p := t.Player
		h.Players = append(h.Players, replay.Player{Team: i, Class: int(p.Class), Name: p.Name, Victory: p.Victory, Defeat: p.Defeat})
	}
	return h
}

// sizedScreen is a SimulationScreen that takes its size when Run
// initialises it (Init resets a simulation to 80×25).
type sizedScreen struct {
	tcell.SimulationScreen
	w, h int
}

func (s sizedScreen) Init() error {
	if err := s.SimulationScreen.Init(); err != nil {
		return err
	}
	s.SetSize(s.w, s.h)
	return nil
}

// resize changes the simulated terminal's size the way a terminal does.
func (s *session) resize(w, h int) {
	s.sim.SetSize(w, h)
	_ = s.sim.PostEvent(tcell.NewEventResize(w, h))
}

// session is a running App on a SimulationScreen.
type session struct {
	t      *testing.T
	sim    tcell.SimulationScreen
	app    *App
	done   chan error
	mu     sync.Mutex
	text   string // the screen as last shown
	frames int
	snap   *engine.Snapshot // the snapshot last shown
	view   arenaView        // the arena view as last shown
	frame  *frame           // the frame last shown
	arena  rect             // where the arena was drawn
}

func open(t *testing.T, w, h int, charset string, o Options) *session {
	t.Helper()
	sim := tcell.NewSimulationScreen(charset)
	s := &session{t: t, sim: sim, done: make(chan error, 1)}
	o.Screen = sizedScreen{sim, w, h}
	if o.Source == nil {
		o.Source = newScriptSource(t)
	}
	if o.Settings.Size == 0 {
		o.Settings = Settings{Size: 32, Rounds: 300, Speed: 20, FPS: 60}
	}
	o.NewSeed = func() uint64 { return 4242 }
	o.Shown = s.shown
	s.app = New(o)
	go func() { s.done <- s.app.Run() }()
	t.Cleanup(func() { s.quit() })
	return s
}

// shown records what the session showed; it runs on the session's
// goroutine after every Show.
func (s *session) shown() {
	text := screenText(s.sim)
	s.mu.Lock()
	if w := s.app.w; s.app.screen == battleScreen && w != nil && w.last != nil {
		s.snap, s.view, s.frame, s.arena = w.last.snap, w.view, w.last, s.app.layout().arena
	}
	s.text = text
	s.frames++
	s.mu.Unlock()
}

// screenText is what a simulated terminal shows, a line per row with
// trailing blanks trimmed: a wide character covers the cell after it
// (whatever that cell held before, a terminal shows the character). Call
// it where nothing draws (Options.Shown).
func screenText(sim tcell.SimulationScreen) string {
	cells, w, h := sim.GetContents()
	var b strings.Builder
	for y := 0; y < h; y++ {
		var line strings.Builder
		row := cells[y*w : (y+1)*w]
		for x := 0; x < len(row); x++ {
			c := row[x]
			if len(c.Runes) == 0 {
				line.WriteByte(' ')
				continue
			}
			line.Write(c.Bytes)
			if uniseg.StringWidth(string(c.Runes)) > 1 {
				x++
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// screen returns the text last shown.
func (s *session) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.text
}

// waitFor polls the shown screen until cond holds; no fixed sleeps.
func (s *session) waitFor(what string, cond func(string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if text := s.screen(); cond(text) {
			return text
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s.screen())
	return ""
}

func (s *session) waitText(sub string) string {
	s.t.Helper()
	return s.waitFor(sub, func(text string) bool { return strings.Contains(text, sub) })
}

func (s *session) key(k tcell.Key) { s.sim.InjectKey(k, 0, tcell.ModNone) }
func (s *session) shiftKey(k tcell.Key) {
	s.sim.InjectKey(k, 0, tcell.ModShift)
}
func (s *session) keys(runes string) {
	for _, r := range runes {
		s.sim.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
}

func (s *session) quit() {
	select {
	case err := <-s.done:
		s.done <- err
		return
	default:
	}
	s.sim.InjectKey(tcell.KeyCtrlC, 0, tcell.ModNone)
	select {
	case err := <-s.done:
		s.done <- err
		if err != nil && !errors.Is(err, errQuit) {
			s.t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		s.t.Error("the UI did not quit")
	}
}

// golden compares text with testdata/NAME.txt, rewriting it under -update.
func golden(t *testing.T, name, text string) {
	t.Helper()
	path := filepath.Join("testdata", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != text {
		t.Errorf("screen differs from %s (run with -update to accept):\n--- got\n%s--- want\n%s", path, text, want)
	}
}
