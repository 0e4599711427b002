package tui

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// countingTty is a terminal that counts what tcell writes to it: the real
// terminfo output path, minus the wire.
type countingTty struct {
	w, h    int
	written atomic.Int64
	closed  chan struct{}
	once    sync.Once
}

func newCountingTty(w, h int) *countingTty {
	return &countingTty{w: w, h: h, closed: make(chan struct{})}
}

func (t *countingTty) Start() error        { return nil }
func (t *countingTty) Stop() error         { return nil }
func (t *countingTty) Drain() error        { return t.Close() }
func (t *countingTty) NotifyResize(func()) {}
func (t *countingTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: t.w, Height: t.h}, nil
}
func (t *countingTty) Read([]byte) (int, error) { <-t.closed; return 0, io.EOF }
func (t *countingTty) Write(p []byte) (int, error) {
	t.written.Add(int64(len(p)))
	return len(p), nil
}
func (t *countingTty) Close() error { t.once.Do(func() { close(t.closed) }); return nil }

// marchersMap is the arena cmd/squarebattle's pty benchmark plays too: 150×150
// with 100 Explorer squares per team on a regular lattice, so every square
// moves SE every round and every frame shows all 400 in new places.
const marchersMap = "../cmd/squarebattle/testdata/marchers-150.map"

func readMarchers(t *testing.T) *engine.Map {
	t.Helper()
	data, err := os.ReadFile(marchersMap)
	if err != nil {
		t.Fatal(err)
	}
	m, err := engine.ParseMap(marchersMap, data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// frameBytes plays rounds of a marching battle and returns the average bytes
// tcell writes per frame at the given depth, one round per frame.
func frameBytes(t *testing.T, w, h int, d depth, fit bool, frames int) float64 {
	t.Helper()
	if d == depthTrue {
		// tcell sends 24-bit colour only to terminals that say they have it.
		t.Setenv("COLORTERM", "truecolor")
	}
	src := newScriptSource(t)
	players, err := src.players([]string{"explorer", "explorer", "explorer", "explorer"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := luabind.NewBattle(src.cat, players, engine.Options{Size: 150, Wrap: true, Rounds: 1 << 20, Seed: 1, Workers: 1, Map: readMarchers(t)})
	if err != nil {
		t.Fatal(err)
	}
	tty := newCountingTty(w, h)
	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	a := New(Options{Screen: scr, Source: src, Settings: Settings{Size: 150, Rounds: 1 << 20, FPS: 30}})
	a.setTheme()
	a.th.depth = d
	a.colours = []int{0, 1, 2, 3}
	a.driver, err = startLive(testBattle{b}, pace{fps: 30, paused: true}, DefaultRewind, "")
	if err != nil {
		t.Fatal(err)
	}
	defer a.stopBattle()
	a.screen = battleScreen
	a.view.fit = fit
	a.dirty = true
	a.draw() // the first frame paints everything
	before := tty.written.Load()
	for i := 0; i < frames; i++ {
		seq := a.driver.latest().seq
		a.driver.send(command{kind: cmdStep})
		for a.driver.latest().seq == seq {
		}
		a.dirty = true
		a.draw()
	}
	if s := a.driver.latest().snap; s.Teams[0].Stats.Squares != 100 {
		t.Fatalf("the marchers were not left alone: %+v", s.Teams[0].Stats)
	}
	return float64(tty.written.Load()-before) / float64(frames)
}

// TestBytesPerFrame measures what a frame costs on the wire for a 150×150
// arena with 400 moving squares, and holds the 256-colour figure to the
// 30 KB budget an SSH session can afford at 30 frames a second.
//
//	go test -run BytesPerFrame -v ./tui/
func TestBytesPerFrame(t *testing.T) {
	tests := []struct {
		w, h  int
		depth depth
		fit   bool
		limit float64
	}{
		{250, 70, depth256, false, 30 << 10},
		{250, 70, depth256, true, 30 << 10},
		{80, 24, depth256, true, 30 << 10},
		{250, 70, depth16, false, 30 << 10},
		{250, 70, depthTrue, false, 60 << 10},
	}
	var report strings.Builder
	for _, tc := range tests {
		name := fmt.Sprintf("%dx%d %s fit=%v", tc.w, tc.h, tc.depth, tc.fit)
		got := frameBytes(t, tc.w, tc.h, tc.depth, tc.fit, 30)
		fmt.Fprintf(&report, "%-32s %8.0f bytes/frame\n", name, got)
		if got > tc.limit {
			t.Errorf("%s: %.0f bytes per frame, budget %.0f", name, got, tc.limit)
		}
	}
	t.Log("\n" + report.String())
}
