package tui

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine/replay"
)

// newHall opens a hall on the shipped players, closed with the test.
func newHall(t *testing.T, o HallOptions) *Hall {
	t.Helper()
	if o.Source == nil {
		o.Source = newScriptSource(t)
	}
	if o.Settings.Size == 0 {
		o.Settings = Settings{Size: 16, Rounds: 10_000, Speed: 50, FPS: 30}
	}
	if o.Featured.Players == nil {
		o.Featured.Players = []string{"explorer", "pinwheel"}
	}
	if o.Featured.Seed == 0 {
		o.Featured.Seed = 7
	}
	o.NewSeed = func() uint64 { return 4242 }
	h, err := NewHall(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	})
	return h
}

// join runs an SSH-like session of h on a w×hgt SimulationScreen, which
// wrap (when set) wraps.
func join(t *testing.T, h *Hall, w, hgt int, o SessionOptions, wrap func(sizedScreen) tcell.Screen) *session {
	t.Helper()
	sim := tcell.NewSimulationScreen("")
	s := &session{t: t, sim: sim, done: make(chan error, 1)}
	var scr tcell.Screen = sizedScreen{sim, w, hgt}
	if wrap != nil {
		scr = wrap(sizedScreen{sim, w, hgt})
	}
	o.Hall, o.Shown = h, s.shown
	if o.NewSeed == nil {
		o.NewSeed = func() uint64 { return 4242 }
	}
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

// gatedScreen is a terminal that stops reading: Show waits for the gate.
type gatedScreen struct {
	sizedScreen
	gate chan struct{}
}

func (g gatedScreen) Show() {
	<-g.gate
	g.sizedScreen.Show()
}

// battleInfo finds a battle in the hall's list for user.
func battleInfo(h *Hall, user, id string) (BattleInfo, bool) {
	for _, b := range h.Battles(user) {
		if b.ID == id {
			return b, true
		}
	}
	return BattleInfo{}, false
}

func featuredInfo(t *testing.T, h *Hall) BattleInfo {
	t.Helper()
	for _, b := range h.Battles("") {
		if b.Featured {
			return b
		}
	}
	t.Fatal("no featured battle")
	return BattleInfo{}
}

// waitHall polls the hall until cond holds.
func waitHall(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitGoroutines waits until the goroutines are back to base (retrying:
// goroutines take a moment to return after what ended them).
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	n := 0
	for range 2000 {
		if n = runtime.NumGoroutine(); n <= base {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("%d goroutines, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
}

// waitShown waits until the session shows f.
func (s *session) waitShown(f *frame) {
	s.t.Helper()
	s.waitFrame("the frame of round "+strconv.Itoa(f.snap.Round), func(g *frame) bool { return g == f })
}

// endFrame waits for the featured battle's end and returns the frame
// that shows it. The hall hears of the end (the driver's finish, then
// onEnd) inside the driver's tick that then publishes the end's frame, so
// the frame that was latest when the hall said so may be the one before.
func endFrame(t *testing.T, h *Hall) *frame {
	t.Helper()
	waitHall(t, "the featured battle's end", func() bool { return featuredInfo(t, h).Over })
	var end *frame
	waitHall(t, "the frame of the end", func() bool {
		end = h.currentFeatured().d.latest()
		return end.end
	})
	return end
}

// TestManyViewersSeeTheSameFrames: twenty sessions watch the featured
// battle; every one of them ends on the very frame the battle ended on,
// and once they and the hall are gone, so are their goroutines.
func TestManyViewersSeeTheSameFrames(t *testing.T) {
	base := runtime.NumGoroutine()
	h := newHall(t, HallOptions{Settings: Settings{Size: 16, Rounds: 150, Speed: 0, FPS: 30}, Featured: FeaturedOptions{Linger: time.Hour}})
	var ss []*session
	for range 20 {
		ss = append(ss, join(t, h, 80, 24, SessionOptions{Start: StartWatch}, nil))
	}
	end := endFrame(t, h)
	for i, s := range ss {
		s.waitShown(end)
		s.mu.Lock()
		if s.snap != end.snap {
			t.Errorf("viewer %d shows round %d, not the battle's last frame (round %d)", i, s.snap.Round, end.snap.Round)
		}
		s.mu.Unlock()
	}
	if n := featuredInfo(t, h).Viewers; n != 20 {
		t.Errorf("the list says %d viewers, want 20", n)
	}
	for _, s := range ss {
		s.quit()
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	waitGoroutines(t, base)
}

// TestStalledViewerDoesNotHoldUpTheBattle: a viewer whose terminal never
// takes a frame (Show blocks) watches the featured battle from round 0;
// the battle plays to its end all the same.
func TestStalledViewerDoesNotHoldUpTheBattle(t *testing.T) {
	h := newHall(t, HallOptions{Settings: Settings{Size: 16, Rounds: 300, Speed: 0, FPS: 30}, Featured: FeaturedOptions{Linger: time.Hour}})
	gate := make(chan struct{})
	stalled := join(t, h, 80, 24, SessionOptions{Start: StartWatch}, func(s sizedScreen) tcell.Screen { return gatedScreen{s, gate} })
	var once sync.Once
	open := func() { once.Do(func() { close(gate) }) }
	t.Cleanup(open) // before the sessions quit
	live := join(t, h, 80, 24, SessionOptions{Start: StartWatch}, nil)
	end := endFrame(t, h)
	live.waitShown(end)
	stalled.mu.Lock()
	frames := stalled.frames
	stalled.mu.Unlock()
	if frames != 0 {
		t.Errorf("the stalled viewer showed %d frames", frames)
	}
	open()
	stalled.waitShown(end) // and it catches up with the newest frame
}

// startInLobby picks the first two starting players in a session's lobby
// and starts the battle.
func startInLobby(t *testing.T, s *session, src Source) {
	t.Helper()
	s.waitText("Start Battle")
	n := 0
	for _, e := range src.Entries() {
		if e.Starting() {
			break
		}
		n++
	}
	for range n {
		s.keys("j")
	}
	s.key(tcell.KeyEnter)
	s.key(tcell.KeyEnter)
	s.keys("s")
}

// TestSharedBattleKeys: a private battle is its owner's until shared;
// then others can watch it, their pause keys say they may not, and the
// owner's pause pauses it for everyone.
func TestSharedBattleKeys(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	src := newScriptSource(t)
	h := newHall(t, HallOptions{Source: src, Settings: Settings{Size: 16, Rounds: 10_000, Speed: 20, FPS: 30}})
	alice := join(t, h, 100, 30, SessionOptions{User: "alice", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, alice, src)
	alice.waitText("(yours, private: s shares)")
	var id string
	for _, b := range h.Battles("alice") {
		if b.Owner == "alice" {
			id = b.ID
		}
	}
	if _, seen := battleInfo(h, "bob", id); seen || id == "" {
		t.Fatalf("bob sees alice's private battle %q before she shares it", id)
	}
	err := RunSession(context.Background(), tcell.NewSimulationScreen(""), SessionOptions{Hall: h, User: "bob", Start: StartWatch, WatchID: id})
	if !errors.Is(err, ErrNoBattle) {
		t.Fatalf("bob watching a private battle: %v, want ErrNoBattle", err)
	}
	alice.keys("s")
	alice.waitText("shared: others can watch battle " + id)
	if _, seen := battleInfo(h, "bob", id); !seen {
		t.Fatal("bob does not see the shared battle")
	}
	bob := join(t, h, 100, 30, SessionOptions{User: "bob", Start: StartWatch, WatchID: id}, nil)
	bob.waitText("(watching)")
	bob.keys(" ")
	bob.waitText("only the owner can pause or change this battle")
	for _, k := range []string{".", "+", "-", "g"} {
		bob.keys(k)
	}
	bob.key(tcell.KeyLeft)
	info, _ := battleInfo(h, "bob", id)
	waitHall(t, "the battle to play on", func() bool {
		now, _ := battleInfo(h, "bob", id)
		return now.Round > info.Round+5
	})
	b, err := h.find(id, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if f := b.d.latest(); f.paused || f.past || f.target != 20 {
		t.Errorf("a spectator's keys changed the battle: paused %v rewound %v speed %d", f.paused, f.past, f.target)
	}
	alice.keys(" ")
	bob.waitText("PAUSED")
	bob.keys("?")
	bob.waitText("only the battle's owner")
	bob.key(tcell.KeyEscape)
	bob.key(tcell.KeyEscape)
	bob.waitText("Watch the featured battle")
	alice.key(tcell.KeyEscape)
	alice.waitText("Watch the featured battle")
	if _, there := battleInfo(h, "alice", id); there {
		t.Error("the battle its owner left is still listed")
	}
}

// TestFeaturedBattleRestarts: when the featured battle ends a new one
// starts, and its viewers move on to it.
func TestFeaturedBattleRestarts(t *testing.T) {
	h := newHall(t, HallOptions{Settings: Settings{Size: 12, Rounds: 30, Speed: 0, FPS: 30}, Featured: FeaturedOptions{Linger: -1}})
	first := featuredInfo(t, h).ID
	waitHall(t, "a later featured battle", func() bool { return featuredInfo(t, h).ID != first })
	s := join(t, h, 80, 24, SessionOptions{Start: StartWatch}, nil)
	label := regexp.MustCompile(`battle (\d+) \(featured\)`)
	var seen string
	s.waitFor("a featured battle", func(text string) bool {
		if m := label.FindStringSubmatch(text); m != nil {
			seen = m[1]
		}
		return seen != ""
	})
	s.waitFor("the viewer on a later featured battle", func(text string) bool {
		m := label.FindStringSubmatch(text)
		return m != nil && m[1] != seen
	})
}

// TestPrivateBattleQueue: with one slot, a second private battle waits in
// the queue, its place on screen, and starts when the first one's owner
// leaves.
func TestPrivateBattleQueue(t *testing.T) {
	src := newScriptSource(t)
	h := newHall(t, HallOptions{Source: src, MaxPrivate: 1, MaxSize: 20})
	alice := join(t, h, 100, 30, SessionOptions{User: "alice", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, alice, src)
	alice.waitText("(yours, private")
	carol := join(t, h, 100, 30, SessionOptions{User: "carol", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, carol, src)
	carol.waitText("you are number 1 in the queue")
	if bs := h.Battles("carol"); len(bs) != 2 || !bs[1].Queued {
		t.Errorf("carol's list: %+v, want the featured battle and her queued one", bs)
	}
	alice.key(tcell.KeyEscape)
	carol.waitText("(yours, private")
	if _, err := h.request("carol", Setup{Players: []string{"explorer"}, Size: 21, Rounds: 10}, pace{}); !errors.Is(err, ErrOverCap) {
		t.Errorf("a 21×21 battle in a hall capped at 20: %v, want ErrOverCap", err)
	}
	many := Setup{Players: make([]string, DefaultMaxTeams+1), Size: 10, Rounds: 10}
	var ce *CapError
	if _, err := h.request("carol", many, pace{}); !errors.As(err, &ce) || ce.What != "team count" {
		t.Errorf("%d teams: %v, want the team-count cap", len(many.Players), err)
	}
}

// TestPrivateBattleCaps: a lobby set over the hall's caps says which cap.
func TestPrivateBattleCaps(t *testing.T) {
	src := newScriptSource(t)
	h := newHall(t, HallOptions{Source: src, MaxSize: 12})
	s := join(t, h, 100, 30, SessionOptions{User: "erin", Start: StartLobby, CanStart: true}, nil)
	startInLobby(t, s, src)
	s.waitText("board size 16 is over this server's cap of 12")
	if bs := h.Battles("erin"); len(bs) != 1 {
		t.Errorf("erin's list: %+v, want only the featured battle", bs)
	}
}

// TestMenuKeys: the menu opens its lists and help; Esc goes back, q and
// Ctrl-C quit from anywhere; an anonymous session cannot start battles.
func TestMenuKeys(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	h := newHall(t, HallOptions{})
	s := join(t, h, 80, 24, SessionOptions{Replays: func() []ReplayInfo { return nil }}, nil)
	s.waitText("Watch the featured battle")
	s.keys("jj")
	s.key(tcell.KeyEnter)
	s.waitText("needs an identity")
	s.keys("kk")
	for _, item := range []struct{ downs, want string }{{"j", "featured"}, {"jjj", "players"}, {"jjjj", "no replays yet"}, {"jjjjj", "Ctrl-C quits"}} {
		s.keys(item.downs)
		s.key(tcell.KeyEnter)
		s.waitText(item.want)
		s.key(tcell.KeyEscape)
		s.waitText("Watch the featured battle")
		s.keys(strings.Repeat("k", len(item.downs)))
		s.waitText("> Watch the featured battle")
	}
	s.key(tcell.KeyEnter)
	s.waitText("battle 1 (featured)")
	s.keys(" ")
	s.waitText("only the owner can pause")
	s.key(tcell.KeyCtrlC)
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
	s.done <- nil
}

// TestMenuScreens: the menu and the battle list at 80×24.
func TestMenuScreens(t *testing.T) {
	h := newHall(t, HallOptions{Settings: Settings{Size: 16, Rounds: 40, Speed: 0, FPS: 30}, Featured: FeaturedOptions{Linger: time.Hour}})
	waitHall(t, "the featured battle's end", func() bool { return featuredInfo(t, h).Over })
	s := join(t, h, 80, 24, SessionOptions{User: "dana"}, nil)
	golden(t, "menu-80x24", s.waitText("Watch the featured battle"))
	s.keys("j")
	s.key(tcell.KeyEnter)
	golden(t, "battles-80x24", s.waitText("explorer vs pinwheel"))
}

// TestHallSavesReplays: a finished battle lands in ReplayDir as a whole
// replay (no temporary file left), which a session can then watch.
func TestHallSavesReplays(t *testing.T) {
	dir := t.TempDir()
	h := newHall(t, HallOptions{ReplayDir: dir, Settings: Settings{Size: 12, Rounds: 25, Speed: 0, FPS: 30}, Featured: FeaturedOptions{Linger: time.Hour}})
	waitHall(t, "the featured battle's end", func() bool { return featuredInfo(t, h).Over })
	var files []string
	waitHall(t, "the replay file and its summary", func() bool {
		files, _ = filepath.Glob(filepath.Join(dir, "*"))
		return len(files) == 2 && strings.HasSuffix(files[0], "-1.sbr") && files[1] == files[0]+".json"
	})
	rep, err := replay.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if rep.Result == nil || rep.Damage != nil {
		t.Fatalf("the saved replay is incomplete: result %v damage %v", rep.Result, rep.Damage)
	}
	sum, err := ReadReplaySummary(files[0])
	if err != nil {
		t.Fatal(err)
	}
	winner := ""
	if w := rep.Result.Winner; w >= 0 {
		winner = rep.Header.Players[w].Name
	}
	if !sum.Known || !sum.Over || sum.Round != rep.Result.Round || sum.Rounds != 25 || sum.Winner != winner ||
		strings.Join(sum.Players, ",") != "Explorer,Pinwheel" {
		t.Errorf("summary %+v, replay: round %d winner %q", sum, rep.Result.Round, winner)
	}
	s := join(t, h, 80, 24, SessionOptions{Replays: func() []ReplayInfo {
		return []ReplayInfo{{ID: "r1", Title: "explorer vs pinwheel", Open: func() (*replay.Replay, error) { return replay.Open(files[0]) }}}
	}}, nil)
	s.waitText("Watch the featured battle")
	s.keys("jjjj")
	s.key(tcell.KeyEnter)
	s.waitText("explorer vs pinwheel")
	s.key(tcell.KeyEnter)
	s.waitText("REPLAY of " + strconv.Itoa(rep.Result.Round) + " rounds")
	s.key(tcell.KeyEscape)
	s.waitText("Watch the featured battle")
}

// TestSessionNoticeAndContext: a server's notice shows on any screen, and
// ending the session's context ends the session without an error.
func TestSessionNoticeAndContext(t *testing.T) {
	h := newHall(t, HallOptions{})
	notice := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	sim := tcell.NewSimulationScreen("")
	var mu sync.Mutex
	text := ""
	go func() {
		done <- RunSession(ctx, sizedScreen{sim, 80, 24}, SessionOptions{Hall: h, Notice: notice, Shown: func() {
			t := screenText(sim)
			mu.Lock()
			text = t
			mu.Unlock()
		}})
	}()
	notice <- "idle: disconnecting in 30 s"
	waitHall(t, "the notice", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(text, "idle: disconnecting in 30 s")
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// growingSource is the shipped players plus the ones "uploaded" since.
type growingSource struct {
	*scriptSource
	mu    sync.Mutex
	extra []Entry
}

func (g *growingSource) Entries() []Entry {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append(g.scriptSource.Entries(), g.extra...)
}

// TestHallReload: a player handed in shows in an open lobby at once.
func TestHallReload(t *testing.T) {
	src := &growingSource{scriptSource: newScriptSource(t)}
	h := newHall(t, HallOptions{Source: src})
	s := join(t, h, 100, 30, SessionOptions{User: "gil", Start: StartLobby, CanStart: true}, nil)
	s.waitText("Start Battle")
	src.mu.Lock()
	src.extra = append(src.extra, Entry{ID: "gil/newcomer", Name: "Newcomer", File: "gil/newcomer.lua"})
	src.mu.Unlock()
	h.Reload()
	s.waitText("Newcomer")
}
