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

func readMarchers(t testing.TB) *engine.Map {
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

// marching is the battle screen of a marching battle (marchersMap) on a
// counting terminal, paused, its first frame (a full paint) drawn.
type marching struct {
	a   *App
	tty *countingTty
}

func newMarching(tb testing.TB, w, h int, d depth, fit bool) *marching {
	tb.Helper()
	if d == depthTrue {
		// tcell sends 24-bit colour only to terminals that say they have it.
		tb.Setenv("COLORTERM", "truecolor")
	}
	src := newScriptSource(tb)
	players, err := src.players([]string{"explorer", "explorer", "explorer", "explorer"})
	if err != nil {
		tb.Fatal(err)
	}
	b, err := luabind.NewBattle(src.cat, players, engine.Options{Size: 150, Wrap: true, Rounds: 1 << 20, Seed: 1, Workers: 1, Map: readMarchers(tb)})
	if err != nil {
		tb.Fatal(err)
	}
	tty := newCountingTty(w, h)
	ti, err := terminfo.LookupTerminfo("xterm-256color")
	if err != nil {
		tb.Fatal(err)
	}
	scr, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		tb.Fatal(err)
	}
	if err := scr.Init(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(scr.Fini)
	a := New(Options{Screen: scr, Source: src, Settings: Settings{Size: 150, Rounds: 1 << 20, FPS: 30}})
	a.setTheme()
	a.th.depth = d
	dr, err := startLive(testBattle{b}, pace{fps: 30, paused: true}, DefaultRewind, "", "")
	if err != nil {
		tb.Fatal(err)
	}
	v := newViewer(dr, []int{0, 1, 2, 3})
	v.control, v.own = true, true
	a.attach(v)
	tb.Cleanup(a.leave)
	a.w.view.fit = fit
	a.dirty = true
	a.draw()
	return &marching{a: a, tty: tty}
}

// play plays n rounds, one at a time.
func (m *marching) play(n int) {
	for range n {
		seq := m.a.w.d.latest().seq
		m.a.w.d.send(command{kind: cmdStep})
		for m.a.w.d.latest().seq == seq {
		}
	}
}

// draw draws a frame of the newest round.
func (m *marching) draw() {
	m.a.dirty = true
	m.a.draw()
}

// frameBytes plays rounds of a marching battle and returns the average bytes
// tcell writes per frame at the given depth, one round per frame.
func frameBytes(t *testing.T, w, h int, d depth, fit bool, frames int) float64 {
	t.Helper()
	m := newMarching(t, w, h, d, fit)
	before := m.tty.written.Load()
	for range frames {
		m.play(1)
		m.draw()
	}
	if s := m.a.w.d.latest().snap; s.Teams[0].Stats.Squares != 100 {
		t.Fatalf("the marchers were not left alone: %+v", s.Teams[0].Stats)
	}
	return float64(m.tty.written.Load()-before) / float64(frames)
}

// BenchmarkFrame: the UI goroutine's time for one frame (our drawing, then
// tcell's Show: comparing every cell and writing the difference) of the
// marching battle, 20 rounds after the last frame, as when the battle runs
// unthrottled.
//
//	go test -run '^$' -bench Frame -count 3 ./tui/
func BenchmarkFrame(b *testing.B) {
	for _, sz := range []struct{ w, h int }{{320, 90}, {80, 24}} {
		b.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(b *testing.B) {
			m := newMarching(b, sz.w, sz.h, depth256, true)
			for b.Loop() {
				b.StopTimer()
				m.play(20)
				b.StartTimer()
				m.draw()
			}
		})
	}
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
