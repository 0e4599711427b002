package tui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/laddertest"
)

// ladderFixture is a ladder on the memory store, played by a fake outcome
// generator (laddertest.Sim: no Lua), with a clock that moves a minute at
// every reading and fixed seeds: the same screens every run.
type ladderFixture struct {
	l   *ladder.Ladder
	sim *laddertest.Sim

	mu    sync.Mutex
	clock time.Time
}

// fixturePlayer is one player the fixture enters.
type fixturePlayer struct {
	game, name, owner, display string
	strength                   float64
	faulty                     bool
}

// newFixture enters players on the ladders of SquareBattle (4 teams a
// battle) and snake (2 teams, a score column).
func newFixture(t testing.TB, players []fixturePlayer) *ladderFixture {
	t.Helper()
	f := &ladderFixture{clock: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
	l, err := ladder.New(ladder.Options{Store: ladder.NewMemory(), Rand: rand.New(rand.NewPCG(7, 11)), Now: f.now,
		Games: []ladder.Game{{Name: "", Teams: 4}, {Name: "snake", Teams: 2, Columns: []string{"length"}}}})
	if err != nil {
		t.Fatal(err)
	}
	f.l = l
	f.sim = &laddertest.Sim{Ladder: l, Rand: rand.New(rand.NewPCG(3, 5)), Strength: map[ladder.PlayerID]float64{}, Faulty: map[ladder.PlayerID]bool{},
		// Every fifth battle's replay is pruned.
		Replay: func(b ladder.Battle) string {
			if b.ID%5 == 0 {
				return ""
			}
			return fmt.Sprintf("replays/ladder-%d.sbr", b.ID)
		}}
	for _, p := range players {
		got, err := l.Enter(context.Background(), p.game, p.name, p.owner, p.display, []byte("-- "+p.name))
		if err != nil {
			t.Fatal(err)
		}
		f.sim.Strength[got.ID] = p.strength
		f.sim.Faulty[got.ID] = p.faulty
	}
	return f
}

func (f *ladderFixture) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clock = f.clock.Add(time.Minute)
	return f.clock
}

// play plays n battles of game.
func (f *ladderFixture) play(t testing.TB, game string, n int) {
	t.Helper()
	if _, err := f.sim.Play(context.Background(), game, n); err != nil {
		t.Fatal(err)
	}
}

// find is a player by name.
func (f *ladderFixture) find(t testing.TB, game, name string) ladder.Player {
	t.Helper()
	p, err := f.l.Find(context.Background(), game, name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// arenaPlayers are the usual fixture: the shipped players, uploads of
// four users (one faulty: on probation) and a snake ladder.
func arenaPlayers() []fixturePlayer {
	var ps []fixturePlayer
	for i, n := range []string{"Explorer", "Hunter", "Pinwheel", "Wanderer", "Line Dancer", "Hungry", "Borg", "Slither"} {
		ps = append(ps, fixturePlayer{name: lower(n), display: n, strength: float64((i * 5) % 8)})
	}
	uploads := []struct{ owner, name, display string }{
		{"alice", "hunter", "Hunter Prime"}, {"alice", "spiral", "Spiral"}, {"alice", "turtle", "Turtle"},
		{"bob", "blitz", "Blitz"}, {"bob", "fortress", "Fortress"}, {"bob", "swarm", "Swarm 2"},
		{"carol", "greedy", "Greedy"}, {"carol", "mirror", "Mirror"}, {"carol", "lattice", "Lattice"},
		{"carol", "drifter", "Drifter"}, {"dana", "crash", "Crash Test"}, {"dana", "nomad", "Nomad"},
		{"dana", "pincer", "Pincer"}, {"erin", "tide", "Tide"}, {"erin", "ember", "Ember"},
		{"erin", "quill", "Quill"}, {"erin", "ziggurat", "Ziggurat"},
	}
	for i, u := range uploads {
		ps = append(ps, fixturePlayer{name: u.owner + "." + u.name, owner: u.owner, display: u.display,
			strength: float64((i*3)%9) + 0.5, faulty: u.name == "crash"})
	}
	for i, n := range []string{"snake-a", "snake-b"} {
		ps = append(ps, fixturePlayer{game: "snake", name: n, display: "Snake " + n[len(n)-1:], strength: float64(i)})
	}
	ps = append(ps, fixturePlayer{game: "snake", name: "alice.viper", owner: "alice", display: "Viper", strength: 3},
		fixturePlayer{game: "snake", name: "bob.cobra", owner: "bob", display: "Cobra", strength: 2})
	return ps
}

func lower(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "") }

// arenaFixture is the usual fixture played: 60 SquareBattle battles
// (alice's hunter handed in again after 30) and 12 of snake, then the
// viewer's visit, then 20 and 4 more.
func arenaFixture(t testing.TB) *ladderFixture {
	f := newFixture(t, arenaPlayers())
	f.play(t, "", 30)
	if _, err := f.l.Enter(context.Background(), "", "alice.hunter", "alice", "Hunter Prime", []byte("-- hunter, version 2")); err != nil {
		t.Fatal(err)
	}
	f.play(t, "", 30)
	f.play(t, "snake", 12)
	if _, err := f.l.Visit(context.Background(), viewerKey); err != nil {
		t.Fatal(err)
	}
	f.play(t, "", 20)
	f.play(t, "snake", 4)
	return f
}

// viewerKey is the fixture viewer's key.
const viewerKey = "SHA256:viewerkeyviewerkeyviewerkeyviewerkey00"

// ladderHall is a hall with the fixture's ladder.
func ladderHall(t *testing.T, f *ladderFixture, view Ladder) *Hall {
	t.Helper()
	if view == nil {
		view = NewLadderView(f.l, LadderViewOptions{})
	}
	return newHall(t, HallOptions{Ladder: view, Settings: Settings{Size: 16, Rounds: 40, Speed: 0, FPS: 30}, Featured: FeaturedOptions{Linger: time.Hour}})
}

// joinCharset is join on a simulated terminal of charset ("" UTF-8,
// "US-ASCII" as under LANG=C), wrapped by wrap when set.
func joinCharset(t *testing.T, h *Hall, w, hgt int, charset string, o SessionOptions, wrap func(sizedScreen) tcell.Screen) *session {
	t.Helper()
	sim := tcell.NewSimulationScreen(charset)
	s := &session{t: t, sim: sim, done: make(chan error, 1)}
	var scr tcell.Screen = sizedScreen{sim, w, hgt}
	if wrap != nil {
		scr = wrap(sizedScreen{sim, w, hgt})
	}
	o.Hall, o.Shown = h, s.shown
	ctx, cancel := context.WithCancel(context.Background())
	made := make(chan struct{})
	go func() {
		s.done <- runSession(ctx, scr, o, func(a *App) { s.app = a; close(made) })
	}()
	select {
	case <-made:
	case err := <-s.done:
		cancel()
		t.Fatalf("session: %v", err)
	}
	t.Cleanup(func() { cancel(); s.quit() })
	return s
}

// menuTo moves the menu's cursor to the item labelled item and opens it.
func (s *session) menuTo(item string) {
	s.t.Helper()
	s.waitText("> Watch the featured battle")
	for range 12 {
		if text := s.screen(); containsLine(text, "> "+item) {
			s.key(tcell.KeyEnter)
			return
		}
		before := s.frameCount()
		s.keys("j")
		s.waitFor("the cursor to move", func(string) bool { return s.frameCount() > before })
	}
	s.t.Fatalf("no menu item %q:\n%s", item, s.screen())
}

func (s *session) frameCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frames
}

// containsLine reports whether a line of text starts with want after its
// indentation, followed by a blank or the line's end.
func containsLine(text, want string) bool {
	for _, l := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimLeft(l, " "), want); ok && (rest == "" || rest[0] == ' ') {
			return true
		}
	}
	return false
}
