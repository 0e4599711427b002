package main

import (
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/tui"
)

// TestTUIRulesWorkerKilled: a paint battle watched in the terminal UI,
// whose rules.lua runs in a worker process (the default isolation), is
// stopped when that worker is killed from outside: the UI keeps running
// and its problem list shows the one line naming rules.lua and the cause.
func TestTUIRulesWorkerKilled(t *testing.T) {
	closePools()
	defer closePools()
	cfg := config.Default()
	if cfg.Isolation.Mode != config.IsolationProcess {
		t.Fatalf("isolation %q by default", cfg.Isolation.Mode)
	}
	cat, err := loadCatalog(cfg)
	if err != nil {
		t.Fatal(err)
	}
	src := &keptSource{playSource: newPlaySource(cfg, cat, nil, nil)}
	sim := tcell.NewSimulationScreen("")
	screen := &screenLog{sim: sim}
	start := tui.Setup{Game: "paint", Players: []string{"greedy", "random"}, Size: 40, Rounds: 80, Seed: 9}
	app := tui.New(tui.Options{Screen: sim, Source: src, Settings: settingsOf(cfg), Paused: true, Start: &start, Shown: screen.shown})
	sim.SetSize(220, 40)
	defer runApp(t, app, sim)()
	waitText := func(sub string) string {
		t.Helper()
		return screen.within(t, 20*time.Second, "shows "+sub, func(s string) bool { return strings.Contains(s, sub) })
	}
	keys := func(runes string) {
		for _, r := range runes {
			sim.InjectKey(tcell.KeyRune, r, tcell.ModNone)
		}
	}
	waitText("Round 0/80")
	keys("..")
	waitText("Round 2/80")
	p, err := poolOf(cfg)
	if err != nil || p == nil {
		t.Fatalf("no pool: %v", err)
	}
	// Every worker goes: the rules' and the two teams'. The rules are
	// asked first in a round, so their death stops the battle before any
	// team is asked again.
	pids := p.Pids()
	if len(pids) != 3 {
		t.Fatalf("workers %v, want the rules' and two teams'", pids)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
	}
	keys(".")
	// The status bar may cut its last part (the problem count) at this
	// width: wait for the battle to be over, then read the list.
	if text := waitText("│ over │"); !strings.Contains(text, "Round 3/80") || !strings.Contains(text, "script proble") {
		t.Errorf("the battle did not stop in round 3:\n%s", text)
	}
	// The list is at most 80 columns wide and cuts longer lines: the
	// whole line is checked on the battle's own problems.
	keys("e")
	waitText("error: rules, round 3: scripts/paint/rules.l")
	// Over, the battle is no longer stepped: reading it here races with
	// nothing.
	s := src.last().Snapshot()
	if s == nil || len(s.FirstProblems) != 1 ||
		s.FirstProblems[0].Message != "rules, round 3: scripts/paint/rules.lua: the rules' worker process died: signal: killed" {
		t.Errorf("problems %+v, want the rules worker's death named", s)
	}
}

// keptSource is the command's source that keeps the last battle it built.
type keptSource struct {
	*playSource
	mu     sync.Mutex
	battle tui.Battle
}

func (k *keptSource) NewBattle(su tui.Setup) (tui.Battle, error) {
	b, err := k.playSource.NewBattle(su)
	k.mu.Lock()
	k.battle = b
	k.mu.Unlock()
	return b, err
}

func (k *keptSource) last() tui.Battle {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.battle
}

// screenLog keeps the text of the last frame a simulation screen showed
// (its shown method is the UI's Shown hook, called from the UI's goroutine).
type screenLog struct {
	sim  tcell.SimulationScreen
	mu   sync.Mutex
	text string
}

func (l *screenLog) shown() {
	cells, w, h := l.sim.GetContents()
	var b strings.Builder
	for i, c := range cells[:w*h] {
		b.Write(c.Bytes)
		if (i+1)%w == 0 {
			b.WriteByte('\n')
		}
	}
	l.mu.Lock()
	l.text = b.String()
	l.mu.Unlock()
}

func (l *screenLog) get() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text
}

// within waits until cond holds for the screen, at most d, and returns the
// screen; past d the test fails with what it waited for and the screen.
func (l *screenLog) within(t *testing.T, d time.Duration, what string, cond func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if s := l.get(); cond(s) {
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("not within %v: %s; screen:\n%s", d, what, l.get())
	return ""
}

// runApp runs the UI on its own goroutine; the function it returns quits
// it with Ctrl-C and reports an error it ended with.
func runApp(t *testing.T, app *tui.App, sim tcell.SimulationScreen) func() {
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	return func() {
		sim.InjectKey(tcell.KeyCtrlC, 0, tcell.ModNone)
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
